"""Rule sets as JSON documents (docs/rules.md 13): written out and read back, checked
like any input, taken wherever a variant name is."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from kingsolve import (Budget, Deal, InvalidRulesError, Position, RuleSet, VARIANTS, analyse,
                       hint, rules_from_dict, rules_from_json, solve)
from kingsolve.io.batch import answer
from kingsolve_cli import main
from kingsolve.game.record import Record, RecordError
from kingsolve.io.request import legal_request, solve_request
from kingsolve.game.rule_documents import MAX_CONTRACTS, resolve_variant


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_built_in_rule_set_reads_back_equal(name):
    rs = VARIANTS[name]
    back = rules_from_json(json.dumps(rs.to_dict()))
    assert back == rs
    assert back.contracts == rs.contracts and list(back.contracts) == list(rs.contracts)
    assert rules_from_dict(rs.to_dict()).to_dict() == rs.to_dict()


def _small_position(rs: RuleSet, contract: str, seed: int, left: int) -> Position:
    """A seeded deal of ``rs`` played at random until ``left`` tricks remain."""
    rng = random.Random(seed)
    trump = "H" if rs.contracts[contract].takes_trump else None
    pos = Position(rs, contract, Deal.random(seed=seed, deck=rs.deck), leader="N", trump=trump)
    while not pos.complete and pos.n_tricks - len(pos.tricks) > left:
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def _trick_contracts(rs: RuleSet) -> list[str]:
    return [n for n, c in rs.contracts.items() if c.kind == "tricks"]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_rule_set_read_back_solves_analyses_and_hints_alike(name):
    built_in = VARIANTS[name]
    read_back = rules_from_dict(json.loads(json.dumps(built_in.to_dict())))
    rng = random.Random(name)
    for seed in range(3):
        contract = rng.choice(_trick_contracts(built_in))
        a, b = (_small_position(rs, contract, seed, 4) for rs in (built_in, read_back))
        assert a.tables == b.tables and a.record == b.record
        if a.complete:
            continue
        x, y = solve(a), solve(b)
        assert (x.values, x.cards, x.best) == (y.values, y.cards, y.best)
        budget = Budget(nodes=200_000)
        assert analyse(a, budget=budget).to_dict()["values"] == \
            analyse(b, budget=budget).to_dict()["values"]
        seat = a.to_move
        hints = [hint(rs, contract, seat, pos.hands[seat], play=[str(c) for c in pos.record],
                      leader="N", trump=pos.trump, samples=4, seed=seed).to_dict()
                 for rs, pos in ((built_in, a), (read_back, b))]
        for h in hints:
            h.pop("ms", None)
            h.pop("nodes", None)
        assert hints[0]["cards"] == hints[1]["cards"]


def test_a_base_with_overrides_changes_only_what_it_names():
    rs = rules_from_dict({"base": "portuguese", "contracts": {"no-hearts": {"lead": "any"}}})
    base = VARIANTS["portuguese"]
    assert rs.name == "portuguese" and rs.contract("no-hearts").lead_suit is None
    assert rs.contract("no-hearts").protected == base.contract("no-hearts").protected
    assert {n: c for n, c in rs.contracts.items() if n != "no-hearts"} == \
        {n: c for n, c in base.contracts.items() if n != "no-hearts"}
    dropped = rules_from_dict({"base": "italian", "contracts": {"domino": None},
                               "schedule": ["no-queens"], "doubles": False,
                               "doubles_schedule": []})
    assert "domino" not in dropped.contracts and dropped.schedule == ("no-queens",)


def test_a_contract_may_play_every_trick_and_score_the_last_only():
    rs = rules_from_dict({"base": "italian", "contracts": {
        "no-last-two": {"last_two": -8, "last_count": 1, "early_end": False}}})
    c = rs.contract("no-last-two")
    assert c.trick_points(13)[-2:] == (0, -8)
    # with early end the hand of no-queens stops once the queens are taken: here it never does
    pos = Position(rules_from_dict({"base": "italian", "contracts": {
        "no-queens": {"early_end": False}}}), "no-queens", Deal.random(seed=3), leader="N")
    rng = random.Random(3)
    while not pos.complete:
        pos.play(rng.choice(pos.legal_cards()))
    assert len(pos.tricks) == 13


UNPLAYABLE = [
    ({}, "contracts"),
    ({"contracts": {}}, "contracts"),
    ({"contracts": {"x": {"card_points": [{"cards": ["H2"], "points": -1}]}}, "deck": 32},
     "contracts.x.card_points[0].cards"),
    ({"contracts": {"x": {"trump": "named"}}}, "contracts.x.trump_obligation"),
    ({"contracts": {"x": {"trump_obligation": "free"}}}, "contracts.x.trump_obligation"),
    ({"contracts": {"x": {"overtrump_on_trump_lead": True}}}, "contracts.x.overtrump_on_trump_lead"),
    ({"contracts": {"x": {"forced": ["HZ"]}}}, "contracts.x.forced"),
    ({"contracts": {"x": {"first_trick_protection": ["S2"]}}, "deck": 32},
     "contracts.x.first_trick_protection"),
    ({"contracts": {"x": {"lead": {"suit": "H", "mode": "sometimes"}}}}, "contracts.x.lead.mode"),
    ({"contracts": {"x": {"each_trick": 10**6}}}, "contracts.x.each_trick"),
    ({"contracts": {"x": {"each_trick": 800}}}, "contracts.x"),
    ({"contracts": {"x": {"each_trick": True}}}, "contracts.x.each_trick"),
    ({"contracts": {"x": {"kind": "domino", "opening": "any-seven", "ending": "single",
                          "forced": ["HK"]}}}, "contracts.x.forced"),
    ({"contracts": {"x": {"opening": "any-seven"}}}, "contracts.x.opening"),
    ({"contracts": {"x": {}}, "schedule": ["y"]}, "schedule[0]"),
    ({"contracts": {"X Y": {}}}, "contracts"),
    ({"contracts": {"x": {"name": "y"}}}, "contracts.x.name"),
    ({"contracts": {"x": {"colour": "red"}}}, "contracts.x"),
    ({"contracts": {"x": {}}, "players": [5]}, "players"),
    ({"contracts": {"x": {}}, "players": [3], "deck": 32}, "players"),
    ({"contracts": {"x": {}}, "doubles": True, "players": [3]}, "doubles"),
    ({"contracts": {"x": {}}, "direction": "widdershins"}, "direction"),
    ({"contracts": {"x": {}}, "deck": 36}, "deck"),
    ({"contracts": {f"c{i}": {} for i in range(MAX_CONTRACTS + 1)}}, "contracts"),
    ({"contracts": {"x": {}}, "name": "n" * 41}, "name"),
    ({"contracts": {"x": {"description": "d" * 201}}}, "contracts.x.description"),
    ({"base": "klondike"}, "base"),
    ({"base": "italian", "contracts": {"domino": None}}, "schedule"),
    ({"base": "italian", "contracts": {"no-hearts": {"lead": {"suit": "X", "mode": "until-broken"}}}},
     "contracts.no-hearts.lead.suit"),
    ({"base": "italian", "contracts": {"no-hearts": {"trump": "none", "overtake": 1}}},
     "contracts.no-hearts.overtake"),
    ([], "rules"),
]


@pytest.mark.parametrize("document, field", UNPLAYABLE)
def test_an_unplayable_rule_set_is_refused_naming_the_field(document, field):
    with pytest.raises(InvalidRulesError) as err:
        rules_from_dict(document)
    message = str(err.value)
    assert message.startswith(f"invalid rules: {field}") and "\n" not in message, message
    assert message[0].islower()


def test_bad_json_text_is_one_line_and_deep_nesting_is_refused():
    for text in ("{", "[" * 100_000 + "]" * 100_000, "x" * 70_000):
        with pytest.raises(InvalidRulesError) as err:
            rules_from_json(text)
        assert "\n" not in str(err.value) and str(err.value).startswith("invalid rules: rules")


def test_a_request_takes_a_rule_document_for_its_variant():
    deal = Deal.random(seed=5, deck=32).pbn()
    own = {"base": "russian", "contracts": {"no-king": {"forced": []}}}
    req = {"variant": own, "contract": "no-king", "deal": deal, "leader": "N"}
    assert legal_request(req)["to_move"] == "N"
    assert resolve_variant(own).contract("no-king").forced == 0
    with pytest.raises(InvalidRulesError, match="contracts.no-king.forced"):
        legal_request({**req, "variant": {"base": "russian", "contracts": {"no-king": {"forced": "HK"}}}})
    with pytest.raises(InvalidRulesError):
        solve_request({**req, "variant": {"contracts": {}}})


def test_the_api_serves_every_built_in_rule_document_and_takes_one(client):
    for name, rs in VARIANTS.items():
        resp = client.get(f"/api/v1/variants/{name}")
        assert resp.status_code == 200 and rules_from_dict(resp.get_json()) == rs
    resp = client.get("/api/v1/variants/klondike")
    assert resp.status_code == 404 and resp.get_json()["error"] == "unknown-variant"
    deal = Deal.random(seed=5).pbn()
    own = {"base": "portuguese", "contracts": {"no-hearts": {"lead": "any",
                                                             "first_trick_protection": []}}}
    resp = client.post("/api/v1/legal", json={"variant": own, "contract": "no-hearts", "deal": deal})
    assert resp.status_code == 200, resp.get_json()
    assert len(resp.get_json()["legal"]) == 13          # hearts may be led at once
    bad = {"base": "portuguese", "contracts": {"no-hearts": {"forced": ["HZ"]}}}
    resp = client.post("/api/v1/legal", json={"variant": bad, "contract": "no-hearts", "deal": deal})
    assert resp.status_code == 400 and "forced" in resp.get_json()["message"]
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    assert "RuleDocument" in schemas


# --- every surface: the command line, batches, records ------------------------------------

HOUSE = Path(__file__).resolve().parent.parent / "docs" / "house-rules"
RUSSIAN_DEAL = "N:AKQJ..AKQJ. T987..T987. .AK..AKQJT9 .QJT987..87"


def test_the_command_line_takes_a_rule_file(tmp_path, capsys):
    rules = str(HOUSE / "russian-program.json")
    args = ["legal", "--contract", "no-king", "--deal", RUSSIAN_DEAL, "--play", "SA S9"]
    assert main([*args, "--variant", "russian"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] == ["HK"]
    assert main([*args, "--rules", rules]) == 0
    assert len(json.loads(capsys.readouterr().out)["legal"]) == 8
    bad = tmp_path / "bad.json"
    bad.write_text('{"base": "russian", "contracts": {"no-king": {"forced": ["H2"]}}}')
    assert main([*args, "--rules", str(bad)]) == 3
    err = capsys.readouterr().err.strip()
    assert "contracts.no-king.forced" in err and "\n" not in err
    assert main([*args, "--rules", rules, "--variant", "russian"]) == 3
    capsys.readouterr()
    assert main(["choices", "trump", "--rules", str(HOUSE / "italian-game.json"), "--deal",
                 "N:A2.K.. K3.Q.. Q4.J.. J5.T..", "--leader", "N", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["kind"] == "trump"
    festa = ["choices", "festa", "--deal", "N:A2.K.. K3.Q.. Q4.J.. J5.T..", "--host", "E", "--json"]
    assert main([*festa, "--rules", str(HOUSE / "portuguese-engine.json")]) == 0
    assert json.loads(capsys.readouterr().out)["variant"] == "portuguese"
    assert main([*festa, "--rules", str(HOUSE / "italian-game.json")]) == 3
    assert "variant 'italian' has no festa" in capsys.readouterr().err


def test_a_batch_line_takes_a_rule_document():
    own = json.loads((HOUSE / "russian-program.json").read_text())
    req = {"id": 7, "variant": own, "contract": "no-king", "deal": RUSSIAN_DEAL,
           "play": ["SA", "S9"]}
    assert len(answer(req, "legal")["legal"]) == 8
    bad = answer({**req, "variant": {**own, "deck": 36}}, "legal")
    assert bad["id"] == 7 and bad["error"] == "invalid-rules" and "deck" in bad["message"]


def test_a_record_embeds_its_rule_document():
    rs = rules_from_json((HOUSE / "russian-program.json").read_text())
    pos = Position(rs, "no-king", Deal.random(seed=4, deck=32), leader="N")
    rng = random.Random(1)
    while not pos.complete:
        pos.play(rng.choice(pos.legal_cards()))
    record = Record.from_position(pos, event="club")
    assert '[Rules "{' in record.text() and record.rules == rs
    assert Record.parse(record.text()) == record and Record.from_dict(record.to_dict()) == record
    given = {**record.to_dict(), "variant": json.loads((HOUSE / "russian-program.json").read_text())}
    assert Record.from_dict(given).rules == rs
    assert Record.from_position(Position("russian", "no-king", pos.deal)).house_rules is None
    wrong = record.text().replace('[Variant "russian"]', '[Variant "italian"]')
    with pytest.raises(RecordError, match="tag Variant"):
        Record.parse(wrong)


def test_the_api_checks_a_rule_document_and_names_what_it_changes(client):
    own = json.loads((HOUSE / "portuguese-engine.json").read_text())
    resp = client.post("/api/v1/variants/check", json=own)
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert rules_from_dict(body["rules"]) == rules_from_dict(own) and body["base"] == "portuguese"
    changed = {(d["contract"], d["field"]): (d["base"], d["rules"]) for d in body["differences"]}
    assert changed[("no-hearts", "lead")] == ({"suit": "H", "mode": "while-other-suits"}, "any")
    assert changed[("no-queens", "forced")] == ([], ["SQ", "HQ", "DQ", "CQ"])
    assert all(field != "description" for _, field in changed)
    # A whole document under a name of its own is read against the built-in it is nearest.
    named = {**VARIANTS["turkish"].to_dict(), "name": "club"}
    named["contracts"] = dict(named["contracts"])
    named["contracts"]["no-hearts"] = {**named["contracts"]["no-hearts"], "early_end": False}
    body = client.post("/api/v1/variants/check", json=named).get_json()
    assert body["base"] == "turkish" and body["differences"] == [
        {"contract": "no-hearts", "field": "early_end", "base": True, "rules": False}]
    dropped = {"base": "italian", "schedule": [], "doubles_schedule": [],
               "contracts": {"domino": None, "extra": {"each_trick": -1}}}
    body = client.post("/api/v1/variants/check", json=dropped).get_json()
    assert [(d["contract"], d["field"], d["rules"] is None) for d in body["differences"]
            if d["contract"] in ("domino", "extra")] == [("domino", None, True), ("extra", None, False)]
    assert client.post("/api/v1/variants/check", json={"base": "russian"}).get_json()["differences"] == []
    bad = client.post("/api/v1/variants/check", json={"base": "russian", "contracts": {"no-king": {"forced": ["HZ"]}}})
    assert bad.status_code == 400 and bad.get_json()["error"] == "invalid-rules"
    assert "contracts.no-king.forced" in bad.get_json()["message"]
    assert client.post("/api/v1/variants/check", json={"deck": 36}).status_code == 400
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    assert "RulesCheck" in json.dumps(paths["/api/v1/variants/check"]["post"]["responses"]["200"])
