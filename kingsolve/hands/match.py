"""Match score sheets: played hands in, per-hand and running scores per seat out.

docs/rules.md sections 4-10. A ``ScoreSheet`` follows its rule set's match schedule hand
by hand (dealer, first leader, contract; the Turkish chooser and quotas) and takes
each played hand as a finished ``Position`` (or ``DominoPosition``) or as per-seat
scores. On top of the play it settles an Italian sale (section 10) and a Portuguese
festa (section 6).

>>> sheet = ScoreSheet("russian")
>>> sheet.next_hand().contract, sheet.next_hand().leader
('no-tricks', <Seat.N: 0>)
>>> _ = sheet.add({"N": -4, "E": -6, "S": -2, "W": -4})
>>> sheet.totals()[Seat.E]
-6

Readings of docs/rules.md this module takes (each also noted where it applies):

- Italian with 3 or 2 players (docs/rules.md 1 and 4): the dealer rotates among the seats
  in play; N leads hand 1, so the first dealer is the seat before N (S with 3 players
  N E S, S with 2 players N S). The domino hand (docs/rules.md 9 describes it for 4
  players) is recorded as per-seat scores whatever the player count.
- A trick hand's scores must add up to its contract's total (a hand played out, or
  ended early once every scored card was taken, hands out the whole total); a domino
  hand's to zero (docs/rules.md 9: the winners get exactly what the losers lose).
- Portuguese festa (docs/rules.md 6): an accepted plus bid is played as `festa` (the bidder
  names the trump), an accepted null bid as `null`; the bidder, or the seat after it,
  leads. *8 or null* is asked only at 6 or 7 plus-tricks. When no bid is accepted and
  the host plays a trump, it leads or the seat after it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..game.cards import Card, Seat, Suit, deck_mask
from ..checks import check_int, is_int
from ..game.deal import seats_for_players
from ..errors import KingsolveError
from ..game.numbers import Number, json_number
from ..game.rule_documents import resolve_variant
from ..game.rules import TURKISH_PENALTIES, RuleSet, ScheduledHand, compile_contract

__all__ = ["ScoreSheet", "SheetHand", "Sale", "Bid", "Festa", "ScoreSheetError",
           "contract_total", "check_turkish_choices", "sheet_of_records", "next_choices"]


class ScoreSheetError(KingsolveError):
    """A hand that does not fit the match: wrong contract, leader, quota, settlement."""

    code = "score-sheet"


# --- settlements ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Sale:
    """An Italian sale (docs/rules.md 10): ``buyer`` bought the declaration for ``price`` tricks.

    The buyer scores its tricks - price, the dealer its tricks + price.
    """

    buyer: Seat
    price: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "buyer", Seat.parse(self.buyer))
        check_int(self.price, "sale price", 1, expected="a number of tricks, at least 1",
                  error=ScoreSheetError)

    def to_dict(self) -> dict:
        return {"buyer": self.buyer.name, "price": self.price}


@dataclass(frozen=True)
class Bid:
    """A Portuguese festa bid (docs/rules.md 6): plus-tricks (25 each) or null-tricks (75 each)."""

    kind: str          # "plus" or "null"
    tricks: int

    def __post_init__(self) -> None:
        if self.kind not in ("plus", "null"):
            raise ScoreSheetError(f"invalid bid kind {self.kind!r}: expected 'plus' or 'null'")
        top = 3 if self.kind == "null" else 13
        check_int(self.tricks, f"{self.kind} bid", 1, top, f"1 to {top} tricks",
                  error=ScoreSheetError)

    @classmethod
    def plus(cls, tricks: int) -> "Bid":
        return cls("plus", tricks)

    @classmethod
    def null(cls, tricks: int) -> "Bid":
        return cls("null", tricks)

    @property
    def points(self) -> int:
        """What the bid is worth: 25 per plus-trick, 75 per null-trick."""
        return self.tricks * (25 if self.kind == "plus" else 75)

    def beats(self, other: "Bid") -> bool:
        """Whether this bid beats ``other`` (docs/rules.md 6, Reading: by points; a null bid
        beats a plus bid of equal points)."""
        if self.points != other.points:
            return self.points > other.points
        return self.kind == "null" and other.kind == "plus"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "tricks": self.tricks, "points": self.points}


FESTA_OUTCOMES = ("accepted", "refused", "host", "433")


@dataclass(frozen=True)
class Festa:
    """How a Portuguese festa hand was settled (docs/rules.md 6).

    - ``accepted``: the bidder pays the bid's points to the host, then plays the hand
      (`festa` for a plus bid, `null` for a null bid).
    - ``refused``: *8 or null* (at 6 or 7 plus-tricks) refused: the host plays `null`,
      nobody pays.
    - ``host``: no bid accepted; the host plays `null` or a `festa` with its trump.
    - ``433``: no bid accepted and no play: the host scores 100, each other seat 75.
    """

    outcome: str
    bidder: Seat | None = None
    bid: Bid | None = None

    def __post_init__(self) -> None:
        if self.outcome not in FESTA_OUTCOMES:
            raise ScoreSheetError(f"invalid festa outcome {self.outcome!r}: expected one of "
                                  f"{', '.join(FESTA_OUTCOMES)}")
        if self.outcome in ("accepted", "refused"):
            if self.bidder is None or self.bid is None:
                raise ScoreSheetError(f"festa outcome {self.outcome!r} needs a bidder and a bid")
            object.__setattr__(self, "bidder", Seat.parse(self.bidder))
            if self.outcome == "refused" and not (self.bid.kind == "plus"
                                                  and self.bid.tricks in (6, 7)):
                raise ScoreSheetError(f"invalid festa outcome 'refused': '8 or null' is asked "
                                      f"only at 6 or 7 plus-tricks, the bid was "
                                      f"{self.bid.tricks} {self.bid.kind}")
        elif self.bidder is not None or self.bid is not None:
            raise ScoreSheetError(f"festa outcome {self.outcome!r} takes no bidder or bid")

    @classmethod
    def accepted(cls, bidder: "Seat | str", bid: Bid) -> "Festa":
        return cls("accepted", Seat.parse(bidder), bid)

    @classmethod
    def refused(cls, bidder: "Seat | str", bid: Bid) -> "Festa":
        return cls("refused", Seat.parse(bidder), bid)

    @classmethod
    def host_plays(cls) -> "Festa":
        return cls("host")

    @classmethod
    def four_three_three(cls) -> "Festa":
        return cls("433")

    def offer(self) -> tuple[Seat, Bid]:
        """The bidder and the bid of a festa ``accepted`` or ``refused``."""
        if self.bidder is None or self.bid is None:
            raise ScoreSheetError(f"festa outcome {self.outcome!r} has no bidder and bid")
        return self.bidder, self.bid

    def to_dict(self) -> dict:
        out: dict = {"outcome": self.outcome}
        if self.bidder is not None:
            out["bidder"] = self.bidder.name
        if self.bid is not None:
            out["bid"] = self.bid.to_dict()
        return out


# --- the sheet -----------------------------------------------------------------------------
@dataclass(frozen=True)
class SheetHand:
    """One recorded hand: what was played, the settlement, and the scores."""

    number: int
    contract: str | None            # None for a festa settled 433 (no play)
    dealer: Seat | None
    leader: Seat | None             # the first leader (Turkish: the chooser)
    trump: Suit | None
    played: dict[Seat, Number]      # the scores of the play itself
    scores: dict[Seat, Number]      # after the sale or festa settlement
    running: dict[Seat, Number]     # totals after this hand
    sale: Sale | None = None
    festa: Festa | None = None
    doubles: bool = False

    def sides(self, which: str = "scores") -> dict[str, Number]:
        """Doubles (docs/rules.md 3): N+S against E+W."""
        sc = getattr(self, which)
        return {"NS": sc[Seat.N] + sc[Seat.S], "EW": sc[Seat.E] + sc[Seat.W]}

    def to_dict(self) -> dict:
        def seats(d: Mapping[Seat, Number]) -> dict:
            return {s.name: json_number(v) for s, v in d.items()}
        out: dict[str, Any] = {
            "number": self.number, "contract": self.contract,
            "dealer": None if self.dealer is None else self.dealer.name,
            "leader": None if self.leader is None else self.leader.name,
            "trump": None if self.trump is None else self.trump.letter,
            "played": seats(self.played), "scores": seats(self.scores),
            "running": seats(self.running),
        }
        if self.sale is not None:
            out["sale"] = self.sale.to_dict()
        if self.festa is not None:
            out["festa"] = self.festa.to_dict()
        if self.doubles:
            out["sides"] = {k: json_number(v) for k, v in self.sides().items()}
            out["running_sides"] = {k: json_number(v) for k, v in self.sides("running").items()}
        return out


def n_tricks(variant: RuleSet, players: int) -> int:
    """Tricks per hand: the deck (less C2 with 3 players, docs/rules.md 1) over the players."""
    cards = variant.deck - (1 if players == 3 else 0)
    return cards // players


def contract_total(variant: "RuleSet | str", contract: str, players: int = 4) -> int:
    """The points a trick contract hands out in all (docs/rules.md 3-8).

    >>> contract_total("portuguese", "null")
    325
    """
    rs = resolve_variant(variant)
    deck = deck_mask(rs.deck)
    if players == 3:
        deck &= ~Card("C2").mask
    tables = compile_contract(rs.contract(contract), n_tricks(rs, players), None)
    return tables.points_of_mask(deck) + sum(tables.trick_points) + players * tables.seat_constant


def check_turkish_choices(choices: Sequence[tuple["Seat | str", str]], complete: bool = False,
                          variant: "RuleSet | str" = "turkish") -> None:
    """Check Turkish choices ``(chooser, contract)`` against the quotas (docs/rules.md 7).

    Each penalty contract at most twice, each seat at most three penalty contracts and
    two ``trumps``; with ``complete`` the match must have all 20 hands, which then meet
    every quota exactly. Raises ``ScoreSheetError`` naming the broken quota.
    """
    rs = resolve_variant(variant)
    per_contract, per_seat_penalty, per_seat_trumps = (
        rs.quotas[k] for k in ("each_penalty_contract", "penalty_per_seat", "trumps_per_seat"))
    played: dict[str, int] = {}
    penalty: dict[Seat, int] = {}
    trumps: dict[Seat, int] = {}
    for i, (who, name) in enumerate(choices):
        seat = Seat.parse(who)
        where = f"hand {i + 1}"
        rs.contract(name)
        if name == "trumps":
            trumps[seat] = trumps.get(seat, 0) + 1
            if trumps[seat] > per_seat_trumps:
                raise ScoreSheetError(f"invalid choice at {where}: {seat.name} chooses 'trumps' a "
                                      f"{_nth(trumps[seat])} time; each seat chooses it "
                                      f"{per_seat_trumps} times")
        else:
            played[name] = played.get(name, 0) + 1
            penalty[seat] = penalty.get(seat, 0) + 1
            if played[name] > per_contract:
                raise ScoreSheetError(f"invalid choice at {where}: {name!r} is played a "
                                      f"{_nth(played[name])} time; each penalty contract is "
                                      f"played exactly {per_contract} times")
            if penalty[seat] > per_seat_penalty:
                raise ScoreSheetError(f"invalid choice at {where}: {seat.name} chooses a "
                                      f"{_nth(penalty[seat])} penalty contract; each seat "
                                      f"chooses {per_seat_penalty}")
    if complete:
        expected = len(TURKISH_PENALTIES) * per_contract + 4 * per_seat_trumps
        if len(choices) != expected:
            raise ScoreSheetError(f"incomplete match: {len(choices)} hands, expected {expected}")


def _nth(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def _check_scores(scores: Mapping[Any, Any], seats: Sequence[Seat], where: str) -> dict[Seat, Number]:
    if not isinstance(scores, Mapping):
        raise ScoreSheetError(f"invalid scores for {where}: expected a mapping of seat to points, "
                              f"got {type(scores).__name__}")
    out: dict[Seat, Number] = {}
    for key, value in scores.items():
        seat = Seat.parse(key)
        if not (is_int(value) or isinstance(value, Fraction)):
            raise ScoreSheetError(f"invalid score {value!r} of {seat.name} for {where}: "
                                  f"expected an integer or a fraction")
        out[seat] = value
    if set(out) != set(seats):
        raise ScoreSheetError(f"invalid scores for {where}: expected the seats "
                              f"{' '.join(s.name for s in seats)}, got "
                              f"{' '.join(s.name for s in out) or 'none'}")
    return {s: out[s] for s in seats}


class ScoreSheet:
    """The score sheet of one match under a rule set (docs/rules.md 4-10).

    ``players`` (2, 3 or 4) and ``doubles`` apply to Italian King only. Add hands in
    schedule order with ``add``; read ``hands``, ``totals()`` and ``to_dict()``.
    """

    def __init__(self, variant: "RuleSet | str", doubles: bool = False, players: int = 4) -> None:
        self.variant = resolve_variant(variant)
        self.doubles = bool(doubles)
        if players not in self.variant.players:
            raise ScoreSheetError(f"invalid number of players {players!r} for variant "
                                  f"{self.variant.name!r}: expected "
                                  f"{' or '.join(map(str, self.variant.players))}")
        if self.doubles and (not self.variant.doubles or players != 4):
            raise ScoreSheetError(f"variant {self.variant.name!r} with {players} players has "
                                  f"no doubles")
        self.players = players
        self.seats = seats_for_players(players)
        self.schedule: list[ScheduledHand] = self._schedule()
        self.hands: list[SheetHand] = []

    def _schedule(self) -> list[ScheduledHand]:
        full = self.variant.match_schedule(self.doubles)
        if self.players == 4:
            return full
        # Italian with 3 or 2 players: the dealer rotates among the seats in play and
        # N leads hand 1 (module docstring).
        out = []
        dealer = self.seats[-1]
        for h in full:
            leader = self.variant.next_seat(dealer, self.seats)
            out.append(ScheduledHand(h.number, h.contract, dealer, leader))
            dealer = leader
        return out

    # --- reading -------------------------------------------------------------------------
    @property
    def complete(self) -> bool:
        """Whether every hand of the schedule is recorded."""
        return len(self.hands) == len(self.schedule)

    def next_hand(self) -> ScheduledHand | None:
        """The next hand of the schedule (contract, dealer, first leader), or None."""
        return None if self.complete else self.schedule[len(self.hands)]

    def totals(self) -> dict[Seat, Number]:
        """Running totals per seat after the hands recorded so far."""
        if not self.hands:
            return {s: 0 for s in self.seats}
        return dict(self.hands[-1].running)

    def side_totals(self) -> dict[str, Number]:
        """Doubles: running totals per side, N+S against E+W."""
        t = self.totals()
        return {"NS": t[Seat.N] + t[Seat.S], "EW": t[Seat.E] + t[Seat.W]}

    def expected_total(self) -> int:
        """What a full match hands out in all, from the contract data (docs/rules.md 4-8).

        Zero for every rule set as written with 4 players in singles; Italian doubles
        (a fifth `trumps` hand) and Italian with 3 or 2 players are not zero-sum.
        """
        total = 0
        for h in self.schedule:
            name = h.contract
            if name is None:        # Turkish: the quotas fix the contracts played
                continue
            if self.variant.contract(name).kind == "tricks":
                total += contract_total(self.variant, name, self.players)
        if self.variant.lacks("chooser") is None:
            quotas = self.variant.quotas
            total += quotas["each_penalty_contract"] * sum(
                contract_total(self.variant, n) for n in TURKISH_PENALTIES)
            total += 4 * quotas["trumps_per_seat"] * contract_total(self.variant, "trumps")
        return total

    # --- recording -----------------------------------------------------------------------
    def add(self, hand: Any = None, *, contract: str | None = None, trump: "Suit | str | None" = None,
            sale: Sale | None = None, festa: Festa | None = None) -> SheetHand:
        """Record the next hand of the schedule and return its line on the sheet.

        ``hand`` is a complete ``Position`` / ``DominoPosition``, or a mapping of seat to
        the points of the play (then ``contract`` names the contract where the schedule
        does not fix it); ``None`` only for a festa settled ``433``. ``sale`` settles an
        Italian `trumps` hand (docs/rules.md 10), ``festa`` a Portuguese festa (docs/rules.md 6).
        """
        sched = self.next_hand()
        if sched is None:
            raise ScoreSheetError(f"the match is complete: all {len(self.schedule)} hands are "
                                  f"recorded")
        where = f"hand {sched.number}"
        festa_hand = sched.contract == "festa" and self.variant.lacks("festa") is None
        contract = self._hand_contract(sched, hand, contract, festa, festa_hand, where)
        played, leader, trump_suit = self._played(sched, hand, contract, trump, festa,
                                                  festa_hand, where)
        scores = dict(played)
        if sale is not None:
            self._settle_sale(scores, sale, sched, contract, where)
        if festa is not None and festa_hand:
            self._settle_festa(scores, festa, sched)
        before = self.totals()
        running = {s: before[s] + scores[s] for s in self.seats}
        line = SheetHand(sched.number, contract, sched.dealer, leader, trump_suit, played,
                         scores, running, sale, festa, self.doubles)
        self.hands.append(line)
        return line

    def _hand_contract(self, sched: ScheduledHand, hand: Any, contract: str | None,
                       festa: Festa | None, festa_hand: bool, where: str) -> str | None:
        """The hand's contract: the schedule's, the position's, the festa's or the chooser's."""
        if _is_position(hand):
            name = hand.contract.name
            if contract is not None and contract != name:
                raise ScoreSheetError(f"invalid {where}: contract {contract!r} given, but the "
                                      f"position plays {name!r}")
            contract = name
        if festa_hand:
            if festa is None:
                raise ScoreSheetError(f"invalid {where}: a festa hand needs its outcome (festa=...)")
            contract = self._festa_contract(festa, contract, hand, where)
        elif festa is not None:
            raise ScoreSheetError(f"invalid {where}: only the Portuguese festa hands (7-10) have "
                                  f"a festa outcome")
        elif sched.contract is not None:
            if contract is None:
                contract = sched.contract
            elif contract != sched.contract:
                raise ScoreSheetError(f"invalid {where}: the schedule plays {sched.contract!r}, "
                                      f"got {contract!r}")
        elif contract is None:
            raise ScoreSheetError(f"invalid {where}: the chooser ({sched.leader.name}) picks the "
                                  f"contract; name it (contract=...)")
        if self.variant.lacks("chooser") is None:
            # a chooser's hands each name their chooser (the leader) and contract
            chosen = [(h.leader, h.contract) for h in self.hands] + [(sched.leader, contract)]
            check_turkish_choices([(s, c) for s, c in chosen if s is not None and c is not None],
                                  variant=self.variant)
        return contract

    def _played(self, sched: ScheduledHand, hand: Any, contract: str | None,
                trump: "Suit | str | None", festa: Festa | None, festa_hand: bool,
                where: str) -> tuple[dict[Seat, Number], Seat | None, Suit | None]:
        """(points of the play, leader, trump) from a finished position or bare scores."""
        kind = None if contract is None else self.variant.contract(contract).kind
        trump_suit = None if trump is None else Suit.parse(trump)
        leader: Seat | None = sched.leader
        if contract is None:            # 433: no play
            if hand is not None:
                raise ScoreSheetError(f"invalid {where}: a festa settled 433 has no play")
            return {s: 0 for s in self.seats}, leader, trump_suit
        if hand is None:
            raise ScoreSheetError(f"invalid {where}: expected a finished position or the "
                                  f"scores per seat")
        if _is_position(hand):
            return self._from_position(hand, sched, festa, where)
        played = _check_scores(hand, self.seats, where)
        if kind == "tricks":
            expected = contract_total(self.variant, contract, self.players)
            got = sum(played.values())
            if got != expected:
                raise ScoreSheetError(f"invalid scores for {where}: they add up to {got}, but "
                                      f"{contract!r} hands out {expected} in all")
        elif sum(played.values()) != 0:
            raise ScoreSheetError(f"invalid scores for {where}: a domino hand adds up to 0 "
                                  f"(docs/rules.md 9), got {sum(played.values())}")
        if festa_hand and festa is not None:
            leader = None           # not known from bare scores
        return played, leader, trump_suit

    def _from_position(self, pos: Any, sched: ScheduledHand, festa: Festa | None,
                       where: str) -> tuple[dict[Seat, Number], Seat, Suit | None]:
        if pos.variant != self.variant:
            other = " (other rules of that name)" if pos.variant.name == self.variant.name else ""
            raise ScoreSheetError(f"invalid {where}: the position is played under "
                                  f"{pos.variant.name!r}{other}, the match under {self.variant.name!r}")
        if not pos.complete:
            raise ScoreSheetError(f"invalid {where}: the hand is not finished "
                                  f"({len(pos.record)} cards played)")
        if tuple(pos.seats) != tuple(self.seats):
            raise ScoreSheetError(f"invalid {where}: the position seats "
                                  f"{' '.join(s.name for s in pos.seats)}, the match "
                                  f"{' '.join(s.name for s in self.seats)}")
        if getattr(pos, "doubles", False) != self.doubles and pos.contract.kind == "tricks":
            raise ScoreSheetError(f"invalid {where}: the position is "
                                  f"{'doubles' if pos.doubles else 'singles'}, the match is not")
        trump = getattr(pos, "trump", None)
        if pos.contract.kind == "tricks":
            allowed = self._leaders(sched, festa)
            if pos.leader not in allowed:
                raise ScoreSheetError(f"invalid {where}: {pos.leader.name} leads, but "
                                      f"{' or '.join(s.name for s in allowed)} leads this hand")
        return dict(pos.scores()), pos.leader, trump

    def _leaders(self, sched: ScheduledHand, festa: Festa | None) -> tuple[Seat, ...]:
        """Who may lead the first trick of a hand (docs/rules.md 4-8, 6 and 10)."""
        if festa is None:
            return (sched.leader,)
        host = sched.dealer
        assert host is not None
        if festa.outcome == "accepted":
            bidder, _ = festa.offer()
            return (bidder, self.variant.next_seat(bidder, self.seats))
        if festa.outcome == "refused":
            return (self.variant.next_seat(host, self.seats),)
        return (host, self.variant.next_seat(host, self.seats))

    def _festa_contract(self, festa: Festa, contract: str | None, hand: Any, where: str) -> str | None:
        if festa.outcome == "433":
            if contract is not None:
                raise ScoreSheetError(f"invalid {where}: a festa settled 433 is not played, got "
                                      f"contract {contract!r}")
            return None
        upcoming = self.next_hand()
        host = None if upcoming is None else upcoming.dealer
        if festa.outcome in ("accepted", "refused"):
            bidder, bid = festa.offer()
            if bidder == host:
                raise ScoreSheetError(f"invalid {where}: the host ({bidder.name}) does not "
                                      f"bid on its own festa")
            needed = "festa" if festa.outcome == "accepted" and bid.kind == "plus" else "null"
        else:
            if contract not in ("festa", "null"):
                raise ScoreSheetError(f"invalid {where}: the host plays 'festa' or 'null', got "
                                      f"{contract!r}")
            return contract
        if contract is None:
            return needed
        if contract != needed:
            what = ("'8 or null' refused: the host plays" if festa.outcome == "refused" else
                    f"an accepted {festa.offer()[1].kind} bid is played as")
            raise ScoreSheetError(f"invalid {where}: {what} {needed!r}, got {contract!r}")
        return contract

    def _settle_sale(self, scores: dict[Seat, Number], sale: Sale, sched: ScheduledHand,
                     contract: str | None, where: str) -> None:
        # docs/rules.md 10: buyer tricks - k, dealer tricks + k.
        no_sale = self.variant.lacks("sale")
        if no_sale is not None:
            raise ScoreSheetError(f"invalid {where}: {no_sale}")
        if contract != "trumps":
            raise ScoreSheetError(f"invalid {where}: only a 'trumps' hand may be sold, "
                                  f"this is {self.variant.name!r} {contract!r}")
        dealer = sched.dealer
        assert dealer is not None
        if sale.buyer == dealer:
            raise ScoreSheetError(f"invalid sale at {where}: the dealer ({dealer.name}) cannot "
                                  f"buy its own declaration")
        if sale.buyer not in self.seats:
            raise ScoreSheetError(f"invalid sale at {where}: {sale.buyer.name} is not in play")
        if sale.price > n_tricks(self.variant, self.players):
            raise ScoreSheetError(f"invalid sale price {sale.price} at {where}: the hand has "
                                  f"{n_tricks(self.variant, self.players)} tricks")
        scores[sale.buyer] -= sale.price
        scores[dealer] += sale.price

    def _settle_festa(self, scores: dict[Seat, Number], festa: Festa, sched: ScheduledHand) -> None:
        host = sched.dealer
        assert host is not None
        if festa.outcome == "accepted":
            # docs/rules.md 6 (1): the bidder pays the bid's points to the host.
            bidder, bid = festa.offer()
            scores[bidder] -= bid.points
            scores[host] += bid.points
        elif festa.outcome == "433":
            # docs/rules.md 6 (3): the host scores 4 tricks (100), each other seat 3 (75).
            for s in self.seats:
                scores[s] += 100 if s == host else 75
        # refused (2) and host (3): nobody pays.

    # --- output --------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The sheet as JSON: the hands with their scores and running totals."""
        upcoming = self.next_hand()
        out: dict[str, Any] = {
            "variant": self.variant.name, "players": self.players, "doubles": self.doubles,
            "seats": [s.name for s in self.seats],
            "hands": [h.to_dict() for h in self.hands],
            "totals": {s.name: json_number(v) for s, v in self.totals().items()},
            "complete": self.complete,
            "next": None if upcoming is None else upcoming.to_dict(),
        }
        if self.doubles:
            out["side_totals"] = {k: json_number(v) for k, v in self.side_totals().items()}
        return out

    def __repr__(self) -> str:
        return (f"<ScoreSheet {self.variant.name} players={self.players} doubles={self.doubles} "
                f"hands={len(self.hands)}/{len(self.schedule)}>")


