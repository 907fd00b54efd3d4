"""Deals: the hands of the seats in play, in PBN-style text (docs/rules.md section 1)."""

from __future__ import annotations

import random
from typing import Iterable, Sequence

from .cards import (ASCII_SPACE, END_PATTERN, RANK_PATTERN, SPACE_PATTERN, Card, Rank, Seat, Suit,
                    ascii_upper, cards_of_mask, deck_mask)
from ..errors import InvalidDealError, ParseError, excerpt

__all__ = ["Deal", "seats_for_players", "hand_text", "parse_hand", "HAND_PATTERN", "DEAL_PATTERN"]

#: A deal's hands are separated by ASCII white space only (``str.split()`` would
#: also split at Unicode spaces, which the request schema's pattern refuses).
_SPACES_TO_BLANK = str.maketrans({c: " " for c in ASCII_SPACE})


def seats_for_players(players: int) -> tuple[Seat, ...]:
    """The seats in play: N E S W with 4 players, N E S with 3, N S with 2."""
    if players == 4:
        return (Seat.N, Seat.E, Seat.S, Seat.W)
    if players == 3:
        return (Seat.N, Seat.E, Seat.S)
    if players == 2:
        return (Seat.N, Seat.S)
    raise InvalidDealError(f"invalid number of players {excerpt(players)}: expected 2, 3 or 4")


def hand_text(mask: int) -> str:
    """A hand as PBN text: suits S.H.D.C separated by dots, ranks high to low."""
    parts = []
    for suit in Suit:
        lane = (mask >> (16 * suit)) & 0xFFFF
        parts.append("".join(Rank(r).letter for r in range(14, 1, -1) if lane >> r & 1))
    return ".".join(parts)


def parse_hand(text: str, where: str = "hand") -> int:
    """Parse one hand's PBN text (``AKQ.JT9.876.5432``) into a mask."""
    suits = text.split(".")
    if len(suits) != 4:
        raise ParseError(f"invalid {where} {excerpt(text, 80)}: expected four suits S.H.D.C separated by dots")
    mask = 0
    for suit, ranks in zip(Suit, suits):
        i = 0
        ranks_upper = ascii_upper(ranks)
        while i < len(ranks_upper):
            if ranks_upper.startswith("10", i):
                token, i = "10", i + 2
            else:
                token, i = ranks_upper[i], i + 1
            try:
                rank = Rank.parse(token)
            except ParseError:
                raise ParseError(f"invalid {where} {excerpt(text, 80)}: {excerpt(token)} is not a rank "
                                 f"(in the {suit.letter} suit)") from None
            bit = 1 << (16 * suit + rank)
            if mask & bit:
                raise InvalidDealError(f"invalid {where} {excerpt(text, 80)}: card "
                                       f"'{suit.letter}{rank.letter}' is listed twice")
            mask |= bit
    return mask


