"""The five rule sets as data: contracts, their scoring and their play rules.

docs/rules.md sections 3-10. Each contract is a ``Contract`` value; ``compile_contract``
turns one into the flat ``ContractTables`` that the play engine and the compiled
core read (card points by bit, trick points by position, bit masks).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Callable, Iterable, Mapping, cast

from .cards import Card, Rank, Seat, Suit, deck_mask, format_cards
from ..errors import InvalidRequestError, UnknownContractError, UnknownVariantError, excerpt

__all__ = [
    "LeadMode",
    "TrumpObligation",
    "Contract",
    "RuleSet",
    "ContractTables",
    "VARIANTS",
    "get_variant",
    "compile_contract",
    "mask_where",
    "TURKISH_PENALTIES",
    "TURKISH_QUOTAS",
    "PROCEDURES",
]

#: The penalty contracts a Turkish chooser picks from (docs/rules.md 7).
TURKISH_PENALTIES = ("no-tricks", "no-hearts", "no-kings-jacks", "no-queens",
                     "no-king-of-hearts", "no-last-two")
#: The Turkish quotas where a rule set's ``quotas`` leave one out (docs/rules.md 7).
TURKISH_QUOTAS = {"each_penalty_contract": 2, "penalty_per_seat": 3, "trumps_per_seat": 2}
#: The match procedures a rule set's data imply (``RuleSet.lacks``), with their sections.
PROCEDURES = {"sale": "sale (docs/rules.md 10)", "festa": "festa (docs/rules.md 6)",
              "chooser": "Turkish chooser (docs/rules.md 7)"}

# Lead restriction modes (docs/rules.md section 2, step 1).
LEAD_NONE, LEAD_UNTIL_BROKEN, LEAD_WHILE_OTHER_SUITS = 0, 1, 2
LeadMode = {"until-broken": LEAD_UNTIL_BROKEN, "while-other-suits": LEAD_WHILE_OTHER_SUITS}

# Trump obligations (docs/rules.md section 2, step 3).
TRUMP_FREE, TRUMP_RUFF_OVERRUFF, TRUMP_RUFF_OVERRUFF_STRICT = 0, 1, 2
TrumpObligation = {"free": TRUMP_FREE, "ruff-overruff": TRUMP_RUFF_OVERRUFF,
                   "ruff-overruff-strict": TRUMP_RUFF_OVERRUFF_STRICT}

# How a contract's trump is given.
TRUMP_NONE = "none"            # never a trump
TRUMP_NAMED = "named"          # the caller names a suit (trumps, festa)
TRUMP_NAMED_OR_NONE = "named-or-none"  # a suit or no trump (Wikipedia trumps)


def mask_where(pred: Callable[[Card], object], deck: int = 52) -> int:
    """The mask of the cards of a deck for which ``pred(card)`` holds."""
    out = 0
    full = deck_mask(deck)
    for suit in Suit:
        for rank in Rank:
            c = Card(suit, rank)
            if full & c.mask and pred(c):
                out |= c.mask
    return out


HK = Card("HK")
D8 = Card("D8")
HEARTS = mask_where(lambda c: c.suit == Suit.H)
KINGS_JACKS = mask_where(lambda c: c.rank in (Rank.KING, Rank.JACK))
QUEENS = mask_where(lambda c: c.rank == Rank.QUEEN)


@dataclass(frozen=True)
class Contract:
    """One contract of a rule set, as data (docs/rules.md sections 3-9).

    ``card_points`` maps card masks to the points of each card in it; ``each_trick``
    and ``last_two`` give trick points by position (every trick scores ``each_trick``,
    the last ``last_count`` tricks, n-1 and n by default, score ``last_two`` more);
    ``seat_constant`` is added to every seat's score once the hand is complete.
    ``early_end`` stops the hand once no points remain (docs/rules.md 2.4); without
    it every trick is played. ``broken_by`` says what breaks a suit for the lead
    restrictions (2.1): any card of it played (``play``), or only one discarded on a
    trick led in another suit (``discard``, docs/rules.md 13).
    """

    name: str
    kind: str = "tricks"                       # "tricks" or "domino"
    card_points: tuple[tuple[int, int], ...] = ()  # (mask, points per card) pairs
    each_trick: int = 0
    last_two: int = 0
    seat_constant: int = 0
    trump: str = TRUMP_NONE
    lead_suit: Suit | None = None
    lead_mode: int = LEAD_NONE
    trump_lead_restricted: bool = False
    overtake: bool = False
    overtrump_on_trump_lead: bool = False
    protected: int = 0                         # first-trick protection mask
    forced: int = 0                            # forced discard mask
    trump_obligation: int = TRUMP_FREE
    options: tuple[str, ...] = ()              # option names this contract takes
    domino_opening: str | None = None          # "any-seven" / "seven-of-diamonds"
    domino_ending: str | None = None           # "single" / "shared"
    description: str = ""
    last_count: int = 2                        # tricks at the end that score last_two more
    early_end: bool = True
    broken_by: str = "play"                    # "play" / "discard": what breaks a suit

    def with_options(self, options: Iterable[str]) -> "Contract":
        """The contract with options applied (``forced-king``: forced set {HK})."""
        out = self
        for opt in options:
            if opt not in self.options:
                allowed = ", ".join(self.options) or "none"
                raise UnknownContractError(f"unknown option {excerpt(opt)} for contract {self.name!r}: "
                                           f"expected one of: {allowed}")
            if opt == "forced-king":
                out = replace(out, forced=out.forced | HK.mask)
        return out

    @property
    def takes_trump(self) -> bool:
        """Whether the caller names a trump suit for this contract."""
        return self.trump != TRUMP_NONE

    @property
    def penalty(self) -> bool:
        """Whether it is a trick contract without trumps whose points are all
        penalties (no positive trick or card points, no constant, no last-two bonus):
        the singles contracts where a seat's value is what it keeps from losing."""
        return self.kind == "tricks" and not self.takes_trump and self.each_trick <= 0 \
            and not any(p > 0 for _, p in self.card_points) and not self.seat_constant \
            and self.last_two <= 0

    @property
    def trump_options(self) -> "list[Suit | None]":
        """The trumps a caller may name: each suit, then ``None`` (no trump) where allowed;
        none for a contract without trumps."""
        if not self.takes_trump:
            return []
        return [*Suit, None] if self.trump == TRUMP_NAMED_OR_NONE else list(Suit)

    def points_of_card(self, card: Card) -> int:
        """The points a card carries in this contract."""
        return sum(p for m, p in self.card_points if m & card.mask)

    def trick_points(self, tricks: int) -> tuple[int, ...]:
        """The points of each trick position 1..n for an ``n``-trick hand."""
        pts = [self.each_trick] * tricks
        for i in range(max(0, tricks - self.last_count), tricks):
            pts[i] += self.last_two
        return tuple(pts)

    def to_dict(self) -> dict:
        """The contract as a rule document's entry (``kingsolve.game.rule_documents``), which
        ``rule_documents.rules_from_dict`` reads back to an equal contract."""
        out: dict = {"name": self.name, "kind": self.kind, "description": self.description}
        if self.kind == "tricks":
            out.update({
                "card_points": [{"cards": format_cards(m), "points": p} for m, p in self.card_points],
                "each_trick": self.each_trick, "last_two": self.last_two,
                "last_count": self.last_count, "seat_constant": self.seat_constant,
                "trump": self.trump,
                "lead": "any" if self.lead_suit is None else
                {"suit": self.lead_suit.letter, "mode": _LEAD_MODE_NAMES[self.lead_mode]},
                "trump_lead_restricted": self.trump_lead_restricted,
                "overtake": self.overtake,
                "overtrump_on_trump_lead": self.overtrump_on_trump_lead,
                "first_trick_protection": format_cards(self.protected),
                "forced": format_cards(self.forced),
                "trump_obligation": _OBLIGATION_NAMES[self.trump_obligation]
                if self.takes_trump else None,
                "early_end": self.early_end, "broken_by": self.broken_by,
            })
        else:
            out.update({"opening": self.domino_opening, "ending": self.domino_ending})
        out["options"] = list(self.options)
        return out


