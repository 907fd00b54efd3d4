"""A game of King against the engine on /play, end to end in headless Chromium.

The player's seat plays its first legal card and takes the first option of each
choice; the engine plays at level 1 at the instant pace, so that a hand takes seconds.
A match's earlier hands are played out here and loaded as a saved game, to reach the
hands with a choice phase (the Italian sale, the Portuguese festa).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from kingsolve.game.record import Record, parse_records
from kingsolve.game.rule_documents import resolve_variant, rules_from_dict
from kingsolve.hands.hints import levels_answer
from kingsolve.hands.match import sheet_of_records
from kingsolve_api import create_app

from board_page import OVERFLOW, SHOTS, d_text
from play_page import (RECORD_REQUESTS, by_name, choice_buttons, click, go_on_from, load_match, match_text,
                       play_first_card, play_hand, set_up, wait_for, your_cards)

pytestmark = pytest.mark.browser

STORED = ("return JSON.stringify(JSON.parse(localStorage.getItem('kingsolve-games'))"
          "[sessionStorage.getItem('kingsolve-game-id')])")
STATIC = Path(__file__).parent.parent / "api" / "kingsolve_api" / "static"
#: The /hint requests a refusing server turns away before it answers (test_a_refused...).
REFUSE = {"hint": 0, "bad": 0}


@pytest.fixture(scope="module")
def board_app():
    app = create_app({"KINGSOLVE_MAX_MS": 10_000})

    @app.before_request
    def refuse_when_told():
        from flask import request
        if request.path == "/api/v1/hint" and REFUSE["hint"] > 0:
            REFUSE["hint"] -= 1
            return {"error": "busy", "message": "the server is busy"}, 503
        if request.path == "/api/v1/hint" and REFUSE["bad"] > 0:
            REFUSE["bad"] -= 1
            return {"error": "invalid-request", "message": "a refusal for the test"}, 400
        return None
    return app


def stored(driver) -> dict:
    """This tab's game as the browser keeps it."""
    return json.loads(driver.execute_script(STORED))


def sent(driver, path: str) -> list[dict]:
    return [body for url, body in driver.execute_script("return window.sent || []") if url.startswith(path)]


def start(driver) -> None:
    driver.execute_script(RECORD_REQUESTS)
    click(driver, "g-start")
    wait_for(driver, lambda d: d.find_element(By.ID, "game").is_displayed(), "the game")


def last_record(driver) -> Record:
    return Record.parse(stored(driver)["records"][-1])


def check_sheet(driver) -> dict:
    """The page's score sheet is the library's sheet of the page's records."""
    game = stored(driver)
    records = parse_records("\n".join(game["records"]))
    variant = game.get("document") or game["variant"]
    sheet = sheet_of_records(records, resolve_variant(variant), game["doubles"]).to_dict()
    assert game["sheet"]["hands"] == sheet["hands"] and game["sheet"]["totals"] == sheet["totals"]
    rows = driver.find_elements(By.CSS_SELECTOR, "#g-sheet tbody tr")
    assert len(rows) == len(sheet["hands"])
    return sheet


def engine_views(driver, deal: str) -> None:
    """Each /hint request of an engine seat holds that seat's dealt hand and nothing of
    another seat: no deal, no known cards, no other hand (the cards it names are its
    own or already played)."""
    first, text = deal.split(":")
    order = "NESW"[("NESW".index(first)):] + "NESW"[:("NESW".index(first))]
    hands = {seat: _cards(hand) for seat, hand in zip(order, text.split())}
    bodies = sent(driver, "/api/v1/hint")
    assert bodies
    for body in bodies:
        assert not {"deal", "known"} & set(body), body
        own = _cards(body["hand"])
        assert own == hands[body["seat"]], body
        played = set(body.get("play", []))
        named = own | played
        text = json.dumps(body)
        for seat, cards in hands.items():
            for card in cards - named:
                assert f'"{card}"' not in text, (card, seat, body)


def _cards(pbn_hand: str) -> set[str]:
    return {suit + rank for suit, ranks in zip("SHDC", pbn_hand.split(".")) for rank in ranks}


def test_a_russian_hand_against_the_engine_from_its_own_views(server, browser):
    browser.set_window_size(1280, 800)
    set_up(browser, server, "russian", seat="S")
    start(browser)
    assert play_hand(browser) == []
    record = last_record(browser)
    assert record.contract == "no-tricks" and record.leader.name == "N" and len(record.play) == 32
    engine_views(browser, record.deal.pbn())
    # the engine's seats asked at the level chosen; the player's seat never asked
    assert {b["level"] for b in sent(browser, "/api/v1/hint")} == {1}
    assert "S" not in {b["seat"] for b in sent(browser, "/api/v1/hint")}
    sheet = check_sheet(browser)
    assert sheet["next"]["contract"] == "no-hearts"
    assert "Hand over" in d_text(browser, "g-result")
    browser.save_screenshot(str(SHOTS / "kingsolve-play-1280.png"))


