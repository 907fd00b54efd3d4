"""Speed of the search core on seeded full deals.

    .venv/bin/python research/core_speed.py [--deals 10] [--budget-ms 5000] [--only 1,2,3]

Sections 1, 5, 6 and 7 hold Italian doubles (bridge play problems: ``no-trumps``
and ``trumps``) to DDS through endplay, on ``Deal.random(seed)`` with
``Seat(seed % 4)`` leading. Each times the best of ``--repeat`` alternating runs
of both solvers per problem, reports the median of the per-problem time ratios
kingsolve/DDS (the bar is 1.0), each solver's median time and nodes per second,
and the median nodes at trick starts on both sides (the count DDS reports as
``futureTricks.nodes``; for a table, DDS reports none). Before each timed DDS
call an unrelated deal is solved, so that DDS starts from an empty table as each
of kingsolve's loads does.

1. Italian doubles ``no-trumps``: the leader's side value, against DDS
   ``solve_board`` (one thread; mode OptimalOne, the same question).
2. Singles, every penalty contract of every rule set, N's value: median and 95th
   percentile time per seat-solve, nodes per second. A search that reaches the
   budget counts at the budget and is reported, with the share of its quick bounds'
   range it left unproved (how far the stopped searches got).
3. A full table (every contract of ``italian`` times four seats), 2 threads, the
   budget for the whole table (a row not exact keeps its seats' proved ranges and
   estimates): time, exact cells, and the share of the quick bounds' range the
   cells leave open.
4. Singles endings (not a bar; where the full-deal gap is measured): N's value in
   Italian ``no-queens``, ``no-hearts``, ``no-tricks``, ``no-kings-jacks`` after
   ``--tricks`` tricks of random legal play (``random.Random(seed)``); nodes summed.
   Seeds 0-3 are the set the lone seat's move order was tuned on; ``--seed-from 10
   --deals 8`` and ``--seed-from 20 --deals 3 --tricks 3`` are unseen sets.
5. Italian doubles ``trumps``, each suit trumps in turn: the leader's side value,
   against DDS ``solve_board`` (one thread, OptimalOne); a ratio per deal and suit.
6. Every card of the opening leader, doubles ``no-trumps``: each legal card's value
   (``kingsolve.solve`` with ``cards``: equal cards searched once), against DDS
   ``solve_board`` giving every card its score (mode Default), one thread.
7. A whole doubles table: ``no-trumps`` and ``trumps`` in each suit, each of the
   four seats leading, the leader's side value (20 searches, the other side's value
   follows), on 2 threads with a core each (a strain's four leaders in turn on one
   thread), against DDS ``CalcDDtable`` (the same 20 results) with 2 threads.

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kingsolve import Deal, Position, Seat  # noqa: E402
from kingsolve.game.deal import hand_text  # noqa: E402
from kingsolve.errors import SolveTimeout  # noqa: E402
from kingsolve.search.budget import Budget  # noqa: E402
from kingsolve.game.rules import VARIANTS  # noqa: E402
from kingsolve.search import engine  # noqa: E402
from kingsolve.search.solver import solve_loaded  # noqa: E402
from kingsolve.search.table import dd_table  # noqa: E402


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def seat_value(pos: Position, seat: Seat, budget: Budget,
               ranges: list | None = None, threads: int = 1) -> tuple[float, int, bool, int]:
    """Seconds, nodes, whether it finished and the nodes at trick starts (the count
    DDS reports), for one seat's value of a position (on ``threads`` threads, nodes
    summed). A search the budget stops adds to ``ranges`` the width of the range it
    proved and of the quick bounds' range."""
    t = time.perf_counter()
    with engine.leased_core(pos, budget, threads) as core:   # an idle core, as solve takes
        core.set_budget(budget.nodes, budget.ms)
        lo, hi = core.bounds()
        try:
            core.value(engine.side_mask(pos, seat), engine.first_guess(lo, hi))
            ok = True
        except engine.BudgetExceeded:
            ok = False
            if ranges is not None:
                ranges.append((core.proved[1] - core.proved[0], hi - lo))
        return time.perf_counter() - t, core.nodes, ok, core.trick_nodes


def dds_board(deal: Deal, leader: Seat, trump: str | None):
    """The deal as endplay's, ``leader`` on lead, ``trump`` a suit letter or None."""
    from endplay.types import Deal as DDSDeal, Denom, Player
    denom = Denom.nt if trump is None else Denom.find(trump.lower())
    return DDSDeal("N:" + " ".join(hand_text(h) for h in deal.hands),
                   first=Player(int(leader)), trump=denom)


