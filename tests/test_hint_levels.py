"""Hints weighted by the other seats' play, and the strength levels: the library's, the
request's, the command line's and the API's."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from bruteforce import card_values_pruned
from kingsolve import Deal, Position, Seat
from kingsolve.game.rule_documents import rules_from_json
from kingsolve.game.rules import VARIANTS
from kingsolve.game.cards import cards_of_mask
from kingsolve.hands.hints import (DEFAULT_LEVEL, LEVELS, contract_hint, festa_hint, hint,
                                   play_preference, sale_hint, trump_hint)
from kingsolve.hands.inference import PlayModel, effective_size
from kingsolve.hands.playouts import model_preference
from kingsolve.hands.sampling import DealSampler, SeatView
from kingsolve.errors import InvalidRequestError
from kingsolve.io.request import hint_request
from kingsolve.io.schema import CHOICE_SAMPLES

from api_answers import error_of

HOUSE = Path(__file__).resolve().parent.parent / "docs" / "house-rules"


def played_out(variant, contract, seed, tricks_left, trump=None, doubles=False, min_legal=2):
    """A seeded game played at random until ``tricks_left`` tricks remain (sometimes a card
    or two into the next trick), the seat on move holding ``min_legal`` legal cards."""
    deck = VARIANTS[variant].deck if isinstance(variant, str) else variant.deck
    for attempt in range(seed, seed + 2000, 97):
        deal = Deal.random(seed=attempt, deck=deck)
        rng = random.Random(attempt)
        p = Position(variant, contract, deal, leader=Seat.N, trump=trump, doubles=doubles)
        while len(p.tricks) < p.n_tricks - tricks_left and not p.complete:
            p.play(rng.choice(p.legal_cards()))
        for _ in range(attempt % 3):
            if not p.complete:
                p.play(rng.choice(p.legal_cards()))
        if not p.complete and len(p.legal_cards()) >= min_legal:
            return deal, p
    raise AssertionError("no such position")


def reference_likelihood(variant, contract, deal, record, seat, trump, doubles, model):
    """The chance of the other seats' cards of ``record`` in ``deal``, replayed on a
    ``Position``: each card's rank in ``play_preference`` among the legal cards then,
    under a softmax of sharpness ``model.beta`` mixed with a uniform choice."""
    p = Position(variant, contract, deal, leader=Seat.N, trump=trump, doubles=doubles)
    out = 1.0
    for card in record:
        if p.to_move != seat:
            order = play_preference(p)
            n, r = len(order), order.index(card)
            soft = math.exp(-model.beta * r) / sum(math.exp(-model.beta * j) for j in range(n))
            out *= (1 - model.noise) * soft + model.noise / n
        p.play(card)
    return out


@pytest.mark.parametrize("variant,contract,trump,doubles,seed", [
    ("italian", "no-queens", None, False, 1), ("turkish", "trumps", "H", False, 2),
    ("portuguese", "festa", "S", False, 3), ("russian", "nothing", None, False, 4),
    ("italian", "no-hearts", None, True, 5), ("italian", "trumps", "D", True, 6),
    ("russian", "no-boys", None, False, 7), ("italian-wikipedia", "no-last-two", None, False, 8)])
def test_weighted_hint_is_the_likelihood_weighted_mean_over_every_deal(variant, contract, trump,
                                                                       doubles, seed):
    """On views small enough to enumerate every deal, each card's weighted mean is the
    exact likelihood-weighted mean of its double-dummy values, the likelihood replayed
    independently on a ``Position`` with ``play_preference``."""
    model = PlayModel(beta=0.8, noise=0.15)
    for left in (3, 2):
        deal, p = played_out(variant, contract, seed, left, trump, doubles)
        seat, record = p.to_move, list(p.record)
        view = SeatView.build(variant, contract, seat, deal.hands[seat], [str(c) for c in record],
                              trump=trump)
        sampler = DealSampler(view)
        if sampler.count <= 120:
            break
    assert sampler.count <= 120
    h = hint(variant, contract, seat, deal.hands[seat], [str(c) for c in record], trump=trump,
             doubles=doubles, samples=400, inference=model)
    assert h.exact and h.samples == sampler.count
    sums, total, weights = {}, 0.0, []
    for i in range(sampler.count):
        d = sampler.deal(i)
        w = reference_likelihood(variant, contract, d, record, seat, trump, doubles, model)
        pos = Position(variant, contract, d, leader=Seat.N, trump=trump, doubles=doubles,
                       play=record)
        for c, v in card_values_pruned(pos).items():
            sums[c] = sums.get(c, 0.0) + w * v
        total += w
        weights.append(w)
    assert max(weights) > min(weights) * (1 + 1e-9) or sampler.count == 1
    for line in h.cards:
        assert line.mean == pytest.approx(sums[line.card] / total, rel=1e-9, abs=1e-9)
    assert h.effective_samples == pytest.approx(effective_size(weights))
    assert h.effective_samples <= h.samples


@pytest.mark.parametrize("beta,noise", [(1.0, 0.1), (0.3, 0.0), (4.0, 0.5), (1.0, 1.0)])
def test_the_play_model_is_a_distribution_over_the_legal_cards(beta, noise):
    model = PlayModel(beta=beta, noise=noise)
    for n in range(1, 14):
        ps = [model.probability(r, n) for r in range(n)]
        assert sum(ps) == pytest.approx(1.0)
        assert ps == sorted(ps, reverse=True) and min(ps) > 0
    assert effective_size([1.0] * 7) == pytest.approx(7)
    assert effective_size([1.0, 0.0, 0.0]) == pytest.approx(1)


def test_a_hint_without_inference_reports_no_effective_size():
    deal, p = played_out("italian", "no-hearts", 11, 6)
    seat = p.to_move
    args = ("italian", "no-hearts", seat, deal.hands[seat], [str(c) for c in p.record])
    plain = hint(*args, samples=20, seed=2)
    weighted = hint(*args, samples=20, seed=2, inference=True)
    assert plain.effective_samples is None and plain.to_dict()["effective_samples"] is None
    assert 1 <= weighted.effective_samples <= 20
    assert {x.card for x in weighted.cards} == {x.card for x in plain.cards}


def test_levels_climb_in_samples_and_horizon():
    """Each level samples at least as much as the one below, with the same horizon or
    deeper, and differs from it (the measured steps: tests/test_level_ladder.py)."""
    assert LEVELS[0].samples == 0 and LEVELS[DEFAULT_LEVEL].samples == 50
    assert (LEVELS[0].policy, LEVELS[1].samples, LEVELS[1].policy) == ("simple", 0, "model")
    for low, high in zip(LEVELS, LEVELS[1:]):
        assert high.samples >= low.samples
        assert high.choice_samples >= low.choice_samples
        assert high.horizon >= low.horizon
        assert high.inference >= low.inference
        assert (high.samples, high.policy) != (low.samples, low.policy)


def test_a_level_sets_the_samples_and_explicit_settings_win():
    deal, p = played_out("italian", "no-queens", 3, 10)
    seat = p.to_move
    args = ("italian", "no-queens", seat, deal.hands[seat], [str(c) for c in p.record])
    for n, lv in enumerate(LEVELS[1:], 1):
        h = hint(*args, level=n)
        assert h.samples == lv.samples
        assert (h.effective_samples is not None) == lv.inference
    assert hint(*args).samples == LEVELS[DEFAULT_LEVEL].samples
    top = len(LEVELS) - 1
    assert hint(*args, level=top, samples=7, inference=True).samples == 7
    assert hint(*args, level=top, samples=7, inference=True).effective_samples is not None
    assert hint(*args, level=2, horizon=4).horizon == 4
    model = hint(*args, level=1)
    assert model.samples == 0 and model.level == 1
    assert hint(*args, level=LEVELS[1].name).to_dict() | {"ms": 0} == model.to_dict() | {"ms": 0}
    assert model.recommended == model_preference(p)[0]
    assert [x.card for x in model.cards] == model_preference(p)
    simple = hint(*args, level=0)
    assert simple.samples == 0 and [x.card for x in simple.cards] == play_preference(p)
    assert simple.recommended == play_preference(p)[0]
    json.dumps(simple.to_dict())
    for bad in (-1, len(LEVELS), "3", 2.5, "grand", LEVELS[1].name.upper()):
        with pytest.raises(InvalidRequestError, match="level"):
            hint(*args, level=bad)
    with pytest.raises(InvalidRequestError, match="samples"):
        hint(*args, samples=0)


def test_choice_hints_take_a_level():
    hand = Deal.random(seed=4).hands[Seat.N]
    assert trump_hint("italian", "N", hand, level=1).samples == LEVELS[1].choice_samples
    assert trump_hint("italian", "N", hand, level=1, samples=3).samples == 3
    assert trump_hint("italian", "N", hand).samples == 20
    assert sale_hint("italian", "N", hand, level=0).samples == LEVELS[0].choice_samples
    assert contract_hint("turkish", "N", hand, level=0).samples == LEVELS[0].choice_samples
    assert festa_hint("N", hand, level=0).samples == LEVELS[0].choice_samples
    named = trump_hint("italian", "N", hand, level=LEVELS[1].name)
    assert (named.level, named.samples) == (1, LEVELS[1].choice_samples)


def random_play(rs, contract, seed, tricks_left, trump):
    """A seeded deal played at random until ``tricks_left`` tricks remain, or until the
    last card before the hand ends early."""
    deal = Deal.random(seed=seed, deck=rs.deck)
    rng = random.Random(seed)
    p = Position(rs, contract, deal, leader=Seat.N, trump=trump)
    while len(p.tricks) < p.n_tricks - tricks_left and not p.complete:
        p.play(rng.choice(p.legal_cards()))
    if p.complete:
        p.undo()
    return deal, p


def rule_sets():
    out = [(name, rs) for name, rs in VARIANTS.items()]
    for path in sorted(HOUSE.glob("*.json")):
        out.append((path.name, rules_from_json(path.read_text(encoding="utf-8"))))
    return out


@pytest.mark.parametrize("name,rs", rule_sets(), ids=[n for n, _ in rule_sets()])
def test_a_hint_is_legal_under_every_rule_set_and_house_rules_at_every_level(name, rs):
    """Every trick contract, from the first card to the last tricks: the hint's cards are
    the legal cards and the recommended card is one of them, at every level (at most 6
    samples)."""
    seed = 0
    for contract, c in rs.contracts.items():
        if c.kind != "tricks":
            continue
        for left in (rs.deck // 4, 7, 2):
            seed += 1
            trump = "SHDC"[seed % 4] if c.takes_trump else None
            deal, p = random_play(rs, contract, seed, left, trump)
            seat = p.to_move
            legal = set(p.legal_cards())
            for level, lv in enumerate(LEVELS):
                h = hint(rs, contract, seat, deal.hands[seat], [str(x) for x in p.record],
                         trump=trump, level=level, samples=min(lv.samples, 6) or None)
                assert {x.card for x in h.cards} == legal, (contract, level)
                assert h.recommended in legal


@pytest.mark.parametrize("variant,contract,trump,doubles", [
    ("italian", "no-queens", None, False), ("italian", "trumps", "H", True),
    ("russian", "no-boys", None, False), ("turkish", "no-last-two", None, False)])
def test_the_simple_policy_is_todays_rollout_and_every_policy_values_every_legal_card(
        variant, contract, trump, doubles):
    from kingsolve.search.budget import Budget
    from kingsolve.hands.playouts import POLICIES, policy_rollout_values
    from kingsolve.search.solver import rollout_values
    for seed in range(3):
        deal, p = played_out(variant, contract, 20 + seed, 9 - 2 * seed, trump, doubles)
        seat = p.to_move
        assert policy_rollout_values(p, seat, 3, Budget(), "simple") == rollout_values(p, seat, 3)
        for policy in POLICIES:
            values = policy_rollout_values(p, seat, 3, Budget(), policy)
            assert set(values) == set(p.legal_cards())
            assert all(isinstance(v, int) for v in values.values())
    with pytest.raises(InvalidRequestError, match="policy"):
        policy_rollout_values(p, seat, 3, Budget(), "random")
    with pytest.raises(InvalidRequestError, match="policy"):
        hint(variant, contract, seat, deal.hands[seat], [str(c) for c in p.record],
             trump=trump, samples=3, policy="random")


# --- the request, the command line and the API ---------------------------------------------

def level_request():
    """A card hint request ten tricks before the end, and the position it asks about."""
    deal, p = played_out("italian", "no-queens", 3, 10)
    seat = p.to_move
    return {"variant": "italian", "contract": "no-queens", "seat": seat.name,
            "hand": [str(c) for c in cards_of_mask(deal.hands[seat])],
            "play": [str(c) for c in p.record], "seed": 2}, p


def without_ms(out):
    return {k: v for k, v in out.items() if k != "ms"}


def test_a_hint_request_takes_a_level():
    req, p = level_request()
    simple = hint_request({**req, "level": 0})
    assert simple["level"] == 0 and simple["samples"] == 0
    assert [x["card"] for x in simple["cards"]] == [str(c) for c in play_preference(p)]
    assert simple["recommended"] == str(play_preference(p)[0])
    one = hint_request({**req, "level": 2})
    assert one["level"] == 2 and one["samples"] == LEVELS[2].samples
    assert one["horizon"] == LEVELS[2].horizon and one["effective_samples"] is None
    assert hint_request({**req, "level": 2, "samples": 7})["samples"] == 7
    model = hint_request({**req, "level": 1})
    assert model["level"] == 1 and model["samples"] == 0
    assert without_ms(hint_request({**req, "level": LEVELS[1].name})) == without_ms(model)
    for bad in ("grand", len(LEVELS), "1"):
        with pytest.raises(InvalidRequestError, match="level"):
            hint_request({**req, "level": bad})
    assert model["recommended"] == str(model_preference(p)[0])
    top = len(LEVELS) - 1
    strongest = hint_request({**req, "level": top, "samples": 6})
    assert strongest["level"] == top and strongest["samples"] == 6
    by_policy = hint("italian", "no-queens", p.to_move, req["hand"], req["play"], samples=6,
                     seed=2, policy=LEVELS[top].policy, inference=LEVELS[top].inference)
    assert without_ms(strongest) == without_ms(by_policy.to_dict() | {"level": top})
    # naming neither: the default level's answer
    plain = hint_request(req)
    assert plain["level"] == DEFAULT_LEVEL and plain["samples"] == LEVELS[DEFAULT_LEVEL].samples
    library = hint("italian", "no-queens", p.to_move, req["hand"], req["play"], samples=50,
                   seed=2)
    assert without_ms(plain) == without_ms(library.to_dict())


def test_a_choice_request_takes_a_level_and_without_one_its_own_samples():
    hand = Deal.random(seed=4).hands[Seat.N]
    req = {"variant": "italian", "seat": "N", "hand": [str(c) for c in cards_of_mask(hand)],
           "choice": "trump"}
    plain = hint_request(req)
    assert plain["samples"] == CHOICE_SAMPLES and plain["level"] is None
    assert without_ms(plain) == without_ms(trump_hint("italian", "N", hand,
                                                      samples=CHOICE_SAMPLES).to_dict())
    one = hint_request({**req, "level": 1})
    assert one["samples"] == LEVELS[1].choice_samples and one["level"] == 1
    assert hint_request({**req, "level": 1, "samples": 3})["samples"] == 3
    sale = hint_request({**req, "choice": "sale", "level": 0})
    assert sale["samples"] == LEVELS[0].choice_samples and sale["level"] == 0


@pytest.mark.parametrize("level", [len(LEVELS), -1, "x", 2.5, True, [3]])
def test_a_level_out_of_range_is_named_with_the_range(level):
    """A number out of range is told the range; a word, the names; anything else, both."""
    req, _ = level_request()
    span = f"0 to {len(LEVELS) - 1}"
    if isinstance(level, str):
        span = f"one of {', '.join(repr(lv.name) for lv in LEVELS)}"
    with pytest.raises(InvalidRequestError, match=f"invalid field 'level'.*{span}"):
        hint_request({**req, "level": level})
    with pytest.raises(InvalidRequestError, match=f"invalid field 'level'.*{span}"):
        hint_request({"variant": "italian", "seat": "N", "hand": req["hand"], "choice": "trump",
                      "level": level})


def test_cli_hint_level(tmp_path, capsys):
    from kingsolve_cli import main
    req, p = level_request()
    path = tmp_path / "req.json"
    path.write_text(json.dumps(req))
    assert main(["hint", str(path), "--level", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["level"] == 0 and out["samples"] == 0
    assert out["recommended"] == str(play_preference(p)[0])
    assert main(["hint", str(path), "--level", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["level"] == 1 and out["samples"] == LEVELS[1].samples
    assert main(["hint", str(path), "--level", "1", "--samples", "5"]) == 0
    assert json.loads(capsys.readouterr().out)["samples"] == 5
    assert main(["hint", str(path), "--level", LEVELS[0].name]) == 0
    assert json.loads(capsys.readouterr().out)["level"] == 0
    with pytest.raises(SystemExit) as stop:
        main(["hint", str(path), "--level", "grand"])
    assert stop.value.code == 2 and "--level" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["hint", str(path), "--level", str(len(LEVELS))])
    assert stop.value.code == 2 and "--level" in capsys.readouterr().err


def test_api_hint_level(client):
    from jsonschema import Draft202012Validator
    req, p = level_request()
    doc = client.get("/api/v1/openapi.json").get_json()
    answer = Draft202012Validator(doc["components"]["schemas"]["HintResponse"])
    resp = client.post("/api/v1/hint", json={**req, "level": 1})
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["level"] == 1 and body["samples"] == LEVELS[1].samples
    answer.validate(body)
    body = client.post("/api/v1/hint", json={**req, "level": 0}).get_json()
    assert body["samples"] == 0 and body["recommended"] == str(play_preference(p)[0])
    answer.validate(body)
    top = len(LEVELS) - 1
    body = client.post("/api/v1/hint", json={**req, "level": LEVELS[top].name,
                                             "samples": 5}).get_json()
    assert body["level"] == top and body["samples"] == 5
    answer.validate(body)
    trump = {"variant": "italian", "seat": "N", "hand": req["hand"], "choice": "trump"}
    choice = client.post("/api/v1/hint", json={**trump, "level": 0}).get_json()
    assert choice["level"] == 0 and choice["samples"] == LEVELS[0].choice_samples
    answer.validate(choice)
    choice = client.post("/api/v1/hint", json=trump).get_json()
    assert choice["level"] is None and choice["samples"] == CHOICE_SAMPLES
    answer.validate(choice)
    for bad in (len(LEVELS), -1, "x", 2.5):
        message = error_of(client.post("/api/v1/hint", json={**req, "level": bad}), 400)
        limit = f"'{LEVELS[-1].name}'" if bad == "x" else f"0 to {len(LEVELS) - 1}"
        assert "'level'" in message and limit in message, message


def test_the_openapi_document_lists_the_level_with_its_bounds(client):
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    level = schemas["HintRequest"]["properties"]["level"]
    number, name = level["anyOf"]
    assert number["type"] == "integer"
    assert (number["minimum"], number["maximum"]) == (0, len(LEVELS) - 1)
    assert name["enum"] == [lv.name for lv in LEVELS]
    for n, lv in enumerate(LEVELS):
        assert f"{n} or '{lv.name}': " in level["description"]
        assert f"({lv.choice_samples} for a choice), horizon {lv.horizon}" in level["description"]
    assert f"default {DEFAULT_LEVEL}" in level["description"]
    card, choice = schemas["HintResponse"]["anyOf"]
    assert {"level", "effective_samples", "samples"} <= set(card["required"])
    assert card["properties"]["level"]["maximum"] == len(LEVELS) - 1
    assert "level" in choice["required"]
