"""An analysis whose round has no time left for a value keeps that value's range.

The core's ``proved`` is the range of its last search: a value the round gives no
time (no search runs for it) must not take that range, which belongs to another card
or seat. Under load the rounds run out of time often, and such a range crossed the
value's true one (E [-8, -12]) or replaced it (S -8 where it is -16).

In doubles the two sides' ranges mirror each other (a stopped search reported N -6 to
0 beside E -12 to 0, where E's is -12 to -6).
"""

from __future__ import annotations

import time

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.errors import SolveTimeout
from kingsolve.search.budget import Budget, Deadline
from kingsolve.search import engine
from kingsolve.search.analysis import Searcher, AnalysisState, analyse
from kingsolve.search.solver import solve


def test_a_value_given_no_time_keeps_its_range():
    pos = Position("russian", "no-queens", Deal.random(7, deck=32), leader="N")
    with engine.leased_core(pos, Budget()) as core:
        clock = Deadline(Budget(ms=10_000), clock=time.perf_counter)
        run = AnalysisState(core, pos, list(pos.seats), clock, None)
        # a finished search of one card leaves core.proved at that card's value
        core.set_budget(10**7, 10_000)
        v = core.child_value(run.reps[0], run.mover_mask, 0)
        assert core.proved == (v, v)
        cards, seats = dict(run.card_range), dict(run.seat_range)
        Searcher(run, core).prove(time.perf_counter() - 1)   # a round with no time left
        assert (run.card_range, run.seat_range) == (cards, seats)


def test_analyses_under_short_rounds_keep_the_exact_values(monkeypatch):
    # Rounds far shorter than a search: most values of each round get no time.
    import kingsolve.search.analysis as analysis
    monkeypatch.setattr(analysis, "FIRST_ROUND", 0.0005)
    pos = Position("russian", "no-queens", Deal.random(7, deck=32), leader="N")
    exact = solve(pos)
    for _ in range(5):
        a = analysis.analyse(pos, budget=Budget(ms=3000))
        assert all(lo <= exact.values[s] <= hi for s, (lo, hi) in a.bounds.items()), a.bounds
        assert all(lo <= exact.cards[c] <= hi for c, (lo, hi) in a.card_bounds.items()), a.card_bounds


def _doubles_ending(contract: str, seed: int) -> Position:
    """A doubles hand of ``contract`` four tricks in (first legal cards), 9 tricks left."""
    pos = Position("italian", contract, Deal.random(seed), leader=Seat(seed % 4), doubles=True)
    for _ in range(16):
        pos.play(pos.legal_cards()[0])
    return pos


@pytest.mark.parametrize("contract", ["no-tricks", "no-queens", "no-hearts", "no-last-two"])
def test_the_two_sides_ranges_mirror_each_other(contract):
    # The sides take every point left between them: N+S's range [lo, hi] is E+W's
    # [total - hi, total - lo], however far each side's own search got.
    for seed in range(4):
        pos = _doubles_ending(contract, seed)
        exact = solve(pos, seats=["N", "E"], cards=False).values
        total = exact[Seat.N] + exact[Seat.E]
        for nodes in (300, 1000, 3000):
            for cards in (True, False):
                got = analyse(pos, seats=["N", "E"], budget=Budget(nodes=nodes), cards=cards)
                (nlo, nhi), (elo, ehi) = got.bounds[Seat.N], got.bounds[Seat.E]
                assert (nlo + ehi, nhi + elo) == (total, total), (seed, nodes, got.bounds)
                assert nlo <= exact[Seat.N] <= nhi


def test_a_stopped_doubles_solve_reports_mirrored_ranges():
    stops = 0
    for seed in range(3):
        pos = Position("italian", "no-queens", Deal.random(seed), leader=Seat(seed % 4),
                       doubles=True)
        try:
            solve(pos, seats=["N", "E"], cards=False, budget=Budget(nodes=60_000))
        except SolveTimeout as exc:
            stops += 1
            (nlo, nhi), (elo, ehi) = exc.bounds[Seat.N], exc.bounds[Seat.E]
            assert nlo + ehi == nhi + elo == -12, exc.bounds    # the four queens' points
    assert stops


def test_a_doubles_estimate_lies_in_the_range_the_other_side_narrowed():
    # The mover's cards may prove less than the other side's search: the range shown
    # is met with that side's mirror, and the estimate must lie inside it (under load
    # an estimate of -6 was shown beside a range of -4 and up).
    pos = _doubles_ending("no-queens", 1)
    with engine.leased_core(pos, Budget()) as core:
        run = AnalysisState(core, pos, [pos.to_move, pos.to_move.next()],
                            Deadline(Budget(ms=10_000), clock=time.perf_counter), None)
        lo, hi = run.quick
        other = [m for m in run.masks if m != run.mover_mask][0]
        run.card_range = {r: (lo, hi) for r in run.reps}
        run.seat_range[other] = (lo, hi - 2)      # the mover's side at least lo + 2
        run.estimates[3] = {(r, m): lo for r in run.reps for m in run.masks}
        run.horizon = 3
        a = run.snapshot()
    for seat, (slo, shi) in a.bounds.items():
        assert slo <= a.estimates[seat] <= shi, (seat, a.bounds, a.estimates)


def _sliced_nodes(pos: Position, slice_nodes: int | None, whole: bool) -> tuple[int, dict]:
    """The nodes of ``solve``'s exact search of ``pos`` run in slices of ``slice_nodes``
    (None: one run) with ``Core.set_budget(..., whole=whole)``, and the values."""
    from kingsolve.search.solver import ExactSearch
    engine.idle_cores.clear()
    with engine.leased_core(pos, Budget()) as core:
        search, total = ExactSearch(core, pos, Budget(), True), 0
        while True:
            core.set_budget(slice_nodes or 10**12, 60_000, whole=whole)
            try:
                values = search.values([pos.to_move])
                return total + core.nodes, values
            except SolveTimeout:
                total += core.nodes


def test_whole_slices_search_about_what_one_search_does():
    # the anytime analysis's first slices (Core.set_budget whole): a stopped slice
    # spent nothing narrowing the range it leaves, so the slices together search about
    # what one search does; slices that narrow (solve's own stop) search far more
    import random
    rng = random.Random(1)
    pos = Position("italian", "no-hearts", Deal.random(1), leader="N")
    while pos.n_tricks - len(pos.tricks) > 9 or pos.trick:
        pos.play(rng.choice(pos.legal_cards()))
    one, values = _sliced_nodes(pos, None, False)
    whole, whole_values = _sliced_nodes(pos, 5000, True)
    narrowing, narrowing_values = _sliced_nodes(pos, 5000, False)
    assert whole_values == values == narrowing_values
    assert whole <= 1.05 * one < narrowing