SAVED = """
window.saved = null;
URL.createObjectURL = (blob) => { blob.text().then((t) => { window.saved = t; }); return "#saved"; };
document.getElementById("g-save").click();
"""


def test_a_saved_game_loads_again_to_go_on(server, browser, tmp_path):
    set_up(browser, server, "russian", seat="S")
    start(browser)
    play_hand(browser)
    browser.execute_script(SAVED)
    text = wait_for(browser, lambda d: d.execute_script("return window.saved"), "the saved game")
    records = parse_records(text)
    assert [r.text() for r in records] == [Record.parse(t).text() for t in stored(browser)["records"]]
    set_up(browser, server, "italian", seat="E")        # another game's form: the file says russian
    load_match(browser, text, tmp_path)
    game = stored(browser)
    assert (game["variant"], game["seat"], len(game["records"])) == ("russian", "S", 1)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#g-sheet tbody tr")) == 1
    play_hand(browser)
    assert last_record(browser).contract == "no-hearts"


def test_a_saved_game_at_a_level_no_longer_listed_plays_at_the_default(server, browser, tmp_path):
    """A game saved under a level the server has dropped (the ladder was merged) keeps
    its setting but the engine asks its hints at the default level."""
    gone = len(levels_answer()["levels"])
    set_up(browser, server, "russian", seat="S")
    browser.execute_script(RECORD_REQUESTS)
    header = f'; kingsolve-game {json.dumps({"seat": "S", "level": gone})}\n\n'
    load_match(browser, header + match_text("russian", 1), tmp_path)
    assert stored(browser)["level"] == gone
    play_hand(browser)
    asked = {body["level"] for body in sent(browser, "/api/v1/hint")}
    assert asked == {levels_answer()["default"]}


def test_a_turkish_hand_with_the_contract_and_trump_chosen(server, browser):
    # docs/rules.md 7: N chooses hand 1; the player (N) picks trumps, then names the trump.
    set_up(browser, server, "turkish", seat="N")
    start(browser)
    wait_for(browser, choice_buttons, "the contract choice")
    assert [b.get_attribute("data-option") for b in choice_buttons(browser)] == [
        "no-tricks", "no-hearts", "no-kings-jacks", "no-queens", "no-king-of-hearts", "no-last-two", "trumps"]

    def trumps_then_hearts(buttons):
        by = {b.get_attribute("data-option"): b for b in buttons}
        return by.get("trumps") or by["H"]
    assert play_hand(browser, trumps_then_hearts) == ["Choose the contract", "Name the trump"]
    record = last_record(browser)
    assert (record.contract, record.trump.letter, record.leader.name) == ("trumps", "H", "N")
    sheet = check_sheet(browser)
    assert sheet["next"]["leader"] == "W"


def test_an_engine_chooser_picks_within_the_quotas(server, browser):
    set_up(browser, server, "turkish", seat="S")
    start(browser)
    play_hand(browser)
    choice = [b for b in sent(browser, "/api/v1/hint") if b.get("choice") == "contract"]
    assert [c["seat"] for c in choice] == ["N"] and set(choice[0]["contracts"]) >= {"trumps", "no-tricks"}
    assert last_record(browser).contract in choice[0]["contracts"]


@pytest.mark.parametrize("doubles", [False, True])
def test_an_italian_trumps_hand_sold_or_declared(server, browser, tmp_path, doubles):
    # docs/rules.md 10: hand 9 is dealt by W, who declares or sells; N leads.
    go_on_from(browser, server, "italian", 8, "W", tmp_path, doubles)
    assert stored(browser)["doubles"] == doubles
    assert len(browser.find_elements(By.CSS_SELECTOR, "#g-sheet tbody tr")) == 8

    def sell_at_13_then_spades(buttons):
        by = by_name(buttons)
        if "g-sell" in by:
            browser.execute_script("document.getElementById('g-price').value = '13'")
            return by["g-sell"]
        return by["S"]
    met = play_hand(browser, sell_at_13_then_spades)
    assert met == ["Declare or sell the declaration", "Name the trump"]
    record = last_record(browser)
    assert (record.contract, record.trump.letter, record.dealer.name, record.sale) == ("trumps", "S", "W", None)
    assert record.doubles == doubles
    # nobody bought at 13: each engine seat asked its trump hint, in turn after the dealer
    assert [b["seat"] for b in sent(browser, "/api/v1/hint") if b.get("choice") == "trump"] == ["N", "E", "S"]
    check_sheet(browser)


