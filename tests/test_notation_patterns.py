"""The request schemas' patterns take exactly what the notations' parsers take.

A card, a seat, a trump, a hand and a deal are patterns in the OpenAPI document and in
the one check of a request (kingsolve.io.schema): text either both take or both refuse,
read in ASCII only (no str.upper() of 'ſ', no Unicode spaces).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from kingsolve.errors import InvalidDealError, InvalidRequestError, KingsolveError, ParseError
from kingsolve.game.cards import CARD_PATTERN, SEAT_PATTERN, Card, Seat, Suit
from kingsolve.game.deal import DEAL_PATTERN, HAND_PATTERN, Deal, parse_hand
from kingsolve.hands.sampling import CARDS_TEXT_PATTERN, parse_cards
from kingsolve.io.request import LegalRequest
from kingsolve.io.schema import TRUMP_PATTERN

# The characters that matter to the notations, their look-alikes and separators.
ALPHABET = "SHDCshdc♠♥♦♣♤AKQJTakqjt1023456789NEWnewORTHUorthuſKı .,:-\t\n\u00a0\u2003\u3000\x1c"
SETTINGS = settings(max_examples=400, derandomize=True, database=None, deadline=None)
DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 65432.876.876.876 .5432.5432.5432"


def reads(parse, text: str) -> bool:
    """Whether ``parse`` takes the notation: a deal of no sense is still a deal's text."""
    try:
        parse(text)
    except InvalidDealError:
        return True
    except ParseError:
        return False
    return True


NOTATIONS = [(CARD_PATTERN, Card.parse), (SEAT_PATTERN, Seat.parse), (HAND_PATTERN, parse_hand),
             (DEAL_PATTERN, Deal), (CARDS_TEXT_PATTERN, lambda t: parse_cards(t, "hand"))]


@pytest.mark.parametrize("pattern,parse", NOTATIONS)
@SETTINGS
@given(text=st.text(ALPHABET, max_size=14))
def test_pattern_and_parser_agree_on_any_text(pattern, parse, text):
    assert bool(re.search(pattern, text)) == reads(parse, text), text


@pytest.mark.parametrize("pattern,parse", NOTATIONS)
@SETTINGS
@given(data=st.data())
def test_what_a_pattern_generates_parses(pattern, parse, data):
    assert reads(parse, data.draw(st.from_regex(pattern))), pattern


def test_deal_texts_agree_with_the_pattern():
    hands = DEAL[2:].split()
    for text in [DEAL, DEAL[2:], " " + DEAL + "\n", "e:" + " ".join(hands), "N:" + "\t".join(hands),
                 DEAL + "\n\n", "N:  " + " - ".join(hands[:2]) + " -", DEAL.replace(" ", "\u2003"),
                 DEAL.replace("A", "ſ"), "X:" + DEAL[2:], DEAL + " -", DEAL.replace("T", "10")]:
        assert bool(re.search(DEAL_PATTERN, text)) == reads(Deal, text), repr(text)


def test_parsers_read_ascii_only():
    assert str(Card.parse(" sq\t")) == "SQ" and str(Card.parse("10♥")) == "HT"
    for text in ["ſQ", "\u00a0SQ", "SQ\u2003", "ſ", "QſQ"]:
        with pytest.raises(ParseError):
            Card.parse(text)
    with pytest.raises(ParseError):
        Seat.parse("ſouth")
    with pytest.raises(ParseError):
        Suit.parse("ſ")
    with pytest.raises(ParseError):
        parse_hand("AKQ.JT9.876.ſ432")
    with pytest.raises(ParseError, match="4 hands"):
        Deal(DEAL.replace(" ", "\u00a0"))
    with pytest.raises(ParseError):
        parse_cards("SA\u2003SK", "hand")


def test_trump_pattern_takes_what_check_trump_takes():
    for text in ["S", "h", " ♦ ", "", "-", "none", "NT", "nt"]:
        assert re.search(TRUMP_PATTERN, text), text
    for text in ["X", "ſ", "None", "SH", "S\n-"]:
        assert not re.search(TRUMP_PATTERN, text), text


@pytest.mark.parametrize("field,value,error,words", [
    ("play", ["SA", "XX"], ParseError, "invalid card at play[1]: invalid card 'XX'"),
    ("leader", "ſ", ParseError, "invalid seat 'ſ'"),
    ("deal", "N:ſ... - - -", ParseError, "invalid hand of N in deal"),
    ("trump", "ſ", InvalidRequestError, "invalid trump 'ſ'"),
    ("leader", "x" * 6, InvalidRequestError, "6 characters; at most 5"),
    ("contract", "No-Queens", InvalidRequestError, "is not a name"),
])
def test_a_refused_notation_is_named_by_its_parser(field, value, error, words):
    req = {"variant": "italian", "contract": "no-queens", "deal": DEAL, field: value}
    with pytest.raises(error) as exc:
        LegalRequest.from_request(req)
    assert words in str(exc.value) and isinstance(exc.value, KingsolveError)


def test_the_check_path_allows_only_post(client):
    for method in ("get", "put", "delete"):
        resp = getattr(client, method)("/api/v1/variants/check")
        assert resp.status_code == 405 and "GET" not in resp.headers["Allow"]
        assert "POST" in resp.headers["Allow"]
    assert client.get("/api/v1/variants/italian").status_code == 200
    assert client.get("/api/v1/variants/checkers").get_json()["error"] == "unknown-variant"


def test_the_check_is_the_document():
    # The validators check with the very schemas the OpenAPI document gives, no looser.
    from kingsolve.io.limits import LIMITS
    from kingsolve.io.schema import RequestSchemas
    schemas = RequestSchemas(LIMITS)
    documented = schemas.documented()
    for name in ("LegalRequest", "SolveRequest", "TableRequest", "ReviewRequest", "HintRequest"):
        assert schemas._validators[name].schema == documented[name], name
    for kind, schema in zip(schemas.choice_kinds, documented["ChoicesRequest"]["oneOf"]):
        assert schemas._validators[f"choices:{kind}"].schema == schema, kind


def test_a_card_hint_needs_its_contract_by_the_schema():
    from kingsolve.io.request import HintRequest
    with pytest.raises(InvalidRequestError, match="missing field 'contract'"):
        HintRequest.from_request({"variant": "italian", "seat": "N", "hand": "AKQ.JT9.876.5432"})
    HintRequest.from_request({"variant": "italian", "seat": "N", "hand": "AKQ.JT9.876.5432",
                              "choice": "trump"})
