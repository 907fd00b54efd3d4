"""Running the suite's problems (``kingsolve.bench.suite``): what each took, and
the signature of the exact searches.

Each exact search runs on one thread on a new core (the idle cores are dropped
first), so its nodes depend only on the build; times are this machine's.
With DDS (endplay, the optional extra ``dds``), each doubles problem is also given
to DDS ``solve_board`` (one thread, the same question: the side's best play from
the position), the two timed in the same run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable

from ..errors import InvalidRequestError, SolveTimeout
from ..game.deal import Deal, hand_text
from ..game.position import Position
from ..hands.hints import hint
from ..search import engine
from ..search.analysis import analyses
from ..search.budget import Budget
from ..search.domino_solver import solve_domino
from ..search.solver import solve_loaded
from .suite import ANYTIME_MS, MS, Problem

__all__ = ["Outcome", "run_problem", "run_problems", "signature", "dds_solver"]

#: What sizes the tables (every problem's nodes are its own).
BUDGET = Budget(ms=MS)
#: The runs of each solver on a doubles problem beside DDS, alternating; the best counts.
DDS_ROUNDS = 3


@dataclass(frozen=True)
class Outcome:
    """What one problem took: ``nodes`` searched (None where the work is not one
    search's: a hint), ``seconds``, whether it was ``solved`` within its budget, and
    DDS's ``dds_seconds`` on the same problem when it ran. ``exact``: an exact
    search, whose nodes count in the signature when solved, and ``nodes_budget`` its
    node budget."""

    group: str
    name: str
    tricks_left: int
    nodes: int | None
    seconds: float
    solved: bool
    exact: bool
    dds_seconds: float | None = None
    nodes_budget: int | None = None


def _new_core(position: Position) -> None:
    """Makes the next core leased for ``position`` a new one, made here, before the
    search is timed. A core reused for another deal reads its table's old entries as
    empty, but its node counts still depend on what it searched before (measured: one
    doubles deal 113,080 to 113,178 nodes over four reuses); a new core's never do. Its
    table's pages are first touched in the search, as in any process's first solve."""
    engine.idle_cores.clear()
    mb = engine.table_mb(position, BUDGET)
    engine.idle_cores.give(mb, None, engine.run(lambda: engine.Core(mb), BUDGET))


def _warm_core(position: Position) -> None:
    """Makes the next core leased for ``position`` the idle one, its table's pages
    touched, with its entries read as empty: it is loaded with another deal first."""
    mb = engine.table_mb(position, BUDGET)
    other = Position(position.variant, position.contract,
                     Deal.random(10**6, deck=position.variant.deck), leader=position.leader,
                     trump=position.trump, doubles=position.doubles)
    core = engine.idle_cores.take(mb, None)
    if core is not None:
        engine.load(core, other)
        engine.idle_cores.give(mb, None, core)


def _solve(problem: Problem, warm: bool = False) -> tuple[int, bool]:
    """The seats' values searched (no per-card values), one thread, on a new core (or
    with ``warm`` the one before, ``_warm_core``): the nodes and whether the node budget
    sufficed."""
    if warm:
        _warm_core(problem.position)
    else:
        _new_core(problem.position)
    budget = Budget(nodes=problem.nodes, ms=MS)
    with engine.leased_core(problem.position, budget) as core:
        try:
            solve_loaded(core, problem.position, list(problem.seats), budget, with_cards=False)
            solved = True
        except SolveTimeout:
            solved = False
        return core.nodes, solved


def _domino(problem: Problem) -> tuple[int, bool]:
    try:
        return solve_domino(problem.position, problem.seats, Budget(nodes=problem.nodes, ms=MS)).nodes, True
    except SolveTimeout:
        return problem.nodes, False     # the compiled domino search stops at its node budget


def _timed(problem: Problem, search: Callable[[Problem], tuple[int, bool]],
           dds: "Callable[[Problem], float] | None") -> Outcome:
    """One exact search timed, its nodes on a new core. Beside DDS, the best of
    ``DDS_ROUNDS`` alternating runs of each (a shared machine's speed varies from run
    to run more than the two differ), the later ones on the warm core, as DDS's are on
    its memory: their nodes may differ by a fraction of a per cent, and are not counted."""
    start = time.perf_counter()
    nodes, solved = search(problem)
    secs = time.perf_counter() - start
    theirs = None
    if dds is not None and problem.doubles:
        theirs = dds(problem)
        for _ in range(DDS_ROUNDS - 1):
            start = time.perf_counter()
            _solve(problem, warm=True)
            secs = min(secs, time.perf_counter() - start)
            theirs = min(theirs, dds(problem))
    return Outcome(problem.group, problem.name, problem.tricks_left, nodes, secs, solved, True,
                   theirs, problem.nodes)


def _anytime(problem: Problem) -> Outcome:
    """The time to the analysis's exact answer (not solved when ``ANYTIME_MS`` passes
    first), or for a ``first-answer`` problem to its first one."""
    start = time.perf_counter()
    # a first answer leaves the analysis there: it closes, its core given back, when dropped
    for last in analyses(problem.position, problem.seats, Budget(nodes=10**12, ms=ANYTIME_MS)):
        secs = time.perf_counter() - start
        if problem.kind == "first-answer":
            break
    return Outcome(problem.group, problem.name, problem.tricks_left, last.nodes, secs,
                   problem.kind == "first-answer" or last.solved, False)


def _hint(problem: Problem) -> Outcome:
    pos = problem.position
    seat = problem.seats[0]
    start = time.perf_counter()
    hint(pos.variant, pos.contract.name, seat, pos.hands[seat], leader=pos.leader, seed=0)
    return Outcome(problem.group, problem.name, problem.tricks_left, None,
                   time.perf_counter() - start, True, False)


def run_problem(problem: Problem, dds: "Callable[[Problem], float] | None" = None) -> Outcome:
    """What one problem took."""
    if problem.kind == "solve":
        return _timed(problem, _solve, dds)
    if problem.kind == "domino":
        return _timed(problem, _domino, None)
    if problem.kind == "hint":
        return _hint(problem)
    return _anytime(problem)


def run_problems(problems: list[Problem], dds: "Callable[[Problem], float] | None" = None,
                 progress: "Callable[[int, int], None] | None" = None) -> list[Outcome]:
    """Every problem's outcomes, in order; ``progress(done, total)`` after each."""
    out: list[Outcome] = []
    for i, problem in enumerate(problems):
        out.append(run_problem(problem, dds))
        if progress is not None:
            progress(i + 1, len(problems))
    return out


def signature(outcomes: Iterable[Outcome]) -> int:
    """The nodes of the exact searches solved within their node budget, summed: the
    same on every machine for the same build and suite."""
    return sum(o.nodes or 0 for o in outcomes if o.exact and o.solved)


def dds_solver() -> Callable[[Problem], float]:
    """DDS's time on a doubles problem (endplay ``solve_board``, one thread, the
    side's best score from the position), after an unrelated deal so that DDS too
    starts from an empty table; ``InvalidRequestError`` when endplay is missing."""
    try:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal as DDSDeal, Denom, Player
    except ImportError:
        raise InvalidRequestError("--dds needs endplay: pip install 'kingsolve[dds]'") from None
    unrelated = DDSDeal("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")

    def timed(problem: Problem) -> float:
        pos = problem.position
        denom = Denom.nt if pos.trump is None else Denom.find(pos.trump.name.lower())
        board = DDSDeal("N:" + " ".join(hand_text(h) for h in pos.hands),
                        first=Player(int(pos.to_move)), trump=denom)
        solve_board(unrelated, SolveMode.OptimalOne)
        start = time.perf_counter()
        solve_board(board, SolveMode.OptimalOne)
        return time.perf_counter() - start
    return timed
