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

from kingsolve.game.deal import Deal
from kingsolve_api import create_app

from board_page import SHOTS, d_text, wait_for

pytestmark = pytest.mark.browser

WIDTHS = (1280, 400)
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


@pytest.fixture(scope="module")
def board_app():
    # Layout needs values on the cards, not proofs: a short analysis keeps each page quick.
    return create_app({"KINGSOLVE_MAX_MS": 2000})


@pytest.fixture
def widest_values(monkeypatch):
    """The analysis stream answers at once with the widest figures of a no-kings-jacks
    hand on every legal card: proved -16..-10, estimates from -16 to -10 in turn (every
    colour of the scale). A real analysis stops at its deadline with ranges that
    depend on the machine's speed; these do not."""
    from kingsolve.io.request import SolveRequest

    def widest(self, cancel=None):
        legal = self.position.to_dict()
        seats = list(legal["taken"])
        yield {"to_move": legal["to_move"], "taken": legal["taken"], "solved": False, "values": {},
               "cards": {}, "bounds": {s: [-16, -10] for s in seats},
               "card_bounds": {c: [-16, -10] for c in legal["legal"]},
               "estimates": {s: -10 for s in seats},
               "card_estimates": {c: -16 + i % 7 for i, c in enumerate(legal["legal"])},
               "best": legal["legal"][:1], "horizon": 3, "complete": False, "nodes": 0, "ms": 1}

    monkeypatch.setattr(SolveRequest, "stream", widest)


def open_position(driver, server: str, width: int, *, deal: str, variant: str = "italian",
                  contract: str = "no-queens", leader: str = "N", play=(), doubles: bool = False) -> None:
    """Open a position from its address at ``width`` px and wait until it is drawn and
    its analysis has ended, so that the cards hold still."""
    driver.set_window_size(width, 1400)
    driver.get("about:blank")
    hash_ = f"variant={variant}&contract={contract}&leader={leader}&deal={quote(deal)}"
    if play:
        hash_ += "&play=" + ",".join(str(c) for c in play)
    if doubles:
        hash_ += "&doubles=1"
    driver.get(f"{server}/#{hash_}")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".seat-head"), "the hands")
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
    from contracts import played_out
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
def test_a_seven_card_suit_with_values_keeps_to_one_line(server, browser, widest_values, width):
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


