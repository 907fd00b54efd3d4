"""The analysis board end to end in headless Chromium (Debian's chromium and chromium-driver).

The app is served over real HTTP on loopback; selenium drives the page as a person
would: deal, read the values, play a card with the mouse and with the keyboard, undo
and redo. The app runs in this process, so a test can read its count of running
analyses. Screenshots go to /tmp for a look by eye.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from kingsolve.game.deal import Deal
from kingsolve.game.record import Record
from kingsolve.game.rule_documents import rules_from_dict
from kingsolve.io.request import legal_request

from board_page import SHOTS, d_text, wait_for

pytestmark = pytest.mark.browser


def on_move(driver) -> str | None:
    return driver.execute_script(
        "const s = document.querySelector('.seat.on-move'); return s ? s.dataset.seat : null;")


def trick(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#centre .played:not(.last)')].map(p => p.firstChild.textContent);")


def analysis(driver) -> str | None:
    """The board's analysis state: running, solved, stopped (at the deadline) or failed."""
    return driver.find_element(By.ID, "table").get_attribute("data-analysis")


def valued_cards(driver, settled: bool = True) -> dict[str, str]:
    """The legal cards that show a value, card -> value text (read in one script: the
    board redraws as its analysis improves). By default only once the analysis has
    ended, so that the cards a test then holds are not redrawn under it."""
    if settled and analysis(driver) == "running":
        return {}
    return driver.execute_script(
        "const out = {}; for (const b of document.querySelectorAll('.card.legal.valued'))"
        " out[b.dataset.card] = b.querySelector('.val').textContent; return out;")


