"""The play engine of a trick-taking hand (docs/rules.md sections 2 and 3).

A ``Position`` holds a deal, the contract's compiled tables and the cards played
so far. It answers who is on move, which cards are legal, who won each trick and
the points taken, and it plays and undoes cards. The rules themselves (legal cards
and why, the trick's winner, the early end) are ``kingsolve.game.trick_rules``, which
the sampler's inferences read too. Hands are card masks (bit ``16 * suit + rank``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol, Sequence

from .cards import Card, Seat, Suit, cards_of_mask, deck_mask, format_cards
from .deal import Deal
from ..errors import IllegalPlayError, InvalidDealError, InvalidRequestError, ParseError, excerpt
from .rule_documents import resolve_variant
from .rules import TRUMP_NAMED, Contract, ContractTables, RuleSet, compile_contract
from .trick_rules import breaks_suit, ends_early, legal_mask, legal_with_reason, trick_winner_index


__all__ = ["Position", "Trick", "parse_played_card", "check_seats", "check_trump",
           "NO_TRUMP_WORDS"]


@dataclass(frozen=True)
class Trick:
    """A completed trick: who led, the cards in play order, who won it and its points."""

    number: int                          # 1-based
    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]
    winner: Seat
    points: int

    def to_dict(self) -> dict:
        return {"number": self.number, "leader": self.leader.name,
                "cards": [str(c) for _, c in self.cards], "winner": self.winner.name,
                "points": self.points}


class Position:
    """A trick-taking hand in progress under one rule set and contract.

    >>> p = Position("italian", "no-queens", Deal.random(seed=1), leader="N")
    >>> p.to_move, len(p.legal_cards())
    (<Seat.N: 0>, 13)
    """

    def __init__(self, variant: "str | RuleSet", contract: "str | Contract", deal: "Deal | str",
                 leader: "Seat | str" = Seat.N, trump: "Suit | str | None" = None,
                 doubles: bool = False, options: Iterable[str] = (),
                 play: Iterable["Card | str"] = ()) -> None:
        self.variant = resolve_variant(variant)
        options = tuple(options)
        if isinstance(contract, Contract):
            self.contract = contract.with_options(options) if options else contract
        else:
            self.contract = self.variant.contract(contract, options)
        self.options = options
        if self.contract.kind != "tricks":
            raise InvalidRequestError(f"contract {self.contract.name!r} is not a trick contract; "
                                      f"use DominoPosition")
        self.deal = deal if isinstance(deal, Deal) else Deal(deal)
        self.trump = check_trump(self.contract, trump)
        self.doubles = bool(doubles)
        _check_deal(self.variant, self.deal, self.doubles)
        self.seats = self.deal.seats
        self.leader = Seat.parse(leader)
        if self.leader not in self.seats:
            raise InvalidRequestError(f"invalid leader {self.leader.name!r}: that seat is not in play",
                                      field="leader")
        self.n_tricks = self.deal.tricks
        self.tables: ContractTables = compile_contract(self.contract, self.n_tricks, self.trump)
        self._next = {s: self.variant.next_seat(s, self.seats) for s in self.seats}
        # a seat not in play holds no cards: 0, where the deal says None
        self.hands: list[int] = [m or 0 for m in self.deal.hands]
        self.played = 0
        self.broken = 0         # the cards played that broke their suit (trick_rules.breaks_suit)
        self.trick: list[tuple[Seat, int]] = []
        self.trick_leader = self.leader
        self.tricks: list[Trick] = []
        self.taken = {s: 0 for s in self.seats}
        self.record: list[Card] = []
        self._undo: list[tuple] = []
        # docs/rules.md 2.4: a (partly played) deal may hold no points at all from the start.
        self._ended_early = ends_early(self.tables, 0, self.points_remaining_mask())
        for i, card in enumerate(play):
            self.play(card, index=i)

    # --- state ----------------------------------------------------------------------
    @property
    def to_move(self) -> Seat | None:
        """The seat on move, or ``None`` once the hand is complete."""
        if self.complete:
            return None
        if not self.trick:
            return self.trick_leader
        return self._next[self.trick[-1][0]]

    @property
    def complete(self) -> bool:
        """Whether the hand is over: every trick played, or no points left (early end)."""
        return self._ended_early or len(self.tricks) == self.n_tricks

    @property
    def ended_early(self) -> bool:
        """Whether the hand ended before its last trick because no points remained."""
        return self._ended_early

    @property
    def trick_number(self) -> int:
        """The 0-based index of the trick in progress (or the next one)."""
        return len(self.tricks)

    def next_seat(self, seat: Seat) -> Seat:
        """The next seat in play direction."""
        return self._next[seat]

    def current_trick(self) -> list[Card]:
        """The cards of the trick in progress, in play order."""
        return [Card.from_bit(b) for _, b in self.trick]

    def side_of(self, seat: Seat) -> tuple[Seat, ...]:
        """The seats whose points count together with ``seat`` (its side in doubles)."""
        if self.doubles:
            return (seat, seat.partner)
        return (seat,)

    def scores(self) -> dict[Seat, int]:
        """Points per seat: taken so far, plus the constant per seat once complete."""
        const = self.tables.seat_constant if self.complete else 0
        return {s: v + const for s, v in self.taken.items()}

    def side_scores(self) -> dict[str, int]:
        """Points per side in doubles: ``{"NS": ..., "EW": ...}``."""
        sc = self.scores()
        return {"NS": sc[Seat.N] + sc[Seat.S], "EW": sc[Seat.E] + sc[Seat.W]}

    # --- rules ----------------------------------------------------------------------
    def legal_mask(self) -> int:
        """The legal cards of the seat on move as a mask (docs/rules.md section 2)."""
        seat = self.to_move
        if seat is None:
            return 0
        return legal_mask(self.tables, self.hands[seat], [b for _, b in self.trick], self.broken,
                          not self.tricks)

    def legal_cards(self) -> list[Card]:
        """The legal cards of the seat on move, in hand order."""
        return cards_of_mask(self.legal_mask())

    def _legal_with_reason(self, hand: int) -> tuple[int, str]:
        """The legal mask of ``hand`` on move now, and why the other cards are not."""
        seat = self.to_move
        if seat is None:
            return 0, "the hand is already complete"
        return legal_with_reason(self.tables, hand, [b for _, b in self.trick], self.broken,
                                 not self.tricks, seat.name)

    # --- moves ----------------------------------------------------------------------
    def play(self, card: "Card | str", index: int | None = None) -> Trick | None:
        """Play a card for the seat on move; returns the trick if this card completed one.

        Raises ``IllegalPlayError`` naming the card, its index in the play record and
        the rule it breaks.
        """
        seat, c, where = parse_played_card(self, card, index)
        if not self.legal_mask() & c.mask:
            # the reason's words only for a card refused: a replayed record makes
            # every card of the hand
            reason = self._legal_with_reason(self.hands[seat])[1]
            raise IllegalPlayError(f"illegal card {excerpt(str(c))}{where}: {reason}")
        return self._apply(seat, c.bit)

    def _apply(self, seat: Seat, bit: int) -> Trick | None:
        self._undo.append((seat, bit, self.trick_leader, self._ended_early))
        self.hands[seat] &= ~(1 << bit)
        if breaks_suit(self.tables, [b for _, b in self.trick], bit):
            self.broken |= 1 << bit
        self.trick.append((seat, bit))
        self.played |= 1 << bit
        self.record.append(Card.from_bit(bit))
        if len(self.trick) < len(self.seats):
            return None
        t = self.tables
        bits = [b for _, b in self.trick]
        winner = self.trick[trick_winner_index(bits, t.trump)][0]
        number = len(self.tricks)
        points = t.trick_points[number] + sum(t.card_points[b] for b in bits)
        self.taken[winner] += points
        trick = Trick(number + 1, self.trick_leader,
                      tuple((s, Card.from_bit(b)) for s, b in self.trick), winner, points)
        self.tricks.append(trick)
        self.trick = []
        self.trick_leader = winner
        if not self.complete and ends_early(t, number + 1, self.points_remaining_mask()):
            self._ended_early = True
        return trick

    def points_remaining_mask(self) -> int:
        """The scored cards not yet played (docs/rules.md section 2, early end)."""
        return self.tables.scored_cards & self.deal.mask & ~self.played

    def undo(self) -> Card:
        """Take back the last card played; returns it."""
        if not self._undo:
            raise IllegalPlayError("nothing to undo: no card has been played")
        seat, bit, trick_leader, ended = self._undo.pop()
        if not self.trick:
            trick = self.tricks.pop()
            self.taken[trick.winner] -= trick.points
            self.trick = [(s, c.bit) for s, c in trick.cards]
        self.trick.pop()
        self.hands[seat] |= 1 << bit
        self.played &= ~(1 << bit)
        self.broken &= ~(1 << bit)
        self.record.pop()
        self.trick_leader = trick_leader
        self._ended_early = ended
        return Card.from_bit(bit)

    def copy(self) -> "Position":
        """An independent copy of the position."""
        return Position(self.variant, self.contract, self.deal, self.leader, self.trump,
                        self.doubles, (), self.record)

    def to_dict(self) -> dict:
        """The position's state in the shared JSON shape of ``kingsolve legal``."""
        out = {
            "to_move": None if self.to_move is None else self.to_move.name,
            "legal": format_cards(self.legal_mask()) if not self.complete else [],
            "trick": [str(c) for c in self.current_trick()],
            "taken": {s.name: v for s, v in self.scores().items()},
            "complete": self.complete,
        }
        if self.doubles:
            out["sides"] = self.side_scores()
        return out

    def __repr__(self) -> str:
        return (f"Position({self.variant.name!r}, {self.contract.name!r}, {self.deal.pbn()!r}, "
                f"leader={self.leader.name!r}, trump={None if self.trump is None else self.trump.name!r}, "
                f"doubles={self.doubles!r}, play={[str(c) for c in self.record]!r})")