def contrast(rgb_a: str, rgb_b: str) -> float:
    """The WCAG contrast ratio of two CSS ``rgb(...)`` colours."""
    def luminance(css: str) -> float:
        r, g, b = (int(float(x)) / 255 for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((luminance(rgb_a), luminance(rgb_b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("seat", ["N", "E"])
def test_values_on_the_cards_are_legible(server, browser, widest_values, width, seat):
    # Seven clubs with the widest values and ranges, in North's seat and in East's
    # (narrower at 1280 px): every figure at a readable size, in full view, and with
    # enough contrast on its colour.
    deal = SEVEN_CLUBS if seat == "N" else "E:" + SEVEN_CLUBS[2:]
    open_position(browser, server, width, deal=deal, contract="no-kings-jacks", leader=seat)
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, f"#seat-{seat} .card.valued")) == 13,
             "13 values")
    cards = browser.execute_script(
        "const box = e => { const r = e.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };"
        "return [...document.querySelectorAll('.card.valued')].map(c => {"
        " const val = c.querySelector('.val'), range = c.querySelector('.range'), cs = getComputedStyle(c);"
        " return {card: c.dataset.card, box: box(c), val: box(val), range: box(range), text: val.textContent,"
        "  rangeText: range.textContent, next: c.nextElementSibling ? box(c.nextElementSibling) : null,"
        "  valSize: parseFloat(getComputedStyle(val).fontSize),"
        "  rangeSize: parseFloat(getComputedStyle(range).fontSize),"
        "  colour: cs.color, background: cs.backgroundColor}; });")
    assert len(cards) == 13 and {c["rangeText"] for c in cards} == {"-16..-10"}
    assert {c["text"] for c in cards} >= {"\u2248-16", "\u2248-10"}
    for c in cards:
        assert c["valSize"] >= 13 and c["rangeSize"] >= 11, c
        for part in ("val", "range"):
            assert inside(c[part], c["box"]), (part, c)
            assert c["next"] is None or c[part]["right"] <= c["next"]["left"], (part, "covered", c)
        assert contrast(c["colour"], c["background"]) >= 4.5, c
    browser.save_screenshot(str(SHOTS / f"kingsolve-board-values-{seat}-{width}.png"))


def tip(driver) -> dict | None:
    return driver.execute_script(
        "const t = document.getElementById('card-tip'); if (t.hidden) return null;"
        "const r = t.getBoundingClientRect();"
        "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: t.innerText};")


def test_a_card_shows_its_value_and_range_on_hover(server, browser, widest_values):
    from selenium.webdriver import ActionChains
    open_position(browser, server, 1280, deal=SEVEN_CLUBS, contract="no-kings-jacks")
    assert tip(browser) is None
    card = browser.find_element(By.CSS_SELECTOR, "#seat-N .card.valued[data-card=CJ]")
    ActionChains(browser).move_to_element(card).perform()
    shown = wait_for(browser, tip, "the card's tip")
    value = card.find_element(By.CSS_SELECTOR, ".val").text
    assert "\u2663J" in shown["text"] and f"estimate {value}" in shown["text"]
    assert "proved -16 to -10" in shown["text"]
    box = rects(browser, "#seat-N .card[data-card=CJ]")[0]
    assert shown["bottom"] <= box["top"] or shown["top"] >= box["bottom"]
    assert shown["left"] < (box["left"] + box["right"]) / 2 < shown["right"]
    browser.save_screenshot(str(SHOTS / "kingsolve-board-tip-1280.png"))
    ActionChains(browser).move_to_element(browser.find_element(By.ID, "history")).perform()
    wait_for(browser, lambda d: tip(d) is None, "the tip gone")


def test_a_tap_shows_a_cards_value_and_a_second_tap_plays_it(server, browser, widest_values):
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    def tap(element):
        actions = ActionBuilder(browser, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        actions.pointer_action.move_to(element).pointer_down().pointer_up()
        actions.perform()

    open_position(browser, server, 400, deal=SEVEN_CLUBS, contract="no-kings-jacks")
    tap(browser.find_element(By.CSS_SELECTOR, "#seat-N .card[data-card=C2]"))
    shown = wait_for(browser, tip, "the card's tip")
    assert "\u26632" in shown["text"] and "proved -16 to -10" in shown["text"] and "tap again" in shown["text"]
    assert shown["left"] >= 0 and shown["right"] <= browser.execute_script(
        "return document.documentElement.clientWidth")
    assert browser.find_elements(By.CSS_SELECTOR, "#seat-N .card[data-card=C2]"), "the first tap played the card"
    browser.save_screenshot(str(SHOTS / "kingsolve-board-tip-400.png"))
    # another card's tap moves the tip there; a tap on the same card plays it
    tap(browser.find_element(By.CSS_SELECTOR, "#seat-N .card[data-card=CA]"))
    wait_for(browser, lambda d: (tip(d) or {}).get("text", "").startswith("\u2663A"), "the ace's tip")
    tap(browser.find_element(By.CSS_SELECTOR, "#seat-N .card[data-card=CA]"))
    wait_for(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#seat-N .card[data-card=CA]"), "the ace played")
    assert tip(browser) is None


def test_doubles_speak_of_sides_and_show_each_sides_value_once(server, browser):
    # Doubles: a seat's value is its side's. Each side's value appears once, on its first
    # seat; the partner names the side; the footer, the message, the chart and the
    # points taken speak of N+S and E+W.
    import re
    open_position(browser, server, 1280, deal=SEVEN_CLUBS, play=["SA", "SK"], doubles=True)
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-N .seat-head .value"), "the sides' values")
    heads = {s: browser.find_element(By.CSS_SELECTOR, f"#seat-{s} .seat-head .value").text for s in "NESW"}
    number = r"(\u2248)?-?\d+(\.\d+)?( \(-?\d+\.\.-?\d+\))?"
    assert re.fullmatch(rf"N\+S {number}", heads["N"]) and re.fullmatch(rf"E\+W {number}", heads["E"]), heads
    assert heads["S"] == "N+S with North" and heads["W"] == "E+W with East", heads
    assert "guarantee" not in browser.find_element(By.TAG_NAME, "body").text
    assert "score of a side" in browser.find_element(By.TAG_NAME, "footer").text
    assert "N+S" in d_text(browser, "message")
    assert d_text(browser, "scores").startswith("Taken: N+S 0") and "E+W 0" in d_text(browser, "scores")
    assert d_text(browser, "chart-title") == "Value by side"
    lines = [p.get_attribute("data-seat") for p in browser.find_elements(By.CSS_SELECTOR, "#chart polyline")]
    assert lines == ["N", "E"]
    browser.save_screenshot(str(SHOTS / "kingsolve-board-doubles-1280.png"))

    # The same position in singles: each seat's own value, the footer back to seats.
    open_position(browser, server, 1280, deal=SEVEN_CLUBS, play=["SA", "SK"])
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".seat-head .value")) == 4, "four values")
    assert "seat can guarantee" in browser.find_element(By.TAG_NAME, "footer").text
    assert d_text(browser, "chart-title") == "Value by seat"
    assert not [h for h in browser.find_elements(By.CSS_SELECTOR, ".seat-head .value") if "+" in h.text]


def domino_played(variant: str, cards: int | None = None):
    """A domino hand of seed 5 from North, each seat playing its last legal card, for
    ``cards`` cards or to the end."""
    from kingsolve.game.domino import DominoPosition
    position = DominoPosition(variant, Deal.random(5), leader="N")
    while not position.complete and (cards is None or len(position.record) < cards):
        position.play(position.legal_cards()[-1])
    return position


def pretty(card) -> str:
    text = str(card)
    return {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}[text[0]] + text[1:].replace("T", "10")