def test_board_deals_plays_and_undoes(server, browser):
    browser.set_window_size(1280, 1000)
    browser.get(server + "/")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"), "the rule sets")
    wait_for(browser, lambda d: d.find_element(By.ID, "deal").get_attribute("value"), "the first deal")
    # Russian: 32 cards, 8 tricks, so the whole deal solves in well under a second. The
    # switch deals a 32-card deal in place of the 52-card one, which Russian refuses.
    browser.find_element(By.CSS_SELECTOR, "#variant option[value=russian]").click()
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".card")) == 32, "a 32-card deal")
    wait_for(browser, valued_cards, "values on the Russian deal")
    assert "Cannot" not in d_text(browser, "message")
    assert Deal(browser.find_element(By.ID, "deal").get_attribute("value")).tricks == 8
    browser.find_element(By.CSS_SELECTOR, "#contract option[value=no-queens]").click()
    seed = browser.find_element(By.ID, "seed")
    seed.clear()
    seed.send_keys("7")
    browser.find_element(By.ID, "random").click()
    expected = Deal.random(7, deck=32).pbn()
    wait_for(browser, lambda d: d.find_element(By.ID, "deal").get_attribute("value") == expected, "the seeded deal")

    # North leads; every legal card shows its exact value once solved, the best ones marked.
    values = wait_for(browser, lambda d: analysis(d) == "solved" and valued_cards(d), "exact values on North's cards")
    assert all(v.lstrip("-").isdigit() for v in values.values()), values
    assert on_move(browser) == "N"
    north = browser.find_elements(By.CSS_SELECTOR, "#seat-N .card")
    assert len(north) == 8
    assert set(values) == {b.get_attribute("data-card") for b in north if b.is_enabled()}
    assert browser.find_elements(By.CSS_SELECTOR, "#seat-N .card.best")
    assert all(not b.is_enabled() for b in browser.find_elements(By.CSS_SELECTOR, "#seat-E .card"))
    assert "guarantees" in d_text(browser, "seat-N")
    assert browser.find_elements(By.CSS_SELECTOR, "#chart polyline")
    browser.save_screenshot(str(SHOTS / "kingsolve-board-1280.png"))

    # Play North's first legal card with the mouse: the trick and the seat on move change.
    first = sorted(values)[0]
    browser.find_element(By.CSS_SELECTOR, f"#seat-N .card[data-card={first}]").click()
    wait_for(browser, lambda d: trick(d) and on_move(d) == "E", "East on move after the lead")
    east_values = wait_for(browser, valued_cards, "values on East's cards")
    assert first not in east_values
    assert not browser.find_elements(By.CSS_SELECTOR, f"#seat-N .card[data-card={first}]")
    assert len(trick(browser)) == 1

    # Undo puts the card back, redo plays it again (buttons and u/r keys).
    browser.find_element(By.ID, "undo").click()
    wait_for(browser, lambda d: not trick(d) and on_move(d) == "N", "North on move after undo")
    assert browser.find_element(By.CSS_SELECTOR, f"#seat-N .card[data-card={first}]")
    # the solved analysis is kept: the values come back at once, with no new analysis
    assert wait_for(browser, valued_cards, "North's values again") == values
    assert analysis(browser) == "solved"
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("r")
    wait_for(browser, lambda d: len(trick(d)) == 1 and on_move(d) == "E", "the redone lead")
    body.send_keys("u")
    wait_for(browser, lambda d: not trick(d) and on_move(d) == "N", "the undone lead")

    # Keyboard only: focus a legal card and press Enter; the focus moves to the next seat's cards.
    card = browser.find_element(By.CSS_SELECTOR, "#seat-N .card.legal")
    browser.execute_script("arguments[0].focus()", card)
    played = card.get_attribute("data-card")
    card.send_keys(Keys.ENTER)
    wait_for(browser, lambda d: on_move(d) == "E" and valued_cards(d), "East's values after Enter")
    focused = browser.switch_to.active_element
    assert "card" in focused.get_attribute("class") and focused.get_attribute("data-card")[0]
    assert played not in [b.get_attribute("data-card") for b in browser.find_elements(By.CSS_SELECTOR, ".card")]
    history = d_text(browser, "history")
    assert history.startswith("1. N ")

    # Play the first trick out: the history shows it with its winner.
    for _ in range(3):
        before = len(browser.find_elements(By.CSS_SELECTOR, ".card"))
        wait_for(browser, valued_cards, "values before each card")
        browser.find_element(By.CSS_SELECTOR, ".card.legal").click()
        wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".card")) == before - 1, "the card played")
    wait_for(browser, lambda d: "\u2192" in d_text(d, "history"), "the first trick in the history")
    assert not trick(browser) and len(browser.find_elements(By.CSS_SELECTOR, "#centre .played.last")) == 4
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart circle")) >= 4 * 4
    browser.set_window_size(1280, 1500)
    browser.save_screenshot(str(SHOTS / "kingsolve-board-1280-trick.png"))

    browser.set_window_size(390, 1400)
    browser.get(browser.current_url)        # the address keeps the position
    wait_for(browser, lambda d: valued_cards(d), "values after reload at phone width")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".card")) == 32 - 4
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways at phone width: {width}px"
    browser.save_screenshot(str(SHOTS / "kingsolve-board-390.png"))


def test_board_shows_the_problem_with_a_bad_deal(server, browser):
    browser.set_window_size(1280, 1000)
    browser.get(server + "/#variant=italian&contract=no-queens&leader=N&deal=N:AKQ.JT9.876.5432%20-%20-%20-")
    message = wait_for(browser, lambda d: d_text(d, "message") if "Cannot" in d_text(d, "message") else None,
                       "the error message")
    assert "two seats" in message
    assert "error" in browser.find_element(By.ID, "message").get_attribute("class")
    assert not browser.find_elements(By.CSS_SELECTOR, ".card.legal")


