"""The search of any position: the anytime analysis or the exact search of a trick
contract (``kingsolve.search.analysis``, ``kingsolve.search.solver``), the exact search of the
domino (``kingsolve.search.domino_solver``). The one place that tells them apart for the
analyses built on them (reviews, reports, requests). The searches are imported when
a position is searched: a server without the compiled core still answers the
requests that need none.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from ..game.cards import Seat
from ..errors import SolveTimeout
from ..game.position import Position
from .budget import Budget
from .result import SolveResult, Solver

if TYPE_CHECKING:
    from ..game.domino import DominoPosition
    from .analysis import Analysis

__all__ = ["solve_position", "analyse_position", "position_analyses"]


def solve_position(position: Position | DominoPosition, seats: Iterable[Seat] | None = None, budget: Budget | None = None,
                   solver: Solver | None = None, threads: int = 1,
                   line: "bool | Seat" = False, all_equal: bool = False) -> SolveResult:
    """The exact values of a trick or domino position with the library's search (or
    ``solver``, same signature as ``kingsolve.solve``); ``threads`` for a trick
    contract's search; ``line`` for the optimal line (``kingsolve.search.line``),
    ``all_equal`` as for ``solve`` (a trick contract's)."""
    seats = None if seats is None else list(seats)
    # a solver of the caller's is asked for a line only when one is wanted
    more: dict[str, Any] = {"line": line} if line is not False else {}
    if solver is not None:
        return solver(position, seats=seats, budget=budget, **more)
    if not isinstance(position, Position):
        from .domino_solver import solve_domino
        return solve_domino(position, seats=seats, budget=budget, **more)
    from .solver import solve
    return solve(position, seats=seats, budget=budget, threads=threads, all_equal=all_equal,
                 **more)


def analyse_position(position: Position | DominoPosition, seats: Iterable[Seat] | None = None,
                     budget: Budget | None = None, solver: Solver | None = None,
                     cards: bool = True) -> Analysis:
    """The analysis of a trick or domino position within ``budget``.

    A trick position with the library's search gets the anytime analysis; the
    domino, or a given exact ``solver`` (same signature as ``kingsolve.solve``), an
    exact result, or on a budget stop only the ranges its ``SolveTimeout`` proved.
    """
    from .analysis import Analysis, analyse, exact_analysis
    seats = None if seats is None else list(seats)
    if solver is None and isinstance(position, Position):
        return analyse(position, seats, budget, cards=cards)
    try:
        return exact_analysis(position, solve_position(position, seats, budget, solver))
    except SolveTimeout as exc:
        bounds = exc.bounds or {}
        return Analysis(to_move=position.to_move, taken=dict(position.taken), complete=False,
                        bounds=dict(bounds), estimates={}, card_bounds={}, card_estimates={},
                        best=[], horizon=None)


def position_analyses(position: Position | DominoPosition, seats: Iterable[Seat] | None = None,
                      budget: Budget | None = None, exact: bool = False, threads: int = 1,
                      cancel: threading.Event | None = None,
                      line: "bool | Seat" = False,
                      all_equal: bool = False) -> Iterator[Analysis]:
    """The analyses of a trick or domino position as they improve (``analyses``),
    the last the best; one exact answer for the domino or with ``exact``, which
    raises ``SolveTimeout`` with the ranges proved when the budget ends first; the
    last with the ``line`` asked for (``all_equal`` as for ``solve``). The search is imported now, the searching starts
    when the first analysis is asked for."""
    from .analysis import analyses, exact_analysis
    if not exact and isinstance(position, Position):
        return analyses(position, seats=seats, budget=budget, cancel=cancel, threads=threads,
                        line=line, all_equal=all_equal)

    def exact_answer() -> Iterator[Analysis]:
        yield exact_analysis(position, solve_position(position, seats, budget, threads=threads,
                                                      line=line, all_equal=all_equal))
    return exact_answer()