_LEAD_MODE_NAMES = {v: k for k, v in LeadMode.items()}
_OBLIGATION_NAMES = {v: k for k, v in TrumpObligation.items()}


@dataclass(frozen=True)
class ContractTables:
    """A contract compiled for one hand: flat tables the engines read.

    Every mask uses the card bit layout ``16 * suit + rank``.
    """

    card_points: tuple[int, ...]     # 64 entries, points per card bit
    trick_points: tuple[int, ...]    # one entry per trick position
    seat_constant: int
    trump: int                       # -1 for no trump, else the suit index
    lead_suit: int                   # -1 for no lead restriction
    lead_mode: int
    trump_lead_restricted: bool
    overtake: bool
    overtrump_on_trump_lead: bool
    protected: int
    forced: int
    trump_obligation: int
    scored_cards: int                # mask of cards with nonzero points
    early_end: bool = True           # the hand stops once no points remain
    broken_by_discard: bool = False  # a suit is broken only by a card of it discarded

    def points_of_mask(self, mask: int) -> int:
        """The card points of a set of cards."""
        total = 0
        while mask:
            low = mask & -mask
            total += self.card_points[low.bit_length() - 1]
            mask ^= low
        return total


def compile_contract(contract: Contract, tricks: int, trump: Suit | None) -> ContractTables:
    """Compile a trick contract for an ``n``-trick hand with the given trump."""
    if contract.kind != "tricks":
        raise UnknownContractError(f"contract {contract.name!r} is not a trick contract")
    points = [0] * 64
    for mask, p in contract.card_points:
        for bit in range(64):
            if mask >> bit & 1:
                points[bit] += p
    scored = 0
    for bit, p in enumerate(points):
        if p:
            scored |= 1 << bit
    return ContractTables(
        card_points=tuple(points),
        trick_points=contract.trick_points(tricks),
        seat_constant=contract.seat_constant,
        trump=-1 if trump is None else int(trump),
        lead_suit=-1 if contract.lead_suit is None else int(contract.lead_suit),
        lead_mode=contract.lead_mode,
        trump_lead_restricted=contract.trump_lead_restricted,
        overtake=contract.overtake,
        overtrump_on_trump_lead=contract.overtrump_on_trump_lead,
        protected=contract.protected,
        forced=contract.forced,
        trump_obligation=contract.trump_obligation,
        scored_cards=scored,
        early_end=contract.early_end,
        broken_by_discard=contract.broken_by == "discard",
    )