def test_board_keeps_legal_cards_when_the_analysis_fails(server, browser, monkeypatch):
    # An analysis that ends in an error event: the board still outlines the legal
    # cards, and says why.
    from kingsolve.errors import SolveTimeout
    from kingsolve.io.request import SolveRequest

    def too_slow(self, cancel=None):
        def answers():
            raise SolveTimeout("search stopped at its time budget of 1 ms")
            yield
        return answers()

    monkeypatch.setattr(SolveRequest, "stream", too_slow)
    deal = Deal.random(3).pbn()
    expected = legal_request({"variant": "italian", "contract": "no-hearts", "leader": "E", "deal": deal})
    browser.get(server + f"/#variant=italian&contract=no-hearts&leader=E&deal={deal.replace(' ', '%20')}")
    wait_for(browser, lambda d: "No analysis" in d_text(d, "message"), "the analysis's error")
    assert "time budget" in d_text(browser, "message") and analysis(browser) == "failed"
    legal = browser.find_elements(By.CSS_SELECTOR, "#seat-E .card.legal")
    assert [b.get_attribute("data-card") for b in legal] == expected["legal"]
    assert not browser.find_elements(By.CSS_SELECTOR, ".card.valued")
    legal[0].click()
    wait_for(browser, lambda d: on_move(d) == "S", "South on move")


def click_card(driver, card: str) -> None:
    """Click a card as a person would; a redraw between finding and clicking it is retried."""
    for _ in range(20):
        try:
            driver.find_element(By.CSS_SELECTOR, f".card[data-card={card}]").click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"card {card} kept being redrawn")


def card_of(driver, selector: str) -> str | None:
    """The card of the first element ``selector`` finds, read in one script: while an
    analysis runs the board redraws its cards between two separate reads."""
    return driver.execute_script(
        "const b = document.querySelector(arguments[0]); return b ? b.dataset.card : null;", selector)


def legal_cards(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('.card.legal')].map(b => b.dataset.card);")


def test_board_values_every_card_of_its_default_deal_at_once(board_app, server, browser):
    # The default: a random full deal of Italian no-kings-jacks, 13 cards a seat. A value
    # on every legal card while the analysis still runs (up to 10 s): estimates first,
    # marked. How soon is measured by research/anytime.py, not here.
    streams = board_app.extensions["kingsolve"].streams
    browser.set_window_size(1280, 1000)
    browser.get("about:blank")
    browser.get(server + "/")

    def all_valued(d):
        return d.execute_script(
            "const legal = [...document.querySelectorAll('.card.legal')];"
            "const valued = legal.filter(b => b.classList.contains('valued'));"
            "return legal.length && valued.length === legal.length ?"
            " document.getElementById('table').getAttribute('data-analysis') : null;")
    state = wait_for(browser, all_valued, "a value on every legal card")
    assert state == "running", f"the values came only once the analysis had {state}"
    assert browser.find_element(By.ID, "variant").get_attribute("value") == "italian"
    assert browser.find_element(By.ID, "contract").get_attribute("value") == "no-kings-jacks"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".card")) == 52
    # Read in one script: the board redraws as the analysis improves. A full singles deal
    # is not proved in 2 s: the marks say which numbers are estimates, with their ranges.
    seen = browser.execute_script(
        "const legal = [...document.querySelectorAll('.card.legal')];"
        "return {legal: legal.map(b => b.dataset.card),"
        " valued: legal.filter(b => b.classList.contains('valued')).map(b => b.dataset.card),"
        " estimates: [...document.querySelectorAll('.card.legal.estimate')].map(b =>"
        "   [b.querySelector('.val').textContent, b.querySelector('.range').textContent]),"
        " marked: document.querySelectorAll('#chart circle.estimate').length};")
    assert seen["legal"] and seen["valued"] == seen["legal"]
    assert seen["estimates"] and seen["marked"]
    assert all(val.startswith("\u2248") and ".." in rng for val, rng in seen["estimates"]), seen
    message = d_text(browser, "message")
    assert "unavailable" not in message and "No analysis" not in message
    browser.save_screenshot(str(SHOTS / "kingsolve-board-estimates.png"))

    # A click during the analysis: the board aborts its stream, and the server stops that
    # analysis (the count of cancelled analyses goes up) while the next position's runs.
    wait_for(browser, lambda d: analysis(d) == "running" and streams.count == 1, "the running analysis")
    cancelled = streams.cancelled
    click_card(browser, legal_cards(browser)[0])
    wait_for(browser, lambda d: on_move(d) == "E" and valued_cards(d, settled=False), "East's values")
    wait_for(browser, lambda d: streams.cancelled == cancelled + 1, "the first analysis cancelled")
    assert streams.count <= 1


