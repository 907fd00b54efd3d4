"""Time to the exact answer through the request layer, against the engine alone.

    .venv/bin/python research/latency.py [--families doubles-nt,doubles-trumps,singles,domino]
        [--deals 16] [--per 1] [--repeat 2] [--ms 20000]

What a user calls (``solve_request``: the API, the CLI, batches) answers at once with
estimates and then improves them; this measures when its first *exact* answer (every
value asked and every legal card proved) arrives, beside ``kingsolve.solve`` proving
the same values (the same seats, every card) and, where the problem is bridge's, DDS
``solve_board`` giving every card its score (mode Default, one thread). Every run
starts from empty tables (DDS solves an unrelated deal first); each problem keeps the
best of ``--repeat`` alternating runs. Families:

- ``doubles-nt``, ``doubles-trumps``: Italian doubles full deals, W leading, W's side
  (``trumps`` with the trump suit ``seed % 4``);
- ``singles``: every penalty contract of the 52-card rule sets, ``--per`` seeded
  positions each at 9, 10 and 11 tricks left (played at random), one seat's value;
- ``domino``: Italian domino full deals, every seat.

Prints per family the median and p90 of the ratios request/solve (and request/DDS,
solve/DDS), the median times, and for full singles deals the time to the first answer
(p95). Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from core_speed import dds_board, endplay_dds, forget, unrelated_board  # noqa: E402
from frontier import penalty_contracts  # noqa: E402
from kingsolve import Deal, Seat  # noqa: E402
from kingsolve.errors import SolveTimeout  # noqa: E402
from kingsolve.game.play import new_position  # noqa: E402
from kingsolve.game.rules import get_variant  # noqa: E402
from kingsolve.io.request import solve_request  # noqa: E402
from kingsolve.search.dispatch import solve_position  # noqa: E402
from kingsolve.search.budget import Budget  # noqa: E402

FAMILIES = ("doubles-nt", "doubles-trumps", "singles", "domino")


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def position_of(req: dict):
    return new_position(get_variant(req["variant"]), req["contract"], Deal(req["deal"]),
                        leader=Seat.parse(req["leader"]), trump=req.get("trump"),
                        doubles=req.get("doubles", False), play=req.get("play", []))


def fresh_tables(position) -> None:
    """The next core leased for ``position`` starts from an empty table (a kept core
    loaded with another deal: a new core would charge its pages to the timed run)."""
    if hasattr(position, "tricks"):
        forget(position, Budget())


def request_times(req: dict) -> tuple[float, float]:
    """Seconds to the first answer and to the first exact one (inf if none)."""
    first = exact = float("inf")
    fresh_tables(position_of(req))
    start = time.perf_counter()

    def seen(analysis) -> None:  # noqa: E306
        nonlocal first, exact
        now = time.perf_counter() - start
        first = min(first, now)
        if analysis.solved:
            exact = min(exact, now)
    try:
        solve_request(req, on_update=seen)
    except SolveTimeout:
        pass
    return first, exact


def solve_time(req: dict) -> float:
    position = position_of(req)
    seats = [Seat.parse(s) for s in req["seats"]] if "seats" in req else None
    fresh_tables(position)
    start = time.perf_counter()
    try:
        solve_position(position, seats, Budget(ms=req["ms"]))
    except SolveTimeout:
        return float("inf")
    return time.perf_counter() - start


def dds_time(req: dict) -> float:
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    board = dds_board(Deal(req["deal"]), Seat.parse(req["leader"]), req.get("trump"))
    solve_board(unrelated_board(), SolveMode.OptimalOne)
    start = time.perf_counter()
    solve_board(board, SolveMode.Default)
    return time.perf_counter() - start


def problems(family: str, deals: int, per: int, ms: float) -> list[dict]:
    base = {"variant": "italian", "ms": ms}
    if family in ("doubles-nt", "doubles-trumps"):
        out = []
        for seed in range(deals):
            req = {**base, "contract": "no-trumps", "doubles": True, "leader": "W",
                   "seats": ["W"], "deal": Deal.random(seed).pbn()}
            if family == "doubles-trumps":
                req.update(contract="trumps", trump="SHDC"[seed % 4])
            out.append(req)
        return out
    if family == "domino":
        return [{**base, "contract": "domino", "leader": "N", "deal": Deal.random(seed).pbn()}
                for seed in range(deals)]
    out = []
    for left in (9, 10, 11):
        for vname, cname in penalty_contracts():
            for seed in range(per):
                out.append(singles_problem(vname, cname, seed, left, ms))
    return out


def singles_problem(vname: str, cname: str, seed: int, left: int, ms: float) -> dict:
    """A seeded position ``left`` tricks from the end, played at random, one seat asked."""
    from kingsolve import Position
    rng = random.Random(f"latency/{vname}/{cname}/{seed}/{left}")
    deal = Deal.random(rng.randrange(10**9))
    leader = Seat(rng.randrange(4))
    pos = Position(vname, cname, deal, leader=leader)
    play = []
    while not pos.complete and (pos.n_tricks - len(pos.tricks) > left or pos.trick):
        card = rng.choice(pos.legal_cards())
        pos.play(card)
        play.append(str(card))
    return {"variant": vname, "contract": cname, "deal": deal.pbn(), "leader": leader.name,
            "play": play, "seats": [Seat(rng.randrange(4)).name], "ms": ms}


def bench(family: str, reqs: list[dict], repeat: int, with_dds: bool) -> None:
    rows = []
    for req in reqs:
        best = {"request": float("inf"), "solve": float("inf"), "dds": float("inf")}
        for _ in range(repeat):
            best["request"] = min(best["request"], request_times(req)[1])
            best["solve"] = min(best["solve"], solve_time(req))
            if with_dds:
                best["dds"] = min(best["dds"], dds_time(req))
        rows.append(best)
    # the problems the engine proves within the budget; a request that does not
    # prove one counts at its ratio infinite
    rows = [r for r in rows if r["solve"] < float("inf")]
    done = [r for r in rows if r["request"] < float("inf")]
    ratio = [r["request"] / r["solve"] for r in rows]
    line = (f"| {family} | {len(done)} of {len(rows)} | {quantile(ratio, 0.5):.2f} | "
            f"{quantile(ratio, 0.9):.2f} | "
            f"{statistics.median(r['request'] for r in done) * 1000:.1f} ms | "
            f"{statistics.median(r['solve'] for r in rows) * 1000:.1f} ms |")
    if with_dds:
        to_dds = [r["request"] / r["dds"] for r in rows]
        solve_dds = [r["solve"] / r["dds"] for r in rows]
        line += (f" {quantile(to_dds, 0.5):.2f} | {quantile(solve_dds, 0.5):.2f} | "
                 f"{statistics.median(r['dds'] for r in rows) * 1000:.1f} ms |")
    else:
        line += " | | |"
    print(line, flush=True)


def first_answers(deals: int, ms: float) -> None:
    """Time to the first answer on full singles deals, every contract of ``italian``."""
    times = []
    for seed in range(deals):
        for cname in get_variant("italian").contracts:
            if cname == "domino":
                continue
            req = {"variant": "italian", "contract": cname, "leader": "N", "ms": ms,
                   "deal": Deal.random(seed).pbn(), "trump": "S" if cname == "trumps" else None}
            first, _ = request_times({**req, "ms": 300})
            times.append(first)
    print(f"\nfirst answer, full singles deals ({len(times)}): median "
          f"{statistics.median(times) * 1000:.2f} ms, p95 {quantile(times, 0.95) * 1000:.2f} ms, "
          f"max {max(times) * 1000:.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--deals", type=int, default=16, help="full deals a family")
    ap.add_argument("--per", type=int, default=1, help="singles positions per contract and level")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--ms", type=float, default=20000.0, help="each request's budget")
    ap.add_argument("--first", type=int, default=4, help="deals for the first-answer times")
    args = ap.parse_args()
    dds = endplay_dds() is not None
    print("| family | exact | request/solve median | p90 | request median | solve median "
          "| request/DDS | solve/DDS | DDS median |")
    print("|---|---|---|---|---|---|---|---|---|")
    for family in args.families.split(","):
        if family not in FAMILIES:
            raise SystemExit(f"unknown family {family!r}: expected one of {', '.join(FAMILIES)}")
        bench(family, problems(family, args.deals, args.per, args.ms), args.repeat,
              dds and family.startswith("doubles"))
    if args.first:
        first_answers(args.first, args.ms)


if __name__ == "__main__":
    main()
