"""pytest-benchmark suite of the trick search core, with DDS as the peer.

    .venv/bin/python -m pytest benchmarks/bench_core.py --benchmark-enable \
        --benchmark-group-by=group --benchmark-columns=median,mean,ops

Each group times kingsolve and DDS (endplay ``solve_board``, one thread) on the
same seeded Italian doubles positions, so the ratio of their medians is read
from one run. Positions are cut at 9 tricks left at a trick start: the problems
both solvers answer well inside a benchmark round (full 13-card deals are timed
by ``benchmarks/core_speed.py``). A third group times singles penalty contracts
(one seat's paranoid value), which DDS does not solve.
"""

from __future__ import annotations

import random

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.game.deal import hand_text
from kingsolve.search.budget import Budget
from kingsolve.search.solver import solve

TRICKS_LEFT = 9
DEALS = 6
BUDGET = Budget(nodes=2_000_000_000, ms=120_000)
PLAYER = {Seat.N: "north", Seat.E: "east", Seat.S: "south", Seat.W: "west"}


def _position(seed: int, variant: str, contract: str, trump: str | None, doubles: bool,
              tricks_left: int = TRICKS_LEFT):
    rng = random.Random(f"bench/{seed}")
    deck = 32 if variant == "russian" else 52
    pos = Position(variant, contract, Deal.random(rng.randrange(10**9), deck=deck),
                   leader=Seat(seed % 4), trump=trump, doubles=doubles)
    while len(pos.tricks) < pos.n_tricks - tricks_left or pos.trick:
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def _doubles_positions(contract: str, trump: str | None):
    return [_position(seed, "italian", contract, trump, True) for seed in range(DEALS)]


def _kingsolve_all(positions):
    return [solve(p, seats=[p.to_move], budget=BUDGET).values for p in positions]


def _dds_all(boards):
    from endplay.dds import solve_board
    return [list(solve_board(b)) for b in boards]


def _boards(positions):
    types = pytest.importorskip("endplay.types")
    out = []
    for p in positions:
        trump = "nt" if p.trump is None else {"S": "spades", "H": "hearts", "D": "diamonds",
                                              "C": "clubs"}[p.trump.name]
        out.append(types.Deal("N:" + " ".join(hand_text(h) for h in p.hands),
                              first=getattr(types.Player, PLAYER[p.to_move]),
                              trump=getattr(types.Denom, trump)))
    return out


@pytest.mark.benchmark(group="doubles no-trumps, 9 tricks left")
@pytest.mark.parametrize("solver", ["kingsolve", "dds"])
def test_doubles_no_trumps(benchmark, solver):
    positions = _doubles_positions("no-trumps", None)
    if solver == "dds":
        boards = _boards(positions)
        benchmark(_dds_all, boards)
    else:
        benchmark(_kingsolve_all, positions)


@pytest.mark.benchmark(group="doubles trumps (spades), 9 tricks left")
@pytest.mark.parametrize("solver", ["kingsolve", "dds"])
def test_doubles_trumps(benchmark, solver):
    positions = _doubles_positions("trumps", "S")
    if solver == "dds":
        benchmark(_dds_all, _boards(positions))
    else:
        benchmark(_kingsolve_all, positions)


@pytest.mark.benchmark(group="singles penalty, 9 tricks left, one seat")
@pytest.mark.parametrize("variant,contract", [
    ("italian", "no-queens"), ("italian", "no-hearts"), ("italian", "no-king-of-hearts"),
    ("portuguese", "no-men"), ("turkish", "no-tricks"), ("russian", "nothing")])
def test_singles_penalty(benchmark, variant, contract):
    left = 6 if variant == "russian" else TRICKS_LEFT  # 8-card hands
    positions = [_position(seed, variant, contract, None, False, left) for seed in range(DEALS)]
    benchmark(_kingsolve_all, positions)