def test_board_reviews_a_pasted_record(server, browser):
    # Paste the short sample record, review it, step through it: each costly card is marked.
    record = (Path(__file__).parent / "data" / "italian-short.kpbn").read_text().split("\n\n")[0]
    browser.set_window_size(1280, 1400)
    browser.get(server + "/")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"), "the rule sets")
    browser.find_element(By.CSS_SELECTOR, "#review-setup summary").click()
    box = browser.find_element(By.ID, "record")
    box.send_keys(record)
    assert browser.find_element(By.ID, "review-from").get_attribute("value") == "auto"
    browser.find_element(By.ID, "review").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "review-panel").is_displayed(), "the review panel")

    # The board now holds the record's deal and rules, at its first card (3 tricks: all reviewed).
    assert browser.find_element(By.ID, "deal").get_attribute("value") == "N:AQ.K9.. KJ.Q2.. T9.A8.. 87.J4.."
    assert browser.find_element(By.ID, "contract").get_attribute("value") == "no-queens"
    wait_for(browser, lambda d: on_move(d) == "N" and valued_cards(d), "North's values at the first card")
    assert card_of(browser, "#seat-N .card.recorded") == "SQ"
    assert not browser.find_elements(By.CSS_SELECTOR, ".card.costly")
    assert "a best card" in d_text(browser, "review-now")
    rows = {r.get_attribute("data-seat"): r.text for r in
            browser.find_elements(By.CSS_SELECTOR, "#review-summary tbody tr")}
    assert rows["E"].split()[1:4] == ["3", "2", "6"] and rows["S"].split()[1:4] == ["3", "0", "0"]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#review-costly button")) == 3
    # beside each proved mistake, the line best play would have followed instead
    lines = browser.execute_script(
        "return [...document.querySelectorAll('.review-line')].map(e => e.textContent);")
    assert len(lines) == 3 and all(t.startswith("best line: ") for t in lines), lines

    # One step on: East's recorded king of spades gave away 3 points; it is marked with its cost.
    browser.find_element(By.ID, "redo").click()
    wait_for(browser, lambda d: on_move(d) == "E" and valued_cards(d), "East on move with values")
    king = browser.find_element(By.CSS_SELECTOR, "#seat-E .card.costly")
    assert king.get_attribute("data-card") == "SK"
    assert king.find_element(By.CSS_SELECTOR, ".cost").text == "\u22123"
    assert "cost 3" in king.get_attribute("aria-label")
    assert "it cost 3" in d_text(browser, "review-now") and "best \u2660J" in d_text(browser, "review-now")
    browser.save_screenshot(str(SHOTS / "kingsolve-board-review.png"))

    # Played, it stays marked in the trick and in the history; the costly list jumps to North's H9.
    browser.find_element(By.TAG_NAME, "body").send_keys("r")
    wait_for(browser, lambda d: on_move(d) == "S", "South on move")
    assert browser.find_element(By.CSS_SELECTOR, "#centre .played.costly").text.startswith("\u2660K")
    assert "\u2212" in browser.find_element(By.CSS_SELECTOR, "#history .costly").text
    browser.find_element(By.CSS_SELECTOR, "#review-costly button[data-index='7']").click()
    wait_for(browser, lambda d: on_move(d) == "N" and d.find_elements(By.CSS_SELECTOR, "#seat-N .card.costly"),
             "North's costly H9 marked")
    assert card_of(browser, "#seat-N .card.costly") == "H9"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#history .costly")) == 2

    # Leaving the review keeps the position playable; the marks go.
    browser.find_element(By.ID, "review-leave").click()
    assert not browser.find_element(By.ID, "review-panel").is_displayed()
    assert not browser.find_elements(By.CSS_SELECTOR, ".costly")
    wait_for(browser, valued_cards, "values in play mode")


