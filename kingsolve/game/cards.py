"""Cards, suits, ranks and seats: small immutable values and their text notations.

docs/rules.md section 1. A card's *bit* is ``16 * suit + rank`` (rank 2..14), the layout
every bit mask in kingsolve uses, the compiled core included: a suit's holding is
one 16-bit lane of a hand's mask, its ranks in bit order.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable, Iterator

from ..errors import ParseError, excerpt

__all__ = [
    "Suit",
    "Rank",
    "Seat",
    "Card",
    "SUIT_MASK",
    "SUIT_NAMES",
    "deck_mask",
    "cards_of_mask",
    "mask_of_cards",
    "format_cards",
    "ascii_key",
    "ascii_upper",
    "CARD_PATTERN",
    "MAX_CARD_TEXT",
    "SEAT_PATTERN",
    "SUIT_PATTERN",
    "SEAT_LETTERS",
    "SUIT_LETTERS",
    "ASCII_SPACE",
]

#: The white space that notations may carry around them: ASCII only, as the
#: request schemas' patterns say (``str.strip()`` would also take Unicode spaces).
ASCII_SPACE = " \t\n\r\f\v"
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def ascii_upper(text: str) -> str:
    """``text`` with its ASCII letters upper case and nothing else changed:
    ``str.upper()`` would turn the long s ``'ſ'`` into ``'S'``, a notation no schema
    or reader of the text expects."""
    return text.translate(_ASCII_UPPER)


def ascii_key(text: str) -> str:
    """``text`` without ASCII white space around it, its ASCII letters upper case."""
    return ascii_upper(text.strip(ASCII_SPACE))


class Suit(enum.IntEnum):
    """A suit, in the order of a hand's text: spades, hearts, diamonds, clubs."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        """The suit's letter: ``S``, ``H``, ``D`` or ``C``."""
        return self.name

    @property
    def symbol(self) -> str:
        """The suit's symbol, for display."""
        return "♠♥♦♣"[self]

    @classmethod
    def parse(cls, text: "str | Suit") -> "Suit":
        """Parse a suit letter or symbol in either case.

        >>> Suit.parse("h"), Suit.parse("♣")
        (<Suit.H: 1>, <Suit.C: 3>)
        """
        if isinstance(text, Suit):
            return text
        key = ascii_key(str(text))
        suit = _SUIT_BY_TEXT.get(key)
        if suit is None:
            raise ParseError(f"invalid suit {excerpt(text)}: expected one of S, H, D, C or ♠ ♥ ♦ ♣")
        return suit

    def __str__(self) -> str:
        return self.name


#: The suits' names in words, indexed by suit, for messages.
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

_SUIT_BY_TEXT = {"S": Suit.S, "H": Suit.H, "D": Suit.D, "C": Suit.C,
                 "♠": Suit.S, "♥": Suit.H, "♦": Suit.D, "♣": Suit.C,
                 "♤": Suit.S, "♡": Suit.H, "♢": Suit.D, "♧": Suit.C}


class Rank(enum.IntEnum):
    """A rank; its value orders the ranks, two lowest and ace highest."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The rank's one-letter text: ``A K Q J T 9 ... 2``."""
        return _RANK_LETTERS[self - 2]

    @classmethod
    def parse(cls, text: "str | Rank") -> "Rank":
        """Parse a rank letter in either case, ``10`` for ``T`` included.

        >>> Rank.parse("10"), Rank.parse("q")
        (<Rank.TEN: 10>, <Rank.QUEEN: 12>)
        """
        if isinstance(text, Rank):
            return text
        key = ascii_key(str(text))
        rank = _RANK_BY_TEXT.get(key)
        if rank is None:
            raise ParseError(f"invalid rank {excerpt(text)}: expected one of A K Q J T(10) 9 8 7 6 5 4 3 2")
        return rank

    def __str__(self) -> str:
        return self.letter


_RANK_LETTERS = "23456789TJQKA"
_RANK_BY_TEXT = {letter: Rank(i + 2) for i, letter in enumerate(_RANK_LETTERS)}
_RANK_BY_TEXT["10"] = Rank.TEN


