"""The policy model (kingsolve.search.policy_model): it sees one seat's view only, its
network in the core equals the numpy fit's, its refit is reproducible, and its play-outs
are legal under every rule set and house rules (docs/rules.md 2, checked by replaying
every card on a ``Position``)."""

from __future__ import annotations

import random

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.errors import IllegalPlayError
from kingsolve.game.cards import Card, cards_of_mask
from kingsolve.game.rules import VARIANTS
from kingsolve.hands.hints import hint
from kingsolve.hands.playouts import model_preference
from kingsolve.search import engine
from kingsolve.search.policy_model import (POLICY_MAGIC, card_slot, default_policy,
                                           read_policy, shown_voids)
from kingsolve.search.value_model import write_model

from test_hint_levels import rule_sets

POLICY = default_policy()
NPF = 402


def random_play(rs, contract: str, seed: int, cards: int) -> Position:
    """A seeded game of four seats after ``cards`` random legal cards."""
    rng = random.Random(seed)
    c = rs.contracts[contract]
    trump = rng.choice("SHDC") if c.takes_trump else None
    p = Position(rs, contract, Deal.random(seed=seed, deck=rs.deck), leader=Seat.N, trump=trump)
    while len(p.record) < cards and not p.complete:
        p.play(rng.choice(p.legal_cards()))
    return p


def hidden_shuffled(p: Position, seed: int) -> "Position | None":
    """The same play from a deal where the cards the seat on move cannot see are dealt
    again among the other seats (each keeps its count and the cards it played); None
    when the play is not legal in that deal (a void shown, a trump owed)."""
    rng = random.Random(seed)
    me = p.to_move
    others = [s for s in p.seats if s != me]
    pool = [c for s in others for c in cards_of_mask(p.hands[s])]
    rng.shuffle(pool)
    hands = {s: p.deal.hands[s] for s in p.seats}
    for s in others:
        n = p.hands[s].bit_count()
        hands[s] = (p.deal.hands[s] & ~p.hands[s]) | sum(1 << c.bit for c in pool[:n])
        pool = pool[n:]
    deal = Deal.from_hands(hands)
    q = Position(p.variant, p.contract.name, deal, leader=p.leader, trump=p.trump)
    try:
        for c in p.record:
            q.play(c)
    except IllegalPlayError:
        return None
    return q


def _view(core, p: Position) -> tuple[list[float], int]:
    engine.load(core, p)
    core.set_voids(shown_voids(p))
    mask = engine.side_mask(p, p.to_move)
    return core.policy_features(mask), core.model_card(mask)


def test_the_package_ships_a_policy_with_its_making():
    assert POLICY is not None
    trained = POLICY.trained
    assert trained["command"].startswith("python -m training.policy_fit")
    assert trained["data_digest"] and trained["seed"] is not None
    assert 0 < trained["held_out"]["model"] <= 1 and trained["held_out"]["examples"] > 1000
    assert POLICY.header["features"] == NPF


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_policy_sees_only_its_seats_view(variant):
    """The hidden hands dealt again (the seat's hand and the public play the same): the
    same features and the same card. And a hidden card moved matters to none of them,
    while the seat's own hand does."""
    rs = VARIANTS[variant]
    core = engine.Core(1)
    core.set_policy(POLICY.core)
    tried = 0
    for seed in range(40):
        contract = sorted(n for n, c in rs.contracts.items() if c.kind == "tricks")[seed % 5]
        p = random_play(rs, contract, seed, 3 + seed % 17)
        if p.complete or len(p.legal_cards()) < 2:
            continue
        q = hidden_shuffled(p, seed)
        if q is None or [q.hands[s] for s in Seat] == [p.hands[s] for s in Seat]:
            continue
        assert q.hands[p.to_move] == p.hands[p.to_move]
        assert _view(core, q) == _view(core, p), (contract, seed)
        tried += 1
    assert tried >= 10


def test_the_features_say_what_the_seat_sees():
    """The seat's cards, the trick, the voids shown: each where the layout puts it."""
    core = engine.Core(1)
    rs = VARIANTS["italian"]
    for seed in range(30):
        p = random_play(rs, "no-hearts", seed, 9 + seed % 20)
        if p.complete:
            continue
        x, _ = _view(core, p)
        me = p.to_move
        mine = [i for i in range(52) if x[6 * i]]
        assert sorted(mine) == sorted(card_slot(p, c.bit) for c in cards_of_mask(p.hands[me]))
        trick = [i for i in range(52) if x[6 * i + 2]]
        assert sorted(trick) == sorted(card_slot(p, b) for _, b in p.trick)
        assert x[312 + len(p.trick)] == 1.0
        order = [p.next_seat(me)]
        while len(order) < 3:
            order.append(p.next_seat(order[-1]))
        voids = shown_voids(p)
        for r, s in enumerate(order):
            for suit in range(4):
                assert x[322 + 4 * r + suit] == float(bool(voids >> (4 * int(s) + suit) & 1))


