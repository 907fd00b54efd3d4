"""Brute-force values kept in golden files, ``tests/data/golden/<test module>.jsonl``.

The plain-Python references (``bruteforce``, ``domino_bruteforce``) take seconds where
the compiled cores take milliseconds, and what they answer for a seeded position
changes only with the rules: a test reads the answer from its module's file instead of
solving the position again on every run. A position the file lacks is solved by the
reference, as before, with a ``MissingGoldenValue`` warning.

After a change of the rules or of the positions the tests draw, ``make golden``
(``python -m pytest -p no:xdist -q -m golden --write-golden``) solves every value the
tests ask for by the reference again and writes the files anew; every test of a module
that holds a ``Values`` table is marked ``golden``. ``tests/test_golden.py`` solves a
sample of every file again.

One line a position: ``{"position": ..., "values": {seat: value}, "cards": {card:
value}}``, the position as ``position_key`` spells it, each value an integer or an
exact fraction ``"p/q"``.
"""

from __future__ import annotations

import json
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Callable

from kingsolve.game.cards import Card, Seat
from kingsolve.game.domino import DominoPosition
from kingsolve.game.position import Position

import bruteforce
import domino_bruteforce

FOLDER = Path(__file__).parent / "data" / "golden"

_writing = False
_tables: list["Values"] = []


def start_writing() -> None:
    """From now on every value asked for is solved again and kept for ``write_all``."""
    global _writing
    _writing = True


def write_all() -> None:
    """Each table asked for values in this run writes them, in the order asked."""
    for table in _tables:
        if table.asked:
            table.write()


class MissingGoldenValue(UserWarning):
    """A position its golden file lacks, solved by the brute force instead."""


def position_key(position: Position | DominoPosition) -> str:
    """The position as one line of text, every setting spelled out (``rebuild`` reads it).

    A trick contract: ``variant | contract | trump | options | singles or doubles |
    leader | deal | play``; the domino: ``domino | variant | full or short deck |
    leader | deal | play``; ``-`` for no trump and no options.
    """
    play = " ".join(str(c) for c in position.record)
    if isinstance(position, DominoPosition):
        fields = ["domino", position.variant.name, "full" if position.full_deck else "short",
                  position.leader.name, position.deal.pbn(), play]
    else:
        fields = [position.variant.name, position.contract.name,
                  "-" if position.trump is None else position.trump.name,
                  ",".join(position.options) or "-",
                  "doubles" if position.doubles else "singles", position.leader.name,
                  position.deal.pbn(), play]
    return " | ".join(fields)


def rebuild(key: str) -> Position | DominoPosition:
    """The position that ``position_key`` wrote as ``key``."""
    fields = key.split(" | ")
    if fields[0] == "domino":
        _, variant, deck, leader, deal, play = fields
        return DominoPosition(variant, deal, leader=leader, play=play.split(),
                              full_deck=deck == "full")
    variant, contract, trump, options, doubles, leader, deal, play = fields
    return Position(variant, contract, deal, leader=leader,
                    trump=None if trump == "-" else trump, doubles=doubles == "doubles",
                    options=() if options == "-" else tuple(options.split(",")),
                    play=play.split())


def to_json(value) -> int | str:
    """A value as the files keep it: an integer, or a fraction's text."""
    return str(value) if isinstance(value, Fraction) and value.denominator != 1 else int(value)


def from_json(value: int | str):
    """The value ``to_json`` kept."""
    return Fraction(value) if isinstance(value, str) else value


class Values:
    """The brute-force values one test module asks for, read from its golden file."""

    def __init__(self, module: str) -> None:
        self.path = FOLDER / f"{module}.jsonl"
        self.stored: dict[str, dict] = {}
        if self.path.exists():
            for line in self.path.read_text().splitlines():
                entry = json.loads(line)
                self.stored[entry["position"]] = entry
        self.asked: dict[str, dict] = {}
        self.missed: set[str] = set()
        _tables.append(self)

    def _entry(self, key: str) -> dict:
        return {} if _writing else self.stored.get(key, {})

    def _kept(self, key: str) -> dict:
        return self.asked.setdefault(key, {"position": key})

    def _missed(self, key: str) -> None:
        if not _writing and key not in self.missed:
            self.missed.add(key)
            warnings.warn(MissingGoldenValue(
                f"tests/data/golden/{self.path.name} lacks {key!r}: solved by the brute "
                "force (make golden adds it)"), stacklevel=3)

    def value(self, position: Position, seat: Seat,
              reference: Callable[[Position, Seat], int] = bruteforce.value) -> int:
        """``reference(position, seat)``: the seat's value (its side's in doubles)."""
        key = position_key(position)
        found = self._entry(key).get("values", {}).get(seat.name)
        if found is None:
            self._missed(key)
            found = to_json(reference(position, seat))
        self._kept(key).setdefault("values", {})[seat.name] = found
        return from_json(found)

    def card_values(self, position: Position,
                    reference: Callable[[Position], dict] = bruteforce.card_values
                    ) -> dict[Card, int]:
        """``reference(position)``: the mover's value after each of its legal cards."""
        return self._cards(position, lambda: reference(position))

    def domino_values_and_cards(self, position: DominoPosition) -> tuple[dict, dict]:
        """``domino_bruteforce.values_and_cards(position)``: every seat's paranoid value
        and the mover's after each legal card."""
        key = position_key(position)
        found = self._entry(key)
        if "values" in found and "cards" in found:
            self._kept(key).update(values=found["values"], cards=found["cards"])
            return ({Seat[s]: from_json(v) for s, v in found["values"].items()},
                    {Card.parse(c): from_json(v) for c, v in found["cards"].items()})
        self._missed(key)
        values, cards = domino_bruteforce.values_and_cards(position)
        self._kept(key)["values"] = {s.name: to_json(v) for s, v in values.items()}
        self._kept(key)["cards"] = {str(c): to_json(v) for c, v in cards.items()}
        return values, cards

    def _cards(self, position, solve: Callable[[], dict]) -> dict[Card, object]:
        key = position_key(position)
        found = self._entry(key).get("cards")
        if found is None:
            self._missed(key)
            found = {str(c): to_json(v) for c, v in solve().items()}
        self._kept(key)["cards"] = found
        return {Card.parse(c): from_json(v) for c, v in found.items()}

    def write(self) -> None:
        """Write what was asked of this table, one position a line."""
        FOLDER.mkdir(parents=True, exist_ok=True)
        self.path.write_text("".join(json.dumps(entry, separators=(",", ":")) + "\n"
                                     for entry in self.asked.values()))
