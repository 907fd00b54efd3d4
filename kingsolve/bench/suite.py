"""The problems of ``kingsolve bench``: a fixed suite, generated from seeds.

Every problem is built from its seed alone (``random.Random``, ``Deal.random``), so
the suite is the same on every machine. Each group of the table is one kind of
problem at one size:

- singles, one seat's paranoid value (docs/rules.md 11), the penalty contracts and
  the positive ones of every rule set, 9 to 12 tricks left and full deals (Russian
  deals have 8 tricks: full deals only);
- Italian doubles ``no-trumps`` and ``trumps`` (docs/rules.md 10), the leader's side's
  value, 9 tricks left and full deals: the problems DDS also solves;
- the domino (docs/rules.md 9), full deals, all four seats;
- the anytime analysis of full singles deals: its first answer and its exact one;
- card hints from one seat's view at the default level (``DEFAULT_LEVEL``).

Exact searches (the first three kinds) run on one thread on a new core, each
within ``NODES`` (``QUICK_NODES`` with ``quick``): the node budget, never the clock, decides which are solved, so
their node counts add up to a signature that only a change of the search moves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..game.cards import Seat, Suit
from ..game.deal import Deal
from ..game.domino import DominoPosition
from ..game.position import Position
from ..game.rules import VARIANTS

__all__ = ["Problem", "problems", "groups", "NODES", "QUICK_NODES", "MS", "TRICKS_LEFT", "ANYTIME_MS", "group_name"]

#: The node budget of each exact search: what decides whether it is solved.
NODES = 10_000_000
#: The same with ``--quick``, so that its searches the budget stops cost less.
QUICK_NODES = 5_000_000
#: The time budget of each exact search, far above what ``NODES`` takes: a safety net,
#: never what decides (a problem stopped by it is reported and left out of the signature).
MS = 600_000.0
#: The sizes of the singles and doubles problems: tricks left, 0 for a full deal.
TRICKS_LEFT = (9, 10, 11, 12, 0)
#: The time cap of each anytime analysis (its exact answer later than this is not solved).
ANYTIME_MS = 5_000.0
SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)

# The problems per group: (full suite, --quick).
_PER_GROUP = {"singles": (3, 1), "doubles": (4, 1), "domino": (3, 1), "first-answer": (5, 1),
              "anytime": (5, 1), "hint": (4, 1)}


@dataclass(frozen=True)
class Problem:
    """One problem of the suite: its ``group`` (a row of the table), its ``name``
    (unique in its group), its ``kind`` (``solve``, ``domino``, ``first-answer``,
    ``anytime``, ``hint``),
    the position and the seats asked. ``tricks_left`` is the problem's size; ``nodes``
    the node budget of an exact search."""

    group: str
    name: str
    kind: str
    position: Any                  # Position, or DominoPosition for the domino
    seats: tuple[Seat, ...]
    tricks_left: int
    nodes: int = NODES

    @property
    def exact(self) -> bool:
        """Whether the problem is an exact search, counted in the signature when solved."""
        return self.kind in ("solve", "domino")

    @property
    def doubles(self) -> bool:
        return self.kind == "solve" and self.position.doubles


def group_name(kind: str, what: str, left: int) -> str:
    """A group's name: what is solved, then its size."""
    size = "full deal" if left == 0 else f"{left} tricks left"
    return f"{kind} {what}, {size}"


def _played_to(pos: Position, left: int, rng: random.Random) -> Position:
    """``pos`` played at random (legal cards) to a trick start with ``left`` tricks left
    (0: as dealt)."""
    while left and (pos.n_tricks - len(pos.tricks) > left or pos.trick):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def _nodes(quick: bool) -> int:
    return QUICK_NODES if quick else NODES


def _mover(pos: Position) -> Seat:
    """The seat on move of a hand not complete."""
    assert pos.to_move is not None
    return pos.to_move


