"""A plain-Python reference for the domino solver: full minimax over ``DominoPosition``.

No pruning, no table, no move ordering: every line of play is walked with the play
engine's own ``play``/``undo`` (docs/rules.md 9), and each node gives the paranoid value
(docs/rules.md 11) of all four seats at once: the seat on move takes the maximum of its
own value and the minimum of every other seat's value over its legal cards.
"""

from __future__ import annotations

from kingsolve.game.cards import Card, Seat
from kingsolve.game.domino import DominoPosition
from kingsolve.game.numbers import Number


def paranoid_values(position: DominoPosition) -> dict[Seat, Number]:
    """Each seat's paranoid value of the position (exact)."""
    return values_and_cards(position)[0]


def card_values(position: DominoPosition) -> dict[Card, Number]:
    """For each legal card of the seat on move, that seat's paranoid value after it."""
    return values_and_cards(position)[1]


def values_and_cards(position: DominoPosition) -> tuple[dict[Seat, Number], dict[Card, Number]]:
    """The paranoid values of all seats and the mover's value after each legal card,
    in one walk of the tree."""
    if position.complete:
        return dict(position.scores()), {}
    mover = position.to_move
    best: dict[Seat, Number] = {}
    cards: dict[Card, Number] = {}
    for card in position.legal_cards():
        position.play(card)
        child = paranoid_values(position)
        position.undo()
        cards[card] = child[mover]
        for seat, value in child.items():
            if seat not in best:
                best[seat] = value
            elif seat == mover:
                best[seat] = max(best[seat], value)
            else:
                best[seat] = min(best[seat], value)
    return best, cards


def count_nodes(position: DominoPosition, limit: int) -> int:
    """The number of nodes of the full game tree, stopping once past ``limit``."""
    if position.complete:
        return 1
    total = 1
    for card in position.legal_cards():
        position.play(card)
        total += count_nodes(position, limit - total)
        position.undo()
        if total > limit:
            break
    return total
