"""The positions the value model learns from: seeded, each a function of the set's
seed and its index alone, so that a set is made again (or resumed) exactly.

A position is a trick start reached from a random deal by play that mixes the
simple player's card (``kingsolve.hands.hints.play_preference``) with random legal cards,
in a proportion drawn per position: the search meets both kinds at its horizon.
Every trick contract of every rule set is drawn, in singles with 4 players, in
Italian doubles, and with 3 and 2 players where the rule set has them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kingsolve import Deal, Position, Seat
from kingsolve.hands.hints import play_preference
from kingsolve.game.rules import VARIANTS


@dataclass(frozen=True)
class Setting:
    """One kind of game: rule set, contract, player count, doubles, and the tricks
    left at which its positions are taken."""

    variant: str
    contract: str
    players: int
    doubles: bool
    levels: tuple[int, ...]
    weight: float


#: Tricks left (4 players), weighted towards the levels the search's horizon meets
#: from 12-13 tricks left; the cost of an exact label grows about 2-3 times a trick.
LEVELS_4 = (4, 5, 6, 7, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11)


def _levels(players: int, tricks: int, levels: tuple[int, ...] = LEVELS_4) -> tuple[int, ...]:
    """The tricks-left levels for a player count: the same numbers of cards left in
    play as ``LEVELS_4`` (16 to 44), below the hand's first trick."""
    return tuple(min(tricks - 1, (4 * n + players - 1) // players) for n in levels)


def settings() -> list[Setting]:
    """Every kind of game the model is trained for, with its share of positions."""
    out = []
    for rs in VARIANTS.values():
        for name, c in rs.contracts.items():
            if c.kind != "tricks":
                continue
            for players in rs.players:
                tricks = rs.deck // players
                if players == 4:
                    out.append(Setting(rs.name, name, 4, False, _levels(4, tricks), 1.0))
                    if rs.doubles:
                        out.append(Setting(rs.name, name, 4, True, _levels(4, tricks), 1.0))
                else:
                    out.append(Setting(rs.name, name, players, False, _levels(players, tricks), 0.5))
    return out


SETTINGS = settings()


#: The levels a chain of positions starts from (4 players; scaled as ``_levels``):
#: the levels the estimating search's horizon meets first.
CHAIN_LEVELS = (9, 10, 11)


def position(seed: int, index: int, left: int | None = None,
             kinds: "list[Setting] | None" = None,
             levels: "tuple[int, ...] | None" = None) -> Position:
    """Position ``index`` of the set with this seed: at ``left`` tricks left when
    given, else at one of ``levels`` (4-player counts, scaled to the player count)
    or of its setting's levels; of the settings ``kinds`` (else all)."""
    rnd = random.Random(f"kingsolve-training:{seed}:{index}")
    kinds = SETTINGS if kinds is None else kinds
    weights = [s.weight for s in kinds]
    while True:
        s = rnd.choices(kinds, weights)[0]
        rs = VARIANTS[s.variant]
        c = rs.contracts[s.contract]
        trump = rnd.choice(c.trump_options) if c.takes_trump else None
        deal = Deal.random(rnd.randrange(2 ** 32), deck=rs.deck, players=s.players)
        leader = rnd.choice(list(deal.seats))
        pos = Position(rs, s.contract, deal, leader=leader, trump=trump, doubles=s.doubles)
        drawn = rnd.choice(s.levels if levels is None
                           else _levels(s.players, rs.deck // s.players, levels))
        if left is None:
            left = drawn
        randomness = rnd.random()
        while not pos.complete and (pos.n_tricks - len(pos.tricks) > left or pos.current_trick()):
            if rnd.random() < randomness:
                pos.play(rnd.choice(pos.legal_cards()))
            else:
                pos.play(play_preference(pos)[0])
        if not pos.complete:
            return pos


def seat_names(pos: Position) -> list[str]:
    """The seats whose values label a position: every seat in singles, N and E (one of
    each side) in doubles."""
    if pos.doubles:
        return ["N", "E"]
    return [s.name for s in pos.seats]


__all__ = ["Setting", "SETTINGS", "position", "seat_names", "Seat"]