def test_an_italian_doubles_hand(server, browser):
    set_up(browser, server, "italian", seat="S", doubles=True)
    start(browser)
    play_hand(browser)
    record = last_record(browser)
    assert record.doubles and record.contract == "no-kings-jacks"
    heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#g-sheet thead th")]
    assert heads[2:4] == ["N+S", "E+W"]
    sheet = check_sheet(browser)
    assert len(sheet["hands"]) == 1 and "sides" in sheet["hands"][0]
    assert all(b.get("doubles") for b in sent(browser, "/api/v1/hint"))


def test_a_portuguese_festa_the_host_plays(server, browser, tmp_path):
    # docs/rules.md 6: hand 7's host is its dealer E; the others bid, the host answers.
    go_on_from(browser, server, "portuguese", 6, "E", tmp_path)

    def refuse_then_spades(buttons):
        by = by_name(buttons)
        return by.get("g-refuse") or by["S"]
    met = play_hand(browser, refuse_then_spades)
    assert met[-1] == "Festa: the host plays"
    record = last_record(browser)
    assert (record.contract, record.trump.letter, record.leader.name, record.festa) == ("festa", "S", "E", "host")
    # round and round from the seat after the host, until all but the standing bid pass
    bids = [b["seat"] for b in sent(browser, "/api/v1/hint") if b.get("role") == "bidder"]
    assert bids[:3] == ["S", "W", "N"] and set(bids) == {"S", "W", "N"}
    check_sheet(browser)


def test_a_festa_the_host_settles_433(server, browser, tmp_path):
    # docs/rules.md 6 (3): no bid taken, the host may not play: 100 to it, 75 to each other
    go_on_from(browser, server, "portuguese", 6, "E", tmp_path)

    def refuse_then_433(buttons):
        by = by_name(buttons)
        return by.get("g-refuse") or by["433"]
    play_hand(browser, refuse_then_433)
    record = last_record(browser)
    assert (record.festa, record.play, record.trump) == ("433", (), None)
    assert check_sheet(browser)["hands"][-1]["scores"] == {"N": 75, "E": 100, "S": 75, "W": 75}
    assert not browser.find_element(By.ID, "g-review").is_displayed()      # nothing to review


def test_a_hand_under_the_boards_house_rules(server, browser):
    # the analysis board keeps the house rules it loaded; the game offers them
    document = json.loads((STATIC.parent.parent.parent / "docs" / "house-rules" / "russian-program.json").read_text())
    browser.get(server + "/healthz")
    browser.execute_script("localStorage.setItem('kingsolve-house-rules', JSON.stringify("
                           "{document: arguments[0], source: 'russian-program.json'}))", document)
    set_up(browser, server, "*house", seat="S")
    start(browser)
    play_hand(browser)
    record = last_record(browser)
    assert record.rules == rules_from_dict(document) and record.variant == "russian"
    bodies = sent(browser, "/api/v1/")
    assert bodies and all(b["variant"] == document for b in bodies)
    check_sheet(browser)
    browser.execute_script("localStorage.removeItem('kingsolve-house-rules')")


def test_a_portuguese_festa_the_player_bids(server, browser, tmp_path):
    # docs/rules.md 6: S bids first after the host E; an accepted plus bid is played as
    # festa with the bidder's trump, an accepted null bid as null.
    go_on_from(browser, server, "portuguese", 6, "S", tmp_path)

    def bid_then_clubs(buttons):
        by = by_name(buttons)
        return by.get("g-bid-button") or by.get("C") or buttons[0]
    met = play_hand(browser, bid_then_clubs)
    assert met[0] == "Festa: the bidding"
    record = last_record(browser)
    hints = [b for b in sent(browser, "/api/v1/hint") if b.get("choice") == "festa"]
    bidders = [b["seat"] for b in hints if b["role"] == "bidder"]
    assert bidders[:2] == ["W", "N"] and set(bidders) <= {"W", "N"}
    # the host answers the standing bid, and asks again to play itself if it refuses
    assert set(b["seat"] for b in hints if b["role"] == "host") <= {"E"}
    if record.festa == "accepted":
        assert record.bid[0].name in "SWN" and record.contract == ("null" if record.bid[2] == "null" else "festa")
    else:
        assert record.festa == "host" and record.bid is None
    check_sheet(browser)


