"""Cards, suits, ranks and seats: notations and their round trips (docs/rules.md section 1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kingsolve import Card, KingsolveError, ParseError, Rank, Seat, Suit
from kingsolve.game.cards import (SUIT_MASK, cards_of_mask, deck_mask, format_cards, mask_of_cards)

ALL_CARDS = [Card(s, r) for s in Suit for r in Rank]

SUIT_FORMS = {Suit.S: ["S", "s", "♠", "♤"], Suit.H: ["H", "h", "♥", "♡"],
              Suit.D: ["D", "d", "♦", "♢"], Suit.C: ["C", "c", "♣", "♧"]}


def rank_forms(rank: Rank) -> list[str]:
    letter = "23456789TJQKA"[rank - 2]
    forms = [letter, letter.lower()]
    if rank == Rank.TEN:
        forms.append("10")
    return forms


@st.composite
def card_texts(draw):
    """A card and one of its accepted spellings (docs/rules.md 1)."""
    card = draw(st.sampled_from(ALL_CARDS))
    suit = draw(st.sampled_from(SUIT_FORMS[card.suit]))
    rank = draw(st.sampled_from(rank_forms(card.rank)))
    text = suit + rank if draw(st.booleans()) else rank + suit
    pad = draw(st.sampled_from(["", " "]))
    return card, pad + text + pad


@given(card_texts())
def test_card_parse_every_accepted_form(item):
    # docs/rules.md 1: either order, either case, 10 for T, suit symbols.
    card, text = item
    assert Card.parse(text) == card
    assert Card(text) == card


@given(st.sampled_from(ALL_CARDS))
def test_card_format_round_trip(card):
    # docs/rules.md 1: canonical text is suit then rank, upper case.
    text = str(card)
    assert len(text) == 2 and text == text.upper() and text[0] in "SHDC"
    assert Card.parse(text) == card
    assert eval(repr(card)) == card
    assert Card.from_bit(card.bit) == card
    assert card.bit == 16 * int(card.suit) + int(card.rank)
    assert card.mask & SUIT_MASK[card.suit]
    assert Card.parse(card.pretty()) == card


def test_card_examples():
    assert str(Card.parse("q♠")) == "SQ"
    assert str(Card.parse("10h")) == "HT"
    assert str(Card.parse("d8")) == "D8"
    assert repr(Card("QS")) == "Card('SQ')"
    assert Card("S", 12) == Card(Suit.S, Rank.QUEEN) == Card("SQ")


def test_card_order_and_hash():
    assert Card("S2") < Card("SA") < Card("H2")
    assert len({Card(t) for t in ["SQ", "qs", "Q♠", "s q".replace(" ", "")]}) == 1


@pytest.mark.parametrize("bad", ["", "S", "Q", "S1", "S11", "XQ", "SQQ", "1S", "S 1", "Z♠",
                                 "ST5", "♠♠"])
def test_card_parse_errors(bad):
    with pytest.raises(ParseError) as info:
        Card.parse(bad)
    msg = str(info.value)
    assert msg.startswith("invalid card") and repr(bad) in msg
    assert isinstance(info.value, KingsolveError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", [5, None, 1.5, ["SQ"]])
def test_card_parse_wrong_type(bad):
    with pytest.raises(ParseError, match="invalid card"):
        Card.parse(bad)


def test_card_from_bad_bit():
    with pytest.raises(ParseError, match="invalid card bit 0"):
        Card.from_bit(0)


@given(st.sampled_from(list(Suit)), st.booleans())
def test_suit_parse(suit, lower):
    letter = suit.letter.lower() if lower else suit.letter
    assert Suit.parse(letter) == suit
    assert Suit.parse(suit.symbol) == suit
    assert str(suit) == suit.letter


@given(st.sampled_from(list(Rank)))
def test_rank_parse(rank):
    for form in rank_forms(rank):
        assert Rank.parse(form) == rank
    assert str(rank) == rank.letter


@pytest.mark.parametrize("bad,kind", [("X", Suit), ("1", Rank), ("11", Rank), ("Q", Seat),
                                      ("", Suit)])
def test_value_parse_errors(bad, kind):
    with pytest.raises(ParseError) as info:
        kind.parse(bad)
    assert repr(bad) in str(info.value)


def test_seats():
    # docs/rules.md 1: N -> E -> S -> W clockwise; counterclockwise is the other way.
    assert [Seat.N.next(i) for i in range(4)] == [Seat.N, Seat.E, Seat.S, Seat.W]
    assert [Seat.N.next(-i) for i in range(4)] == [Seat.N, Seat.W, Seat.S, Seat.E]
    assert Seat.parse("south") == Seat.S and Seat.parse("w") == Seat.W
    assert Seat.E.partner == Seat.W and Seat.N.partner == Seat.S


def test_decks():
    # docs/rules.md 1: 52 cards, or 32 (A K Q J T 9 8 7 of each suit).
    assert deck_mask(52).bit_count() == 52
    short = cards_of_mask(deck_mask(32))
    assert len(short) == 32 and {c.rank for c in short} == set(Rank(r) for r in range(7, 15))
    with pytest.raises(ParseError, match="invalid deck size 36"):
        deck_mask(36)


@given(st.sets(st.sampled_from(ALL_CARDS)))
def test_mask_round_trip(cards):
    mask = mask_of_cards(cards)
    assert set(cards_of_mask(mask)) == set(cards)
    texts = format_cards(mask)
    # hand order: spades first, each suit high to low (docs/rules.md 1)
    keys = [("SHDC".index(t[0]), -int(Rank.parse(t[1]))) for t in texts]
    assert keys == sorted(keys)
    assert mask_of_cards(texts) == mask


def test_mask_of_cards_duplicate():
    with pytest.raises(ParseError, match="duplicate card 'SQ'"):
        mask_of_cards(["SQ", "qs"])


@pytest.mark.parametrize("suit,rank", [("X", 12), (7, 12), ("S", 1), (0, 15), ("S", "Z")])
def test_card_from_bad_parts(suit, rank):
    # A bad suit or rank given as parts is a ParseError too, never a bare ValueError.
    with pytest.raises(ParseError, match="invalid card"):
        Card(suit, rank)