class Pairs:
    """Per problem: the best time of each solver, their ratio and their trick-start
    nodes; printed as medians."""

    def __init__(self) -> None:
        self.ours: list[float] = []
        self.theirs: list[float] = []
        self.ratios: list[float] = []
        self.our_nodes: list[int] = []
        self.our_all: list[int] = []
        self.dds_nodes: list[int] = []
        self.unfinished = 0

    def add(self, secs: float, dds: float, nodes: int, trick_nodes: int, dds_nodes: int | None,
            ok: bool = True) -> None:
        self.ours.append(secs)
        self.theirs.append(dds)
        self.ratios.append(secs / dds)
        self.our_all.append(nodes)
        self.our_nodes.append(trick_nodes)
        if dds_nodes is not None:
            self.dds_nodes.append(dds_nodes)
        self.unfinished += not ok

    def report(self, title: str) -> None:
        med = statistics.median
        # nodes per second over the whole set (a median of rates would favour tiny
        # problems, whose fixed costs dominate)
        line = (f"{title}: kingsolve median {med(self.ours) * 1000:.1f} ms, DDS median "
                f"{med(self.theirs) * 1000:.1f} ms, median ratio {med(self.ratios):.2f} (bar 1.0); "
                f"{self.unfinished} at the budget\n   kingsolve {sum(self.our_all) / sum(self.ours) / 1e6:.2f} M "
                f"nodes/s, {sum(self.our_nodes) / sum(self.ours) / 1e6:.2f} M trick-start nodes/s, "
                f"median trick-start nodes {med(self.our_nodes) / 1e3:.1f} K")
        if self.dds_nodes:
            line += (f"; DDS {sum(self.dds_nodes) / sum(self.theirs) / 1e6:.2f} M trick-start "
                     f"nodes/s, median {med(self.dds_nodes) / 1e3:.1f} K")
        print(line)


def endplay_dds():
    """endplay's DDS calls, or None (with a note) when it is not installed."""
    try:
        import endplay.dds  # noqa: F401
    except ImportError:
        print("DDS comparison skipped: endplay is not installed (pip install -e '.[dds]')")
        return None
    return endplay.dds