#: The engine's festa bids stood in for: every bidder's hint recommends 6 plus-tricks
#: and knows no other bid, so that the first bidder bids 6 and the others pass.
SIX_PLUS = """
const send = window.fetch.bind(window);
window.fetch = (url, opts) => {
  const body = opts && opts.body ? JSON.parse(opts.body) : {};
  if (String(url).endsWith("/api/v1/hint") && body.role === "bidder") {
    return Promise.resolve(new Response(JSON.stringify({ choice: "festa", seat: body.seat,
      recommended: "6 plus", options: [{ option: "6 plus", mean: 200, std: 0, play: "S bidder leads" }],
      samples: 1, level: 1 }), { status: 200, headers: { "Content-Type": "application/json" } }));
  }
  return send(url, opts);
};
"""


def test_a_festa_host_answers_8_or_null(server, browser, tmp_path):
    # docs/rules.md 6: to 6 or 7 plus-tricks the host may answer "8 or null"; a bidder
    # that does not raise leaves the host to play null, nobody paying, the seat after
    # the host (S) leading.
    set_up(browser, server, "portuguese", seat="E")
    browser.execute_script(SIX_PLUS)
    load_match(browser, match_text("portuguese", 6), tmp_path)
    wait_for(browser, lambda d: d.find_elements(By.ID, "g-8-or-null"), "the host's answers")
    assert "South bids 6 plus" in d_text(browser, "g-choice-text")
    click(browser, "g-8-or-null")
    play_hand(browser)
    record = last_record(browser)
    assert (record.contract, record.festa, record.bid, record.leader.name) == (
        "null", "refused", (record.bid[0], 6, "plus"), "S")
    assert record.bid[0].name == "S"
    line = check_sheet(browser)["hands"][-1]
    assert line["scores"] == line["played"]         # nobody pays


def test_the_italian_wikipedia_rules_a_hand(server, browser):
    set_up(browser, server, "italian-wikipedia", seat="E")
    start(browser)
    play_hand(browser)
    assert last_record(browser).contract == "no-kings-jacks"
    check_sheet(browser)


OWN_CARDS = "return [...document.querySelectorAll('.seat.you .card')].map((b) => b.dataset.card)"


def test_a_reload_resumes_at_the_same_card(server, browser):
    set_up(browser, server, "russian", seat="S")
    start(browser)
    for _ in range(3):
        play_first_card(browser)
    wait_for(browser, your_cards, "the player's 4th turn")
    before = stored(browser)["hand"]
    cards = browser.execute_script(OWN_CARDS)
    browser.refresh()
    wait_for(browser, your_cards, "the player's turn after the reload")
    assert stored(browser)["hand"]["play"] == before["play"] and stored(browser)["hand"]["deal"] == before["deal"]
    assert browser.execute_script(OWN_CARDS) == cards
    # another tab starts at a new game's form; once the game's tab is closed, the game
    # is offered there to resume, at the same card
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(server + "/play")
    wait_for(browser, lambda d: d.find_element(By.ID, "game-setup").is_displayed(), "a new game's form")
    second = browser.current_window_handle
    browser.switch_to.window(first)
    browser.close()
    browser.switch_to.window(second)
    browser.refresh()
    wait_for(browser, lambda d: d.find_element(By.ID, "g-resume-row").is_displayed(), "the game to resume")
    assert "russian" in d_text(browser, "g-resume").lower() or "Russian" in d_text(browser, "g-resume")
    click(browser, "g-resume-button")
    wait_for(browser, your_cards, "the player's turn in the resumed game")
    assert stored(browser)["hand"]["play"] == before["play"]
    assert browser.execute_script(OWN_CARDS) == cards


def test_a_refused_request_is_tried_again(server, browser):
    set_up(browser, server, "russian", seat="W")
    REFUSE["hint"] = 1
    start(browser)
    wait_for(browser, lambda d: "trying again" in d_text(d, "g-message"), "the message of the retry")
    assert "the server is busy" in d_text(browser, "g-message")
    play_hand(browser)
    assert REFUSE["hint"] == 0 and d_text(browser, "g-message") == ""
    check_sheet(browser)


def test_a_request_refused_for_its_content_waits_for_the_player(server, browser):
    # a 400 is not tried again by itself: the message says why, and a button goes on
    set_up(browser, server, "russian", seat="W")
    REFUSE["bad"] = 1
    start(browser)
    wait_for(browser, lambda d: d.find_element(By.ID, "g-retry").is_displayed(), "the button to try again")
    assert d_text(browser, "g-message") == "The server refused: a refusal for the test"
    click(browser, "g-retry")
    play_hand(browser)
    assert REFUSE["bad"] == 0 and not browser.find_element(By.ID, "g-retry").is_displayed()
    check_sheet(browser)