@dataclass(frozen=True)
class ScheduledHand:
    """One hand of a match schedule: contract, dealer and first leader (or chooser)."""

    number: int
    contract: str | None       # None where the chooser picks (Turkish)
    dealer: Seat | None
    leader: Seat

    def to_dict(self) -> dict:
        return {"number": self.number, "contract": self.contract,
                "dealer": None if self.dealer is None else self.dealer.name,
                "leader": self.leader.name}


@dataclass(frozen=True)
class RuleSet:
    """A national rule set: its contracts, play direction, deck and match schedule."""

    name: str
    contracts: Mapping[str, Contract]
    direction: int = 1                 # +1 clockwise, -1 counterclockwise
    deck: int = 52
    players: tuple[int, ...] = (4,)
    doubles: bool = False
    schedule: tuple[str, ...] = ()     # contract names, hand by hand (singles)
    doubles_schedule: tuple[str, ...] = ()
    first_dealer: Seat | None = Seat.W
    description: str = ""
    extra: Mapping[str, object] = field(default_factory=dict)

    def contract(self, name: str, options: Iterable[str] = ()) -> Contract:
        """The named contract with options applied; ``UnknownContractError`` if absent."""
        c = self.contracts.get(name)
        if c is None:
            raise UnknownContractError(f"unknown contract {excerpt(name)} for variant {self.name!r}: "
                                       f"expected one of: {', '.join(self.contracts)}")
        return c.with_options(options) if options else c

    def lacks(self, procedure: str) -> str | None:
        """Why the rule set has no match ``procedure`` of ``PROCEDURES``, in one line, or
        None when it has it. The procedures go by the data, not the name, so that house
        rules keep their base's while they keep what it needs:

        - ``sale``: a dealer (``first_dealer``) declares the trump of ``trumps``;
        - ``festa``: a ``festa`` contract with a named trump and a ``null`` without, 4 players;
        - ``chooser``: the Turkish ``quotas``, the six penalty contracts and ``trumps``.

        >>> print(get_variant("portuguese").lacks("sale"))
        variant 'portuguese' has no sale (docs/rules.md 10): it has no contract 'trumps'
        """
        if procedure not in PROCEDURES:
            raise KeyError(procedure)
        trumps = {"sale": "trumps", "festa": "festa", "chooser": "trumps"}[procedure]
        needed = {"sale": [trumps], "festa": [trumps, "null"],
                  "chooser": [*TURKISH_PENALTIES, trumps]}[procedure]
        missing = [name for name in needed if name not in self.contracts]
        if missing:
            why = f"it has no contract {missing[0]!r}"
        elif self.contracts[trumps].trump == TRUMP_NONE:
            why = f"its contract {trumps!r} takes no trump"
        elif procedure == "sale" and self.first_dealer is None:
            why = "it has no dealer to declare the trump (first_dealer is null)"
        elif procedure == "festa" and (self.contracts["null"].trump != TRUMP_NONE or 4 not in self.players):
            why = "its 'null' takes a trump" if 4 in self.players else "it is not played by 4"
        elif procedure == "chooser" and "quotas" not in self.extra:
            why = "it has no quotas"
        else:
            return None
        return f"variant {self.name!r} has no {PROCEDURES[procedure]}: {why}"

    def require(self, procedure: str) -> "RuleSet":
        """The rule set when it has the match ``procedure`` (``lacks``), else
        ``InvalidRequestError`` saying why not."""
        missing = self.lacks(procedure)
        if missing is not None:
            raise InvalidRequestError(missing)
        return self

    @property
    def quotas(self) -> dict[str, int]:
        """The Turkish chooser's quotas (docs/rules.md 7): the rule set's, defaults filled in."""
        # a document's quotas were checked as integers when it was read (rule_documents)
        return {**TURKISH_QUOTAS, **cast("Mapping[str, int]", self.extra.get("quotas", {}))}

    def next_seat(self, seat: Seat, seats: Iterable[Seat] = tuple(Seat)) -> Seat:
        """The next seat in play direction among ``seats``."""
        in_play = set(seats)
        s = seat
        for _ in range(4):
            s = s.next(self.direction)
            if s in in_play:
                return s
        return seat

    def match_schedule(self, doubles: bool = False) -> list[ScheduledHand]:
        """The hands of a match with dealer and first leader of each (docs/rules.md 4-8)."""
        out = []
        if self.lacks("chooser") is None:
            hands = (len(TURKISH_PENALTIES) * self.quotas["each_penalty_contract"]
                     + 4 * self.quotas["trumps_per_seat"])
            chooser = Seat.N
            for i in range(hands):
                out.append(ScheduledHand(i + 1, None, None, chooser))
                chooser = chooser.next(self.direction)
            return out
        if self.first_dealer is None:          # no dealer: the first lead goes round (Russian)
            leader = Seat.N
            for i, name in enumerate(self.schedule):
                out.append(ScheduledHand(i + 1, name, None, leader))
                leader = leader.next(self.direction)
            return out
        names = self.doubles_schedule if doubles else self.schedule
        dealer = self.first_dealer or Seat.W
        for i, name in enumerate(names):
            out.append(ScheduledHand(i + 1, name, dealer, dealer.next(self.direction)))
            dealer = dealer.next(self.direction)
        return out

    @cached_property
    def document(self) -> dict:
        """The rule set as a rule document (``to_dict``), made once: a rule set never
        changes. Read it, do not change it."""
        return self.to_dict()

    def to_dict(self) -> dict:
        """The rule set as a rule document (``kingsolve.game.rule_documents``, docs/rules.md
        section 13): ``rule_documents.rules_from_dict`` reads it back to an equal rule set."""
        return {
            "name": self.name, "description": self.description,
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "deck": self.deck, "players": list(self.players), "doubles": self.doubles,
            "first_dealer": None if self.first_dealer is None else self.first_dealer.name,
            "schedule": list(self.schedule), "doubles_schedule": list(self.doubles_schedule),
            "contracts": {n: c.to_dict() for n, c in self.contracts.items()},
            **{k: v for k, v in self.extra.items()},
        }