def test_board_names_the_line_of_a_bad_record(server, browser):
    record = (Path(__file__).parent / "data" / "italian-short.kpbn").read_text().split("\n\n")[0]
    browser.get(server + "/")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"), "the rule sets")
    browser.find_element(By.CSS_SELECTOR, "#review-setup summary").click()
    browser.find_element(By.ID, "record").send_keys(record.replace("HK HQ", "HK HZ"))
    browser.find_element(By.ID, "review").click()
    message = wait_for(browser, lambda d: d_text(d, "message") if "Cannot review" in d_text(d, "message") else None,
                       "the record's error")
    assert "line 12" in message and "HZ" in message
    assert not browser.find_element(By.ID, "review-panel").is_displayed()


def test_board_reviews_the_last_three_tricks_of_a_full_hand_by_default(server, browser):
    from contracts import played_out
    record = played_out()
    play = record.play
    browser.get(server + "/")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#variant option"), "the rule sets")
    browser.find_element(By.CSS_SELECTOR, "#review-setup summary").click()
    browser.execute_script("document.getElementById('record').value = arguments[0]", record.text())
    browser.find_element(By.ID, "review").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "review-panel").is_displayed(), "the review panel")
    assert d_text(browser, "review-title").endswith("from trick 11")
    # The board opens at the first reviewed card: 40 cards played, 12 in the hands.
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".card")) == 12, "the position at trick 11")
    assert card_of(browser, ".card.recorded") == str(play[40])
    assert len(browser.find_elements(By.CSS_SELECTOR, "#history li")) == 10
    cards = [r.text.split() for r in browser.find_elements(By.CSS_SELECTOR, "#review-summary tbody tr")]
    assert [row[1] for row in cards] == ["3", "3", "3", "3"]


# --- house rules: a rule file of the user's, in every request the board sends ------------

HOUSE = Path(__file__).resolve().parent.parent / "docs" / "house-rules"
#: South, void in spades after SA S9, must discard the HK under Russian no-king, not under
#: the Russian program's rules (docs/house-rules/russian-program.json).
RUSSIAN_DEAL = "N:AKQJ..AKQJ. T987..T987. .AK..AKQJT9 .QJT987..87"

# Keeps the body of every POST the page sends, to read which rule set it named.
RECORD_REQUESTS = """
window.sent = [];
const send = window.fetch;
window.fetch = (url, opts) => {
  if (opts && opts.body) window.sent.push([String(url), JSON.parse(opts.body)]);
  return send(url, opts);
};
"""


def sent(driver, path: str) -> list[dict]:
    return [body for url, body in driver.execute_script("return window.sent") if url.startswith(path)]


def south_legal_after_the_lead(driver) -> list[str]:
    click_card(driver, "SA")
    wait_for(driver, lambda d: on_move(d) == "E", "East on move")
    click_card(driver, "S9")
    wait_for(driver, lambda d: on_move(d) == "S" and legal_cards(d), "South on move")
    return legal_cards(driver)


