"""The analysis endpoints: /review, /choices and /hint, good and bad bodies, both wire formats."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from kingsolve.game.cards import Seat
from kingsolve.game.deal import Deal
from kingsolve.hands.hints import DEFAULT_HORIZON, MAX_SAMPLES
from kingsolve.search import engine
from kingsolve.game.record import Record

from api_answers import error_of
from contracts import played_out

RECORDS = (Path(__file__).parent / "data" / "italian-short.kpbn").read_text().split("\n\n")
SHORT = RECORDS[0]                     # no-queens, 3 tricks: E SK, E H2 and N H9 cost 3 each
TRUMPS = RECORDS[1]                    # trumps S, 3 tricks: E SK costs 1
SMALL = "N:A2.K.. K3.Q.. Q4.J.. J5.T.."


def full_record() -> str:
    """A 13-card hand with its first card played: a search there takes many nodes."""
    unplayed = Record("italian", "no-queens", Deal.random(2), "N")
    return Record("italian", "no-queens", unplayed.deal, "N",
                  play=unplayed.position().legal_cards()[:1]).text()


def costly(review: dict) -> dict[str, float]:
    return {f"{c['seat']} {c['card']}": c["cost"] for c in review["cards"] if c["cost"] > 0}


# --- /review -----------------------------------------------------------------------------

def test_review_marks_each_costly_card_of_a_record(client):
    resp = client.post("/api/v1/review", json={"record": SHORT})
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["start"] == 0 and body["start_trick"] == 1
    assert [c["card"] for c in body["cards"]] == "SQ SK S9 S7 H2 HA HJ H9 H8 H4 HK HQ".split()
    assert costly(body) == {"E SK": 3, "E H2": 3, "N H9": 3}
    sk = body["cards"][1]
    assert (sk["before"], sk["after"], sk["best"]) == (0, -3, ["SJ"])
    assert body["seats"]["E"]["cost"] == 6 and body["seats"]["E"]["costly"] == 2
    assert body["seats"]["E"]["largest"]["card"] == "SK"
    assert body["seats"]["S"] == {"seat": "S", "cards": 3, "cost": 0, "costly": 0, "unsolved": 0,
                                  "largest": None, "estimated": 0, "estimated_cost": 0,
                                  "largest_estimated": None}
    assert {c["mistake"] for c in body["cards"]} == {"proved", None}
    assert sk["mistake"] == "proved" and sk["min_cost"] == 3 and sk["cost_bounds"] == [3, 3]
    assert body["final_scores"] == {"N": -3, "E": -3, "S": 0, "W": 0}
    assert [c["forced"] for c in body["cards"][-3:]] == [True, True, True]


def test_review_takes_the_json_twin_and_a_later_start(client):
    twin = Record.parse(TRUMPS).to_dict()
    whole = client.post("/api/v1/review", json={"record": twin}).get_json()
    assert costly(whole) == {"E SK": 1}
    late = client.post("/api/v1/review", json={"record": TRUMPS, "from_trick": 2}).get_json()
    assert late["start"] == 4 and late["start_trick"] == 2
    assert late["cards"] == whole["cards"][4:]
    assert late["start_values"] == {"N": 2, "E": 1, "S": 0, "W": 0}
    last = client.post("/api/v1/review", json={"record": TRUMPS, "from_card": 12}).get_json()
    assert last["cards"] == [] and last["start_values"] == {"N": 2, "E": 0, "S": 1, "W": 0}


def test_review_of_the_last_tricks_of_a_full_hand(client):
    record = played_out()
    body = client.post("/api/v1/review", json={"record": record.text(), "from_trick": 11}).get_json()
    assert body["start"] == 40 and body["start_trick"] == 11 and len(body["cards"]) == 12
    assert [c["card"] for c in body["cards"]] == [str(c) for c in record.play[40:]]
    assert body["final_scores"] == {s.name: v for s, v in record.final_scores().items()}
    for c in body["cards"]:
        assert c["cost"] == c["before"] - c["after"] >= 0
        assert c["after"] == c["values"][c["card"]] and c["before"] == max(c["values"].values())


@pytest.mark.slow
def test_review_of_a_whole_hand_answers_every_card_within_its_budget(client):
    record = played_out()
    resp = client.post("/api/v1/review", json={"record": record.text(), "ms": 2000})
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert len(body["cards"]) == 52 and body["cards"][-1]["solved"]
    assert body["ms"] < 2000 + 2000 and body["budget"]["ms"] == 2000
    open_ = [c for c in body["cards"] if not c["solved"]]
    assert open_ and all(c["cost"] is None and len(c["bounds"]) == 2 for c in open_)
    for c in body["cards"]:
        lo, hi = c["bounds"]
        assert c["estimate"] is not None and lo <= c["estimate"] <= hi
    assert sum(s["unsolved"] for s in body["seats"].values()) == len(open_)


def test_review_answers_in_msgpack(client):
    resp = client.post("/api/v1/review", data=msgpack.packb({"record": SHORT, "from_trick": 3}),
                       content_type="application/msgpack", headers={"Accept": "application/msgpack"})
    assert resp.status_code == 200 and resp.mimetype == "application/msgpack"
    body = msgpack.unpackb(resp.data)
    # the same review from an empty table (a core keeps its table for a hand's
    # positions), so that the node counts compare too
    engine.idle_cores.clear()
    again = client.post("/api/v1/review", json={"record": SHORT, "from_trick": 3}).get_json()
    assert body == again | {"ms": body["ms"]}
    assert [c["card"] for c in body["cards"]] == ["H8", "H4", "HK", "HQ"]


@pytest.mark.parametrize("record, words", [
    (SHORT.replace("HK HQ", "HK HZ"), ["line 12", "'HZ'"]),
    (SHORT.replace("H2 HA", "HA H2"), ["line 11", "HA"]),
    (SHORT.replace('[Contract "no-queens"]', '[Contract "no-kings"]'), ["line 4", "no-kings"]),
    (SHORT + "\n\n" + TRUMPS, ["one record", "found 2"]),
    ("hello", ["line 1"]),
])
def test_review_names_the_line_of_a_bad_record(client, record, words):
    message = error_of(client.post("/api/v1/review", json={"record": record}), 400)
    for w in words:
        assert w in message


def test_review_checks_its_fields(client):
    twin = Record.parse(SHORT).to_dict()
    assert "'colour'" in error_of(client.post("/api/v1/review", json={"record": {**twin, "colour": 1}}), 400)
    assert "from_trick" in error_of(client.post("/api/v1/review", json={"record": SHORT, "from_trick": 4}),
                                    400, "invalid-request")
    assert "from_trick" in error_of(client.post("/api/v1/review", json={"record": SHORT, "from_trick": 0}), 400)
    assert "'record'" in error_of(client.post("/api/v1/review", json={"from_trick": 1}), 400)
    assert "'nodes'" in error_of(client.post("/api/v1/review", json={"record": SHORT, "nodes": -1}), 400)
    assert "'verbose'" in error_of(client.post("/api/v1/review", json={"record": SHORT, "verbose": 1}), 400)
    error_of(client.post("/api/v1/review", json={"record": {**twin, "deal": "N:AQ.K9.. KJ.Q2.."}}), 400)
    error_of(client.post("/api/v1/review", json={"record": ""}), 400)
    error_of(client.post("/api/v1/review", json=[SHORT]), 400)


def test_review_on_a_tiny_budget_still_answers(client):
    body = client.post("/api/v1/review", json={"record": full_record(), "nodes": 1000}).get_json()
    card, = body["cards"]
    assert card["solved"] is False and card["cost"] is None and len(card["bounds"]) == 2
    assert client.post("/api/v1/review", json={"record": SHORT, "nodes": 1000}).status_code == 200


def test_review_budgets_are_clamped_to_the_server_maxima(make_client):
    small = make_client(KINGSOLVE_MAX_NODES=100_000, KINGSOLVE_MAX_MS=5000)
    body = small.post("/api/v1/review", json={"record": SHORT, "nodes": 10**12, "ms": 10**9}).get_json()
    assert body["budget"]["nodes"] == 100_000 and body["budget"]["ms"] == 5000
    # the searches of one review share the request's time, never past the server's cap
    hurried = make_client(KINGSOLVE_BATCH_MS=50)
    body = hurried.post("/api/v1/review", json={"record": full_record(), "ms": 10**6}).get_json()
    assert body["budget"]["ms"] == 50 and body["ms"] < 50 + 1000


# --- /choices ----------------------------------------------------------------------------

def test_trump_choice(client):
    body = client.post("/api/v1/choices", json={"kind": "trump", "variant": "italian", "deal": SMALL,
                                                "dealer": "N"}).get_json()
    assert body["kind"] == "trump" and body["params"] == {"contract": "trumps", "leader": "E", "dealer": "N"}
    spades = next(o for o in body["options"] if o["label"] == "trump S")
    assert spades["values"] == {"N": 2, "E": 1, "S": 0, "W": 0}      # the record TRUMPS: start values
    assert {o["trump"] for o in body["options"]} == {"S", "H", "D", "C"}
    assert set(body["summary"]["best"]) == {"N", "E", "S", "W"}


def test_sale_festa_contract_and_redeal_choices(client):
    sale = client.post("/api/v1/choices", json={"kind": "sale", "variant": "italian", "deal": SMALL,
                                                "dealer": "N"}).get_json()
    assert set(sale["summary"]["buyers"]) == {"E", "S", "W"}
    assert sale["summary"]["buyers"]["E"]["prices"][0]["price"] == 1
    festa = client.post("/api/v1/choices", json={"kind": "festa", "deal": SMALL, "host": "N"}).get_json()
    assert festa["variant"] == "portuguese"
    settled = {"N": 100, "E": 75, "S": 75, "W": 75}
    assert festa["options"][0] == {"label": "433", "contract": None, "trump": None, "leader": None,
                                   "solved": True, "values": settled, "estimates": settled,
                                   "bounds": {s: [v, v] for s, v in settled.items()}}
    assert len(festa["options"]) == 1 + 4 * 5
    chosen = [["N", "no-queens"], ["S", "no-queens"], ["E", "trumps"], ["E", "trumps"]]
    turkish = client.post("/api/v1/choices", json={"kind": "contract", "deal": SMALL, "chooser": "E",
                                                   "chosen": chosen}).get_json()
    labels = [o["label"] for o in turkish["options"]]
    assert "no-queens" not in labels and not any(x.startswith("trumps") for x in labels)
    assert turkish["summary"]["left"] == {"penalties": 3, "trumps": 0}
    deal = Deal.random(11).pbn()
    redeal = client.post("/api/v1/choices", json={"kind": "redeal", "deal": deal, "threshold": 1}).get_json()
    assert set(redeal["summary"]["may_redeal"]) == {
        s for s, v in redeal["summary"]["seats"].items() if v["aces"] + v["kings"] >= 1}


@pytest.mark.parametrize("body, words", [
    ({"deal": SMALL}, ["missing", "'kind'"]),
    ({"kind": "sales", "deal": SMALL}, ["'kind'", "sales"]),
    ({"kind": "sale", "variant": "italian", "deal": SMALL}, ["missing", "'dealer'"]),
    ({"kind": "festa", "deal": SMALL}, ["missing", "'host'"]),
    ({"kind": "festa", "deal": SMALL, "host": "N", "dealer": "N"}, ["unknown", "'dealer'"]),
    ({"kind": "trump", "variant": "italian", "deal": SMALL}, ["leader or the dealer"]),
    ({"kind": "trump", "variant": "russian", "deal": SMALL, "leader": "N"}, ["trumps"]),
    ({"kind": "sale", "variant": "turkish", "deal": SMALL, "dealer": "N"}, ["no sale"]),
    ({"kind": "contract", "deal": SMALL, "chooser": "E", "chosen": [["N"]]}, ["'chosen[0]'"]),
    ({"kind": "contract", "deal": SMALL, "chooser": "E", "chosen": [["N", "no-queens"]] * 3}, ["no-queens"]),
    ({"kind": "redeal", "deal": SMALL, "threshold": 0}, ["'threshold'"]),
    ({"kind": "redeal", "deal": "N:AK.. QJ.."}, ["deal"]),
    ({"kind": "trump", "variant": "italian", "deal": SMALL, "leader": "N", "ms": 0}, ["'ms'"]),
])
def test_choices_name_each_bad_body(client, body, words):
    message = error_of(client.post("/api/v1/choices", json=body), 400)
    for w in words:
        assert w in message, message


def test_choices_on_a_tiny_budget_still_answer(client):
    full = Deal.random(2).pbn()
    body = client.post("/api/v1/choices", json={"kind": "trump", "variant": "italian", "deal": full,
                                                "leader": "N", "nodes": 1}).get_json()
    assert len(body["options"]) == 4 and body["summary"]["exact"] is False
    for option in body["options"]:
        assert option["solved"] is False and option["values"] == {}
        assert all(0 <= lo <= hi <= 13 for lo, hi in option["bounds"].values())
    assert not any(body["summary"]["proved_best"].values())
    resp = client.post("/api/v1/choices", data=msgpack.packb({"kind": "festa", "deal": full, "host": "S",
                                                              "ms": 1e-3}),
                       content_type="application/msgpack", headers={"Accept": "application/msgpack"})
    assert resp.status_code == 200 and len(msgpack.unpackb(resp.data)["options"]) == 1 + 4 * 5


# --- /hint -------------------------------------------------------------------------------

RUSSIAN = Deal.random(5, deck=32)
NORTH = RUSSIAN.pbn()[2:].split()[0]
HINT = {"variant": "russian", "contract": "no-queens", "seat": "N", "hand": NORTH, "samples": 4, "seed": 1}


def test_card_hint(client):
    resp = client.post("/api/v1/hint", json={**HINT, "id": "q1", "threads": 64})
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["id"] == "q1" and body["seat"] == "N" and body["samples"] == 4
    cards = [h["card"] for h in body["cards"]]
    assert body["recommended"] == cards[0]
    assert sorted(cards) == sorted(str(c) for c in RUSSIAN.hand(Seat.N))     # N leads: any card
    means = [h["mean"] for h in body["cards"]]
    assert means == sorted(means, reverse=True)
    again = client.post("/api/v1/hint", data=msgpack.packb(HINT), content_type="application/msgpack",
                        headers={"Accept": "application/msgpack"})
    assert msgpack.unpackb(again.data)["cards"] == body["cards"]
    assert body["horizon"] == DEFAULT_HORIZON           # 8 tricks: played out to the horizon
    whole = client.post("/api/v1/hint", json={**HINT, "horizon": 8}).get_json()
    assert whole["horizon"] is None and len(whole["cards"]) == len(cards)


@pytest.mark.parametrize("change, words", [
    ({"seat": None}, ["'seat'"]),
    ({"colour": "red"}, ["unknown", "'colour'"]),
    ({"samples": MAX_SAMPLES + 1}, ["'samples'"]),
    ({"choice": "bid"}, ["'choice'"]),
    ({"hand": "AQ.K9.."}, ["hand"]),
    ({"contract": "no-kings"}, ["no-kings"]),
    ({"seat": "E"}, ["not on move"]),
    ({"horizon": -1}, ["'horizon'"]),
    ({"horizon": "all"}, ["'horizon'"]),
])
def test_hint_names_each_bad_body(client, change, words):
    body = {k: v for k, v in {**HINT, **change}.items() if v is not None}
    message = error_of(client.post("/api/v1/hint", json=body), 400)
    for w in words:
        assert w in message, message


def test_hint_over_its_budget_is_503(client):
    # the whole 8-trick hand searched (the core checks its node budget every 4096 nodes)
    body = {**HINT, "nodes": 1, "horizon": 8}
    assert "budget" in error_of(client.post("/api/v1/hint", json=body), 503, "budget")


# --- the document ------------------------------------------------------------------------

def test_the_document_has_the_analysis_operations(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    for path in ("/api/v1/review", "/api/v1/choices", "/api/v1/hint"):
        responses = doc["paths"][path]["post"]["responses"]
        assert {"200", "400", "503"} <= set(responses)
    schemas = doc["components"]["schemas"]
    kinds = [s["properties"]["kind"]["const"] for s in schemas["ChoicesRequest"]["oneOf"]]
    assert kinds == ["trump", "sale", "festa", "contract", "redeal"]
    assert schemas["HintRequest"]["properties"]["samples"]["maximum"] == MAX_SAMPLES
    assert {"ReviewRequest", "ReviewResponse", "ChoicesResponse", "HintResponse"} <= set(schemas)
