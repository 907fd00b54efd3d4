"""The shared JSON request and ``kingsolve legal``: good answers, clear errors."""

from __future__ import annotations

import io
import json

import pytest

from kingsolve import (Deal, IllegalPlayError, InvalidDealError, InvalidRequestError,
                       KingsolveError, ParseError, Position, UnknownContractError,
                       UnknownVariantError, legal_request)
from kingsolve_cli import main

from reference import RefHand, text

DEAL = Deal.random(seed=21)
BASE = {"variant": "italian", "contract": "no-queens", "trump": None, "options": [],
        "doubles": False, "deal": DEAL.pbn(), "leader": "N", "play": []}


def played(variant, contract, deal, n, leader="N", trump=None, options=()):
    """The first ``n`` cards of a hand played by always taking the last legal card."""
    p = Position(variant, contract, deal, leader=leader, trump=trump, options=options)
    for _ in range(n):
        p.play(p.legal_cards()[-1])
    return [str(c) for c in p.record]


def test_good_request_shape():
    play = played("italian", "no-queens", DEAL, 6)
    out = legal_request({**BASE, "play": play})
    assert set(out) == {"to_move", "legal", "trick", "taken", "complete"}
    ref = RefHand("italian", "no-queens", {s.name: [str(c) for c in DEAL.hand(s)] for s in DEAL.seats})
    for c in play:
        ref.play(c)
    assert out["to_move"] == ref.to_move
    assert out["legal"] == [text(c) for c in ref.legal()]
    assert out["trick"] == play[4:]
    assert out["taken"] == ref.scores() and out["complete"] is False
    json.dumps(out)


def test_request_defaults():
    # Absent trump, options, doubles, leader (N) and play are their defaults.
    out = legal_request({"variant": "russian", "contract": "no-tricks",
                         "deal": Deal.random(seed=2, deck=32).pbn()})
    assert out["to_move"] == "N" and len(out["legal"]) == 8


def test_request_doubles_and_options():
    # docs/rules.md 3 doubles: the answer carries the side scores too.
    out = legal_request({**BASE, "contract": "no-king-of-hearts", "options": ["forced-king"],
                         "doubles": True})
    assert out["sides"] == {"NS": 0, "EW": 0}


def test_request_trump_in_either_case():
    out = legal_request({**BASE, "variant": "portuguese", "contract": "festa", "trump": "h"})
    assert out["to_move"] == "N"


# --- errors ---------------------------------------------------------------------------------
@pytest.mark.parametrize("req,kind,words", [
    ({}, InvalidRequestError, "missing fields 'variant', 'contract', 'deal'"),
    ([], InvalidRequestError, "expected an object"),
    ({**BASE, "variant": "french"}, UnknownVariantError, "unknown variant 'french'"),
    ({**BASE, "contract": "no-jokers"}, UnknownContractError, "unknown contract 'no-jokers'"),
    ({**BASE, "options": ["forced-king"]}, UnknownContractError, "unknown option 'forced-king'"),
    ({**BASE, "contract": "no-king-of-hearts", "options": ["forced-queen"]},
     UnknownContractError, "unknown option 'forced-queen'"),
    ({**BASE, "options": "forced-king"}, InvalidRequestError, "invalid field 'options'"),
    ({**BASE, "options": [3]}, InvalidRequestError, "invalid field 'options[0]'"),
    ({**BASE, "contract": "trumps"}, InvalidRequestError, "needs a trump suit"),
    ({**BASE, "contract": "trumps", "trump": "X"}, InvalidRequestError, "invalid trump 'X'"),
    ({**BASE, "contract": "trumps", "trump": 3}, InvalidRequestError, "invalid field 'trump'"),
    ({**BASE, "trump": "S"}, InvalidRequestError, "takes no trump"),
    ({**BASE, "leader": "X"}, ParseError, "invalid seat 'X'"),
    ({**BASE, "leader": 1}, InvalidRequestError, "invalid field 'leader'"),
    ({**BASE, "deal": Deal.random(seed=1, players=2).pbn(), "leader": "E"},
     InvalidRequestError, "invalid leader 'E'"),
    ({**BASE, "foo": 1}, InvalidRequestError, "unknown field 'foo'"),
    ({**BASE, "doubles": "yes"}, InvalidRequestError, "invalid field 'doubles'"),
    ({**BASE, "play": "SA"}, InvalidRequestError, "invalid field 'play'"),
    ({**BASE, "play": [1]}, InvalidRequestError, "invalid field 'play[0]'"),
    ({**BASE, "play": ["XX"]}, ParseError, "invalid card 'XX'"),
    ({**BASE, "deal": 5}, InvalidRequestError, "invalid field 'deal'"),
    ({**BASE, "deal": "N:AKQ"}, ParseError, "invalid deal 'N:AKQ'"),
    ({**BASE, "deal": "x" * 1000}, InvalidRequestError, "at most"),
    ({**BASE, "variant": "russian", "contract": "no-tricks"}, InvalidDealError,
     "not in the 32-card deck"),
    ({**BASE, "variant": "turkish", "deal": Deal.random(seed=1, players=3).pbn()},
     InvalidDealError, "3 players"),
    ({**BASE, "variant": "turkish", "doubles": True}, InvalidRequestError, "no doubles"),
    ({**BASE, "doubles": True, "deal": Deal.random(seed=1, players=2).pbn()},
     InvalidRequestError, "doubles need 4 players"),
    ({**BASE, "variant": 3}, InvalidRequestError, "invalid field 'variant'"),
    ({**BASE, "contract": None}, InvalidRequestError, "missing field 'contract'"),
    ({**BASE, "play": ["SA"] * 60}, InvalidRequestError, "at most"),
])
def test_bad_requests(req, kind, words):
    with pytest.raises(kind) as info:
        legal_request(req)
    msg = str(info.value)
    assert words in msg
    assert isinstance(info.value, KingsolveError) and msg[:1] == msg[:1].lower()