def _numpy_net(policy):
    np = pytest.importorskip("numpy")
    from training.policy_fit import PolicyNetwork
    h1, h2 = policy.header["hidden"]
    net = PolicyNetwork(NPF, h1, h2, np.random.default_rng(0))
    flat = np.frombuffer(policy_weights(policy), "<f4")
    k = 0
    for i, p in enumerate(net.params):
        net.params[i] = flat[k:k + p.size].reshape(p.shape).copy()
        k += p.size
    return np, net


def policy_weights(policy) -> bytes:
    from kingsolve.search.policy_model import POLICY_PATH
    from kingsolve.search.value_model import read_file
    return read_file(POLICY_PATH, POLICY_MAGIC, "policy model")[1]


def test_the_cores_policy_is_the_numpy_networks_choice():
    np, net = _numpy_net(POLICY)
    core = engine.Core(1)
    core.set_policy(POLICY.core)
    n = 0
    for variant in sorted(VARIANTS):
        rs = VARIANTS[variant]
        for seed in range(12):
            contract = sorted(n for n, c in rs.contracts.items() if c.kind == "tricks")[seed % 4]
            p = random_play(rs, contract, 100 + seed, seed * 3)
            if p.complete or len(p.legal_cards()) < 2:
                continue
            x, card = _view(core, p)
            legal = np.zeros((1, 52), bool)
            legal[0, [card_slot(p, c.bit) for c in p.legal_cards()]] = True
            xs = np.asarray([x], np.float32)
            assert card_slot(p, card) == net.choose(xs, legal)[0]
            assert POLICY.core.scores(x) == pytest.approx(list(net.forward(xs)[0][0]), abs=1e-4)
            assert model_preference(p)[0] == Card.from_bit(card)
            if seed % 4 == 0:
                seat = p.to_move
                h = hint(rs, contract, seat, p.deal.hands[seat], [str(c) for c in p.record],
                         trump=p.trump, level=0, policy="model")
                assert h.recommended == Card.from_bit(card) and h.samples == 0
            n += 1
    assert n > 30


def test_a_policy_fit_on_a_tiny_seeded_set_is_reproducible(tmp_path):
    pytest.importorskip("numpy")
    from training.policy_fit import choices, fit
    from training.policy_games import play_game
    games = [play_game((4, i, 1, None)) for i in range(3)]
    again = [play_game((4, i, 1, None)) for i in range(3)]
    assert [{**g, "ms": 0} for g in games] == [{**g, "ms": 0} for g in again]
    ex = choices(games)
    assert len(ex.y) > 40 and ex.legal[range(len(ex.y)), ex.y].all()
    a = fit(ex, seed=5, hidden=(8, 4), epochs=3, batch=16)
    assert a.weights() == fit(ex, seed=5, hidden=(8, 4), epochs=3, batch=16).weights()
    assert a.weights() != fit(ex, seed=6, hidden=(8, 4), epochs=3, batch=16).weights()
    soft = fit(ex, seed=5, hidden=(8, 4), epochs=3, batch=16, soft=0.05)
    assert soft.weights() == fit(ex, seed=5, hidden=(8, 4), epochs=3, batch=16,
                                 soft=0.05).weights()
    assert soft.weights() != a.weights()
    path = tmp_path / "p.bin"
    write_model(path, NPF, (8, 4), a.weights(), {"seed": 5}, magic=POLICY_MAGIC)
    m = read_policy(path)
    assert m.core.scores(list(ex.x[0])) == pytest.approx(
        list(a.forward(ex.x[:1])[0][0]), abs=1e-5)


@pytest.mark.parametrize("name,rs", rule_sets(), ids=[n for n, _ in rule_sets()])
def test_model_play_outs_are_legal_under_every_rule_set_and_house_rules(name, rs):
    """Every card a model play-out plays is legal when replayed on a ``Position``, every
    trick contract, from the first card; and a hint with the model's play-outs values
    every legal card."""
    core = engine.Core(1)
    core.set_policy(POLICY.core)
    for k, (contract, c) in enumerate(rs.contracts.items()):
        if c.kind != "tricks":
            continue
        p = random_play(rs, contract, 7 + k, k % 9)
        if p.complete:
            continue
        engine.load(core, p)
        core.set_voids(shown_voids(p))
        mask = engine.side_mask(p, p.to_move)
        for card in p.legal_cards():
            played = core.playout_cards(card.bit, mask, 0, 3)
            q = Position(rs, contract, p.deal, leader=Seat.N, trump=p.trump, play=p.record)
            for b in played:
                if q.complete:          # a hand may end once no points are left
                    break
                q.play(Card.from_bit(b))
            assert q.complete
        seat = p.to_move
        h = hint(rs, contract, seat, p.deal.hands[seat], [str(x) for x in p.record],
                 trump=p.trump, samples=3, policy="model")
        assert {x.card for x in h.cards} == set(p.legal_cards())


