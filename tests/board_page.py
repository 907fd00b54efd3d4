"""Reading the board's page in a browser: waits that say what never happened, texts."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

#: Where screenshots go, for a look by eye.
SHOTS = Path("/tmp")
#: Seconds a page load or a wait may take.
WAIT = 30

#: Every shown element that sticks out of the window, or whose text overflows its box
#: (cut off where it clips, spilling over its neighbours where it does not).
OVERFLOW = """
const width = document.documentElement.clientWidth, bad = [];
const shown = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
for (const el of document.querySelectorAll("body *")) {
  if (!shown(el) || el.closest("svg, option, .back-row")) continue;
  const r = el.getBoundingClientRect(), name = `${el.tagName}#${el.id}.${el.className} ${el.textContent.trim().slice(0, 30)}`;
  if (r.right > width + 1 || r.left < -1) bad.push(`off screen: ${name} ${Math.round(r.left)}..${Math.round(r.right)}`);
  const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (text && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== "inline")
    bad.push(`text overflows: ${name} ${el.scrollWidth} > ${el.clientWidth}`);
}
if (document.documentElement.scrollWidth > width) bad.push(`page wider than the window: ${document.documentElement.scrollWidth}`);
return bad;
"""


def wait_for(driver, predicate, what: str):
    """The predicate's first truthy value, or a failure that says what never happened."""
    return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: predicate(d), message=f"timed out waiting for {what}; page says: "
        f"{d_text(driver, 'message')!r}")


def d_text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text
