"""Speed-up of one seat-solve on several threads sharing its table.

    .venv/bin/python research/threads.py [--left 9,10] [--count 30] [--threads 2]
        [--min-nodes 200000] [--doubles]

Positions as ``research/frontier.py`` makes them (every penalty contract of the
52-card rule sets, seeded deals played at random to ``--left`` tricks left, one seat),
or with ``--doubles`` as ``research/doubles_full.py`` does (every Italian trick
contract, one side),
skipping those one thread solves in fewer than ``--min-nodes`` nodes (thread start-up
would be all they measure). Each is solved on one thread, then on ``--threads``,
alternately, with the thread's core as ``kingsolve.solve`` uses it. Prints per
position and the medians: the time ratio, and the node-path ratio (one thread's
nodes over the most any thread of the shared search took), which is what the time
ratio would be with a free core per thread, so it holds on a busy machine where the
times do not; the nodes per CPU second of all threads over one thread's (what sharing
memory costs each thread); and the nodes summed over the threads (the work added).

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from core_speed import forget  # noqa: E402
from doubles_full import problem, trick_contracts  # noqa: E402
from frontier import penalty_contracts, position_at  # noqa: E402
from kingsolve.search.budget import Budget  # noqa: E402
from kingsolve.search import engine  # noqa: E402


def timed(pos, seat, threads: int, budget: Budget) -> tuple[float, float, int | None, tuple]:
    """Seconds, CPU seconds of all threads, the value (None at the budget) and each
    thread's nodes, from an empty table."""
    forget(pos, budget)
    with engine.leased_core(pos, budget, threads) as core:
        t, cpu = time.perf_counter(), time.process_time()
        core.set_budget(budget.nodes, budget.ms)
        try:
            v = core.value(engine.side_mask(pos, seat), engine.first_guess(*core.bounds()))
        except engine.BudgetExceeded:
            v = None
        return time.perf_counter() - t, time.process_time() - cpu, v, core.thread_nodes


def positions(lefts: list[int], doubles: bool):
    """(label, position, seat) in turn: each contract's deal ``seed`` at each level."""
    contracts = [("italian", c) for c in trick_contracts()] if doubles else penalty_contracts()
    for seed in range(50):
        for i, (vname, cname) in enumerate(contracts):
            left = lefts[(seed + i) % len(lefts)]
            if doubles:
                pos, seat = problem(cname, seed, 13 - left)
            else:
                pos, seat = position_at(vname, cname, seed, left)
            yield f"{vname}/{cname}/{seed} {left} left", pos, seat


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--left", default="9,10", help="tricks left, e.g. 9,10")
    ap.add_argument("--count", type=int, default=30, help="positions")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--min-nodes", type=int, default=200_000)
    ap.add_argument("--budget-ms", type=float, default=120_000.0)
    ap.add_argument("--doubles", action="store_true", help="Italian doubles sides")
    args = ap.parse_args()
    budget = Budget(nodes=10**10, ms=args.budget_ms)
    lefts = [int(x) for x in args.left.split(",")]
    print(f"load average at the start {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    times, paths, rates, one_nodes, many_nodes = [], [], [], 0, 0
    for label, pos, seat in positions(lefts, args.doubles):
        if len(times) >= args.count:
            break
        if pos.complete:
            continue
        t1, c1, v1, n1 = timed(pos, seat, 1, budget)
        if n1[0] < args.min_nodes or v1 is None:
            continue
        tn, cn, vn, nn = timed(pos, seat, args.threads, budget)
        assert vn in (v1, None), (label, v1, vn)
        times.append(t1 / tn)
        paths.append(n1[0] / max(nn))
        rates.append((sum(nn) / cn) / (n1[0] / c1))
        one_nodes += n1[0]
        many_nodes += sum(nn)
        print(f"{label}: 1 thread {t1 * 1000:.0f} ms "
              f"{n1[0] / 1e6:.2f} M nodes; {args.threads}: {tn * 1000:.0f} ms "
              f"(CPU {cn * 1000:.0f} ms) {'+'.join(f'{x / 1e6:.2f}' for x in nn)} M",
              flush=True)
    print(f"{len(times)} positions, {args.threads} threads against 1: median time ratio "
          f"{statistics.median(times):.2f}, median node-path ratio {statistics.median(paths):.2f}, "
          f"median nodes per CPU second {statistics.median(rates):.2f} of one thread's; "
          f"nodes {one_nodes / 1e6:.1f} M on one thread, {many_nodes / 1e6:.1f} M summed; "
          f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
