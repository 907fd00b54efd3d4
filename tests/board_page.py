"""Reading the board's page in a browser: waits that say what never happened, texts."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

#: Where screenshots go, for a look by eye.
SHOTS = Path("/tmp")
#: Seconds a page load or a wait may take.
WAIT = 30


def wait_for(driver, predicate, what: str):
    """The predicate's first truthy value, or a failure that says what never happened."""
    return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: predicate(d), message=f"timed out waiting for {what}; page says: "
        f"{d_text(driver, 'message')!r}")


def d_text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text