@pytest.mark.parametrize("name,rs", rule_sets(), ids=[n for n, _ in rule_sets()])
def test_a_model_play_out_plays_the_models_card_from_its_whole_inputs(name, rs):
    """A model play-out keeps the first layer up to date card by card instead of
    adding every input's row at each card: each card it plays is the one the whole
    evaluation scores highest (``model_card`` at that position), but for scores
    within rounding of each other."""
    core, whole = engine.Core(1), engine.Core(1)
    core.set_policy(POLICY.core)
    checked = 0
    for k, (contract, c) in enumerate(rs.contracts.items()):
        if c.kind != "tricks":
            continue
        p = random_play(rs, contract, 31 + k, 3 * k % 11)
        if p.complete:
            continue
        engine.load(core, p)
        core.set_voids(shown_voids(p))
        mask = engine.side_mask(p, p.to_move)
        card = p.legal_cards()[k % len(p.legal_cards())]
        q = Position(rs, contract, p.deal, leader=Seat.N, trump=p.trump, play=p.record)
        q.play(card)
        for b in core.playout_cards(card.bit, mask, 0, 3)[1:]:
            if q.complete:
                break
            features, _ = _view(whole, q)
            scores = POLICY.core.scores(features)
            legal = q.legal_cards()
            top = max(scores[card_slot(q, x.bit)] for x in legal)
            assert scores[card_slot(q, b)] >= top - 1e-4, (contract, q.record)
            q.play(Card.from_bit(b))
            checked += 1
    assert checked > 50


def test_a_model_play_out_without_the_policy_file_is_a_clear_error(monkeypatch):
    import kingsolve.search.policy_model as pm
    from kingsolve.errors import InvalidRequestError
    from kingsolve.hands.playouts import policy_rollout_values
    from kingsolve.search.budget import Budget
    monkeypatch.setattr(pm, "default_policy", lambda: None)
    p = random_play(VARIANTS["italian"], "no-queens", 3, 5)
    with pytest.raises(InvalidRequestError, match="needs the policy model"):
        policy_rollout_values(p, p.to_move, 3, Budget(), "model")
    with pytest.raises(InvalidRequestError, match="needs the policy model"):
        model_preference(p)


def test_a_fit_on_several_sets_takes_every_game_of_each(tmp_path):
    """``policy_fit --data A B``: the games of both sets, one in ten of each held out,
    the header naming both."""
    pytest.importorskip("numpy")
    import json
    from training.policy_fit import main
    from training.policy_games import play_game
    for name, seed in (("a.jsonl", 4), ("b.jsonl", 5)):
        (tmp_path / name).write_text("".join(json.dumps(play_game((seed, i, 1, None))) + "\n"
                                             for i in range(2)))
    out = tmp_path / "p.bin"
    assert main(["--data", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--seed", "1",
                 "--epochs", "1", "--hidden", "8", "4", "--out", str(out)]) == 0
    trained = read_policy(out).trained
    assert (trained["data"], trained["games"]) == ("a.jsonl, b.jsonl", 4)


def test_soft_targets_are_the_hints_means_and_the_hints_card_has_no_regret():
    """Each game records every legal card's mean in the hint that chose; the soft
    targets spread over the legal cards alone, sharper at a lower temperature, and by
    those means the hint's own card has no regret."""
    np = pytest.importorskip("numpy")
    from training.policy_fit import choices, regret, targets
    from training.policy_games import play_game
    games = [play_game((4, i, 3, None)) for i in range(2)]
    for g in games:
        assert len(g["means"]) == len(g["chosen"])
        for n, means in zip(g["chosen"], g["means"]):
            assert max(means, key=means.__getitem__) == g["play"][n] or \
                means[g["play"][n]] == max(means.values())
    ex = choices(games)
    assert ex.valued
    warm, cold = targets(ex, 0.1), targets(ex, 0.01)
    assert np.allclose(warm.sum(1), 1) and not warm[~ex.legal].any()
    assert (cold.max(1) >= warm.max(1) - 1e-6).all()
    assert regret(ex.y, ex) == 0.0 and regret(ex.simple, ex) >= 0.0
    hard = choices([{k: v for k, v in g.items() if k != "means"} for g in games])
    assert not hard.valued and np.isnan(regret(hard.y, hard))
