"""POST /api/v1/sheet: a match's score sheet from its records (kingsolve.hands.match).

The hands are played out here by the lowest legal card, each record made from its
finished position, so that the sheet's scores can be checked against the positions'.
"""

from __future__ import annotations

from kingsolve.game.cards import Seat
from kingsolve.game.deal import Deal
from kingsolve.game.play import new_position
from kingsolve.game.record import Record, format_records
from kingsolve.game.rules import get_variant
from kingsolve.io.schema import MAX_MATCH_TEXT


def played(variant: str, contract: str, leader: str, seed: int, dealer: str | None = None):
    """A hand played to its end by the first legal card, and its record."""
    rs = get_variant(variant)
    pos = new_position(rs, rs.contract(contract), Deal.random(seed, deck=rs.deck), leader=leader,
                       trump="S" if rs.contract(contract).trump not in (None, "none") else None)
    while not pos.complete:
        pos.play(pos.legal_cards()[0])
    return pos, Record.from_position(pos, dealer=dealer)


def schedule_records(variant: str, hands: int) -> tuple[list, list[Record]]:
    """The first ``hands`` hands of a rule set's schedule, played."""
    out = [played(variant, h.contract, h.leader.name, i,
                  None if h.dealer is None else h.dealer.name)
           for i, h in enumerate(get_variant(variant).match_schedule(False)[:hands])]
    return [p for p, _ in out], [r for _, r in out]


def test_an_empty_match_names_its_first_hand(client):
    # docs/rules.md 8: Russian hand 1 is no-tricks, N leads.
    sheet = client.post("/api/v1/sheet", json={"variant": "russian"}).get_json()
    assert sheet["hands"] == [] and sheet["totals"] == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert sheet["next"] == {"number": 1, "contract": "no-tricks", "dealer": None, "leader": "N"}
    assert sheet["complete"] is False and sheet["choices"] == []
    # docs/rules.md 4: Italian hand 1 is dealt by W and led by N; doubles has 14 hands.
    italian = client.post("/api/v1/sheet", json={"variant": "italian", "doubles": True,
                                                 "records": ""}).get_json()
    assert italian["next"]["dealer"] == "W" and italian["next"]["leader"] == "N"
    assert italian["side_totals"] == {"NS": 0, "EW": 0}


def test_the_sheet_adds_each_hand_as_its_position_scores(client):
    positions, records = schedule_records("russian", 3)
    sheet = client.post("/api/v1/sheet", json={"variant": "russian",
                                               "records": format_records(records)}).get_json()
    assert [h["contract"] for h in sheet["hands"]] == ["no-tricks", "no-hearts", "no-boys"]
    for line, pos in zip(sheet["hands"], positions):
        assert line["scores"] == {s.name: v for s, v in pos.scores().items()}
    totals = {s: sum(p.scores()[Seat.parse(s)] for p in positions) for s in "NESW"}
    assert sheet["totals"] == totals
    assert sheet["next"]["contract"] == "no-queens" and sheet["next"]["leader"] == "W"


def test_a_hand_out_of_the_schedule_is_refused_naming_it(client):
    _, records = schedule_records("russian", 2)
    r = client.post("/api/v1/sheet", json={"variant": "russian",
                                           "records": format_records(records[1:])})
    assert r.status_code == 400
    assert r.get_json()["message"] == "invalid hand 1: the schedule plays 'no-tricks', got 'no-hearts'"
    r = client.post("/api/v1/sheet", json={"variant": "italian", "records": records[0].text()})
    assert r.status_code == 400 and "played under 'russian'" in r.get_json()["message"]
    r = client.post("/api/v1/sheet", json={"variant": "russian", "records": "x" * (MAX_MATCH_TEXT + 1)})
    assert r.status_code == 400 and f"at most {MAX_MATCH_TEXT}" in r.get_json()["message"]


def test_turkish_choices_keep_the_quotas(client):
    # docs/rules.md 7: each penalty contract is played exactly twice; N chooses hand 1,
    # W hand 2, S hand 3.
    records = [played("turkish", "no-tricks", "N", 1)[1], played("turkish", "no-tricks", "W", 2)[1]]
    sheet = client.post("/api/v1/sheet", json={"variant": "turkish",
                                               "records": format_records(records)}).get_json()
    assert sheet["next"]["leader"] == "S"
    assert sheet["choices"] == ["no-hearts", "no-kings-jacks", "no-queens", "no-king-of-hearts",
                                "no-last-two", "trumps"]
    third = played("turkish", "no-tricks", "S", 3)[1]
    r = client.post("/api/v1/sheet", json={"variant": "turkish",
                                           "records": format_records(records + [third])})
    assert r.status_code == 400 and "'no-tricks' is played a 3rd time" in r.get_json()["message"]


def test_a_festa_settled_433_pays_the_host(client):
    # docs/rules.md 6 (3): no play; the host (hand 7's dealer, E) scores 100, the others 75.
    _, records = schedule_records("portuguese", 6)
    festa = Record.parse('[Variant "portuguese"]\n[Contract "festa"]\n[Dealer "E"]\n'
                         '[Festa "433"]\n[Deal "' + Deal.random(7).pbn() + '"]\n')
    sheet = client.post("/api/v1/sheet", json={"variant": "portuguese",
                                               "records": format_records(records + [festa])}).get_json()
    assert sheet["hands"][-1]["scores"] == {"N": 75, "E": 100, "S": 75, "W": 75}
    assert sheet["next"]["dealer"] == "S"