def test_board_plays_under_a_loaded_rule_file(server, browser):
    document = json.loads((HOUSE / "russian-program.json").read_text())
    browser.set_window_size(1280, 1400)
    browser.get("about:blank")          # a page of its own: from "/" a new hash would not reload it
    browser.get(server + f"/#variant=russian&contract=no-king&leader=N&deal={quote(RUSSIAN_DEAL)}")
    wait_for(browser, lambda d: on_move(d) == "N" and legal_cards(d), "North on move")
    browser.execute_script(RECORD_REQUESTS)
    assert south_legal_after_the_lead(browser) == ["HK"]

    # The rule file, chosen in the file input: the server checks it, the board shows
    # what it changes from its base and plays the same deal again under it.
    browser.find_element(By.CSS_SELECTOR, "#rules-setup summary").click()
    browser.find_element(By.ID, "rules-file").send_keys(str(HOUSE / "russian-program.json"))
    wait_for(browser, lambda d: d.find_element(By.ID, "house").is_displayed(), "the house rules")
    assert d_text(browser, "house-title") == "House rules from russian-program.json: russian, with"
    changes = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#house-changes li")]
    assert changes == [f"{c}: forced discards none" for c in ("no-king", "nothing", "take-king", "everything")]
    assert Select(browser.find_element(By.ID, "variant")).first_selected_option.text == "house rules (russian+)"
    assert browser.find_element(By.ID, "deal").get_attribute("value") == RUSSIAN_DEAL
    wait_for(browser, lambda d: on_move(d) == "N" and legal_cards(d), "North on move under the house rules")
    assert len(south_legal_after_the_lead(browser)) == 8
    wait_for(browser, valued_cards, "values under the house rules")
    for path in ("/api/v1/legal", "/api/v1/solve/stream"):
        named = [p["variant"] for p in sent(browser, path)]
        k = named.index(document)
        assert set(map(json.dumps, named[:k])) == {'"russian"'} and named[k:] == [document] * (len(named) - k)
        assert len(named) - k >= 3, path

    # The play as a record keeps the document in its tag Rules, and its review runs under it.
    browser.find_element(By.CSS_SELECTOR, "#review-setup summary").click()
    browser.find_element(By.ID, "record-of-play").click()
    text = browser.find_element(By.ID, "record").get_attribute("value")
    record = Record.parse(text)
    assert record.rules == rules_from_dict(document) and [str(c) for c in record.play] == ["SA", "S9"]
    assert '[Variant "russian"]' in text and '[Rules "{' in text
    browser.find_element(By.ID, "review").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "review-panel").is_displayed(), "the review panel")
    assert d_text(browser, "review-title").startswith("Review of house rules no-king")
    assert browser.find_element(By.ID, "variant").get_attribute("value") == "*house"
    wait_for(browser, lambda d: on_move(d) == "N" and legal_cards(d), "the reviewed deal")

    # A reload keeps the house rules; a document that cannot be played is refused, naming
    # its field, and the house rules stay.
    browser.refresh()
    wait_for(browser, lambda d: d.find_element(By.ID, "house").is_displayed(), "the house rules kept")
    assert browser.find_element(By.ID, "variant").get_attribute("value") == "*house"
    browser.find_element(By.CSS_SELECTOR, "#rules-setup summary").click()
    browser.execute_script("document.getElementById('rules-text').value = arguments[0]",
                           '{"base": "russian", "contracts": {"no-king": {"forced": ["HZ"]}}}')
    browser.find_element(By.ID, "rules-use").click()
    message = wait_for(browser, lambda d: d_text(d, "message") if "Cannot use" in d_text(d, "message") else None,
                       "the rule document's error")
    assert "contracts.no-king.forced" in message and "HZ" in message
    assert d_text(browser, "house-title").startswith("House rules from russian-program.json")

    # Back to the built-in rules: the base is chosen again and its rules apply.
    browser.execute_script(RECORD_REQUESTS)
    browser.find_element(By.ID, "house-leave").click()
    assert not browser.find_element(By.ID, "house").is_displayed()
    assert browser.find_element(By.ID, "variant").get_attribute("value") == "russian"
    assert not browser.find_elements(By.CSS_SELECTOR, "#variant option[value='*house']")
    wait_for(browser, lambda d: on_move(d) == "N" and legal_cards(d), "North on move under russian")
    assert south_legal_after_the_lead(browser) == ["HK"]
    assert {p["variant"] for p in sent(browser, "/api/v1/legal")} == {"russian"}
    assert browser.execute_script("return localStorage.getItem('kingsolve-house-rules')") is None

    # A record with its tag Rules, reviewed on the built-in rules, brings its rules back.
    browser.find_element(By.CSS_SELECTOR, "#review-setup summary").click()
    browser.execute_script("document.getElementById('record').value = arguments[0]", text)
    browser.find_element(By.ID, "review").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "house").is_displayed(), "the record's rules")
    assert d_text(browser, "house-title") == "House rules from the record: russian, with"
    assert browser.find_element(By.ID, "variant").get_attribute("value") == "*house"
    browser.find_element(By.ID, "house-leave").click()
