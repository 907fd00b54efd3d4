"""Italian doubles, every trick contract, against the brute force on many small
positions: the side rules of the core (ext/core_sides.pxi: a side's safe exits in the
move order; the order changes no value, the tables and the cuts it steers must not
either) and every quick rule of the side searches.

Positions are seeded: full deals played at random to two to four tricks left, at a
trick start or in a trick, each side's value searched by the core and by
``tests/bruteforce.py``'s alpha-beta over ``Position``.
"""

from __future__ import annotations

import random

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.game.rules import VARIANTS
from kingsolve.search.solver import solve

import bruteforce
from contracts import CONFIGS, config_id, fast_sample

DOUBLES = [cfg for cfg in CONFIGS if cfg[0] == "italian" and cfg[5]]
POSITIONS = 200


def small_position(cfg, seed: int) -> Position:
    """A full deal of ``cfg`` played at random to a few tricks left."""
    vname, cname, trump, options, _, _ = cfg
    rng = random.Random(f"sides/{config_id(cfg)}/{seed}")
    pos = Position(vname, cname, Deal.random(rng.randrange(10**9)), leader=Seat(rng.randrange(4)),
                   trump=trump, options=options, doubles=True)
    left = rng.choice((2, 3, 3, 4))
    while not pos.complete and (pos.n_tricks - len(pos.tricks) > left
                                or (pos.trick and rng.random() < 0.6)):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def test_every_italian_trick_contract_is_here():
    names = {cfg[1] for cfg in DOUBLES}
    assert names == {n for n, c in VARIANTS["italian"].contracts.items() if c.kind == "tricks"}


@pytest.mark.parametrize("cfg", fast_sample(DOUBLES, config_id))
def test_side_values_match_bruteforce(cfg):
    for seed in range(POSITIONS):
        pos = small_position(cfg, seed)
        if pos.complete:
            continue
        got = solve(pos, seats=[Seat.N, Seat.E], cards=False).values
        for seat in (Seat.N, Seat.E):
            assert got[seat] == bruteforce.value_pruned(pos, seat), (pos, seat)
