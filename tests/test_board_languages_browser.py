"""The analysis board in each of its five languages, in headless Chromium: at a phone's
width and a laptop's, no text is cut off and no control is off screen, and in the
four languages other than English no English text of the catalogue is left on the
page. The page is seen at a solved position, playing its best line out, then
reviewing a short record."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from selenium.webdriver.common.by import By

from kingsolve.game.deal import Deal

from board_page import OVERFLOW, SHOTS, wait_for
from play_page import wait_for as wait_on_play

pytestmark = pytest.mark.browser

STATIC = Path(__file__).parent.parent / "api" / "kingsolve_api" / "static"
RECORD = (Path(__file__).parent / "data" / "italian-short.kpbn").read_text().split("\n\n")[0]
SIZES = ((1280, 800), (390, 844))
#: Names and notations that read the same in every language.
NAMES = re.compile(r"kingsolve|OpenAPI|API|PBN|JSON|HTTP|docs/rules\.md")
LETTERS = "A-Za-zÀ-ÿ"

#: Every text the page shows a reader: the visible text outside code, each option of
#: its lists, the chart's words, titles, labels read aloud and the seed's placeholder.
TEXTS = """
const out = [document.title, document.getElementById("seed").placeholder];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const p = n.parentElement;
  if (p.closest("code, script") || !(p.getClientRects().length || p.closest("option, svg"))) continue;
  out.push(n.textContent);
}
for (const node of document.querySelectorAll("[title], [aria-label]"))
  out.push(node.getAttribute("title") || "", node.getAttribute("aria-label") || "");
return out.map((t) => t.trim()).filter(Boolean);
"""


def catalogue(code: str) -> dict[str, str]:
    data = json.loads((STATIC / "i18n" / f"{code}.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def english_left(texts: list[str], code: str) -> list[str]:
    """The pieces of English catalogue texts (between their {fields}, with a word of three
    letters or more) that `texts` still hold, for each key `code` translates differently."""
    english, own = catalogue("en"), catalogue(code)
    pieces = {piece.strip() for key, text in english.items() if own[key] != text
              for piece in re.split(r"\{\w+\}", text)
              if re.search(f"[{LETTERS}]{{3,}}", NAMES.sub("", piece))}
    found = []
    for piece in sorted(pieces):
        word = re.compile(f"(?<![{LETTERS}]){re.escape(piece)}(?![{LETTERS}])")
        found += [f"{piece!r} in {text!r}" for text in texts if word.search(text)]
    return found


def settled(driver) -> bool:
    return driver.find_element(By.ID, "table").get_attribute("data-analysis") in ("solved", "stopped")


def look(browser, code: str, what: str) -> None:
    """At each size: nothing cut off or off screen, a screenshot, no English left."""
    for width, height in SIZES:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
        assert browser.execute_script("return window.innerWidth") == width      # a scroll bar aside
        assert browser.execute_script(OVERFLOW) == [], (code, width, what)
        browser.save_screenshot(str(SHOTS / f"kingsolve-board-{code}-{width}-{what}.png"))
    if code != "en":
        assert english_left(browser.execute_script(TEXTS), code) == [], (code, what)


@pytest.mark.parametrize("code", ["en", "it", "pt", "tr", "ru"])
def test_the_board_in_each_language_fits_and_speaks_it(server, browser, code):
    browser.get(server + "/healthz")
    browser.execute_script("localStorage.setItem('kingsolve-language', arguments[0])", code)
    own = catalogue(code)
    try:
        # a solved position of a Russian deal (32 cards: solved at once)
        position = {"variant": "russian", "contract": "no-queens", "leader": "N",
                    "deal": Deal.random(7, deck=32).pbn()}
        browser.get(f"{server}/#{urlencode(position)}")
        wait_for(browser, lambda d: settled(d) and d.find_elements(By.CSS_SELECTOR, ".card.valued"), "the values")
        assert browser.find_element(By.CSS_SELECTOR, "#lang").get_attribute("value") == code
        assert browser.find_element(By.ID, "random").text == own["board.random"]
        for summary in browser.find_elements(By.CSS_SELECTOR, "details summary"):
            summary.click()     # the rule file's and the record's forms shown
        look(browser, code, "position")
        # the best line played out on the table, a trick shown
        browser.find_element(By.ID, "line-show").click()
        wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#line-tricks li[aria-current=step]"), "the line")
        look(browser, code, "line")
        # the review of a short record: its summary, costly cards and their best lines
        browser.execute_script("document.getElementById('record').value = arguments[0]", RECORD)
        browser.find_element(By.ID, "review").click()
        wait_for(browser, lambda d: d.find_element(By.ID, "review-panel").is_displayed() and settled(d),
                 "the review")
        wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".review-line"), "the best lines")
        look(browser, code, "review")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        browser.execute_script("localStorage.removeItem('kingsolve-language')")


def test_the_language_menus_change_both_pages_and_are_remembered(server, browser):
    browser.get(server + "/healthz")
    browser.execute_script("localStorage.removeItem('kingsolve-language')")
    position = {"variant": "russian", "contract": "no-queens", "leader": "N", "deal": Deal.random(7, deck=32).pbn()}
    browser.get(f"{server}/#{urlencode(position)}")
    wait_for(browser, settled, "the analysis")
    try:
        browser.find_element(By.CSS_SELECTOR, "#lang option[value=ru]").click()
        ru = catalogue("ru")
        wait_for(browser, lambda d: d.find_element(By.ID, "random").text == ru["board.random"], "the Russian texts")
        wait_for(browser, lambda d: d.find_element(By.ID, "message").text.startswith("Ходит"), "the analysis in Russian")
        assert browser.execute_script("return localStorage.getItem('kingsolve-language')") == "ru"
        # the game page follows the same choice
        browser.get(server + "/play")
        wait_on_play(browser, lambda d: d.find_element(By.ID, "g-start").text == ru["setup.start"], "the game page in Russian")
        # and its menu, the same, changes both pages
        browser.find_element(By.CSS_SELECTOR, "#lang option[value=it]").click()
        it = catalogue("it")
        wait_on_play(browser, lambda d: d.find_element(By.ID, "g-start").text == it["setup.start"], "the game page in Italian")
        browser.get(f"{server}/#{urlencode(position)}")
        wait_for(browser, lambda d: d.find_element(By.ID, "random").text == it["board.random"], "the board in Italian")
    finally:
        browser.execute_script("localStorage.removeItem('kingsolve-language')")