def _contracts(*items: Contract) -> dict[str, Contract]:
    return {c.name: c for c in items}


_ITALIAN = _contracts(
    Contract("no-kings-jacks", card_points=((KINGS_JACKS, -2),), description="each K and J -2"),
    Contract("no-queens", card_points=((QUEENS, -3),), description="each Q -3"),
    Contract("no-king-of-hearts", card_points=((HK.mask, -8),), lead_suit=Suit.H,
             lead_mode=LEAD_UNTIL_BROKEN, options=("forced-king",),
             description="HK -8; hearts may not be led until broken"),
    Contract("no-eight-of-diamonds", card_points=((D8.mask, -8),), lead_suit=Suit.D,
             lead_mode=LEAD_UNTIL_BROKEN,
             description="D8 -8; diamonds may not be led until broken"),
    Contract("no-hearts", card_points=((HEARTS, -1),), lead_suit=Suit.H, lead_mode=LEAD_UNTIL_BROKEN,
             description="each heart -1; hearts may not be led until broken"),
    Contract("no-tricks", each_trick=-1, description="each trick -1"),
    Contract("no-last-two", last_two=-4, description="the last two tricks -4 each"),
    Contract("domino", kind="domino", domino_opening="any-seven", domino_ending="single",
             description="domino: any seven opens; the first seat out wins alone"),
    Contract("trumps", each_trick=1, trump=TRUMP_NAMED, trump_obligation=TRUMP_FREE,
             description="each trick +1; the dealer names the trump"),
    Contract("no-trumps", each_trick=2, description="each trick +2; no trump"),
)

