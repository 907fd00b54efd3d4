"""The board's layout and texts in headless Chromium, measured from the page itself.

Each test opens a position from its address, as a shared link would, at the desktop
width (1280 px) and at a phone's (400 px), and reads the elements' bounding rectangles
and texts: what is drawn where, and what it says. Screenshots go to /tmp for a look by
eye.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from selenium.webdriver.common.by import By

from kingsolve.deal import Deal
# The browser tests' fixtures and helpers; the import skips this module with that one
# when Chromium is missing.
from test_board_browser import SHOTS, browser, d_text, server, wait_for  # noqa: F401
from kingsolve_api import create_app
pytestmark = pytest.mark.browser

WIDTHS = (1280, 400)


@pytest.fixture(scope="module")
def app():
    # Layout needs values on the cards, not proofs: a short analysis keeps each page quick.
    return create_app({"KINGSOLVE_MAX_MS": 2000})


def open_position(driver, server: str, width: int, *, deal: str, variant: str = "italian",
                  contract: str = "no-queens", leader: str = "N", play=(), doubles: bool = False,
                  settled: bool = True) -> None:
    """Open a position from its address at ``width`` px and wait until it is drawn (and
    by default until its analysis has ended, so the cards hold still)."""
    driver.set_window_size(width, 1400)
    driver.get("about:blank")
    hash_ = f"variant={variant}&contract={contract}&leader={leader}&deal={quote(deal)}"
    if play:
        hash_ += "&play=" + ",".join(str(c) for c in play)
    if doubles:
        hash_ += "&doubles=1"
    driver.get(f"{server}/#{hash_}")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".seat-head"), "the hands")
    if settled:
        wait_for(driver, lambda d: d.execute_script(
            "const m = document.getElementById('message');"
            "const a = document.getElementById('table').dataset.analysis;"
            "return (a && a !== 'running') || m.textContent.includes('complete')"
            " || m.classList.contains('error');"), "the analysis to end")


def rects(driver, selector: str) -> list[dict]:
    """The bounding rectangles of the elements ``selector`` finds, in page order."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => {"
        " const r = e.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: e.textContent}; });",
        selector)


def inside(inner: dict, outer: dict, slack: float = 0.5) -> bool:
    return (inner["left"] >= outer["left"] - slack and inner["right"] <= outer["right"] + slack
            and inner["top"] >= outer["top"] - slack and inner["bottom"] <= outer["bottom"] + slack)


def overlap(a: dict, b: dict, slack: float = 0.5) -> bool:
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack)



@pytest.mark.parametrize("width", WIDTHS)
def test_trick_list_shows_two_digit_trick_numbers_whole(server, browser, width):
    # A whole hand on the board: its thirteen tricks, each numbered in full, the numbers
    # inside the list's box (a list marker there was cut to its last digit).
    from test_api_analysis import played_out
    record = played_out()
    open_position(browser, server, width, deal=record.deal.pbn(), contract="no-hearts", play=record.play)
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#history li")) == 13, "13 tricks")
    browser.execute_script("const h = document.getElementById('history'); h.scrollTop = h.scrollHeight;")
    numbers = rects(browser, "#history li .num")
    assert [n["text"] for n in numbers] == [f"{k}." for k in range(1, 14)]
    box = rects(browser, "#history")[0]
    for n in numbers[-4:]:          # scrolled into view: tricks 10 to 13
        assert n["left"] >= box["left"] and n["right"] <= box["right"], (n, box)
    assert browser.execute_script(
        "return [...document.querySelectorAll('#history .num')].every(n => n.scrollWidth <= n.clientWidth)")
    lines = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#history li")]
    assert lines[9].startswith("10. ") and lines[12].startswith("13. ") and "\u2192" in lines[12]
    browser.save_screenshot(str(SHOTS / f"kingsolve-board-tricks-{width}.png"))


THREE_PLAYERS = "N:742.AJ65.J842.AQJ843 AQ63.T743.AKQ93.KT95 KJT985.KQ982.T765.76 -"


@pytest.mark.parametrize("width", WIDTHS)
def test_the_seat_not_in_play_keeps_its_note_inside_its_own_box(server, browser, width):
    # Three players: West is not in play. Its note sits inside West's box, clear of
    # every card, seat and the message line.
    open_position(browser, server, width, deal=THREE_PLAYERS)
    note = rects(browser, "#seat-W > :not(.seat-head)")
    assert [n["text"] for n in note] == ["not in play"]
    assert inside(note[0], rects(browser, "#seat-W")[0])
    others = rects(browser, ".card") + rects(browser, "#message") + rects(browser, "#centre") + \
        [r for seat in "NES" for r in rects(browser, f"#seat-{seat}")]
    assert not [r for r in others if overlap(note[0], r)]
    browser.save_screenshot(str(SHOTS / f"kingsolve-board-three-{width}.png"))
