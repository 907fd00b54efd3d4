"""Driving the game page (/play) in a browser, and matches played out here to load into it."""

from __future__ import annotations

from pathlib import Path

from selenium.common.exceptions import (ElementNotInteractableException,
                                        StaleElementReferenceException, TimeoutException)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from kingsolve.game.deal import Deal
from kingsolve.game.play import new_position
from kingsolve.game.record import Record, format_records
from kingsolve.game.rules import get_variant

from selenium.webdriver.support.ui import WebDriverWait

from board_page import WAIT


def wait_for(driver, predicate, what: str, seconds: float = WAIT):
    """The predicate's first truthy value, or a failure that says what never happened
    and what the page said."""
    def said(d) -> str:
        found = d.find_elements(By.ID, "g-message")
        return found[0].text if found else ""
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05).until(predicate)
    except TimeoutException:
        raise AssertionError(f"timed out waiting for {what}; page says: {said(driver)!r}; "
                             f"console: {console(driver)}") from None


def console(driver) -> list:
    try:
        return driver.get_log("browser")[-5:]
    except Exception:           # a driver without logs
        return []

#: Records every request body the page sends, as [url, body] in window.sent.
RECORD_REQUESTS = """
window.sent = window.sent || [];
const send = window.fetch.bind(window);
window.fetch = (url, opts) => {
  if (opts && opts.body) window.sent.push([String(url), JSON.parse(opts.body)]);
  return send(url, opts);
};
"""


def match_text(variant: str, hands: int, doubles: bool = False) -> str:
    """The first ``hands`` hands of a rule set's schedule, each played out by the first
    legal card, as a saved game's records."""
    rs = get_variant(variant)
    records = []
    for i, h in enumerate(rs.match_schedule(doubles)[:hands]):
        contract = rs.contract(h.contract)
        trump = "S" if contract.kind == "tricks" and contract.trump != "none" else None
        pos = new_position(rs, contract, Deal.random(100 + i, deck=rs.deck), leader=h.leader,
                           trump=trump, doubles=doubles and contract.kind == "tricks")
        while not pos.complete:
            pos.play(pos.legal_cards()[0])
        records.append(Record.from_position(pos, dealer=h.dealer, hand=h.number))
    return format_records(records)


def set_up(driver, server: str, variant: str, seat: str = "S", level: int = 1,
           doubles: bool = False, pace: str = "instant") -> None:
    """A fresh page (this tab's game and the browser's games forgotten) with the new
    game's form filled in."""
    # cleared from a page of the same origin that runs no game, which could save it again
    driver.get(server + "/healthz")
    driver.execute_script("sessionStorage.clear(); localStorage.removeItem('kingsolve-games')")
    driver.get(server + "/play")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#g-level option"), "the levels")
    Select(driver.find_element(By.ID, "g-variant")).select_by_value(variant)
    Select(driver.find_element(By.ID, "g-seat")).select_by_value(seat)
    Select(driver.find_element(By.ID, "g-level")).select_by_value(str(level))
    Select(driver.find_element(By.ID, "g-pace")).select_by_value(pace)
    box = driver.find_element(By.ID, "g-doubles")
    if box.is_selected() != doubles:
        box.click()


def load_match(driver, text: str, tmp: Path) -> None:
    """Load a saved game through the page's file input."""
    path = tmp / "game.txt"
    path.write_text(text)
    driver.find_element(By.ID, "g-load").send_keys(str(path))
    wait_for(driver, lambda d: d.find_element(By.ID, "game").is_displayed(), "the loaded game")


def hand_over(driver) -> bool:
    return driver.find_element(By.ID, "g-after").is_displayed()


def your_cards(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, ".seat.you .card.legal:not([disabled])")


def choice_buttons(driver) -> list:
    if not driver.find_element(By.ID, "g-choice").is_displayed():
        return []
    return driver.find_elements(By.CSS_SELECTOR, "#g-choice-options button")


def play_hand(driver, choose=None, seconds: float = WAIT, card=None) -> list[str]:
    """Play the player's seat to the end of the hand: the legal card ``card(driver)``
    names (default the first), and at each choice the button ``choose(buttons)`` picks
    (default the first). The kinds of choice met, in order."""
    met: list[str] = []

    def turn(d):
        try:
            return act(d)
        except (StaleElementReferenceException, ElementNotInteractableException):
            return False            # redrawn or hidden under the click: look again

    def act(d):
        if hand_over(d):
            return True
        buttons = choice_buttons(d)
        if buttons:
            kind = d.find_element(By.ID, "g-choice-title").text
            met.append(kind)
            (choose(buttons) if choose else buttons[0]).click()
            return False
        cards = your_cards(d)
        if cards:
            named = card(d) if card else None
            pick = [c for c in cards if c.get_attribute("data-card") == named] or cards
            pick[0].click()
        return False
    wait_for(driver, turn, "the end of the hand", seconds)
    return met


def play_first_card(driver) -> str:
    """Play the player's first legal card once it is the player's turn; the card."""
    def click(d):
        try:
            cards = your_cards(d)
            if not cards:
                return None
            card = cards[0].get_attribute("data-card")
            cards[0].click()
            return card
        except (StaleElementReferenceException, ElementNotInteractableException):
            return None
    return wait_for(driver, click, "the player's turn")


def by_name(buttons) -> dict:
    """The choice panel's buttons by their id, else by the option they give."""
    return {b.get_attribute("id") or b.get_attribute("data-option"): b for b in buttons}


def go_on_from(driver, server: str, variant: str, hands: int, seat: str, tmp: Path,
               doubles: bool = False) -> None:
    """A saved game of a rule set's first ``hands`` hands, loaded with the player at
    ``seat``, the page's requests recorded from there on (window.sent)."""
    set_up(driver, server, variant, seat=seat)
    driver.execute_script(RECORD_REQUESTS)
    load_match(driver, match_text(variant, hands, doubles), tmp)


def click(driver, element_id: str) -> None:
    """Click a control once it is shown and enabled (the page redraws under a test)."""
    def once(d):
        try:
            found = d.find_elements(By.ID, element_id)
            if not (found and found[0].is_displayed() and found[0].is_enabled()):
                return False
            found[0].click()
            return True
        except (StaleElementReferenceException, ElementNotInteractableException):
            return False
    wait_for(driver, once, f"#{element_id} to click")
