"""What the optimal line adds to the solve that proved the value.

    .venv/bin/python research/line.py [--count 10] [--levels 8,9,10] [--node-budget N]
        [--cards] [--all-equal]

Two families of seeded problems, each value one ``kingsolve.solve(pos, seats=[seat],
cards=False)`` from an empty table (one thread; with ``--cards``, ``cards=True``,
``solve``'s default: the value of each legal card of the seat on move too):

- Italian doubles, full deals of ``no-trumps`` and ``trumps`` (a random trump), ``--count``
  each: deal i draws from ``random.Random("line/doubles/<contract>/<i>")`` the deal,
  the leader and the seat (its side);
- singles, every Italian trick contract at each of ``--levels`` tricks left, ``--count``
  positions a level spread over the contracts: a seeded full deal played to that many
  tricks left by random legal cards, the seat asked chosen at random.

Then the line (``kingsolve.search.line.exact_line``; with ``--all-equal`` naming every
equal card) on the same core, its table as the solve left it, which is what
``solve(..., line=True)`` does: its nodes and time beside
the solve's. Per family: the problems, the medians of the solve's and of the line's
time and nodes, and the median and 90th percentile of the line's share (line / solve,
by time and by nodes). A problem whose solve stops at ``--node-budget`` is left out
and counted. Every line's value is checked against the solve's (exit status 1 if one
differs).

Times vary with the machine's load: the node shares do not.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kingsolve import Deal, Position, Seat, solve  # noqa: E402
from kingsolve.errors import SolveTimeout  # noqa: E402
from kingsolve.search.budget import Budget  # noqa: E402
from kingsolve.game.rules import VARIANTS  # noqa: E402
from kingsolve.search.engine import idle_cores, leased_core  # noqa: E402
from kingsolve.search.line import exact_line  # noqa: E402


def doubles_problems(count: int) -> list[tuple[str, Position, Seat]]:
    out = []
    for contract in ("no-trumps", "trumps"):
        for i in range(count):
            rng = random.Random(f"line/doubles/{contract}/{i}")
            deal = Deal.random(rng.randrange(10**9))
            trump = rng.choice("SHDC") if contract == "trumps" else None
            pos = Position("italian", contract, deal, leader=rng.choice(list(Seat)),
                           trump=trump, doubles=True)
            out.append((f"doubles {contract}", pos, rng.choice(list(Seat))))
    return out


def singles_problems(count: int, levels: list[int]) -> list[tuple[str, Position, Seat]]:
    contracts = [n for n, c in VARIANTS["italian"].contracts.items() if c.kind == "tricks"]
    out = []
    for left in levels:
        for i in range(count):
            contract = contracts[i % len(contracts)]
            rng = random.Random(f"line/singles/{left}/{i}")
            trump = rng.choice("SHDC") if contract == "trumps" else None
            pos = Position("italian", contract, Deal.random(rng.randrange(10**9)),
                           leader=rng.choice(list(Seat)), trump=trump)
            while not pos.complete and pos.n_tricks - len(pos.tricks) > left:
                pos.play(rng.choice(pos.legal_cards()))
            if not pos.complete:
                out.append((f"singles {left} left", pos, rng.choice(list(Seat))))
    return out


def measure(pos: Position, seat: Seat, budget: Budget, every: bool,
            cards: bool) -> tuple[float, int, float, int, bool]:
    """The solve's ms and nodes, the line's ms and nodes, whether the line's value is
    the solve's; the solve from an empty table, the line on its table."""
    idle_cores.clear()
    start = time.perf_counter()
    result = solve(pos, seats=[seat], cards=cards, budget=budget)
    solve_ms = (time.perf_counter() - start) * 1000.0
    with leased_core(pos, budget) as core:
        core.set_budget(budget.nodes, budget.ms)
        start = time.perf_counter()
        line = exact_line(core, pos, seat, result.values[seat], budget, every)
        line_ms = (time.perf_counter() - start) * 1000.0
        line_nodes = core.nodes
    return solve_ms, result.nodes, line_ms, line_nodes, line.value == result.values[seat]


def p90(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.9 * len(xs)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--levels", default="8,9,10")
    ap.add_argument("--node-budget", type=int, default=20_000_000)
    ap.add_argument("--cards", action="store_true",
                    help="the solve with cards=True (solve's default): the mover's cards too")
    ap.add_argument("--all-equal", action="store_true",
                    help="the line naming every equal card (exact_line(..., every=True))")
    args = ap.parse_args()
    budget = Budget(nodes=args.node_budget, ms=600_000)
    problems = doubles_problems(args.count) + singles_problems(
        args.count, [int(x) for x in args.levels.split(",")])
    rows: dict[str, list] = {}
    stopped: dict[str, int] = {}
    wrong = 0
    for family, pos, seat in problems:
        try:
            got = measure(pos, seat, budget, args.all_equal, args.cards)
        except SolveTimeout:
            stopped[family] = stopped.get(family, 0) + 1
            continue
        wrong += not got[4]
        rows.setdefault(family, []).append(got)
    print("| problems | n | solve ms | line ms | solve nodes | line nodes "
          "| line/solve time: median, p90 | nodes: median, p90 |")
    print("|---|---|---|---|---|---|---|---|")
    every: list = []
    for family, got in list(rows.items()) + [("all", None)]:
        got = every if got is None else got
        if got is not every:
            every.extend(got)
        times = [g[2] / g[0] for g in got]
        nodes = [g[3] / g[1] for g in got]
        med = statistics.median
        print(f"| {family} | {len(got)}" + (f" ({stopped[family]} stopped)" if stopped.get(family) else "")
              + f" | {med(g[0] for g in got):.1f} | {med(g[2] for g in got):.1f} "
              f"| {med(g[1] for g in got) / 1000:.0f} K | {med(g[3] for g in got) / 1000:.1f} K "
              f"| {med(times):.2f}, {p90(times):.2f} | {med(nodes):.3f}, {p90(nodes):.3f} |")
    if wrong:
        print(f"{wrong} lines did not reach the value proved")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