def test_illegal_card_names_card_index_and_rule():
    # The card, its position in `play` and the rule it breaks.
    play = played("italian", "no-hearts", DEAL, 5)
    p = Position("italian", "no-hearts", DEAL, play=play)
    led = p.current_trick()[0]
    hand = p.hands[p.to_move]
    assert any(c.suit == led.suit for c in p.legal_cards())   # the fixed seed follows suit
    wrong = next(c for c in DEAL.hand(p.to_move) if c.suit != led.suit and hand & c.mask)
    with pytest.raises(IllegalPlayError) as info:
        legal_request({**BASE, "contract": "no-hearts", "play": play + [str(wrong)]})
    msg = str(info.value)
    assert f"'{wrong}'" in msg and "play[5]" in msg and "must follow suit" in msg


def test_card_held_by_another_seat():
    with pytest.raises(IllegalPlayError) as info:
        legal_request({**BASE, "play": [str(DEAL.hand("E")[0])]})
    assert "play[0]" in str(info.value) and "E holds it" in str(info.value)


def test_card_played_twice_and_foreign_card():
    deal = Deal.random(seed=4, deck=32)
    play = played("russian", "no-tricks", deal, 4)
    req = {"variant": "russian", "contract": "no-tricks", "deal": deal.pbn(), "play": play}
    with pytest.raises(IllegalPlayError, match=r"play\[4\].*already been played"):
        legal_request({**req, "play": play + [play[0]]})
    with pytest.raises(IllegalPlayError, match=r"'S2' at play\[4\].*not in this deal"):
        legal_request({**req, "play": play + ["S2"]})


# --- the CLI ------------------------------------------------------------------------------
def test_cli_legal_json_file(tmp_path, capsys):
    path = tmp_path / "req.json"
    path.write_text(json.dumps({**BASE, "play": ["SQ"] if DEAL.holder("SQ").name == "N" else []}))
    assert main(["legal", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == legal_request(json.loads(path.read_text()))


def test_cli_legal_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(BASE)))
    assert main(["legal", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == legal_request(BASE)


def test_cli_legal_flags(capsys):
    play = played("turkish", "trumps", DEAL, 3, leader="E", trump="S")
    code = main(["legal", "--variant", "turkish", "--contract", "trumps", "--trump", "S",
                 "--deal", DEAL.pbn(), "--leader", "E", "--play", ", ".join(play)])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out == legal_request({"variant": "turkish", "contract": "trumps", "trump": "S",
                                 "deal": DEAL.pbn(), "leader": "E", "play": play})
    assert out["to_move"] == "S"      # docs/rules.md 7: counterclockwise E -> N -> W -> S


def test_cli_flags_override_file_and_options(tmp_path, capsys):
    path = tmp_path / "req.json"
    path.write_text(json.dumps(BASE))
    code = main(["legal", str(path), "--contract", "no-king-of-hearts", "--option", "forced-king",
                 "--doubles"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert "sides" in out


@pytest.mark.parametrize("argv,words", [
    (["legal", "--variant", "italian", "--contract", "no-queens", "--deal", "N:AKQ"],
     "invalid deal 'N:AKQ'"),
    (["legal", "--variant", "french", "--contract", "no-queens", "--deal", DEAL.pbn()],
     "unknown variant 'french'"),
    (["legal", "--variant", "italian", "--contract", "no-queens", "--deal", DEAL.pbn(),
      "--play", "XX"], "play[0]"),
    (["legal", "/nonexistent/req.json"], "cannot read request"),
])
def test_cli_bad_request(argv, words, capsys):
    assert main(argv) == 3
    captured = capsys.readouterr()
    assert captured.out == ""
    assert words in captured.err and "Traceback" not in captured.err
    assert captured.err.startswith("kingsolve legal: error: ")


def test_cli_bad_json(tmp_path, capsys):
    path = tmp_path / "req.json"
    path.write_text("{not json")
    assert main(["legal", str(path)]) == 3
    err = capsys.readouterr().err
    assert "invalid JSON request" in err and "Traceback" not in err
    path.write_text("[1, 2]")
    assert main(["legal", str(path)]) == 3
    assert "expected a JSON object" in capsys.readouterr().err


def test_limits_give_a_request_their_defaults_and_caps():
    # What a surface allows (kingsolve.io.limits.Limits): defaults where the request names
    # none, caps where it asks for more, the same checks either way.
    from kingsolve.io.request import Limits, SolveRequest
    from kingsolve.search.budget import Budget
    limits = Limits(nodes=1000, ms=50, default_nodes=900, default_ms=20, threads=2, tt_mb=8)
    assert limits.budget(None, None) == Budget(nodes=900, ms=20, tt_mb=8)
    assert limits.budget(10**9, 10**6) == Budget(1000, 50, 8)
    assert limits.budget(10, 5) == Budget(10, 5, 8)
    assert Limits().budget(None, None) == Budget()
    out = SolveRequest.from_request({**BASE, "threads": 8}, limits)
    assert (out.threads, out.budget.nodes, out.budget.ms) == (2, 900, 20)
    for bad in ({"nodes": 0}, {"ms": -1}, {"nodes": True}, {"threads": 0}):
        with pytest.raises(InvalidRequestError):
            SolveRequest.from_request({**BASE, **bad}, limits)
