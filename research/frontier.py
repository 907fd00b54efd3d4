"""The exact frontier of the singles search: how fast one seat's paranoid value is
proved, by tricks left.

    .venv/bin/python research/frontier.py [--levels 6-13] [--per 3] [--budget-ms 3000]
        [--node-budget N] [--threads 1]

Positions: for every penalty contract of the 52-card rule sets (26 contracts), ``--per``
seeded deals, each played at random (``random.Random``) to a trick start with the
given number of tricks left; one random seat's value is searched (value only, no
per-card values), with ``--budget-ms`` per search, on ``--threads`` threads sharing
the table (the nodes are summed over them). Unsolved searches count at the
budget. Prints a markdown table per level: solved within the budget, median and 95th
percentile time, the median nodes (which do not depend on the machine's load) and
their total. To compare two builds by nodes alone, give a ``--node-budget`` and a
``--budget-ms`` that does not bind: the solved share and the nodes then do not
depend on the load.

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from core_speed import p95, seat_value  # noqa: E402
from kingsolve import Deal, Position, Seat  # noqa: E402
from kingsolve.search.budget import Budget  # noqa: E402
from kingsolve.game.rules import VARIANTS  # noqa: E402


def penalty_contracts() -> list[tuple[str, str]]:
    """Every contract of the 52-card rule sets whose points are all penalties."""
    return [(vname, cname) for vname, rs in VARIANTS.items() if rs.deck == 52
            for cname, c in rs.contracts.items() if c.penalty]


def position_at(vname: str, cname: str, seed: int, left: int) -> tuple[Position, Seat]:
    rng = random.Random(f"{vname}/{cname}/{seed}/{left}")
    pos = Position(vname, cname, Deal.random(rng.randrange(10**9)), leader=Seat(rng.randrange(4)))
    while not pos.complete and (pos.n_tricks - len(pos.tricks) > left or pos.trick):
        pos.play(rng.choice(pos.legal_cards()))
    return pos, Seat(rng.randrange(4))


def levels(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default="6-13", help="tricks left, e.g. 6-13 or 9,11")
    ap.add_argument("--per", type=int, default=3, help="deals per contract and level")
    ap.add_argument("--budget-ms", type=float, default=3000.0)
    ap.add_argument("--node-budget", type=int, default=Budget().nodes)
    ap.add_argument("--threads", type=int, default=1, help="threads of each search")
    args = ap.parse_args()
    budget = Budget(ms=args.budget_ms, nodes=args.node_budget)
    contracts = penalty_contracts()
    print(f"{len(contracts)} penalty contracts x {args.per} deals a level, one seat's value, "
          f"{args.budget_ms:g} ms budget, {args.threads} thread(s)")
    print("| tricks left | solved | median | p95 | median nodes | total nodes |")
    print("|---|---|---|---|---|---|")
    for left in levels(args.levels):
        times, nodes, solved = [], [], 0
        for vname, cname in contracts:
            for seed in range(args.per):
                pos, seat = position_at(vname, cname, seed, left)
                if pos.complete:
                    continue
                secs, n, ok, _ = seat_value(pos, seat, budget, threads=args.threads)
                times.append(secs if ok else budget.ms / 1000)
                nodes.append(n)
                solved += ok
        def show(x: float) -> str:
            if x >= budget.ms / 1000:
                return f"over {budget.ms / 1000:g} s"
            return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s"
        print(f"| {left} | {solved} of {len(times)} | {show(statistics.median(times))} | "
              f"{show(p95(times))} | {statistics.median(nodes) / 1e3:.0f} K | "
              f"{sum(nodes) / 1e6:.2f} M |", flush=True)


if __name__ == "__main__":
    main()