def _singles(quick: bool) -> list[Problem]:
    per = _PER_GROUP["singles"][quick]
    out = []
    for penalty in (True, False):
        what = "penalty" if penalty else "positive"
        for left in TRICKS_LEFT:
            group = group_name("singles", what, left)
            for vname, rs in VARIANTS.items():
                if left >= rs.deck // 4:
                    continue
                names = [n for n, c in rs.contracts.items() if c.kind == "tricks" and c.penalty == penalty]
                for i in range(per):
                    rng = random.Random(f"bench/singles/{vname}/{what}/{left}/{i}")
                    cname = names[rng.randrange(len(names))]
                    trump = SUITS[rng.randrange(4)] if rs.contracts[cname].takes_trump else None
                    pos = _played_to(Position(rs, cname, Deal.random(rng.randrange(10**9), deck=rs.deck),
                                              leader=Seat(rng.randrange(4)), trump=trump), left, rng)
                    seat = Seat(rng.randrange(4))
                    out.append(Problem(group, f"{vname} {cname} {seat.name} #{i}", "solve", pos,
                                       (seat,), left or pos.n_tricks, _nodes(quick)))
    return out


def _doubles(quick: bool) -> list[Problem]:
    per = _PER_GROUP["doubles"][quick]
    out = []
    for cname in ("no-trumps", "trumps"):
        for left in (9, 0):
            group = group_name("doubles", cname, left)
            for i in range(per):
                rng = random.Random(f"bench/doubles/{cname}/{left}/{i}")
                trump = SUITS[i % 4] if cname == "trumps" else None
                pos = _played_to(Position("italian", cname, Deal.random(rng.randrange(10**9)),
                                          leader=Seat(rng.randrange(4)), doubles=True, trump=trump),
                                 left, rng)
                seat = _mover(pos)
                out.append(Problem(group, f"italian {cname} {seat.name} #{i}", "solve", pos,
                                   (seat,), left or pos.n_tricks, _nodes(quick)))
    return out


def _domino(quick: bool) -> list[Problem]:
    out = []
    for vname in ("italian", "italian-wikipedia"):
        for i in range(_PER_GROUP["domino"][quick]):
            rng = random.Random(f"bench/domino/{vname}/{i}")
            pos = DominoPosition(vname, Deal.random(rng.randrange(10**9)), leader=Seat(rng.randrange(4)))
            out.append(Problem(f"domino {vname}, full deal", f"{vname} #{i}", "domino", pos,
                               tuple(Seat), 13, _nodes(quick)))
    return out


#: The groups of the analyses and hints, by kind.
_GROUPS = {"first-answer": "anytime analysis, first answer, full deal",
           "anytime": "anytime analysis, exact, full deal",
           "hint": "hint, default level, full deal"}


def _anytime_and_hints(quick: bool) -> list[Problem]:
    """Full singles deals of the penalty contracts of the 52-card rule sets: the
    analysis's first answer and its exact one on the same deals, and card hints."""
    out = []
    contracts = [(v, n) for v, rs in VARIANTS.items() if rs.deck == 52
                 for n, c in rs.contracts.items() if c.kind == "tricks" and c.penalty]
    for kind, group in _GROUPS.items():
        for i in range(_PER_GROUP[kind][quick]):
            rng = random.Random(f"bench/{'hint' if kind == 'hint' else 'anytime'}/{i}")
            vname, cname = contracts[rng.randrange(len(contracts))]
            pos = Position(vname, cname, Deal.random(rng.randrange(10**9)), leader=Seat(rng.randrange(4)))
            out.append(Problem(group, f"{vname} {cname} {_mover(pos).name} #{i}", kind, pos,
                               (_mover(pos),), 13))
    return out


def problems(quick: bool = False) -> list[Problem]:
    """The suite's problems in the order they run: the full suite, or with ``quick``
    one or two problems a group."""
    return _singles(quick) + _doubles(quick) + _domino(quick) + _anytime_and_hints(quick)


def groups(quick: bool = False) -> list[str]:
    """The suite's groups in order."""
    return list(dict.fromkeys(p.group for p in problems(quick)))