_ITALIAN_WIKI = _contracts(
    Contract("no-kings-jacks", card_points=((KINGS_JACKS, -2),), description="each K and J -2"),
    Contract("no-queens", card_points=((QUEENS, -3),), description="each Q -3"),
    Contract("no-king-of-hearts", card_points=((HK.mask, -8),), lead_suit=Suit.H,
             lead_mode=LEAD_UNTIL_BROKEN, protected=HK.mask,
             description="HK -8; hearts not led until broken; HK not discarded on trick 1"),
    Contract("no-eight-of-diamonds", card_points=((D8.mask, -8),), lead_suit=Suit.D,
             lead_mode=LEAD_UNTIL_BROKEN, protected=D8.mask,
             description="D8 -8; diamonds not led until broken; D8 not discarded on trick 1"),
    Contract("no-hearts", card_points=((HEARTS, -1),), lead_suit=Suit.H, lead_mode=LEAD_UNTIL_BROKEN,
             protected=HEARTS,
             description="each heart -1; hearts not led until broken nor discarded on trick 1"),
    Contract("no-last-two", last_two=-4, description="the last two tricks -4 each"),
    Contract("no-tricks", each_trick=-1, description="each trick -1"),
    Contract("domino", kind="domino", domino_opening="seven-of-diamonds", domino_ending="shared",
             description="domino: D7 opens; the round is completed and winners share"),
    Contract("trumps", each_trick=1, trump=TRUMP_NAMED_OR_NONE, trump_obligation=TRUMP_FREE,
             description="each trick +1; the dealer names a trump or no trump"),
    Contract("no-trumps", each_trick=2, description="each trick +2; no trump"),
)

