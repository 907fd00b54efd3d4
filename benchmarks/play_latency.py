"""How long the player waits on /play: from the player's card to the engine's three
answers, measured in the browser (headless Chromium against the served app).

Each game is a Turkish one with the player at N, who chooses `no-tricks` (it never
ends early) and so leads trick 1: the first wait is at 13 cards in hand, for the
engine's three answers. The player then plays its first legal card until it holds 5
cards, and the wait is measured again; there the engine's answers before the player's
next turn may be fewer than three (a trick the player wins), so the wait ends at the
third answer or at the player's turn, and the answers it covered are counted. A wait
runs from the click to that card in the game's storage, at the engine's default level
unless --level says otherwise, at the instant pace.

    python benchmarks/play_latency.py --games 10

With --whole, it times instead a whole game of each rule set named, the engine at
--level (1 here) and the player's seat playing the level-0 hint's card (the simple
player's, asked from the seat's own view) and taking the first option of each choice:

    python benchmarks/play_latency.py --whole italian,portuguese,turkish,russian --level 1
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.request import Request, urlopen

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from kingsolve.hands.hints import levels_answer  # noqa: E402
from kingsolve_api import create_app  # noqa: E402
from play_page import play_first_card, play_hand, set_up, wait_for, your_cards  # noqa: E402

#: Clicks the player's first legal card and answers [the milliseconds until the game in
#: the tab's storage holds three more cards or the player is on move again, the engine's
#: cards in between].
TIMED_CARD = """
const done = arguments[arguments.length - 1];
const game = () => JSON.parse(localStorage.getItem('kingsolve-games'))[sessionStorage.getItem('kingsolve-game-id')];
const played = () => game().hand.play.length;
const card = () => document.querySelector('.seat.you .card.legal:not([disabled])');
const before = played(), start = performance.now();
card().click();
(function poll() {
  const answers = played() - before - 1;
  if (answers >= 3 || (answers >= 0 && card())) done([performance.now() - start, answers]);
  else setTimeout(poll, 2);
})();
"""


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_script_timeout(300)
    return driver


def one_game(driver, server: str, level: int) -> tuple[list, list]:
    """The waits at 13 and at 5 cards in hand, [milliseconds, engine answers]."""
    set_up(driver, server, "turkish", seat="N", level=level)
    driver.find_element(By.ID, "g-start").click()
    choice = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-option=no-tricks]"),
                      "the contract choice")
    choice[0].click()
    wait_for(driver, your_cards, "the first lead", 300)
    at13 = driver.execute_async_script(TIMED_CARD)
    for _ in range(7):                  # the 2nd to the 8th card: 5 left after them
        play_first_card(driver)
    wait_for(driver, your_cards, "the player's 9th card", 300)
    at5 = driver.execute_async_script(TIMED_CARD)
    return at13, at5


STORED = ("return JSON.parse(localStorage.getItem('kingsolve-games'))"
          "[sessionStorage.getItem('kingsolve-game-id')]")


def simple_card(server: str):
    """The player's card: the level-0 hint of its seat's own view (the domino, which the
    hint engine does not play: None, the first legal card)."""
    def card(driver) -> str | None:
        game = driver.execute_script(STORED)
        h = game["hand"]
        if h["contract"] == "domino":
            return None
        first, hands = h["deal"].split(":")
        order = "NESW"["NESW".index(first):] + "NESW"[:"NESW".index(first)]
        view = {"variant": game.get("document") or game["variant"], "contract": h["contract"],
                "seat": game["seat"], "hand": dict(zip(order, hands.split()))[game["seat"]],
                "leader": h["leader"], "play": h["play"], "level": 0,
                "doubles": game["doubles"]}
        if h["trump"]:
            view["trump"] = h["trump"]
        ask = Request(server + "/api/v1/hint", json.dumps(view).encode(),
                      {"Content-Type": "application/json"})
        with urlopen(ask, timeout=60) as answer:
            return json.load(answer)["recommended"]
    return card


def whole_game(driver, server: str, variant: str, level: int) -> tuple[float, int]:
    """Seconds a whole game takes on the page, and its hands."""
    set_up(driver, server, variant, seat="S", level=level)
    start = time.perf_counter()
    driver.find_element(By.ID, "g-start").click()
    hands = 0
    while True:
        play_hand(driver, seconds=600, card=simple_card(server))
        hands += 1
        complete = driver.execute_script(STORED)["sheet"]["complete"]
        driver.find_element(By.ID, "g-next").click()
        if complete:
            return time.perf_counter() - start, hands


def summary(name: str, waits: list[float]) -> str:
    waits = sorted(waits)
    p95 = waits[min(len(waits) - 1, round(0.95 * (len(waits) - 1)))]
    return f"{name}: median {statistics.median(waits):.0f} ms, p95 {p95:.0f} ms (n={len(waits)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--level", type=int, default=levels_answer()["default"])
    parser.add_argument("--whole", help="rule sets, comma-separated: time a whole game of each")
    args = parser.parse_args()
    app = create_app({})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    server = f"http://127.0.0.1:{httpd.server_port}"
    driver = browser()
    try:
        if args.whole:
            for variant in args.whole.split(","):
                seconds, hands = whole_game(driver, server, variant, args.level)
                print(f"{variant}: {hands} hands in {seconds:.0f} s, engine level {args.level}, "
                      f"load average {os.getloadavg()[0]:.1f}")
            return
        waits = [one_game(driver, server, args.level) for _ in range(args.games)]
    finally:
        driver.quit()
        httpd.shutdown()
    print(f"level {args.level}, {args.games} games, load average {os.getloadavg()[0]:.1f}")
    for name, k in (("13 cards", 0), (" 5 cards", 1)):
        answers = [w[k][1] for w in waits]
        print(summary(name, [w[k][0] for w in waits]) + f", engine answers {min(answers)}-{max(answers)}"
              f", per answer median {statistics.median(w[k][0] / max(1, w[k][1]) for w in waits):.0f} ms")


if __name__ == "__main__":
    main()