def _is_position(hand: Any) -> bool:
    """Whether ``hand`` is a played position rather than a mapping of scores."""
    return hasattr(hand, "complete") and hasattr(hand, "scores")


def _record_festa(record: Any) -> Festa | None:
    """The festa outcome of a record's tags ``Bid`` and ``Festa`` (docs/rules.md 6)."""
    if record.bid is None and record.festa is None:
        return None
    if record.bid is None:
        return Festa(record.festa)
    bidder, tricks, kind = record.bid
    return Festa(record.festa or "accepted", bidder, Bid(kind, tricks))


def sheet_of_records(records: Sequence[Any], variant: "RuleSet | str", doubles: bool = False,
                     players: int = 4) -> ScoreSheet:
    """The score sheet of a match's records (``kingsolve.game.record.Record``), each hand
    played to its end (a festa settled ``433`` has no play), in schedule order.

    Raises ``ScoreSheetError`` naming the hand that does not fit the match.
    """
    sheet = ScoreSheet(variant, doubles=doubles, players=players)
    for i, record in enumerate(records):
        if record.rules != sheet.variant:
            raise ScoreSheetError(f"invalid hand {i + 1}: the record is played under "
                                  f"{record.variant!r}, the match under {sheet.variant.name!r}")
        sale = None if record.sale is None else Sale(*record.sale)
        festa = _record_festa(record)
        if festa is not None and festa.outcome == "433":
            sheet.add(None, festa=festa)
        else:
            sheet.add(record.position(), sale=sale, festa=festa)
    return sheet


def next_choices(sheet: ScoreSheet) -> list[str]:
    """The contracts the next hand's chooser may still pick under the quotas
    (docs/rules.md 7); empty where the schedule fixes the contract or the match is over."""
    upcoming = sheet.next_hand()
    if upcoming is None or upcoming.contract is not None or sheet.variant.lacks("chooser"):
        return []
    chosen = [(h.leader, h.contract) for h in sheet.hands
              if h.leader is not None and h.contract is not None]
    out = []
    for name in [*TURKISH_PENALTIES, "trumps"]:
        try:
            check_turkish_choices(chosen + [(upcoming.leader, name)], variant=sheet.variant)
        except ScoreSheetError:
            continue
        out.append(name)
    return out
