"""A plain-Python minimax over ``Position.play``/``undo``: the reference the core is
tested against (docs/rules.md sections 2, 3 and 11).

No pruning and no tables: every legal card of every seat is tried. The value of a
seat is the paranoid value in singles (the seat maximises, the others minimise its
score) and the side's exact value in doubles (the seat and its partner maximise).
Scores include the points taken so far and the constant per seat.
"""

from __future__ import annotations

from kingsolve.game.cards import Card, Seat
from kingsolve.game.position import Position
from kingsolve.search.result import SolveResult


def _final(position: Position, side: tuple[Seat, ...]) -> int:
    scores = position.scores()
    return sum(scores[s] for s in side)


def value(position: Position, seat: Seat) -> int:
    """The value of ``seat`` (its side in doubles) by full minimax."""
    return _search(position, position.side_of(seat), -10**9, 10**9, prune=False)


def value_pruned(position: Position, seat: Seat) -> int:
    """The same value as ``value()`` by alpha-beta (still plain Python over
    ``Position``, no tables): exact at the root's full window, and fast enough for
    positions with four tricks left."""
    return _search(position, position.side_of(seat), -10**9, 10**9, prune=True)


def card_values_pruned(position: Position) -> dict[Card, int]:
    """``card_values()`` by alpha-beta."""
    return card_values(position, prune=True)


def _search(position: Position, side: tuple[Seat, ...], alpha: int, beta: int,
            prune: bool) -> int:
    # Every legal card of every seat; with `prune`, alpha-beta cutoffs in the window
    # (alpha, beta), else every line to the end (the minimax that checks the pruning).
    if position.complete:
        return _final(position, side)
    mover = position.to_move
    maximizing = mover in side
    best = None
    legal = position.legal_mask()
    while legal:
        low = legal & -legal
        legal ^= low
        position._apply(mover, low.bit_length() - 1)
        v = _search(position, side, alpha, beta, prune)
        position.undo()
        if best is None or (v > best if maximizing else v < best):
            best = v
        if prune:
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if alpha >= beta:
                break
    return best


def card_values(position: Position, prune: bool = False) -> dict[Card, int]:
    """For each legal card of the seat on move: that seat's value after playing it
    (by alpha-beta with ``prune``, else by full minimax)."""
    side = position.side_of(position.to_move)
    out = {}
    for card in position.legal_cards():
        position.play(card)
        out[card] = _search(position, side, -10**9, 10**9, prune)
        position.undo()
    return out


def solve(position: Position, seats=None, budget=None) -> SolveResult:
    """``kingsolve.solve``'s result by full minimax (``budget`` is ignored): each asked
    seat's value and the mover's after each legal card, independent of the core."""
    seats = list(position.seats) if seats is None else [Seat.parse(s) for s in seats]
    values = {s: value(position, s) for s in seats}
    cards = {} if position.to_move is None else card_values(position)
    top = max(cards.values()) if cards else None
    return SolveResult(position.to_move, dict(position.scores()), values, cards,
                       [c for c, v in cards.items() if v == top], position.complete, nodes=1)
