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


SEVEN_CLUBS = "N:A9.Q4.J5.AJT8762 KQ5.KT82.K98.Q94 J87632.A973.76.5 T4.J65.AQT432.K3"
ONE_SUIT_EACH = "N:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432..."


def suit_lines(driver) -> list[dict]:
    """Per suit row of every hand: its box, its symbol's, its seat's and its cards'."""
    return driver.execute_script(
        "const box = e => { const r = e.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };"
        "return [...document.querySelectorAll('.suit-row')].map(row => ({"
        " seat: row.closest('.seat').dataset.seat, row: box(row), seatBox: box(row.closest('.seat')),"
        " symbol: box(row.querySelector('.suit-sym')),"
        " cards: [...row.querySelectorAll('.card')].map(c => ({...box(c), card: c.dataset.card}))}));")


def assert_one_line_per_suit(lines: list[dict]) -> None:
    for line in lines:
        cards = line["cards"]
        assert len({round(c["top"]) for c in cards}) <= 1, f"{line['seat']}'s suit takes two lines: {cards}"
        for c in cards:
            assert inside(c, line["row"]) and c["left"] >= line["symbol"]["right"], (c, line)
            assert c["right"] <= line["seatBox"]["right"], (c, line)
    for a in lines:
        for b in lines:
            if a is not b and a["seat"] == b["seat"]:
                assert not overlap(a["row"], b["row"]), (a["row"], b["row"])


@pytest.mark.parametrize("width", WIDTHS)
def test_a_seven_card_suit_with_values_keeps_to_one_line(server, browser, width):
    # North leads, so all 13 of its cards show a value and a proved range, clubs seven long.
    open_position(browser, server, width, deal=SEVEN_CLUBS, contract="no-kings-jacks")
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#seat-N .card.valued")) == 13, "13 values")
    lines = suit_lines(browser)
    assert_one_line_per_suit(lines)
    clubs = [line for line in lines if line["seat"] == "N"][3]["cards"]
    assert len(clubs) == 7
    # seven cards fit side by side: none covers another
    assert not [(a, b) for a, b in zip(clubs, clubs[1:]) if overlap(a, b)], clubs
    browser.save_screenshot(str(SHOTS / f"kingsolve-board-long-suit-{width}.png"))


@pytest.mark.parametrize("width", WIDTHS)
def test_thirteen_card_suits_keep_to_one_line(server, browser, width):
    # Each seat holds one whole suit; North's thirteen hearts all show values. Wider
    # than a phone's seat, they overlap on their line, each card's left part showing.
    open_position(browser, server, width, deal=ONE_SUIT_EACH)
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#seat-N .card.valued")) == 13, "13 values")
    lines = suit_lines(browser)
    assert_one_line_per_suit(lines)
    hearts = [line for line in lines if line["seat"] == "N"][1]["cards"]
    assert len(hearts) == 13
    assert all(b["left"] - a["left"] >= 12 for a, b in zip(hearts, hearts[1:])), hearts
    browser.save_screenshot(str(SHOTS / f"kingsolve-board-whole-suit-{width}.png"))