class Seat(enum.IntEnum):
    """A seat at the table. ``next()`` is the clockwise neighbour (N -> E -> S -> W)."""

    N = 0
    E = 1
    S = 2
    W = 3

    def next(self, step: int = 1) -> "Seat":
        """The seat ``step`` places clockwise (a negative step goes counterclockwise)."""
        return Seat((self + step) % 4)

    @property
    def partner(self) -> "Seat":
        """The seat opposite: the partner in doubles."""
        return Seat((self + 2) % 4)

    @classmethod
    def parse(cls, text: "str | Seat") -> "Seat":
        """Parse a seat letter ``N E S W`` (or its full name) in either case."""
        if isinstance(text, Seat):
            return text
        key = ascii_key(str(text))
        seat = _SEAT_BY_TEXT.get(key)
        if seat is None:
            raise ParseError(f"invalid seat {excerpt(text)}: expected one of N, E, S, W")
        return seat

    def __str__(self) -> str:
        return self.name


_SEAT_BY_TEXT = {"N": Seat.N, "E": Seat.E, "S": Seat.S, "W": Seat.W,
                 "NORTH": Seat.N, "EAST": Seat.E, "SOUTH": Seat.S, "WEST": Seat.W}


@dataclass(frozen=True, order=True)
class Card:
    """A playing card. Text is suit then rank, upper case (``SQ``, ``HT``).

    Parsing takes either order, either case, ``10`` for ``T`` and suit symbols.

    >>> Card.parse("q♠"), str(Card.parse("10h")), Card.parse("D8").bit
    (Card('SQ'), 'HT', 40)
    """

    suit: Suit
    rank: Rank

    def __init__(self, text_or_suit: "str | Suit | int", rank: "str | Rank | int | None" = None) -> None:
        if rank is None:
            parsed = Card.parse(text_or_suit)  # type: ignore[arg-type]
            suit, rank = parsed.suit, parsed.rank
        else:
            try:
                suit = Suit.parse(text_or_suit) if isinstance(text_or_suit, str) else Suit(text_or_suit)
                rank = Rank.parse(rank) if isinstance(rank, str) else Rank(rank)
            except ValueError:
                raise ParseError(f"invalid card ({excerpt(text_or_suit)}, {excerpt(rank)}): expected a suit "
                                 f"(S H D C or 0-3) and a rank (A K Q J T 9 ... 2 or 2-14)") from None
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "rank", rank)

    @classmethod
    def parse(cls, text: "str | Card") -> "Card":
        """Parse a card in any accepted notation; raise ``ParseError`` naming the input."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise ParseError(f"invalid card {excerpt(text)}: expected text such as 'SQ'")
        key = ascii_key(text)
        cached = _CARD_BY_TEXT.get(key)
        if cached is not None:
            return cached
        raise ParseError(f"invalid card {excerpt(text)}: expected a suit (S H D C or a symbol) "
                         f"and a rank (A K Q J T 9 ... 2), such as 'SQ'")

    @classmethod
    def from_bit(cls, bit: int) -> "Card":
        """The card whose bit index is ``bit`` (``16 * suit + rank``)."""
        card = _CARD_BY_BIT.get(bit)
        if card is None:
            raise ParseError(f"invalid card bit {excerpt(bit)}")
        return card

    @property
    def bit(self) -> int:
        """The card's bit index, ``16 * suit + rank``."""
        return 16 * int(self.suit) + int(self.rank)

    @property
    def mask(self) -> int:
        """The card as a one-bit mask."""
        return 1 << self.bit

    def __str__(self) -> str:
        return self.suit.letter + self.rank.letter

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """The card with its suit symbol, for display: ``♠Q``."""
        return self.suit.symbol + self.rank.letter


_CARD_BY_TEXT: dict[str, Card] = {}
_CARD_BY_BIT: dict[int, Card] = {}
for _suit in Suit:
    for _rank in Rank:
        _card = object.__new__(Card)
        object.__setattr__(_card, "suit", _suit)
        object.__setattr__(_card, "rank", _rank)
        _CARD_BY_BIT[_card.bit] = _card
        for _s in [k for k, v in _SUIT_BY_TEXT.items() if v is _suit]:
            for _r in [k for k, v in _RANK_BY_TEXT.items() if v is _rank]:
                _CARD_BY_TEXT[_s + _r] = _card
                _CARD_BY_TEXT[_r + _s] = _card

