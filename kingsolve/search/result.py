"""The typed result of an exact search (``solve``), and the signature of a solver."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..game.cards import Card, Seat
from ..game.numbers import Number, json_number

__all__ = ["SolveResult", "Solver", "answer_dict"]


@dataclass(frozen=True)
class SolveResult:
    """Double-dummy values of a position (docs/rules.md section 11).

    ``values[seat]``: the score for the whole hand (points taken so far included)
    that the seat can guarantee against the other three (its side's exact value in
    doubles). ``cards``: for the seat on move, each legal card and the value for that
    seat after playing it. ``best``: the cards of the best value.
    """

    to_move: Seat | None
    taken: Mapping[Seat, Number]      # read-only, so that a search may give its int values
    values: Mapping[Seat, Number]
    cards: Mapping[Card, Number]
    best: list[Card]
    complete: bool
    nodes: int = 0
    ms: float = 0.0
    extra: dict = field(default_factory=dict)
    line: Any = None        # the optimal line asked for (kingsolve.search.line.Line)

    def to_dict(self) -> dict:
        """The shared JSON response shape (``line`` only when a line was asked for)."""
        return answer_dict(self, {})


def answer_dict(result: Any, own: dict) -> dict:
    """The JSON response shape a ``SolveResult`` and an analysis share, with ``own``,
    the keys of the result's kind: the seat on move, the points taken, the exact
    values (of seats and of the mover's cards), the best cards, whether the hand is
    complete, the nodes and milliseconds spent, the result's ``extra`` keys, and
    ``line`` when a line was asked for."""
    out = {
        "to_move": None if result.to_move is None else result.to_move.name,
        "taken": {s.name: json_number(v) for s, v in result.taken.items()},
        "values": {s.name: json_number(v) for s, v in result.values.items()},
        "cards": {str(c): json_number(v) for c, v in result.cards.items()},
        **own,
        "best": [str(c) for c in result.best],
        "complete": result.complete,
        "nodes": int(result.nodes),
        "ms": round(float(result.ms), 3),
    }
    out.update(result.extra)
    if result.line is not None:
        out["line"] = result.line.to_dict()
    return out


#: What the analyses call to solve a position: ``kingsolve.solve``'s signature, so
#: that a caller may pass its own (a shared-core or counting one) in its place.
Solver = Callable[..., SolveResult]