class Playing(Protocol):
    """What ``parse_played_card`` reads of a hand in play: a ``Position`` or a
    ``DominoPosition``."""

    deal: Deal
    hands: list[int]
    record: list[Card]

    @property
    def seats(self) -> Sequence[Seat]: ...

    @property
    def to_move(self) -> Seat | None: ...


def parse_played_card(position: Playing, card: "Card | str", index: int | None) -> tuple[Seat, Card, str]:
    """The seat on move, the parsed card and its place in the record, for ``play``.

    Shared by the trick and the domino engines: raises ``ParseError`` naming the card
    and its index ``play[i]`` when the card does not parse, ``IllegalPlayError`` when
    the hand is complete or the seat on move does not hold it.
    """
    where = f" at play[{len(position.record) if index is None else index}]"
    try:
        c = Card.parse(card)
    except ValueError as exc:
        raise ParseError(f"invalid card{where}: {exc}") from None
    seat = position.to_move
    if seat is None:
        raise IllegalPlayError(f"illegal card {excerpt(str(c))}{where}: the hand is already complete")
    if not position.hands[seat] & c.mask:
        holder = next((s for s in position.seats if position.hands[s] & c.mask), None)
        if holder is not None:
            why = f"{seat.name} is on move and {holder.name} holds it"
        elif position.deal.mask & c.mask:
            why = "it has already been played"
        else:
            why = "it is not in this deal"
        raise IllegalPlayError(f"illegal card {excerpt(str(c))}{where}: {why}")
    return seat, c, where