_PORTUGUESE = _contracts(
    Contract("no-tricks", each_trick=-20, description="each trick -20"),
    Contract("no-hearts", card_points=((HEARTS, -20),), lead_suit=Suit.H,
             lead_mode=LEAD_WHILE_OTHER_SUITS, protected=HEARTS,
             description="each heart -20; hearts led only when nothing else; none discarded on trick 1"),
    Contract("no-queens", card_points=((QUEENS, -50),), description="each Q -50"),
    Contract("no-men", card_points=((KINGS_JACKS, -30),), description="each K and J -30"),
    Contract("no-king-of-hearts", card_points=((HK.mask, -160),), lead_suit=Suit.H,
             lead_mode=LEAD_WHILE_OTHER_SUITS, forced=HK.mask, protected=HK.mask,
             description="HK -160; hearts led only when nothing else; HK forced when void, "
                         "but not on trick 1"),
    Contract("no-last-two", last_two=-90, description="the last two tricks -90 each"),
    Contract("festa", each_trick=25, trump=TRUMP_NAMED, trump_obligation=TRUMP_RUFF_OVERRUFF,
             overtrump_on_trump_lead=True,
             description="each trick +25; ruff and overruff; overtrump on a trump lead"),
    Contract("null", each_trick=-75, seat_constant=325,
             description="the festa without trump: each seat 325 - 75 per trick"),
)

_TURKISH = _contracts(
    Contract("no-tricks", each_trick=-50, description="each trick -50"),
    Contract("no-hearts", card_points=((HEARTS, -30),), lead_suit=Suit.H, lead_mode=LEAD_UNTIL_BROKEN,
             forced=HEARTS, description="each heart -30; hearts not led until broken; "
                                        "a heart must be discarded when void"),
    Contract("no-kings-jacks", card_points=((KINGS_JACKS, -60),), forced=KINGS_JACKS,
             description="each K and J -60; K or J must be discarded when void"),
    Contract("no-queens", card_points=((QUEENS, -100),), forced=QUEENS,
             description="each Q -100; a Q must be discarded when void"),
    Contract("no-king-of-hearts", card_points=((HK.mask, -320),), lead_suit=Suit.H,
             lead_mode=LEAD_UNTIL_BROKEN, forced=HK.mask,
             description="HK -320; hearts not led until broken; HK must be discarded when void"),
    Contract("no-last-two", last_two=-180, description="the last two tricks -180 each"),
    Contract("trumps", each_trick=50, trump=TRUMP_NAMED, overtake=True,
             trump_obligation=TRUMP_RUFF_OVERRUFF_STRICT, trump_lead_restricted=True,
             description="each trick +50; overtake; ruff and overruff (strict); "
                         "trumps not led until played"),
)

_R_BOYS = mask_where(lambda c: c.rank in (Rank.KING, Rank.JACK), 32)
_R_HEARTS = mask_where(lambda c: c.suit == Suit.H, 32)
_R_QUEENS = mask_where(lambda c: c.rank == Rank.QUEEN, 32)


