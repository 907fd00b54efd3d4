"""The domino search (docs/rules.md 9 and 11): paranoid double-dummy values of a
``DominoPosition``.

The play engine is ``kingsolve.game.domino``; the search is the compiled core
``kingsolve._domino`` (``ext/_domino.pyx``), and this module is its one door: it
converts positions into the core's card layout and its results back into a
``SolveResult``, as ``kingsolve.search.solver`` does for trick contracts.
"""

from __future__ import annotations

import time
from dataclasses import replace
from fractions import Fraction
from typing import Iterable

from .._domino import solve as compiled_solve
from ..game.cards import Card, Seat
from ..game.domino import DominoPosition, exact_score
from ..errors import SolveTimeout
from .budget import Budget
from .result import SolveResult
from .line import domino_line, line_seat

__all__ = ["solve_domino", "SHARED_SCALE"]

#: Scores of the compiled core are scaled by this common denominator of the shares
#: (a loser's total split among 1, 2, 3 or 4 winners), so the core works in integers.
SHARED_SCALE = 12


def _internal(mask: int) -> int:
    """A card mask in the core's layout: the ace moves below the two (bit 1 of its lane)."""
    aces = mask & (1 << 14 | 1 << 30 | 1 << 46 | 1 << 62)
    return (mask & ~aces) | (aces >> 13)


def _external_bit(bit: int) -> int:
    return bit + 13 if bit & 15 == 1 else bit


def solve_domino(position: DominoPosition, seats: "Iterable[Seat | str] | None" = None,
                 budget: Budget | None = None, line: "bool | Seat | str" = False) -> SolveResult:
    """Paranoid double-dummy values of a domino position (docs/rules.md 9 and 11).

    ``values[seat]``: the final score the seat can guarantee against the other three
    together; ``cards``: each legal card of the seat on move with the seat's value after
    playing it. Shared-win values are exact (``Fraction`` when not whole).
    Raises ``SolveTimeout`` when the budget's nodes or time run out. ``line`` (as
    for ``kingsolve.solve``) adds the order of the cards under best play for that
    seat (``kingsolve.search.line.domino_line``: a search a step, within a budget
    of its own as large).
    """
    budget = budget or Budget()
    wanted = list(position.seats) if seats is None else [Seat.parse(s) for s in seats]
    line_for = line_seat(position, wanted, line)
    if line_for is not None:
        result = solve_domino(position, wanted, budget)
        found, nodes = domino_line(position, line_for, result.values[line_for], budget,
                                   solve_domino)
        return replace(result, line=found, nodes=result.nodes + nodes)
    start = time.perf_counter()
    mover = position.to_move
    if mover is None:                       # the hand is complete
        final = position.scores()
        return SolveResult(to_move=None, taken=dict(final), values={s: final[s] for s in wanted},
                           cards={}, best=[], complete=True, nodes=0,
                           ms=(time.perf_counter() - start) * 1000)
    scale = SHARED_SCALE if position.shared else 1
    opener = position.opener if position.opener is not None else mover
    last = position.next_seat(opener, -1)
    out_mask = sum(1 << s for s in position.out)
    status, values, card_values, nodes = compiled_solve(
        tuple(_internal(h) for h in position.hands), _internal(position.played),
        _internal(position.opening_mask), int(mover), int(last), int(position.variant.direction),
        scale, out_mask, [int(s) for s in wanted], budget.nodes, float(budget.ms),
        int(budget.tt_mb))
    ms = (time.perf_counter() - start) * 1000
    if status != 0:
        raise SolveTimeout(f"domino search stopped after {nodes} nodes and {ms:.0f} ms: "
                           f"over the budget of {budget.nodes} nodes or {budget.ms:.0f} ms")
    cards = {Card.from_bit(_external_bit(b)): exact_score(Fraction(v, scale))
             for b, v in card_values}
    cards = dict(sorted(cards.items(), key=lambda kv: _hand_order(kv[0])))
    top = max(cards.values())
    result_values = {}
    for s in wanted:
        if s == mover:
            result_values[s] = top
            continue
        value = values[int(s)]
        assert value is not None            # the search values every seat asked for
        result_values[s] = exact_score(Fraction(value, scale))
    return SolveResult(to_move=mover, taken=position.scores(), values=result_values, cards=cards,
                       best=[c for c, v in cards.items() if v == top], complete=False,
                       nodes=nodes, ms=ms)


def _hand_order(card: Card) -> int:
    return int(card.suit) * 16 + (16 - int(card.rank))
