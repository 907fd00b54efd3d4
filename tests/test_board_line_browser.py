"""The board's best line in headless Chromium (see tests/test_board_browser.py).

The board asks ``/solve`` for ``"line": true`` and plays the answer's ``line``
(``kingsolve.search.line.Line.to_dict``) out on the table, a trick at a time, and takes
it back. The server answers the line; to show an estimated line on a deal the server
proves at once, the page's ``fetch`` gives that request the library's own analysis of
the position within a small budget.
"""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from kingsolve import Budget, Deal, Position, analyse, solve
from kingsolve.search.engine import idle_cores

from board_page import SHOTS, d_text, wait_for

pytestmark = pytest.mark.browser


def answer_line_requests(driver, answer: dict | None = None) -> None:
    """The page's ``/api/v1/solve`` requests with ``line`` kept in ``window.lineRequests``,
    and answered by the server, or with ``answer`` (an analysis the server would not
    give on this small deal: one only estimated)."""
    driver.execute_script("""
        const answer = arguments[0];
        window.lineRequests = [];
        if (!window.plainFetch) window.plainFetch = window.fetch;
        window.fetch = async (path, opts) => {
          const body = opts && opts.body ? JSON.parse(opts.body) : {};
          if (path === "/api/v1/solve" && body.line) {
            window.lineRequests.push(body);
            if (answer) return new Response(JSON.stringify(answer),
              { status: 200, headers: { "Content-Type": "application/json" } });
          }
          return window.plainFetch(path, opts);
        };""", answer)


def history(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#history li')].map(li => li.textContent);")


def line_cards_shown(driver) -> int:
    return driver.execute_script("return document.querySelectorAll('#history .line-card').length;")


def open_russian_deal(browser, server) -> None:
    browser.get(server + "/#" + "variant=russian&contract=no-queens&leader=N&deal="
                + Deal.random(7, deck=32).pbn().replace(" ", "%20"))
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".card")) == 32, "the deal")
    wait_for(browser, lambda d: d.find_element(By.ID, "table").get_attribute("data-analysis")
             in ("solved", "stopped"), "the analysis")


def test_the_board_plays_the_best_line_out_and_takes_it_back(server, browser):
    open_russian_deal(browser, server)
    pos = Position("russian", "no-queens", Deal.random(7, deck=32), leader="N")
    result = solve(pos, line=True)
    line = result.to_dict()["line"]
    answer_line_requests(browser)          # the server's own line
    assert browser.find_element(By.ID, "line-panel").get_attribute("hidden") is not None

    browser.find_element(By.ID, "line-show").click()
    wait_for(browser, lambda d: not d.find_element(By.ID, "line-panel").get_attribute("hidden"),
             "the line's panel")
    asked = browser.execute_script("return window.lineRequests;")
    assert asked[0]["line"] is True and asked[0]["play"] == []
    tricks = browser.find_elements(By.CSS_SELECTOR, "#line-tricks li")
    n = len(line["tricks"])       # the hand ends early, when the last queen falls
    assert len(tricks) == n and 1 < n < 8
    # the first trick is on the table: four cards of the line in the history
    wait_for(browser, lambda d: len(history(d)) == 1, "the line's first trick")
    assert line_cards_shown(browser) == 4
    first = line["tricks"][0]
    assert history(browser)[0].endswith(f"\u2192 {first['winner']}")
    assert "Best line for North" in d_text(browser, "message")

    for k in range(2, n + 1):
        browser.find_element(By.ID, "line-next").click()
        wait_for(browser, lambda d: len(history(d)) == k, f"the line's trick {k}")
    assert line_cards_shown(browser) == len(line["cards"]) == 4 * n
    assert browser.find_element(By.ID, "line-next").get_attribute("disabled") is not None
    wait_for(browser, lambda d: "Hand complete" in d_text(d, "centre"), "the end of the hand")
    scores = d_text(browser, "scores")
    assert all(f"{s} {v}".replace("-", "\u2212") in scores.replace("-", "\u2212")
               for s, v in line["scores"].items()), scores
    browser.save_screenshot(str(SHOTS / "board-line.png"))

    # taken back a trick at a time (u too), then left: the position it started from
    browser.find_element(By.ID, "line-back").click()
    wait_for(browser, lambda d: len(history(d)) == n - 1, "a trick taken back")
    browser.find_element(By.TAG_NAME, "body").send_keys("u")
    wait_for(browser, lambda d: len(history(d)) == n - 2, "another trick taken back")
    browser.find_element(By.ID, "line-leave").click()
    wait_for(browser, lambda d: len(history(d)) == 0, "the line left")
    assert browser.find_element(By.ID, "line-panel").get_attribute("hidden") is not None
    assert browser.find_element(By.ID, "line-show").get_attribute("disabled") is None


def test_the_board_marks_the_estimates_cards(server, browser):
    open_russian_deal(browser, server)
    pos = Position("russian", "no-queens", Deal.random(7, deck=32), leader="N")
    idle_cores.clear()      # the board's own analysis of the deal left its table solved
    a = analyse(pos, budget=Budget(nodes=5000, ms=5000), estimator="playout", line=True)
    assert not a.solved
    line = a.to_dict()["line"]
    estimated = [p for p in line["plays"] if not p["exact"]]
    assert estimated and len(estimated) < len(line["plays"])
    answer_line_requests(browser, a.to_dict())
    browser.find_element(By.ID, "line-show").click()
    wait_for(browser, lambda d: len(history(d)) == 1, "the line's first trick")
    for k in range(2, len(line["tricks"]) + 1):
        browser.find_element(By.ID, "line-next").click()
        wait_for(browser, lambda d: len(history(d)) == k, f"the line's trick {k}")
    marked = browser.execute_script(
        "return [...document.querySelectorAll('#history .line-card.estimated')].map(s => s.textContent);")
    assert len(marked) == len(estimated) and all(m.endswith("~") for m in marked)
    assert "not proved best" in d_text(browser, "message")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#line-tricks .line-card.estimated")) \
        == len(estimated)
    browser.find_element(By.ID, "line-leave").click()
    wait_for(browser, lambda d: len(history(d)) == 0, "the line left")
    assert json.loads(json.dumps(line))["exact"] is False