@pytest.mark.parametrize("variant, cards", [("italian", 30), ("italian", None), ("italian-wikipedia", None)])
def test_the_domino_shows_its_own_play_and_scores(server, browser, variant, cards):
    # The domino is no trick game: its history lists every turn in order, the cards and
    # the passes, a line a round from the opener, says who went out, and the scores line
    # gives the cards each seat holds, then the domino's scores.
    position = domino_played(variant, cards)
    open_position(browser, server, 1280, deal=position.deal.pbn(), variant=variant, contract="domino",
                  play=position.record)
    wait_for(browser, lambda d: d_text(d, "history-title") == "Play", "the domino's history")
    turns = []
    passes = list(position.passes)
    for i in range(len(position.record) + 1):
        turns += [f"{seat.name} pass" for before, seat in passes if before == i]
        if i < len(position.record):
            turns.append(f"{position.movers[i].name} {pretty(position.record[i])}")
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#history li > span:not(.num)')].map(s =>"
        " s.firstChild.textContent.replace(' (no seven)', ''));")
    assert shown == turns
    lines = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#history li")]
    opener = position.movers[0].name
    numbered = [line for line in lines if line[:1].isdigit()]
    assert numbered and all(line.split(". ", 1)[1].startswith(opener + " ") for line in numbered), lines
    assert [int(line.split(".")[0]) for line in numbered] == list(range(1, len(numbered) + 1))
    assert not [line for line in lines if "\u2192" in line]
    scores = d_text(browser, "scores")
    if position.complete:
        out = [SEAT_NAMES[s.name] for s in position.out]
        assert lines[-1] == f"Hand over: {' and '.join(out)} went out."
        assert len(browser.find_elements(By.CSS_SELECTOR, "#history .went-out")) == len(out)
        assert scores == "Score: " + " \u00b7 ".join(
            f"{s.name} {float(v):g}" for s, v in position.scores().items())
    else:
        assert scores == "Cards left: " + " \u00b7 ".join(
            f"{s.name} {position.hands[s].bit_count()}" for s in position.seats)
        assert not browser.find_elements(By.CSS_SELECTOR, "#history .went-out")
    assert "Taken" not in scores
    layout = browser.find_element(By.CSS_SELECTOR, "#centre .layout").text
    assert "T" not in layout and ("10" in layout) == any(
        v and "T" in (v[0].letter, v[1].letter) for v in position.layout.values())
    browser.save_screenshot(str(SHOTS / f"kingsolve-board-domino-{variant}-{cards or 'end'}.png"))



def test_cards_proved_equal_are_marked_and_their_tip_names_the_others(server, browser):
    # North holds SA SK SQ together and H2 H3: each run is one card for the search, so
    # its cards are proved equal before any value is known.
    from selenium.webdriver import ActionChains
    deal = "N:AKQ.32.5432.5432 JT98.AKQ.AK.AKQJ 7654.JT98.QJT9.T 32.7654.876.9876"
    open_position(browser, server, 1280, deal=deal, contract="no-queens")
    marked = sorted(b.get_attribute("data-card") for b in
                    browser.find_elements(By.CSS_SELECTOR, "#seat-N .card.equal"))
    assert {"SA", "SK", "H2", "H3"} <= set(marked), marked
    assert "SQ" not in marked      # a queen is a card of its own kind here
    card = browser.find_element(By.CSS_SELECTOR, "#seat-N .card.valued[data-card=SA]")
    ActionChains(browser).move_to_element(card).perform()
    shown = wait_for(browser, tip, "the card's tip")
    assert "proved equal to \u2660K" in shown["text"], shown["text"]


@pytest.mark.parametrize("width", WIDTHS)
def test_house_rules_list_their_changes_inside_their_panel(server, browser, width):
    # The Portuguese engine's rules, pasted: a line a contract changed, its long card
    # lists shortened by suit, every line inside the panel and the page no wider than
    # the window; the panel sits between the set-up and the table.
    from pathlib import Path
    document = (Path(__file__).resolve().parent.parent / "docs" / "house-rules" / "portuguese-engine.json").read_text()
    open_position(browser, server, width, deal=Deal.random(5).pbn(), variant="portuguese", contract="no-hearts")
    browser.find_element(By.CSS_SELECTOR, "#rules-setup summary").click()
    browser.execute_script("document.getElementById('rules-text').value = arguments[0]", document)
    browser.find_element(By.ID, "rules-use").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "house").is_displayed(), "the house rules")
    lines = rects(browser, "#house-changes li")
    assert lines[0]["text"] == "no-hearts: lead any; first-trick protection none; forced discards all \u2665"
    assert [li["text"].split(":")[0] for li in lines] == ["no-hearts", "no-queens", "no-men", "no-king-of-hearts"]
    panel = rects(browser, "#house")[0]
    assert all(inside(li, panel) for li in lines), (lines, panel)
    assert browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert rects(browser, "#setup")[0]["bottom"] <= panel["top"] and panel["bottom"] <= rects(browser, "#table")[0]["top"]
    browser.save_screenshot(str(SHOTS / f"kingsolve-board-house-{width}.png"))
    browser.find_element(By.ID, "house-leave").click()
