"""Italian doubles on full deals: how many of each trick contract's values are proved
within a budget, how fast, and with how many nodes.

    .venv/bin/python research/doubles_full.py [--deals 50] [--budget-ms 1000]
        [--node-budget N] [--contracts no-queens,no-tricks] [--played 0] [--cards | --table]
        [--save FILE] [--against FILE]

For every trick contract of the ``italian`` rule set (the seven penalty contracts,
``trumps`` and ``no-trumps``), ``--deals`` seeded full deals: deal i of a contract
draws from ``random.Random("doubles/<contract>/<i>")`` the deal, the leader, the side
asked (N+S or E+W), for ``trumps`` the trump suit and, with ``--played``, that many
tricks of random legal cards (smaller problems, where most deals of every contract
are proved and nodes compare on them). Each value is one
``kingsolve.solve(pos, seats=[seat], cards=False, budget=...)`` (one thread, a core
leased as ``solve`` leases it), with ``--budget-ms`` of time and ``--node-budget``
nodes; with ``--cards``, the leader's value after each of its legal cards
(``solve(pos, seats=[leader], cards=True)``), proved only when every card's is.
Per contract: the share proved, the median time ("stopped" when a stopped
search is the median), the median and total nodes (a search stopped at the node budget
counts at it; one stopped by the clock is left out: ``solve`` does not report its
count).

With ``--table``, ``--deals`` whole doubles tables instead (``dd_table(..., doubles=True)``
on two threads, the budget for the whole table, every row of the ``italian`` rule set,
each trump suit once): per deal the rows proved and the time.

Times vary up to 1.7x on this machine when others work on it: judge a change of the
search by nodes, with a node budget and a time budget that does not bind (say
``--node-budget 2000000 --budget-ms 600000``): the node counts, the values and the
share proved then do not depend on the load. ``--save`` writes each deal's value
(or stop), nodes and ms as JSON; ``--against`` an earlier ``--save`` adds, per
contract, the nodes of the deals both runs proved, the ratio of the totals, and
checks that every value both runs proved is the same (a difference is printed and
makes the exit status 1).

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kingsolve import Deal, Position, Seat, dd_table, solve  # noqa: E402
from kingsolve.errors import SolveTimeout  # noqa: E402
from kingsolve.search.budget import Budget  # noqa: E402
from kingsolve.game.rules import VARIANTS  # noqa: E402


def trick_contracts() -> list[str]:
    """The ``italian`` contracts played in tricks (every one but the domino)."""
    return [name for name, c in VARIANTS["italian"].contracts.items()
            if c.penalty or c.takes_trump or name == "no-trumps"]


def problem(contract: str, i: int, played: int = 0) -> tuple[Position, Seat]:
    """Deal ``i`` of ``contract``, ``played`` tricks of random legal cards in: the
    position and the seat whose side is asked."""
    rng = random.Random(f"doubles/{contract}/{i}")
    deal = Deal.random(rng.randrange(10**9))
    leader = Seat(rng.randrange(4))
    seat = Seat(rng.randrange(2))                      # N for N+S, E for E+W
    trump = rng.choice("SHDC") if contract == "trumps" else None
    pos = Position("italian", contract, deal, leader=leader, doubles=True, trump=trump)
    for _ in range(4 * played):
        pos.play(rng.choice(pos.legal_cards()))
    return pos, seat


def run_one(pos: Position, seat: Seat, budget: Budget, cards: bool = False) -> dict:
    """One side's value, or with ``cards`` the leader's after each card: ``{"value",
    "nodes", "ms"}``, the value None when stopped."""
    t = time.perf_counter()
    if cards:
        seat = pos.to_move
    try:
        got = solve(pos, seats=[seat], cards=cards, budget=budget)
        value = str(sorted(got.cards.items())) if cards else got.values[seat]
        nodes = got.nodes
    except SolveTimeout as exc:
        value = None
        nodes = budget.nodes if "node budget" in str(exc) else -1
    ms = (time.perf_counter() - t) * 1000.0
    return {"value": value, "nodes": nodes, "ms": ms}


def tables(deals: int, budget: Budget) -> None:
    """Whole doubles tables of seeded full deals: the rows proved, the time."""
    print(f"italian doubles tables, {deals} full deals, budget {budget.ms:g} ms a table, "
          "two threads")
    print("| deal | rows proved | ms |")
    print("|---|---|---|")
    proved = []
    for i in range(deals):
        rng = random.Random(f"doubles/table/{i}")
        deal = Deal.random(rng.randrange(10**9))
        t = time.perf_counter()
        table = dd_table("italian", deal, leader=Seat(rng.randrange(4)), doubles=True,
                         budget=budget)
        ms = (time.perf_counter() - t) * 1000.0
        done = sum(r.solved for r in table.rows)
        proved.append(done == len(table.rows))
        print(f"| {i} | {done} of {len(table.rows)} | {ms:.0f} |", flush=True)
    print(f"whole tables proved: {sum(proved)} of {deals}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50, help="deals per contract")
    ap.add_argument("--budget-ms", type=float, default=1000.0)
    ap.add_argument("--node-budget", type=int, default=Budget().nodes)
    ap.add_argument("--contracts", default=",".join(trick_contracts()))
    ap.add_argument("--played", type=int, default=0,
                    help="tricks of random legal play first (0: full deals)")
    ap.add_argument("--cards", action="store_true",
                    help="the leader's value after each of its cards, not one side's value")
    ap.add_argument("--table", action="store_true",
                    help="whole doubles tables, the budget for each")
    ap.add_argument("--save", type=Path, help="write each deal's result here (JSON)")
    ap.add_argument("--against", type=Path, help="an earlier --save to compare with")
    args = ap.parse_args()
    budget = Budget(nodes=args.node_budget, ms=args.budget_ms)
    if args.table:
        tables(args.deals, budget)
        return
    before = json.loads(args.against.read_text()) if args.against else {}
    where = "full deals" if not args.played else f"deals {args.played} tricks in"
    what = "the leader's per-card values" if args.cards else "one side's value"
    print(f"italian doubles, {args.deals} {where} per contract, {what}, "
          f"budget {args.budget_ms:g} ms and {args.node_budget:,} nodes, one thread")
    head = "| contract | proved | median ms | median nodes | total nodes |"
    rule = "|---|---|---|---|---|"
    if before:
        head += " both proved | nodes before | nodes after | after/before |"
        rule += "---|---|---|---|"
    print(head)
    print(rule)
    saved: dict[str, list[dict]] = {}
    mismatches = []
    for contract in args.contracts.split(","):
        rows = []
        for i in range(args.deals):
            pos, seat = problem(contract, i, args.played)
            rows.append(run_one(pos, seat, budget, args.cards))
        saved[contract] = rows
        proved = [r for r in rows if r["value"] is not None]
        known = [r["nodes"] for r in rows if r["nodes"] >= 0]
        # a stopped search sorts after every proved one
        median_ms = statistics.median_high(
            [r["ms"] if r["value"] is not None else float("inf") for r in rows])
        shown_ms = "stopped" if median_ms == float("inf") else f"{median_ms:.0f}"
        line = (f"| {contract} | {len(proved)} of {len(rows)} | {shown_ms} | "
                f"{statistics.median(known) / 1e3:.0f} K | {sum(known) / 1e6:.1f} M |"
                if known else f"| {contract} | {len(proved)} of {len(rows)} | {shown_ms} | - | - |")
        if before and contract in before:
            old_rows = before[contract]
            both = [(o, n) for o, n in zip(old_rows, rows)
                    if o["value"] is not None and n["value"] is not None]
            for i, (o, n) in enumerate(zip(old_rows, rows)):
                if o["value"] is not None and n["value"] is not None and o["value"] != n["value"]:
                    mismatches.append(f"{contract} deal {i}: {o['value']} before, {n['value']} now")
            old_n = sum(o["nodes"] for o, _ in both)
            new_n = sum(n["nodes"] for _, n in both)
            line += (f" {len(both)} | {old_n / 1e6:.2f} M | {new_n / 1e6:.2f} M | "
                     f"{new_n / max(old_n, 1):.2f} |")
        print(line, flush=True)
    if args.save:
        args.save.write_text(json.dumps(saved))
    for m in mismatches:
        print("value differs:", m)
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