#: The words a request may name no trump with, besides null.
NO_TRUMP_WORDS = ("", "-", "none", "NT", "nt")


def check_trump(contract: Contract, trump: "Suit | str | None") -> Suit | None:
    """The trump suit ``contract`` is played with (None for no trump), checked against it."""
    if trump is None or trump in NO_TRUMP_WORDS:
        if contract.trump == TRUMP_NAMED:
            raise InvalidRequestError(f"contract {contract.name!r} needs a trump suit "
                                      f"(S, H, D or C)", field="trump")
        return None
    if contract.trump == "none":
        raise InvalidRequestError(f"contract {contract.name!r} takes no trump, got {excerpt(trump)}",
                                  field="trump")
    try:
        return Suit.parse(trump)
    except ValueError:
        raise InvalidRequestError(f"invalid trump {excerpt(trump)}: expected S, H, D or C",
                                  field="trump") from None


def _check_deal(variant: RuleSet, deal: Deal, doubles: bool) -> None:
    if deal.players not in variant.players:
        raise InvalidDealError(f"invalid deal for variant {variant.name!r}: {deal.players} "
                               f"players, expected {' or '.join(map(str, variant.players))}",
                               field="deal")
    stray = deal.mask & ~deck_mask(variant.deck)
    if stray:
        raise InvalidDealError(f"invalid deal for variant {variant.name!r}: "
                               f"{' '.join(format_cards(stray))} not in the {variant.deck}-card deck",
                               field="deal")
    if deal.players == 3 and deal.mask & Card("C2").mask:
        raise InvalidDealError("invalid deal: with 3 players the 2 of clubs is removed "
                               "(docs/rules.md 1)", field="deal")
    if doubles:
        if not variant.doubles:
            raise InvalidRequestError(f"variant {variant.name!r} has no doubles", field="doubles")
        if deal.players != 4:
            raise InvalidRequestError("doubles need 4 players", field="doubles")


def check_seats(position: "Position", seats: "Iterable[Seat | str] | None") -> list[Seat]:
    """The seats asked for, each once in the order given (default: every seat in
    play); ``InvalidRequestError`` for a seat not in play."""
    if seats is None:
        return list(position.seats)
    out: list[Seat] = []
    for s in seats:
        seat = Seat.parse(s)
        if seat not in position.seats:
            raise InvalidRequestError(f"invalid seat {seat.name!r}: that seat is not in play")
        if seat not in out:
            out.append(seat)
    return out
