"""The play engine of any contract: a ``Position`` for the trick contracts, a
``DominoPosition`` for the domino (docs/rules.md 9).

``new_position`` is the one place that tells them apart when a position is made
from its parts (a request, a record, a report's hand). Its errors name the part to
blame in ``field`` (``trump``, ``doubles``, ``deal``, ``leader``), so a record can
point at the tag that holds it.
"""

from __future__ import annotations

from typing import Iterable

from .cards import Card, Seat, Suit
from .deal import Deal
from .domino import DominoPosition
from ..errors import InvalidRequestError
from .position import Position
from .rule_documents import resolve_variant
from .rules import Contract, RuleSet

__all__ = ["new_position"]


def new_position(variant: "str | RuleSet", contract: "str | Contract", deal: "Deal | str",
                 leader: "Seat | str" = Seat.N, trump: "Suit | str | None" = None,
                 doubles: bool = False, options: Iterable[str] = (),
                 play: Iterable["Card | str"] = ()) -> "Position | DominoPosition":
    """The position of ``contract`` after ``play``: a ``DominoPosition`` for the
    domino (no trump, singles only), else a ``Position``.

    >>> type(new_position("italian", "domino", Deal.random(seed=1))).__name__
    'DominoPosition'
    >>> new_position("italian", "no-queens", Deal.random(seed=1), leader="E").to_move
    <Seat.E: 1>
    """
    rules = resolve_variant(variant)
    options = tuple(options)
    rule = contract if isinstance(contract, Contract) else rules.contract(contract, options)
    if rule.kind != "domino":
        return Position(rules, contract, deal, leader=leader, trump=trump, doubles=doubles,
                        options=options, play=play)
    if trump is not None:
        raise InvalidRequestError("the domino takes no trump", field="trump")
    if doubles:
        raise InvalidRequestError("the domino is played in singles only", field="doubles")
    if options and isinstance(contract, Contract):
        rule = rule.with_options(options)
    return DominoPosition(rules, deal, leader=leader, play=play, contract=rule)
