"""An analysis whose round has no time left for a value keeps that value's range.

The core's ``proved`` is the range of its last search: a value the round gives no
time (no search runs for it) must not take that range, which belongs to another card
or seat. Under load the rounds run out of time often, and such a range crossed the
value's true one (E [-8, -12]) or replaced it (S -8 where it is -16).
"""

from __future__ import annotations

import time

from kingsolve import Deal, Position
from kingsolve.search.analysis import _Part, _Run
from kingsolve.game.result import Budget
from kingsolve.search import engine
from kingsolve.search.solver import solve

def test_a_value_given_no_time_keeps_its_range():
    pos = Position("russian", "no-queens", Deal.random(7, deck=32), leader="N")
    with engine.leased_core(pos, Budget()) as core:
        run = _Run(core, pos, list(pos.seats), Budget(ms=10_000), None, time.perf_counter())
        # a finished search of one card leaves core.proved at that card's value
        core.set_budget(10**7, 10_000)
        v = core.child_value(run.reps[0], run.mover_mask, 0)
        assert core.proved == (v, v)
        cards, seats = dict(run.card_range), dict(run.seat_range)
        _Part(run, core).prove(time.perf_counter() - 1)   # a round with no time left
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