def test_review_this_hand_opens_the_review(server, browser):
    set_up(browser, server, "russian", seat="S")
    start(browser)
    play_hand(browser)
    href = browser.find_element(By.ID, "g-review").get_attribute("href")
    browser.get(href)
    wait_for(browser, lambda d: d.find_element(By.ID, "review-panel").is_displayed(), "the review")
    assert d_text(browser, "review-title").startswith("Review of Russian (32 cards) no tricks")
    rows = browser.find_elements(By.CSS_SELECTOR, "#review-summary tbody tr")
    assert len(rows) == 4


@pytest.mark.slow
def test_a_whole_russian_game_to_its_final_score(server, browser):
    set_up(browser, server, "russian", seat="S")
    start(browser)
    for number in range(1, 15):
        play_hand(browser)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#g-sheet tbody tr")) == number
        click(browser, "g-next")
    wait_for(browser, lambda d: d_text(d, "g-hand-title") == "The game is over", "the end of the game")
    sheet = check_sheet(browser)
    assert sheet["complete"] and len(sheet["hands"]) == 14
    best = max(sheet["totals"].values())
    assert f"with {best}." in d_text(browser, "g-hand-info")


def test_the_domino_hand_of_an_italian_game(server, browser, tmp_path):
    # docs/rules.md 9: hand 8, dealt by S, W moves first; the hint engine plays trick
    # contracts only, so the engine plays the first card /legal lists.
    go_on_from(browser, server, "italian", 7, "S", tmp_path)
    play_hand(browser)
    record = last_record(browser)
    assert record.contract == "domino" and record.leader.name == "W"
    assert sent(browser, "/api/v1/hint") == []
    sheet = check_sheet(browser)
    assert sheet["next"]["contract"] == "trumps"


def test_a_hint_for_the_player_marks_the_hand(server, browser):
    set_up(browser, server, "russian", seat="N")
    start(browser)
    wait_for(browser, your_cards, "the player's lead")
    click(browser, "g-hint")
    text = wait_for(browser, lambda d: d_text(d, "g-hint-text") if "suggests" in d_text(d, "g-hint-text") else None,
                    "the hint")
    best = browser.find_element(By.CSS_SELECTOR, ".seat.you .card.best").get_attribute("data-card")
    ask = [b for b in sent(browser, "/api/v1/hint") if b["seat"] == "N"]
    assert len(ask) == 1 and ask[0]["level"] == levels_answer()["default"]
    assert best[1] in text.replace("10", "T")
    assert browser.find_element(By.ID, "g-help").is_displayed()
    play_hand(browser)
    assert "; played with a hint" in stored(browser)["records"][0]
    assert browser.find_element(By.CSS_SELECTOR, "#g-sheet tbody tr .helped").text == "H"


@pytest.mark.parametrize("code", ["en", "it", "pt", "tr", "ru"])
def test_each_language_fits_wide_and_narrow(server, browser, code):
    browser.get(server + "/healthz")
    browser.execute_script("localStorage.setItem('kingsolve-language', arguments[0])", code)
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    own = json.loads((STATIC / "i18n" / f"{code}.json").read_text(encoding="utf-8"))
    for width, height in ((1280, 800), (390, 844)):
        # the viewport itself: a headless window is never narrower than 500 px
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
        set_up(browser, server, "turkish", seat="N")
        assert browser.execute_script("return document.documentElement.clientWidth") == width
        assert d_text(browser, "g-start") == own["setup.start"]
        assert not browser.find_element(By.ID, "g-resume-row").is_displayed()      # no game left
        assert browser.execute_script(OVERFLOW) == [], (code, width, "the new game's form")
        browser.save_screenshot(str(SHOTS / f"kingsolve-play-{code}-{width}-setup.png"))
        click(browser, "g-start")
        buttons = wait_for(browser, choice_buttons, "the contract choice")
        assert buttons[0].text == own["contract.no-tricks"]
        assert d_text(browser, "g-sheet-title") == own["sheet.title"]
        assert own["sheet.title"] != english["sheet.title"] or code == "en"
        assert browser.execute_script(OVERFLOW) == [], (code, width, "the contract choice")
        browser.save_screenshot(str(SHOTS / f"kingsolve-play-{code}-{width}-choice.png"))
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.execute_script("localStorage.removeItem('kingsolve-language')")
