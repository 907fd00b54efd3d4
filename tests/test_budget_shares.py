"""How a table's rows and a choice's options share one budget (``Deadline``,
``kingsolve.search.table.analyse_each``): on a clock the tests move themselves, with searches
that stand in for the real ones, so every figure is exact and nothing is timed."""

from __future__ import annotations

import pytest

import kingsolve.search.table as table_module
from kingsolve import Deal, Position, Seat
from kingsolve.search.analysis import Analysis
from kingsolve.hands.choices import trump_choice
from kingsolve.errors import SolveTimeout
from kingsolve.search.budget import Budget, Deadline
from kingsolve.search.result import SolveResult
from kingsolve.search.table import analyse_each, dd_table

DEAL = "N:A643.KJT8.92.AK3 2.653.QJT7.T9842 KQ97.Q9.AK54.J75 JT85.A742.863.Q6"
STEP = 0.05         # seconds of the stand-in clock one step of a stand-in search takes


class Clock:
    """Seconds that pass only when a stand-in search says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _analysis(pos: Position, seats, solved: bool, nodes: int, ms: float) -> Analysis:
    lo, hi = (3, 3) if solved else (0, 6)
    return Analysis(to_move=pos.to_move, taken=dict(pos.taken), complete=False,
                    bounds={s: (lo, hi) for s in seats}, estimates={s: 3 for s in seats},
                    card_bounds={}, card_estimates={}, best=[], horizon=3, nodes=nodes, ms=ms)


class StandIn:
    """Anytime analyses whose positions need ``steps[label]`` steps to be proved,
    a step being STEP seconds and 1000 nodes; each keeps to the budget it starts
    with, as ``kingsolve.analyses`` does, and records the time it got."""

    def __init__(self, clock: Clock, steps: dict[str, int]) -> None:
        self.clock, self.steps = clock, steps
        self.used: dict[str, float] = {k: 0.0 for k in steps}
        self.started = 0

    def label(self, pos: Position) -> str:
        return pos.contract.name if pos.trump is None else f"{pos.contract.name} {pos.trump.name}"

    def __call__(self, pos, seats, budget, cancel=None, threads=1, cards=True):
        self.started += 1
        label, start, done = self.label(pos), self.clock.now, 0
        while True:
            if self.clock.now - start >= budget.ms / 1000 - 1e-9 or \
                    done * 1000 >= budget.nodes or cancel.is_set():
                yield _analysis(pos, seats, False, done * 1000, 0.0)
                return
            self.clock.now += STEP
            self.used[label] += STEP
            done += 1
            solved = done >= self.steps[label]
            yield _analysis(pos, seats, solved, done * 1000, 0.0)
            if solved:
                return


def _on_the_clock(monkeypatch, clock: Clock, stand_in=None) -> None:
    monkeypatch.setattr(Budget, "start", lambda self, pieces=1, threads=1:
                        Deadline(self, pieces, threads, clock=clock))
    if stand_in is not None:
        monkeypatch.setattr(table_module, "analyses", stand_in)


def test_a_running_share_grows_by_what_quick_pieces_leave():
    clock = Clock()
    shares = Deadline(Budget(nodes=4000, ms=1000), pieces=4, threads=2, clock=clock)
    slow, quick = shares.take(), shares.take()
    assert slow.ms == quick.ms == 500 and slow.nodes == quick.nodes == 1000
    clock.now = 0.1
    shares.done(quick, 100)
    third = shares.take()           # the time quick left: (2 x 0.9 s - 0.4 s held) / 2
    assert third.ms == pytest.approx(700)
    clock.now = 0.2
    shares.done(third, 10)
    clock.now = 0.6
    # past its own half second, slow goes on: an equal part of what is left with the
    # piece to come, counting what it ran, is (2 x 0.4 s + 0.6 s) / 2 = 0.7 s
    assert not shares.overrun(slow, nodes=1800)            # its nodes grew too
    clock.now = 0.7
    assert shares.overrun(slow, nodes=1800)
    fourth = shares.take()
    assert fourth.ms == pytest.approx(300)
    clock.now = 0.75
    shares.done(fourth, 10)
    clock.now = 0.99
    # nothing to come: the running piece may use the rest of the budget
    assert not shares.overrun(slow, nodes=3800) and shares.free().nodes >= 0
    clock.now = 1.0
    assert shares.overrun(slow)


def test_a_piece_that_ran_its_part_does_not_grow_while_others_wait():
    clock = Clock()
    shares = Deadline(Budget(ms=1000), pieces=4, threads=1, clock=clock)
    first = shares.take()
    clock.now = 0.25
    assert shares.overrun(first)            # three pieces wait for the 0.75 s left
    shares.done(first, 0)
    assert shares.take().ms == pytest.approx(250)


def test_what_quick_rows_leave_goes_to_the_rows_still_open(monkeypatch):
    # two slow rows first, two quick ones after: the quick rows' time goes to the slow
    # ones (before, a slow row stopped at its quarter and the table at 0.6 s of 1 s)
    clock = Clock()
    stand_in = StandIn(clock, {"no-queens": 100, "no-hearts": 100, "no-last-two": 1,
                               "no-king-of-hearts": 1})
    _on_the_clock(monkeypatch, clock, stand_in)
    table = dd_table("italian", DEAL, "N", doubles=True, threads=1, budget=Budget(ms=1000),
                     contracts=["no-queens", "no-hearts", "no-last-two", "no-king-of-hearts"])
    assert clock.now == pytest.approx(1.0, abs=STEP)          # the whole budget
    assert stand_in.used["no-last-two"] == stand_in.used["no-king-of-hearts"] == STEP
    slow = stand_in.used["no-queens"], stand_in.used["no-hearts"]
    assert sum(slow) == pytest.approx(1.0 - 2 * STEP, abs=STEP)
    assert min(slow) > 0.25 + STEP                            # each more than its quarter
    # each row's analysis began once and went on where it stopped: no work done twice
    assert stand_in.started == 4
    assert [r.solved for r in table.rows] == [False, False, True, True]


def test_singles_and_doubles_tables_share_alike(monkeypatch):
    for doubles in (False, True):
        clock = Clock()
        stand_in = StandIn(clock, {"no-queens": 100, "no-last-two": 1, "no-hearts": 100})
        _on_the_clock(monkeypatch, clock, stand_in)
        dd_table("italian", DEAL, "N", doubles=doubles, threads=1, budget=Budget(ms=600),
                 contracts=["no-queens", "no-last-two", "no-hearts"])
        assert clock.now == pytest.approx(0.6, abs=STEP), doubles
        assert min(stand_in.used["no-queens"], stand_in.used["no-hearts"]) >= 0.2 + STEP - 1e-9


def test_a_table_of_quick_rows_ends_when_they_are_done(monkeypatch):
    clock = Clock()
    stand_in = StandIn(clock, {"no-queens": 2, "no-last-two": 1})
    _on_the_clock(monkeypatch, clock, stand_in)
    table = dd_table("italian", DEAL, "N", threads=1, budget=Budget(ms=1000),
                     contracts=["no-queens", "no-last-two"])
    assert table.solved and clock.now == pytest.approx(3 * STEP)


class StandInSolver:
    """An exact search needing ``need[label]`` seconds: it takes the time of its
    budget, up to that, and stops at its budget when that is less. Records the
    budgets it is given."""

    def __init__(self, clock: Clock, need: dict[str, float]) -> None:
        self.clock, self.need = clock, need
        self.budgets: list[tuple[str, float]] = []

    def __call__(self, pos, seats=None, budget=None):
        label = "no trump" if pos.trump is None else f"trump {pos.trump.letter}"
        self.budgets.append((label, budget.ms))
        if self.need[label] > budget.ms / 1000:
            self.clock.now += budget.ms / 1000
            raise SolveTimeout.proved(f"search stopped at its time budget of {budget.ms:g} ms",
                                      {s: (0, 6) for s in seats})
        self.clock.now += self.need[label]
        return SolveResult(to_move=pos.to_move, taken=dict(pos.taken),
                           values={s: 3 for s in seats}, cards={}, best=[], complete=False)


def test_an_exact_choice_searches_a_stopped_option_again_with_the_time_left(monkeypatch):
    # trump S stops at its quarter; the three quick options leave their time, and S is
    # searched again with all of it (before, the choice failed at S's quarter)
    clock = Clock()
    _on_the_clock(monkeypatch, clock)
    solver = StandInSolver(clock, {"trump S": 1.5, "trump H": 0.1, "trump D": 0.1,
                                   "trump C": 0.1})
    ch = trump_choice("italian", DEAL, leader="N", budget=Budget(ms=4000), exact=True,
                      solver=solver)
    assert ch.summary["exact"] and all(o.solved for o in ch.options)
    assert [label for label, _ in solver.budgets] == ["trump S", "trump H", "trump D",
                                                      "trump C", "trump S"]
    assert solver.budgets[0][1] == pytest.approx(1000)
    assert solver.budgets[-1][1] == pytest.approx(4000 - 1000 - 300)   # all that was left


def test_an_exact_choice_uses_the_whole_budget_before_it_gives_up(monkeypatch):
    clock = Clock()
    _on_the_clock(monkeypatch, clock)
    solver = StandInSolver(clock, {"trump S": 5.0, "trump H": 0.1, "trump D": 0.1,
                                   "trump C": 1.5})
    with pytest.raises(SolveTimeout) as stop:
        trump_choice("italian", DEAL, leader="N", budget=Budget(ms=4000), exact=True,
                     solver=solver)
    assert clock.now == pytest.approx(4.0)
    assert str(stop.value).startswith("option 'trump S' stopped: not proved within the "
                                      "budget of 4000 ms; proved so far: N 0 to 6")
    assert stop.value.bounds == {s: (0, 6) for s in Seat}
    # each search had an equal part of what was left, S's second all that was left
    assert [ms for _, ms in solver.budgets] == pytest.approx([1000, 1000, 1450, 2800, 1300])


def test_an_exact_table_names_every_row_left_open(monkeypatch):
    clock = Clock()
    _on_the_clock(monkeypatch, clock)

    def never(pos, seats, budget, cards=True):
        clock.now += budget.ms / 1000
        raise SolveTimeout("search stopped at its time budget", bounds={s: (-8, 0) for s in seats})

    monkeypatch.setattr(table_module, "solve", never)
    with pytest.raises(SolveTimeout, match=r"^table row 'no-queens' stopped: not proved "
                       r"within the budget of 500 ms; proved so far: N -8 to 0, .* \(also "
                       r"left open: 'no-hearts'\)$"):
        dd_table("italian", DEAL, "N", threads=1, budget=Budget(ms=500), exact=True,
                 contracts=["no-queens", "no-hearts"])
    assert clock.now == pytest.approx(0.5)


def test_analyse_each_keeps_the_order_given_and_reports_each_improvement():
    deal = Deal(DEAL)
    items = [(name, Position("italian", name, deal, leader="N", doubles=True))
             for name in ("no-last-two", "no-king-of-hearts")]
    seen = []
    found = analyse_each(items, list(Seat), Budget(ms=20_000).start(pieces=2), threads=2,
                         on_update=lambda i, a: seen.append(i))
    assert [a.solved for a in found] == [True, True] and set(seen) == {0, 1}
    assert found[0].values == dd_table("italian", deal, "N", contracts=["no-last-two"],
                                       doubles=True, budget=Budget(ms=20_000)
                                       ).rows[0].analysis.values
