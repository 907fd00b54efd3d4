"""The domino hand (Italian hand 8): play engine and redeal property.

docs/rules.md section 9. Not a trick game: a suit is *opened* by its seven, then cards
are added next to the cards down, upward 8 9 T J Q K or downward 6 5 4 3 2 A (the
ace is the lowest card here). A seat with no legal card passes; passes are implied,
so a play record lists cards only.

Readings of docs/rules.md 9 this module takes:

- The *opener* is the seat that played the first card of the hand (under
  `any-seven` the leader passes when it holds no seven, and the first seat holding
  one opens). A *round* runs from the opener's turn to the turn of the seat before
  the opener, so under the shared win the hand ends after the turn of the seat before
  the opener that follows the first seat going out (at once when that seat is itself
  the seat before the opener). Seats in the rest of the round take their turn as
  usual: play a legal card if they have one (and go out on their last card), else pass.
- The layout of a suit is its lowest and highest card down; the ace is the low end.
- Scores are exact: the shared win divides the losers' cards equally among the
  winners, a ``fractions.Fraction`` when the share is not whole.

The search is ``kingsolve.search.domino_solver``, as ``kingsolve.search.solver`` is for tricks.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable

from .cards import (SUIT_MASK, SUIT_NAMES, Card, Rank, Seat, Suit, cards_of_mask, deck_mask,
                    format_cards)
from .deal import Deal
from .position import parse_played_card
from ..errors import IllegalPlayError, InvalidDealError, InvalidRequestError
from .numbers import Number, json_number
from .rule_documents import resolve_variant
from .rules import Contract, RuleSet

__all__ = ["DominoPosition", "redeal_property", "exact_score"]

_SEVENS = sum(1 << (16 * s + 7) for s in range(4))
_D7 = Card("D7")


def _domino_rank(rank: int) -> int:
    """The rank's place in a domino suit: A=1, 2..K=2..13."""
    return 1 if rank == 14 else rank


def _card_at(suit: int, place: int) -> Card:
    """The card of ``suit`` at domino place ``place`` (1 = ace .. 13 = king)."""
    return Card(Suit(suit), Rank(14 if place == 1 else place))


def _check_domino_deal(variant: RuleSet, deal: Deal, full_deck: bool) -> None:
    if deal.players != 4:
        raise InvalidDealError(f"invalid deal for the domino: {deal.players} players, "
                               f"expected 4 (docs/rules.md 9)")
    if full_deck:
        missing = deck_mask(52) & ~deal.mask
        if missing:
            raise InvalidDealError(f"invalid deal for the domino: every card of the 52-card deck "
                                   f"is dealt (docs/rules.md 9), missing {' '.join(format_cards(missing))}")
        return
    for suit in Suit:
        places = sorted(_domino_rank(c.rank) for c in cards_of_mask(deal.mask & SUIT_MASK[suit]))
        if places and (7 not in places or places != list(range(places[0], places[-1] + 1))):
            raise InvalidDealError(f"invalid short deck for the domino: the {SUIT_NAMES[suit]} "
                                   f"dealt must be a run of cards around the seven")


