"""Speed of the domino solver: a full 52-card deal, all four seats.

    .venv/bin/python benchmarks/bench_domino.py [--deals 10] [--budget-ms 60000] [--tt-mb 64]

prints, for each rule set (``italian``: any seven opens, single winner;
``italian-wikipedia``: D7 opens, shared win), the median and worst time to solve a
seeded full deal for all four seats (paranoid values, docs/rules.md 11, and the per-card
values of the seat on move). The bar: median under 2 s.

Under pytest (``--benchmark-enable``) the same solve runs as pytest-benchmark tests.
Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pytest  # noqa: E402

from kingsolve import Deal, Seat  # noqa: E402
from kingsolve.game.domino import DominoPosition  # noqa: E402
from kingsolve.search.domino_solver import solve_domino  # noqa: E402
from kingsolve.search.budget import Budget  # noqa: E402

VARIANTS = ("italian", "italian-wikipedia")
FIRST_SEED = 1000


def full_deal(variant: str, i: int) -> DominoPosition:
    """The ``i``-th seeded full deal of the benchmark, the leader rotating."""
    return DominoPosition(variant, Deal.random(seed=FIRST_SEED + i), leader=Seat(i % 4))


@pytest.mark.parametrize("variant", VARIANTS)
def test_bench_full_deal_four_seats(benchmark, variant):
    position = full_deal(variant, 0)
    result = benchmark(solve_domino, position)
    assert set(result.values) == set(Seat)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--budget-ms", type=float, default=60_000.0)
    ap.add_argument("--tt-mb", type=int, default=Budget().tt_mb)
    args = ap.parse_args(argv)
    budget = Budget(ms=args.budget_ms, tt_mb=args.tt_mb)
    print(f"domino, full 52-card deals, all four seats, {args.deals} deals, "
          f"table {args.tt_mb} MiB")
    for variant in VARIANTS:
        times, nodes = [], []
        for i in range(args.deals):
            position = full_deal(variant, i)
            start = time.perf_counter()
            result = solve_domino(position, budget=budget)
            times.append(time.perf_counter() - start)
            nodes.append(result.nodes)
        print(f"{variant:18} median {statistics.median(times):6.3f} s   max {max(times):6.3f} s   "
              f"median nodes {int(statistics.median(nodes)):>10,}   "
              f"nodes/s {sum(nodes) / sum(times):>12,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