def _russian() -> dict[str, Contract]:
    base = [
        Contract("no-tricks", each_trick=-2, description="each trick -2"),
        Contract("no-hearts", card_points=((_R_HEARTS, -2),), lead_suit=Suit.H,
                 lead_mode=LEAD_WHILE_OTHER_SUITS,
                 description="each heart -2; hearts led only when nothing else"),
        Contract("no-boys", card_points=((_R_BOYS, -2),), description="each J and K -2"),
        Contract("no-queens", card_points=((_R_QUEENS, -4),), description="each Q -4"),
        Contract("no-king", card_points=((HK.mask, -16),), lead_suit=Suit.H,
                 lead_mode=LEAD_WHILE_OTHER_SUITS, forced=HK.mask,
                 description="HK -16; hearts led only when nothing else; HK forced when void"),
        Contract("no-last-two", last_two=-8, description="tricks 7 and 8 -8 each"),
        Contract("nothing", each_trick=-2, last_two=-8,
                 card_points=((_R_HEARTS, -2), (_R_BOYS, -2), (_R_QUEENS, -4), (HK.mask, -16)),
                 lead_suit=Suit.H, lead_mode=LEAD_WHILE_OTHER_SUITS, forced=HK.mask,
                 description="all six penalties at once"),
    ]
    positive = {"no-tricks": "take-tricks", "no-hearts": "take-hearts", "no-boys": "take-boys",
                "no-queens": "take-queens", "no-king": "take-king",
                "no-last-two": "take-last-two", "nothing": "everything"}
    out = list(base)
    for c in base:
        out.append(replace(c, name=positive[c.name], each_trick=-c.each_trick,
                           last_two=-c.last_two,
                           card_points=tuple((m, -p) for m, p in c.card_points),
                           description=f"{c.name} with the sign reversed"))
    return _contracts(*out)


VARIANTS: dict[str, RuleSet] = {
    "italian": RuleSet(
        "italian", _ITALIAN, players=(2, 3, 4), doubles=True,
        schedule=("no-kings-jacks", "no-queens", "no-king-of-hearts", "no-eight-of-diamonds",
                  "no-hearts", "no-tricks", "no-last-two", "domino",
                  "trumps", "trumps", "trumps", "trumps", "no-trumps"),
        doubles_schedule=("no-kings-jacks", "no-queens", "no-king-of-hearts",
                          "no-eight-of-diamonds", "no-hearts", "no-tricks", "no-last-two",
                          "domino", "trumps", "trumps", "trumps", "trumps", "trumps", "no-trumps"),
        description="Italian King (booklet): 13 hands, or 14 in doubles"),
    "italian-wikipedia": RuleSet(
        "italian-wikipedia", _ITALIAN_WIKI,
        schedule=("no-kings-jacks", "no-queens", "no-king-of-hearts", "no-eight-of-diamonds",
                  "no-hearts", "no-last-two", "no-tricks", "domino",
                  "trumps", "trumps", "trumps", "trumps", "no-trumps"),
        description="Italian King as Wikipedia gives it: 13 hands"),
    "portuguese": RuleSet(
        "portuguese", _PORTUGUESE,
        schedule=("no-tricks", "no-hearts", "no-queens", "no-men", "no-king-of-hearts",
                  "no-last-two", "festa", "festa", "festa", "festa"),
        description="Portuguese King with festas: 10 hands",
        extra={"festa_hands": [7, 8, 9, 10]}),
    "turkish": RuleSet(
        "turkish", _TURKISH, direction=-1, first_dealer=None,
        description="Turkish King: 20 hands, the chooser picks, counterclockwise",
        extra={"quotas": {"each_penalty_contract": 2, "penalty_per_seat": 3, "trumps_per_seat": 2}}),
    "russian": RuleSet(
        "russian", _russian(), deck=32, first_dealer=None,
        schedule=("no-tricks", "no-hearts", "no-boys", "no-queens", "no-king", "no-last-two",
                  "nothing", "take-tricks", "take-hearts", "take-boys", "take-queens",
                  "take-king", "take-last-two", "everything"),
        description="Russian King: 32 cards, 14 hands"),
}


def get_variant(name: str) -> RuleSet:
    """The rule set of that name; ``UnknownVariantError`` naming the choices if absent."""
    v = VARIANTS.get(name) if isinstance(name, str) else None
    if v is None:
        raise UnknownVariantError(f"unknown variant {excerpt(name)}: expected one of: {', '.join(VARIANTS)}")
    return v
