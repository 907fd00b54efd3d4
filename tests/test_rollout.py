"""The hint engine's play-outs in the compiled core (issue 7) against their Python reading.

``kingsolve.hint.play_preference`` is the simple player; the core's ``policy_card``
plays the same card, and ``kingsolve.solver.rollout_values`` (the play-out and the
search at the horizon, all compiled) gives the values of ``kingsolve.hint._rollout``
(the play-out in Python, then ``solve``). Every contract of every rule set, 2 to 4
players, singles and doubles (the configurations of the differential tests).
"""

from __future__ import annotations

import random

import pytest

from kingsolve import Card, Deal, Position
from kingsolve.errors import InvalidRequestError
from kingsolve.hint import _rollout, play_preference
from kingsolve.solver import _core, _load, rollout_values, solve

from test_solver_differential import CONFIGS, _id


def random_midgame(cfg, seed: int, most_left: int) -> Position:
    """A seeded position with at most ``most_left`` tricks to play (sometimes mid-trick)."""
    vname, cname, trump, options, players, doubles = cfg
    rng = random.Random(f"{_id(cfg)}/{seed}")
    deal = Deal.random(rng.randrange(10**9), deck=32 if vname == "russian" else 52, players=players)
    pos = Position(vname, cname, deal, leader=rng.choice(list(deal.seats)), trump=trump,
                   doubles=doubles, options=options)
    keep = rng.randint(1, most_left)
    while not pos.complete and (pos.n_tricks - len(pos.tricks) > keep or rng.random() < 0.3):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_the_core_plays_the_simple_players_card(cfg):
    """RULES.md 2 legal cards, the choice of kingsolve.hint.play_preference: along whole
    hands played by that player, at every card."""
    checked = 0
    for seed in range(6):
        pos = random_midgame(cfg, seed, 26)
        while not pos.complete:
            core = _core.Core(1)
            _load(core, pos)
            want = play_preference(pos)[0]
            assert Card.from_bit(core.policy()) == want, (pos, want)
            pos.play(want)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_compiled_rollouts_equal_the_python_rollouts(cfg):
    """Values after each card, the play-out and the search at the horizon (RULES.md 11)."""
    rng = random.Random(_id(cfg))
    for seed in range(4):
        pos = random_midgame(cfg, 100 + seed, 8)
        if pos.complete:
            continue
        seat = rng.choice(list(pos.seats))
        horizon = rng.randint(0, 4)
        got = rollout_values(pos, seat, horizon)
        want, _ = _rollout(pos, seat, pos.legal_cards(), horizon, solve, None)
        assert got == want, (pos, seat, horizon)


def test_rollout_input_errors():
    pos = Position("italian", "no-queens", Deal.random(1))
    with pytest.raises(InvalidRequestError, match="invalid horizon"):
        rollout_values(pos, "N", -1)
    with pytest.raises(InvalidRequestError, match="invalid horizon"):
        rollout_values(pos, "N", "3")
    with pytest.raises(InvalidRequestError, match="needs a trick-contract Position"):
        rollout_values("N:...", "N", 3)
    rng = random.Random(3)
    while len(pos.tricks) < 10 or len(pos.current_trick()) < 3:
        pos.play(rng.choice(pos.legal_cards()))
    # the card closes the trick, and the horizon is past the tricks left: no play-out,
    # the per-card values of solve
    assert rollout_values(pos, pos.to_move, 3) == solve(pos).cards
