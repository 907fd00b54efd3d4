"""The hint engine's play-outs in the compiled core against their Python reading.

``kingsolve.hands.hints.play_preference`` is the simple player; the core's ``policy_card``
plays the same card, and ``kingsolve.search.solver.rollout_values`` (the play-out and the
search at the horizon, all compiled) gives the values of ``kingsolve.hands.hints._rollout``
(the play-out in Python, then ``solve``). Every contract of every rule set, 2 to 4
players, singles and doubles (the configurations of the differential tests).
"""

from __future__ import annotations

import random

import pytest

from kingsolve import Card, Deal, Position
from kingsolve.errors import InvalidRequestError, SolveTimeout
from kingsolve.search.budget import Budget
from kingsolve.hands.hints import _rollout, play_preference
from kingsolve.search import engine
from kingsolve.search.solver import playout_values, rollout_values, solve

from contracts import CONFIGS, config_id, fast_sample


def random_midgame(cfg, seed: int, most_left: int) -> Position:
    """A seeded position with at most ``most_left`` tricks to play (sometimes mid-trick)."""
    vname, cname, trump, options, players, doubles = cfg
    rng = random.Random(f"{config_id(cfg)}/{seed}")
    deal = Deal.random(rng.randrange(10**9), deck=32 if vname == "russian" else 52, players=players)
    pos = Position(vname, cname, deal, leader=rng.choice(list(deal.seats)), trump=trump,
                   doubles=doubles, options=options)
    keep = rng.randint(1, most_left)
    while not pos.complete and (pos.n_tricks - len(pos.tricks) > keep or rng.random() < 0.3):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


@pytest.mark.parametrize("cfg", fast_sample(CONFIGS, config_id))
def test_the_core_plays_the_simple_players_card(cfg):
    """docs/rules.md 2 legal cards, the choice of kingsolve.hands.hints.play_preference: along whole
    hands played by that player, at every card."""
    checked = 0
    for seed in range(6):
        pos = random_midgame(cfg, seed, 26)
        while not pos.complete:
            core = engine.Core(1)
            engine.load(core, pos)
            want = play_preference(pos)[0]
            assert Card.from_bit(core.policy()) == want, (pos, want)
            pos.play(want)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_compiled_rollouts_equal_the_python_rollouts(cfg):
    """Values after each card, the play-out and the search at the horizon (docs/rules.md 11)."""
    rng = random.Random(config_id(cfg))
    for seed in range(4):
        pos = random_midgame(cfg, 100 + seed, 8)
        if pos.complete:
            continue
        seat = rng.choice(list(pos.seats))
        horizon = rng.randint(0, 4)
        got = rollout_values(pos, seat, horizon)
        want, _ = _rollout(pos, seat, pos.legal_cards(), horizon, solve, None)
        assert got == want, (pos, seat, horizon)


@pytest.mark.parametrize("cfg", CONFIGS[::3], ids=config_id)
def test_compiled_playouts_of_a_whole_position(cfg):
    """Every seat plays the simple player from the position to the horizon, then the
    values of solve (docs/rules.md 11): the choice hints' evaluation."""
    rng = random.Random("whole/" + config_id(cfg))
    for seed in range(3):
        pos = random_midgame(cfg, 200 + seed, 9)
        if pos.complete:
            continue
        horizon = rng.randint(0, 4)
        got = playout_values(pos, None, horizon)
        p = pos.copy()
        while not p.complete and (p.current_trick() or p.n_tricks - len(p.tricks) > horizon):
            p.play(play_preference(p)[0])
        assert got == solve(p, cards=False).values, (pos, horizon)


def test_choice_hints_play_whole_hands_out():
    """A 13-card choice hint with the default solver: each option's hand played out to
    the horizon, then solved; a given solver searches whole hands (horizon None)."""
    from kingsolve.hands.hints import DEFAULT_HORIZON, trump_hint
    from kingsolve.io.request import hint_request
    hand = Deal.random(3).hands[0]
    t = trump_hint("italian", "N", hand, samples=4, seed=2)
    assert t.horizon == DEFAULT_HORIZON and t.to_dict()["horizon"] == DEFAULT_HORIZON
    assert {o.option for o in t.options} >= {"S", "H", "D", "C"}
    c = hint_request({"variant": "turkish", "seat": "N", "hand": "AKQ2.K72.J9.8643",
                      "choice": "contract", "samples": 3, "horizon": 5})
    assert c["horizon"] == 5 and c["recommended"] in [o["option"] for o in c["options"]]


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
    with pytest.raises(InvalidRequestError, match="invalid horizon"):
        playout_values(pos, None, -2)


def test_play_outs_keep_the_search_budget():
    """The search at the horizon runs under the budget: a clear SolveTimeout, no hang."""
    pos = Position("italian", "no-queens", Deal.random(4))
    with pytest.raises(SolveTimeout, match="node budget"):
        rollout_values(pos, "N", 9, Budget(nodes=5000))
    with pytest.raises(SolveTimeout, match="node budget"):
        playout_values(pos, ["E"], 10, Budget(nodes=5000))