class Deal:
    """The hands of a deal, each a card mask, ``None`` for a seat not in play.

    Text is PBN-style, hands listed clockwise from the named seat, ``-`` for a seat
    not in play. The text round-trips:

    >>> d = Deal("N:AKQ.JT9.876.5432 - JT9.AKQ.5432.876 -")
    >>> d.pbn()
    'N:AKQ.JT9.876.5432 - JT9.AKQ.5432.876 -'
    >>> d.players, d.tricks
    (2, 13)
    """

    __slots__ = ("_hands",)

    def __init__(self, text_or_hands: "str | Sequence[int | None]") -> None:
        if isinstance(text_or_hands, str):
            hands = Deal._parse(text_or_hands)
        else:
            try:
                hands = tuple(text_or_hands)
            except TypeError:
                raise ParseError(f"invalid deal {excerpt(text_or_hands, 80)}: expected PBN text such as "
                                 f"'N:AKQ... ...' or four hand masks") from None
            if len(hands) != 4:
                raise InvalidDealError(f"invalid deal: expected 4 hands (None for a seat not "
                                       f"in play), got {len(hands)}")
        Deal._validate(hands)
        self._hands: tuple[int | None, ...] = hands

    @classmethod
    def from_pbn(cls, text: str) -> "Deal":
        """Parse PBN-style deal text."""
        return cls(text)

    @classmethod
    def from_hands(cls, hands: "dict[Seat | str, Iterable[Card | str] | int | None]") -> "Deal":
        """A deal from a mapping of seat to cards (or a mask); missing seats are not in play."""
        masks: list[int | None] = [None] * 4
        for seat, cards in hands.items():
            s = Seat.parse(seat)
            if cards is None:
                continue
            if isinstance(cards, int):
                masks[s] = cards
            else:
                m = 0
                for c in cards:
                    card = Card.parse(c)
                    if m & card.mask:
                        raise InvalidDealError(f"invalid deal: {card} is listed twice in {s}'s hand")
                    m |= card.mask
                masks[s] = m
        return cls(masks)

    @staticmethod
    def _parse(text: str) -> tuple[int | None, ...]:
        if not isinstance(text, str):
            raise ParseError(f"invalid deal {excerpt(text, 80)}: expected PBN text such as 'N:AKQ... ...'")
        body = text.strip(ASCII_SPACE)
        first = Seat.N
        if len(body) >= 2 and body[1] == ":":
            try:
                first = Seat.parse(body[0])
            except ParseError:
                raise ParseError(f"invalid deal {excerpt(text, 80)}: {excerpt(body[0])} is not a seat "
                                 f"(expected N:, E:, S: or W:)") from None
            body = body[2:]
        parts = body.translate(_SPACES_TO_BLANK).split(" ")
        parts = [p for p in parts if p]
        if len(parts) != 4:
            raise ParseError(f"invalid deal {excerpt(text, 80)}: expected 4 hands separated by spaces "
                             f"('-' for a seat not in play), got {len(parts)}")
        hands: list[int | None] = [None] * 4
        for i, part in enumerate(parts):
            seat = first.next(i)
            if part == "-":
                continue
            hands[seat] = parse_hand(part, where=f"hand of {seat} in deal")
        return tuple(hands)

    @staticmethod
    def _validate(hands: Sequence[int | None]) -> None:
        seen = 0
        sizes = {}
        for seat, mask in zip(Seat, hands):
            if mask is None:
                continue
            if not isinstance(mask, int) or mask < 0 or mask & ~deck_mask(52):
                raise InvalidDealError(f"invalid deal: hand of {seat} is not a card mask: {excerpt(mask)}")
            dup = seen & mask
            if dup:
                names = " ".join(str(c) for c in cards_of_mask(dup))
                raise InvalidDealError(f"invalid deal: card {names} is dealt to more than one seat")
            seen |= mask
            sizes[seat] = mask.bit_count()
        if len(sizes) < 2:
            raise InvalidDealError("invalid deal: at least two seats must be in play")
        if len(set(sizes.values())) != 1:
            detail = ", ".join(f"{s} {n}" for s, n in sizes.items())
            raise InvalidDealError(f"invalid deal: hands must hold equal numbers of cards, got {detail}")

    @classmethod
    def random(cls, seed: int | str | None = None, deck: int = 52, players: int = 4) -> "Deal":
        """A random full deal, the same for the same seed on every machine.

        With 3 players the 2 of clubs is removed from the 52-card deck (docs/rules.md section 1).
        """
        seats = seats_for_players(players)
        cards = cards_of_mask(deck_mask(deck))
        if players == 3:
            if deck != 52:
                raise InvalidDealError("invalid deal: 3 players play with the 52-card deck")
            cards = [c for c in cards if c != Card("C2")]
        if len(cards) % len(seats):
            raise InvalidDealError(f"invalid deal: {len(cards)} cards do not split among "
                                   f"{len(seats)} players")
        rng = random.Random(seed if seed is None or isinstance(seed, int) else str(seed))
        rng.shuffle(cards)
        per = len(cards) // len(seats)
        hands: list[int | None] = [None] * 4
        for i, seat in enumerate(seats):
            m = 0
            for c in cards[i * per:(i + 1) * per]:
                m |= c.mask
            hands[seat] = m
        return cls(hands)

    # --- reading ---------------------------------------------------------------------
    @property
    def hands(self) -> tuple[int | None, ...]:
        """The four hand masks in seat order N E S W (``None`` where not in play)."""
        return self._hands

    def hand(self, seat: "Seat | str") -> list[Card]:
        """The cards of a seat's hand, in hand order."""
        mask = self._hands[Seat.parse(seat)]
        if mask is None:
            raise InvalidDealError(f"seat {Seat.parse(seat)} is not in play in this deal")
        return cards_of_mask(mask)

    def holder(self, card: "Card | str") -> Seat | None:
        """The seat that holds a card, or ``None``."""
        bit = Card.parse(card).mask
        for seat, mask in zip(Seat, self._hands):
            if mask is not None and mask & bit:
                return seat
        return None

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats in play, in seat order."""
        return tuple(s for s, m in zip(Seat, self._hands) if m is not None)

    @property
    def players(self) -> int:
        """How many seats are in play."""
        return len(self.seats)

    @property
    def tricks(self) -> int:
        """The number of cards in each hand."""
        return next(m for m in self._hands if m is not None).bit_count()

    @property
    def mask(self) -> int:
        """All the cards of the deal, as one mask."""
        out = 0
        for m in self._hands:
            if m is not None:
                out |= m
        return out

    def pbn(self, first: "Seat | str" = Seat.N) -> str:
        """The deal as PBN-style text, hands clockwise from ``first``."""
        start = Seat.parse(first)
        parts = []
        for i in range(4):
            mask = self._hands[start.next(i)]
            parts.append("-" if mask is None else hand_text(mask))
        return f"{start.name}:" + " ".join(parts)

    def without(self, mask: int) -> "Deal":
        """The deal with the cards of ``mask`` removed from every hand (no size check)."""
        out = object.__new__(Deal)
        out._hands = tuple(None if m is None else m & ~mask for m in self._hands)
        return out

    def __str__(self) -> str:
        return self.pbn()

    def __repr__(self) -> str:
        return f"Deal({self.pbn()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self._hands == other._hands

    def __hash__(self) -> int:
        return hash(self._hands)


# --- the notations as patterns (see kingsolve.game.cards) -----------------------------
#: One hand's text, as ``parse_hand`` reads it: four suits of ranks, no white space.
HAND_BODY_PATTERN = f"{RANK_PATTERN}*(?:\\.{RANK_PATTERN}*){{3}}"
#: What ``parse_hand`` accepts.
HAND_PATTERN = f"^{HAND_BODY_PATTERN}{END_PATTERN}"
_HAND_OR_NONE = f"(?:{HAND_BODY_PATTERN}|-)"
#: What ``Deal(text)`` parses (its sense, equal hands of distinct cards, is checked after).
DEAL_PATTERN = (f"^{SPACE_PATTERN}*(?:[NESWnesw]:)?{SPACE_PATTERN}*{_HAND_OR_NONE}"
                f"(?:{SPACE_PATTERN}+{_HAND_OR_NONE}){{3}}{SPACE_PATTERN}*{END_PATTERN}")