#: The 16-bit lane of each suit in a hand mask.
SUIT_MASK = tuple(0xFFFF << (16 * s) for s in Suit)


def deck_mask(size: int = 52) -> int:
    """The mask of a whole deck: 52 cards, or 32 (A K Q J T 9 8 7 of each suit)."""
    if size == 52:
        lane = 0x7FFC  # ranks 2..14
    elif size == 32:
        lane = 0x7F80  # ranks 7..14
    else:
        raise ParseError(f"invalid deck size {excerpt(size)}: expected 52 or 32")
    return lane | lane << 16 | lane << 32 | lane << 48


def cards_of_mask(mask: int) -> list[Card]:
    """The cards of a mask, in hand order: spades first, each suit high to low."""
    out = []
    for suit in Suit:
        lane = (mask >> (16 * suit)) & 0xFFFF
        for rank in range(14, 1, -1):
            if lane >> rank & 1:
                out.append(_CARD_BY_BIT[16 * suit + rank])
    return out


def iter_bits(mask: int) -> Iterator[int]:
    """The set bits of a mask, low to high."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of_cards(cards: Iterable["Card | str"]) -> int:
    """The mask of some cards (parsed if text); duplicates raise ``ParseError``."""
    mask = 0
    for item in cards:
        card = Card.parse(item)
        if mask & card.mask:
            raise ParseError(f"duplicate card {excerpt(str(card))}")
        mask |= card.mask
    return mask


def format_cards(mask: int) -> list[str]:
    """The canonical texts of a mask's cards, in hand order."""
    return [str(c) for c in cards_of_mask(mask)]


# --- the notations as patterns ------------------------------------------------------
# The request schemas give the notations the parsers above accept, exactly, as JSON
# Schema patterns: ECMA-262 regular expressions that Python's ``re`` reads alike.

#: ASCII white space, as a pattern's class.
SPACE_PATTERN = "[ \\t\\n\\r\\f\\v]"
#: The end of the text: Python's ``$`` alone also matches before a final newline.
END_PATTERN = "$(?!\\n)"
_SUIT_CLASS = "[" + "".join(k + k.lower() if k.isascii() else k for k in _SUIT_BY_TEXT) + "]"
#: A rank: a letter or digit in either case, or ``10``.
RANK_PATTERN = "(?:[" + "".join(sorted({c for k in _RANK_BY_TEXT if len(k) == 1
                                          for c in (k, k.lower())})) + "]|10)"
#: A card in either order, without the white space ``Card.parse`` strips.
CARD_BODY_PATTERN = f"(?:{_SUIT_CLASS}{RANK_PATTERN}|{RANK_PATTERN}{_SUIT_CLASS})"
#: What ``Card.parse`` accepts.
CARD_PATTERN = f"^{SPACE_PATTERN}*{CARD_BODY_PATTERN}{SPACE_PATTERN}*{END_PATTERN}"
#: The longest card text a request may carry, white space included.
MAX_CARD_TEXT = 3
#: A seat's and a suit's canonical letters, as they are written back.
SEAT_LETTERS = tuple(s.name for s in Seat)
SUIT_LETTERS = tuple(s.letter for s in Suit)


def _either_case(word: str) -> str:
    return "".join(f"[{c}{c.lower()}]" if c.isascii() else c for c in word)


#: One suit, as ``Suit.parse`` reads it without the white space it strips.
SUIT_BODY_PATTERN = _SUIT_CLASS
#: What ``Suit.parse`` accepts.
SUIT_PATTERN = f"^{SPACE_PATTERN}*{SUIT_BODY_PATTERN}{SPACE_PATTERN}*{END_PATTERN}"
#: What ``Seat.parse`` accepts: a letter or a name, either case.
SEAT_PATTERN = (f"^{SPACE_PATTERN}*(?:{'|'.join(_either_case(k) for k in _SEAT_BY_TEXT)})"
                f"{SPACE_PATTERN}*{END_PATTERN}")
