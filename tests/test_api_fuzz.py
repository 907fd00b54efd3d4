"""The API on plausible requests with one defect each: a clear answer, never a 5xx.

test_api_schema.py generates bodies from the OpenAPI schemas; these requests pass the
schemas' shapes more often and go deeper: real deals of every rule set and player
count, a legal prefix of play, then (half the time) one defect a client could make,
such as a card not in the hand, a seat not on move, a hand of the wrong size or a
trump the contract does not take. Seeded, so a failure repeats.
"""

from __future__ import annotations

import random

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.game.deal import hand_text
from kingsolve.game.rules import VARIANTS
from kingsolve_api import create_app

from api_answers import error_of

CASES = 240
DEFECTS = ["drop", "retype", "card", "seats", "hand", "trump", "leader"]
ODD_VALUES = [None, -1, 0, 10**30, "", "x", [], {}, True, 2**70, "N", ["SA"], "S2 S3"]
ODD_CARDS = ["SA", "H2", "DT", "C9", "XX", "s10", "10S", "ST", "C2", "S7"]


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True, "KINGSOLVE_MAX_MS": 200, "KINGSOLVE_BATCH_MS": 300,
                       "KINGSOLVE_SOLVE_MS": 100, "KINGSOLVE_STREAM_MS": 100}).test_client()


def plausible(rng: random.Random) -> tuple[dict, Position]:
    """A valid position request: a deal of a rule set, a contract, a legal prefix."""
    name = rng.choice(sorted(VARIANTS))
    rules = VARIANTS[name]
    contract = rng.choice(sorted(rules.contracts))
    players = rng.choice([p for p in rules.players if p != 3 or rules.deck == 52])
    doubles = rules.doubles and players == 4 and rng.random() < 0.3
    deal = Deal.random(rng.randrange(10**6), deck=rules.deck, players=players)
    trump = rng.choice("SHDC") if rules.contracts[contract].trump != "none" else None
    leader = rng.choice([s for s in Seat if deal.hands[s] is not None])
    request = {"variant": name, "contract": contract, "deal": str(deal), "leader": leader.name,
               "doubles": doubles}
    if trump:
        request["trump"] = trump
    try:
        pos = Position(name, contract, deal, leader=leader, doubles=doubles, trump=trump)
    except Exception:          # a contract this deal cannot play: the request says why
        return request, None
    play = []
    for _ in range(rng.randrange(4 * 13)):
        if pos.complete:
            break
        card = rng.choice(pos.legal_cards())
        pos.play(card)
        play.append(str(card))
    request["play"] = play
    return request, pos


def with_defect(rng: random.Random, request: dict) -> dict:
    request = dict(request)
    defect = rng.choice(DEFECTS)
    if defect == "drop":
        del request[rng.choice(sorted(request))]
    elif defect == "retype":
        request[rng.choice(sorted(request))] = rng.choice(ODD_VALUES)
    elif defect == "card":
        request["play"] = list(request.get("play", [])) + [rng.choice(ODD_CARDS)]
    elif defect == "seats":
        request["seats"] = rng.choice([["N", "N"], ["Z"], [], "N", [0], [None]])
    elif defect == "hand":
        request["hand"] = rng.choice(["", "SA SA", "S:AKQ", "AKQJT98765432...", "x"])
    elif defect == "trump":
        request["trump"] = rng.choice(["S", "X", "NT", 3])
    else:
        request["leader"] = rng.choice(["Q", "", "NS", 5])
    return request


def for_endpoint(rng: random.Random, request: dict, pos: Position | None) -> tuple[str, dict]:
    """The request reshaped for one endpoint, as a client of that endpoint would send it."""
    endpoint = rng.choice(["legal", "solve", "solve/stream", "hint", "table", "choices"])
    body = dict(request)
    if endpoint in ("solve", "solve/stream", "table"):
        body["ms"] = rng.choice([1, 20, 100])
    if endpoint == "hint":
        body.pop("deal", None)
        seat = pos.to_move if pos is not None and pos.to_move is not None else Seat.N
        body["seat"] = seat.name
        body["hand"] = hand_text(pos.hands[seat]) if pos is not None else "AKQ..."
        body["samples"] = rng.choice([1, 4])
        body["players"] = sum(h is not None for h in pos.deal.hands) if pos is not None else 4
    if endpoint == "table":
        body.pop("contract", None)
        body.pop("play", None)
    if endpoint == "choices":
        body = {"kind": "trump", "variant": body.get("variant"), "deal": body.get("deal"),
                "leader": body.get("leader"), "ms": 100}
    return endpoint, body


@pytest.mark.parametrize("seed", range(CASES))
def test_a_plausible_request_gets_an_answer_or_a_clear_error(client, seed):
    rng = random.Random(seed)
    endpoint, body = for_endpoint(rng, *plausible(rng))
    if rng.random() < 0.5:
        body = with_defect(rng, body)
    resp = client.post(f"/api/v1/{endpoint}", json=body)
    assert resp.status_code in (200, 400, 503), (endpoint, body, resp.get_data(as_text=True))
    if resp.status_code == 200:
        assert resp.get_data()
    else:
        message = error_of(resp, resp.status_code)
        assert "\n" not in message and len(message) < 400