class DominoPosition:
    """A domino hand in progress (docs/rules.md 9): layout, seat on move, passes, scores.

    ``leader`` is the seat that moves first under the `any-seven` opening; under
    `seven-of-diamonds` the holder of D7 opens and ``leader`` is ignored. ``play``
    lists cards only: a seat with no legal card passes automatically.

    >>> p = DominoPosition("italian", Deal.random(seed=1), leader="N")
    >>> all(c.rank == Rank.SEVEN for c in p.legal_cards())
    True

    ``full_deck=False`` accepts a shorter deck in which each suit dealt is a run of
    cards around its seven (for tests and study; the rules deal all 52 cards).
    """

    def __init__(self, variant: "str | RuleSet", deal: "Deal | str", leader: "Seat | str" = Seat.N,
                 play: Iterable["Card | str"] = (), contract: "Contract | None" = None,
                 *, full_deck: bool = True) -> None:
        self.variant = resolve_variant(variant)
        self.contract = self.variant.contract("domino") if contract is None else contract
        if self.contract.kind != "domino":
            raise InvalidRequestError(f"contract {self.contract.name!r} is not the domino; "
                                      f"use Position")
        if self.contract.domino_opening not in ("any-seven", "seven-of-diamonds") or \
                self.contract.domino_ending not in ("single", "shared"):
            raise InvalidRequestError(f"contract {self.contract.name!r}: unknown domino opening "
                                      f"{self.contract.domino_opening!r} or ending "
                                      f"{self.contract.domino_ending!r}")
        self.deal = deal if isinstance(deal, Deal) else Deal(deal)
        self.full_deck = bool(full_deck)
        _check_domino_deal(self.variant, self.deal, self.full_deck)
        self.seats = self.deal.seats
        self.leader = Seat.parse(leader)
        self.opening = self.contract.domino_opening
        self.shared = self.contract.domino_ending == "shared"
        self.hands: list[int] = [m or 0 for m in self.deal.hands]
        self.played = 0
        self.low = [0, 0, 0, 0]           # lowest domino place down per suit, 0 = not opened
        self.high = [0, 0, 0, 0]
        self.record: list[Card] = []
        self.movers: list[Seat] = []      # the seat that played each card of the record
        self.passes: list[tuple[int, Seat]] = []   # (index in the record it came before, seat)
        self.opener: Seat | None = None
        self.out: list[Seat] = []         # seats that have played their last card, in order
        self._turn: Seat | None = None
        self._undo: list[tuple] = []
        if self.opening == "seven-of-diamonds":
            holder = self.deal.holder(_D7)
            if holder is None:
                raise InvalidDealError("invalid deal for the domino: nobody holds D7, "
                                       "which opens the hand")
            self._turn = holder
        else:
            self._settle(self.leader)
        for i, card in enumerate(play):
            self.play(card, index=i)

    # --- state ----------------------------------------------------------------------
    @property
    def to_move(self) -> Seat | None:
        """The seat on move (always one holding a legal card), ``None`` once complete."""
        return self._turn

    @property
    def complete(self) -> bool:
        """Whether the hand is over (docs/rules.md 9: a seat out, and the round completed
        under the shared win)."""
        return self._turn is None

    @property
    def last_of_round(self) -> Seat | None:
        """The seat before the opener: its turn ends a round (None before the first card)."""
        return None if self.opener is None else self.next_seat(self.opener, -1)

    def next_seat(self, seat: Seat, step: int = 1) -> Seat:
        """The seat ``step`` places on in play direction."""
        return seat.next(step * self.variant.direction)

    @property
    def layout(self) -> dict[Suit, tuple[Rank, Rank] | None]:
        """Per suit: ``None`` if not opened, else its (lowest, highest) rank down; the ace
        is the low end of a suit."""
        out: dict[Suit, tuple[Rank, Rank] | None] = {}
        for s in Suit:
            if not self.low[s]:
                out[s] = None
            else:
                out[s] = (_card_at(s, self.low[s]).rank, _card_at(s, self.high[s]).rank)
        return out

    @property
    def taken(self) -> dict[Seat, Number]:
        """The scores so far: zeros until the hand is complete."""
        return self.scores()

    def scores(self) -> dict[Seat, Number]:
        """Exact scores per seat once complete (docs/rules.md 9), zeros before."""
        if not self.complete:
            return {s: 0 for s in self.seats}
        counts = {s: self.hands[s].bit_count() for s in self.seats}
        winners = set(self.out)
        losers_total = sum(n for s, n in counts.items() if s not in winners)
        share = Fraction(losers_total, len(winners))
        return {s: exact_score(share) if s in winners else -counts[s] for s in self.seats}

    # --- rules ----------------------------------------------------------------------
    @property
    def opening_mask(self) -> int:
        """The cards that may open the hand: D7, or any seven (docs/rules.md 9)."""
        return _D7.mask if self.opening == "seven-of-diamonds" else _SEVENS

    def playable_mask(self) -> int:
        """The cards that may be added to the layout now, whoever holds them."""
        if not self.played:
            return self.opening_mask
        out = 0
        for s in range(4):
            if not self.low[s]:
                out |= 1 << (16 * s + 7)
                continue
            if self.low[s] > 1:
                out |= _card_at(s, self.low[s] - 1).mask
            if self.high[s] < 13:
                out |= _card_at(s, self.high[s] + 1).mask
        return out

    def legal_mask(self) -> int:
        """The legal cards of the seat on move, as a mask (docs/rules.md 9)."""
        if self._turn is None:
            return 0
        return self.hands[self._turn] & self.playable_mask()

    def legal_cards(self) -> list[Card]:
        """The legal cards of the seat on move, in hand order."""
        return cards_of_mask(self.legal_mask())

    def _why_not(self, card: Card) -> str:
        s = int(card.suit)
        name = SUIT_NAMES[s]
        if not self.played and self.opening == "seven-of-diamonds":
            return "the seven of diamonds (D7) opens the hand"
        if not self.low[s]:
            first = "the first card must be a seven; " if not self.played else ""
            return f"{first}{name} are not opened ({card.suit.letter}7 opens them)"
        ends = [str(_card_at(s, p)) for p in (self.low[s] - 1, self.high[s] + 1) if 1 <= p <= 13]
        down = f"{_card_at(s, self.low[s])} to {_card_at(s, self.high[s])}"
        if not ends:
            return f"{name} are complete"
        return f"{name} are down from {down}: only {' or '.join(ends)} may be added"

    # --- moves ----------------------------------------------------------------------
    def play(self, card: "Card | str", index: int | None = None) -> None:
        """Play a card for the seat on move; the passes that follow are implied.

        Raises ``IllegalPlayError`` naming the card, its index in the play record and
        why it may not be played.
        """
        seat, c, where = parse_played_card(self, card, index)
        if not self.playable_mask() & c.mask:
            raise IllegalPlayError(f"illegal card {str(c)!r}{where}: {self._why_not(c)}")
        self._apply(seat, c)

    def _apply(self, seat: Seat, card: Card) -> None:
        self._undo.append((list(self.hands), self.played, list(self.low), list(self.high),
                           len(self.passes), self.opener, list(self.out), self._turn))
        s, place = int(card.suit), _domino_rank(card.rank)
        self.hands[seat] &= ~card.mask
        self.played |= card.mask
        if not self.low[s]:
            self.low[s] = self.high[s] = place
        else:
            self.low[s] = min(self.low[s], place)
            self.high[s] = max(self.high[s], place)
        self.record.append(card)
        self.movers.append(seat)
        if self.opener is None:
            self.opener = seat
        ends_round = bool(self.out) and seat == self.last_of_round
        if not self.hands[seat]:
            self.out.append(seat)
            if not self.shared or seat == self.last_of_round:
                self._turn = None
                return
        if ends_round:
            self._turn = None
            return
        self._settle(self.next_seat(seat))

    def _settle(self, seat: Seat) -> None:
        """Give the turn to ``seat``, or pass on from it to the first seat that can play.

        During the completion of a round (a seat is out, shared win) the hand ends
        after the turn of the seat before the opener.
        """
        playable = self.playable_mask()
        for _ in range(4):
            if self.hands[seat] & playable:
                self._turn = seat
                return
            self.passes.append((len(self.record), seat))
            if self.out and seat == self.last_of_round:
                self._turn = None
                return
            seat = self.next_seat(seat)
        raise InvalidDealError("invalid domino position: no seat can play")

    def undo(self) -> Card:
        """Take back the last card played (and the passes it implied); returns it."""
        if not self._undo:
            raise IllegalPlayError("nothing to undo: no card has been played")
        hands, self.played, self.low, self.high, n_passes, self.opener, self.out, self._turn = \
            self._undo.pop()
        self.hands = hands
        del self.passes[n_passes:]
        self.movers.pop()
        return self.record.pop()

    def copy(self) -> "DominoPosition":
        """An independent copy of the position."""
        return DominoPosition(self.variant, self.deal, self.leader, self.record, self.contract,
                              full_deck=self.full_deck)

    def to_dict(self) -> dict:
        """The position's state in the shared JSON shape of ``kingsolve legal``."""
        layout = {}
        for s, v in self.layout.items():
            layout[s.letter] = None if v is None else [v[0].letter, v[1].letter]
        return {
            "to_move": None if self._turn is None else self._turn.name,
            "legal": format_cards(self.legal_mask()),
            "trick": [],
            "taken": {s.name: json_number(v) for s, v in self.scores().items()},
            "complete": self.complete,
            "layout": layout,
            "passes": [{"seat": seat.name, "before": i} for i, seat in self.passes],
        }

    def __repr__(self) -> str:
        return (f"DominoPosition({self.variant.name!r}, {self.deal.pbn()!r}, "
                f"leader={self.leader.name!r}, play={[str(c) for c in self.record]!r})")


def exact_score(x: Fraction) -> Number:
    """A score as an ``int`` when whole, else the exact fraction."""
    return x.numerator if x.denominator == 1 else x


def redeal_property(deal: "Deal | str", threshold: int = 4) -> dict[str, dict]:
    """Per seat (by letter): its aces and kings, and whether it may ask for a redeal.

    The booklet's home rule (docs/rules.md 4): a seat holding ``threshold`` or more aces and
    kings may show them and have the domino hand redealt (five the next time, and so on:
    pass the raised ``threshold``).

    >>> redeal_property(Deal.random(seed=1))["N"]["may_redeal"] in (True, False)
    True
    """
    d = deal if isinstance(deal, Deal) else Deal(deal)
    out = {}
    for seat in d.seats:
        cards = d.hand(seat)
        aces = sum(1 for c in cards if c.rank == Rank.ACE)
        kings = sum(1 for c in cards if c.rank == Rank.KING)
        out[seat.name] = {"aces": aces, "kings": kings, "total": aces + kings,
                          "may_redeal": aces + kings >= threshold}
    return out