def side_value_pair(pos: Position, board, unrelated, budget: Budget, repeat: int,
                    pairs: Pairs) -> None:
    """One doubles position's leader's side value in both solvers, into ``pairs``."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    # the best of `repeat` alternating runs of each: this machine's speed varies
    # from run to run more than the solvers differ
    secs = dds = float("inf")
    for _ in range(repeat):
        forget(pos, budget)
        s, nodes, ok, trick_nodes = seat_value(pos, pos.leader, budget)
        secs = min(secs, s)
        solve_board(unrelated, SolveMode.OptimalOne)
        t = time.perf_counter()
        solved = solve_board(board, SolveMode.OptimalOne)
        dds = min(dds, time.perf_counter() - t)
    # DDS's futureTricks.nodes: its trick-start nodes
    pairs.add(secs, dds, nodes, trick_nodes, solved._data.nodes, ok)


def unrelated(pos: Position) -> Position:
    """Another deal of ``pos``'s contract with as many cards played (first legal cards;
    a contract that can end early, such as the king of hearts, may end first)."""
    for seed in range(10**6, 10**6 + 20):
        other = Position(pos.variant, pos.contract, Deal.random(seed), leader=pos.leader,
                         doubles=pos.doubles, trump=pos.trump)
        while len(other.record) < len(pos.record) and not other.complete:
            other.play(other.legal_cards()[0])
        if len(other.record) == len(pos.record):
            break
    return other


def forget(pos: Position, budget: Budget) -> None:
    """Makes the next core leased for ``pos`` start with an empty table, as DDS after
    ``unrelated_board()``: idle cores keep their tables for the positions of one
    hand, so each idle core of the table size ``pos`` takes is loaded with another
    deal with as many cards (a new table epoch), and a core is kept (a fresh one would
    charge its table's first page touches to the timed run). When no other deal
    reaches as many cards, the idle cores are dropped instead."""
    mb = engine.table_mb(pos, budget)
    other = unrelated(pos)
    if engine.table_mb(other, budget) != mb:
        engine.idle_cores.clear()
        return
    with ExitStack() as held:
        held.enter_context(engine.leased_core(other, budget))
        while mb in engine.idle_cores.sizes():
            held.enter_context(engine.leased_core(other, budget))


def unrelated_board():
    # DDS keeps its table for the next call when the deal is the same: an unrelated
    # deal solved before each timed call makes every call start from an empty table,
    # as each of kingsolve's loads does (a new epoch)
    return dds_board(Deal.random(10**6), Seat.N, None)


def bench_sides(deals: int, budget: Budget, repeat: int, trumps: str = "") -> None:
    """Section 1 (no trump), or 5 with ``trumps`` (each suit in turn)."""
    if endplay_dds() is None:
        return
    pairs, unrelated = Pairs(), unrelated_board()
    for seed in range(deals):
        deal, leader = Deal.random(seed), Seat(seed % 4)
        for trump in trumps or [None]:
            pos = Position("italian", "trumps" if trump else "no-trumps", deal, leader=leader,
                           doubles=True, trump=trump)
            side_value_pair(pos, dds_board(deal, leader, trump), unrelated, budget, repeat, pairs)
    if trumps:
        pairs.report(f"5. doubles trumps, each suit, {deals} deals ({4 * deals} problems)")
    else:
        pairs.report(f"1. doubles no-trumps, {deals} deals")


def bench_leads(deals: int, budget: Budget, repeat: int) -> None:
    if endplay_dds() is None:
        return
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    pairs, unrelated = Pairs(), unrelated_board()
    for seed in range(deals):
        deal, leader = Deal.random(seed), Seat(seed % 4)
        pos = Position("italian", "no-trumps", deal, leader=leader, doubles=True)
        board = dds_board(deal, leader, None)
        secs = dds = float("inf")
        ok = True
        for _ in range(repeat):
            forget(pos, budget)
            t = time.perf_counter()
            with engine.leased_core(pos, budget) as core:   # as kingsolve.solve runs it
                try:
                    _, cards = solve_loaded(core, pos, [leader], budget)
                except SolveTimeout:
                    ok, cards = False, None
                nodes, trick_nodes = core.nodes, core.trick_nodes
            secs = min(secs, time.perf_counter() - t)
            solve_board(unrelated, SolveMode.OptimalOne)
            t = time.perf_counter()
            solved = solve_board(board, SolveMode.Default)
            dds = min(dds, time.perf_counter() - t)
        # both give every legal card; a side scores 2 points a trick in no-trumps
        assert cards is None or \
            sorted(cards.values()) == sorted(2 * tricks for _, tricks in solved), seed
        pairs.add(secs, dds, nodes, trick_nodes, solved._data.nodes, ok)
    pairs.report(f"6. every card of the opening leader, doubles no-trumps, {deals} deals")


def bench_dds_table(deals: int, budget: Budget, repeat: int) -> None:
    dds = endplay_dds()
    if dds is None:
        return
    from concurrent.futures import ThreadPoolExecutor
    from endplay._dds import SetMaxThreads
    SetMaxThreads(2)

    def strain(positions: list[Position]) -> tuple[int, int, bool]:
        # one strain's four leaders in turn on the thread's core, as DDS solves a
        # strain's leaders in one thread; a search stopped at the budget counts there
        nodes = trick_nodes = 0
        ok = True
        forget(positions[0], budget)
        for pos in positions:
            with engine.leased_core(pos, budget) as core:
                try:
                    solve_loaded(core, pos, [pos.leader], budget, with_cards=False)
                except SolveTimeout:
                    ok = False
                nodes, trick_nodes = nodes + core.nodes, trick_nodes + core.trick_nodes
        return nodes, trick_nodes, ok

    pairs = Pairs()
    with ThreadPoolExecutor(max_workers=2) as pool:
        for seed in range(deals):
            deal = Deal.random(seed)
            board = dds_board(deal, Seat.N, None)
            strains = [[Position("italian", c, deal, leader=leader, doubles=True, trump=t)
                        for leader in Seat]
                       for c, t in [("no-trumps", None)] + [("trumps", s) for s in "SHDC"]]
            secs = theirs = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                counts = list(pool.map(strain, strains))
                secs = min(secs, time.perf_counter() - t)
                t = time.perf_counter()
                dds.calc_dd_table(board)
                theirs = min(theirs, time.perf_counter() - t)
            pairs.add(secs, theirs, sum(c[0] for c in counts), sum(c[1] for c in counts), None,
                      all(c[2] for c in counts))
    pairs.report(f"7. whole doubles tables (5 strains x 4 leaders), {deals} deals, 2 threads")


def bench_singles(deals: int, budget: Budget) -> None:
    times, rates, widths = [], [], []
    unfinished = []
    for vname, rs in VARIANTS.items():
        for cname, c in rs.contracts.items():
            if not c.penalty:
                continue
            for seed in range(deals):
                deal = Deal.random(seed, deck=rs.deck)
                pos = Position(rs, cname, deal, leader=Seat(seed % 4))
                secs, nodes, ok, _ = seat_value(pos, Seat.N, budget, widths)
                times.append(secs)
                rates.append(nodes / secs if secs else 0)
                if not ok:
                    unfinished.append(f"{vname}/{cname}/{seed}")
    print(f"2. singles penalty contracts, {len(times)} seat-solves: median "
          f"{statistics.median(times)*1000:.1f} ms (bar 50), p95 {p95(times)*1000:.0f} ms "
          f"(bar 1000), {statistics.median(rates)/1e6:.1f} M nodes/s; "
          f"{len(unfinished)} at the budget of {budget.ms:g} ms")
    if widths:
        # how far the stopped searches got: the range still open, as a share of the
        # range the quick bounds allow (rule sets score on different scales)
        share = statistics.mean(w / q for w, q in widths if q)
        print(f"   the stopped searches left {100 * share:.0f}% of their quick bounds' range "
              f"unproved on average")


def bench_tables(deals: int, budget: Budget) -> None:
    times, exact, share = [], [], []
    unfinished = 0
    for seed in range(deals):
        deal = Deal.random(seed)
        t = time.perf_counter()
        # the budget bounds the whole table; a row it stops keeps each seat's proved range
        table = dd_table("italian", deal, Seat(seed % 4), budget=budget, threads=2).to_dict()
        times.append(time.perf_counter() - t)
        unfinished += sum(not r["solved"] for r in table["rows"])
        exact.append(sum(lo == hi for r in table["rows"] for lo, hi in r["bounds"].values()))
        for r in table["rows"]:
            # each cell's range left open, as a share of the row's quick bounds
            pos = Position("italian", r["contract"], deal, leader=Seat(seed % 4), trump=r["trump"])
            with engine.leased_core(pos, budget) as core:
                qlo, qhi = core.bounds()
            share.extend((hi - lo) / (qhi - qlo) for lo, hi in r["bounds"].values() if qhi > qlo)
    cells = 4 * len(table["rows"])
    print(f"3. italian tables ({cells // 4} rows x 4 seats), {deals} deals, 2 threads: median "
          f"{statistics.median(times):.2f} s (bar 2), {unfinished} rows not all exact; "
          f"exact cells per table: median {statistics.median(exact):g} of {cells}; the cells "
          f"left {100 * statistics.mean(share):.0f}% of their quick bounds' range open on average")


def bench_endings(deals: int, tricks: int, budget: Budget, first_seed: int = 0) -> None:
    nodes, secs, unfinished = 0, 0.0, 0
    for cname in ("no-queens", "no-hearts", "no-tricks", "no-kings-jacks"):
        for seed in range(first_seed, first_seed + deals):
            pos = Position("italian", cname, Deal.random(seed), leader=Seat(seed % 4))
            rnd = random.Random(seed)
            for _ in range(4 * tricks):
                pos.play(rnd.choice(pos.legal_cards()))
            t, n, ok, _ = seat_value(pos, Seat.N, budget)
            secs += t
            nodes += n
            unfinished += not ok
    print(f"4. singles endings after {tricks} tricks, seeds {first_seed}-{first_seed + deals - 1}, "
          f"{4 * deals} seat-solves: "
          f"{nodes / 1e6:.1f} M nodes, {secs:.2f} s; {unfinished} at the budget")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--budget-ms", type=float, default=5000.0)
    ap.add_argument("--only", default="1,2,3")
    ap.add_argument("--repeat", type=int, default=3,
                    help="1, 5, 6, 7: the best of this many alternating runs per problem and solver")
    ap.add_argument("--tricks", type=int, default=4, help="tricks played before the endings (4)")
    ap.add_argument("--seed-from", type=int, default=0,
                    help="the endings' first seed (0: the tuning set; 10 and 20 are unseen ones)")
    args = ap.parse_args()
    budget = Budget(nodes=2_000_000_000, ms=args.budget_ms)
    which = set(args.only.split(","))
    if "1" in which:
        bench_sides(args.deals, budget, args.repeat)
    if "2" in which:
        bench_singles(args.deals, budget)
    if "3" in which:
        bench_tables(args.deals, budget)
    if "4" in which:
        bench_endings(args.deals, args.tricks, budget, args.seed_from)
    if "5" in which:
        bench_sides(args.deals, budget, args.repeat, trumps="SHDC")
    if "6" in which:
        bench_leads(args.deals, budget, args.repeat)
    if "7" in which:
        bench_dds_table(args.deals, budget, args.repeat)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
