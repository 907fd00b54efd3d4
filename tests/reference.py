"""A deliberately simple plain-Python reference of docs/rules.md sections 2 and 3.

Written from docs/rules.md alone, not from ``kingsolve.game.position`` (which it must never
import): the contracts are typed in again below from the tables of docs/rules.md 4-8,
cards are ``(suit letter, rank)`` tuples (rank 2..14, ace 14), hands are sets.
Speed does not matter here; each rule is a few plain lines that can be read
against the docs/rules.md sentence it cites.

>>> h = RefHand("italian", "no-queens", {"N": ["SA", "SQ"], "S": ["SK", "H3"]}, "N")
>>> h.legal()
[('S', 14), ('S', 12)]
"""

from __future__ import annotations

SUITS = "SHDC"                 # docs/rules.md 1: the order of suits in a hand's text
RANK_LETTERS = "23456789TJQKA"  # rank value = index + 2
CLOCKWISE = "NESW"             # docs/rules.md 1
COUNTERCLOCKWISE = "NWSE"      # docs/rules.md 1: Turkish


def card(text):
    """A card tuple from canonical text (``"SQ"``) or a tuple (returned as is)."""
    if isinstance(text, tuple):
        return text
    text = str(text)
    return (text[0], RANK_LETTERS.index(text[1]) + 2)


def text(c):
    """The canonical text of a card tuple: ``("S", 12)`` -> ``"SQ"``."""
    return c[0] + RANK_LETTERS[c[1] - 2]


def hand_order_key(c):
    """Sort key of docs/rules.md 1: spades first, each suit from the ace down."""
    return (SUITS.index(c[0]), -c[1])


# --- the contracts, from the tables of docs/rules.md 4-8 -------------------------------------
# Card predicates, by name.
def is_heart(c):
    return c[0] == "H"


def is_king_or_jack(c):
    return c[1] in (13, 11)


def is_queen(c):
    return c[1] == 12


def is_hk(c):
    return c == ("H", 13)


def is_d8(c):
    return c == ("D", 8)


def nothing(c):
    return False


def spec(card_points=(), each_trick=0, last_two=0, constant=0, trump="none", lead=None,
         trump_lead_restricted=False, overtake=False, overtrump_on_trump_lead=False,
         protected=nothing, forced=nothing, obligation="free", broken_by="play"):
    """One contract row: card_points is a list of (predicate, points per card)."""
    return dict(card_points=list(card_points), each_trick=each_trick, last_two=last_two,
                constant=constant, trump=trump, lead=lead,
                trump_lead_restricted=trump_lead_restricted, overtake=overtake,
                overtrump_on_trump_lead=overtrump_on_trump_lead, protected=protected,
                forced=forced, obligation=obligation, broken_by=broken_by)


def _italian(wikipedia):
    # docs/rules.md 4 (booklet) and 5 (Wikipedia): the same scores; Wikipedia adds
    # first-trick protection and lets the dealer name no trump.
    return {
        "no-kings-jacks": spec([(is_king_or_jack, -2)]),
        "no-queens": spec([(is_queen, -3)]),
        "no-king-of-hearts": spec([(is_hk, -8)], lead=("H", "until-broken"),
                                  protected=is_hk if wikipedia else nothing),
        "no-eight-of-diamonds": spec([(is_d8, -8)], lead=("D", "until-broken"),
                                     protected=is_d8 if wikipedia else nothing),
        "no-hearts": spec([(is_heart, -1)], lead=("H", "until-broken"),
                          protected=is_heart if wikipedia else nothing),
        "no-tricks": spec(each_trick=-1),
        "no-last-two": spec(last_two=-4),
        "trumps": spec(each_trick=1, trump="named-or-none" if wikipedia else "named"),
        "no-trumps": spec(each_trick=2),
    }


def _russian():
    # docs/rules.md 8: 32 cards; the positive contracts are the penalties sign-reversed.
    base = {
        "no-tricks": spec(each_trick=-2),
        "no-hearts": spec([(is_heart, -2)], lead=("H", "while-other-suits")),
        "no-boys": spec([(is_king_or_jack, -2)]),
        "no-queens": spec([(is_queen, -4)]),
        "no-king": spec([(is_hk, -16)], lead=("H", "while-other-suits"), forced=is_hk),
        "no-last-two": spec(last_two=-8),
        "nothing": spec([(is_heart, -2), (is_king_or_jack, -2), (is_queen, -4), (is_hk, -16)],
                        each_trick=-2, last_two=-8, lead=("H", "while-other-suits"),
                        forced=is_hk),
    }
    positive = dict(zip(base, ["take-tricks", "take-hearts", "take-boys", "take-queens",
                               "take-king", "take-last-two", "everything"]))
    out = dict(base)
    for name, row in base.items():
        flipped = dict(row)
        flipped["card_points"] = [(pred, -p) for pred, p in row["card_points"]]
        flipped["each_trick"] = -row["each_trick"]
        flipped["last_two"] = -row["last_two"]
        out[positive[name]] = flipped
    return out


CONTRACTS = {
    "italian": _italian(wikipedia=False),
    "italian-wikipedia": _italian(wikipedia=True),
    "portuguese": {  # docs/rules.md 6
        "no-tricks": spec(each_trick=-20),
        "no-hearts": spec([(is_heart, -20)], lead=("H", "while-other-suits"), protected=is_heart),
        "no-queens": spec([(is_queen, -50)]),
        "no-men": spec([(is_king_or_jack, -30)]),
        "no-king-of-hearts": spec([(is_hk, -160)], lead=("H", "while-other-suits"),
                                  forced=is_hk, protected=is_hk),
        "no-last-two": spec(last_two=-90),
        "festa": spec(each_trick=25, trump="named", obligation="ruff-overruff",
                      overtrump_on_trump_lead=True),
        "null": spec(each_trick=-75, constant=325),
    },
    "turkish": {  # docs/rules.md 7
        "no-tricks": spec(each_trick=-50),
        "no-hearts": spec([(is_heart, -30)], lead=("H", "until-broken"), forced=is_heart),
        "no-kings-jacks": spec([(is_king_or_jack, -60)], forced=is_king_or_jack),
        "no-queens": spec([(is_queen, -100)], forced=is_queen),
        "no-king-of-hearts": spec([(is_hk, -320)], lead=("H", "until-broken"), forced=is_hk),
        "no-last-two": spec(last_two=-180),
        "trumps": spec(each_trick=50, trump="named", overtake=True,
                       obligation="ruff-overruff-strict", trump_lead_restricted=True),
    },
    "russian": _russian(),
}

DIRECTION = {"italian": CLOCKWISE, "italian-wikipedia": CLOCKWISE, "portuguese": CLOCKWISE,
             "turkish": COUNTERCLOCKWISE, "russian": CLOCKWISE}


def _card_set(cards):
    """A predicate for a rule document's list of cards."""
    members = {card(c) for c in cards}
    return lambda c: c in members


# docs/rules.md 13: a rule document's contract field and what it sets in a row.
_DOCUMENT_FIELDS = {
    "each_trick": lambda v: {"each_trick": v},
    "last_two": lambda v: {"last_two": v},
    "seat_constant": lambda v: {"constant": v},
    "trump": lambda v: {"trump": v},
    "lead": lambda v: {"lead": None if v in ("any", None) else (v["suit"], v["mode"])},
    "trump_lead_restricted": lambda v: {"trump_lead_restricted": v},
    "overtake": lambda v: {"overtake": v},
    "overtrump_on_trump_lead": lambda v: {"overtrump_on_trump_lead": v},
    "first_trick_protection": lambda v: {"protected": _card_set(v)},
    "forced": lambda v: {"forced": _card_set(v)},
    "trump_obligation": lambda v: {"obligation": v or "free"},
    "card_points": lambda v: {"card_points": [(_card_set(r["cards"]), r["points"]) for r in v]},
    "broken_by": lambda v: {"broken_by": v},
}


def load_house_rules(key, document):
    """Register a rule document with a ``base`` (docs/rules.md 13) under ``key``: the
    base's rows above, each contract's fields replaced as the document says. Only the
    fields of section 2 and 3 are read; descriptions and schedules do not change play."""
    base = document["base"]
    rows = {name: dict(row) for name, row in CONTRACTS[base].items()}
    for name, change in document.get("contracts", {}).items():
        if change is None:
            rows.pop(name, None)
            continue
        row = rows.setdefault(name, spec())
        for field, value in change.items():
            if field in _DOCUMENT_FIELDS:
                row.update(_DOCUMENT_FIELDS[field](value))
            else:
                assert field == "description", f"the reference does not read {field!r}"
    CONTRACTS[key] = rows
    DIRECTION[key] = DIRECTION[base]
    return key


def contract_spec(variant, contract, options=()):
    """The contract row, with options applied (``forced-king``: forced set {HK}, docs/rules.md 4)."""
    row = dict(CONTRACTS[variant][contract])
    if "forced-king" in options:
        assert variant == "italian" and contract == "no-king-of-hearts"
        row["forced"] = is_hk
    return row


def card_points(row, c):
    """The points a card carries (docs/rules.md 3: a card may be in several rows, 8 `nothing`)."""
    return sum(p for pred, p in row["card_points"] if pred(c))


def trick_points(row, number, n_tricks):
    """The points of trick ``number`` (1-based) of an n-trick hand (docs/rules.md 3)."""
    pts = row["each_trick"]
    if number >= n_tricks - 1:
        pts += row["last_two"]
    return pts


def trick_winner(cards, trump):
    """The index of the winning card (docs/rules.md 2): the highest trump, else the highest
    card of the suit led."""
    trumps = [i for i, c in enumerate(cards) if trump is not None and c[0] == trump]
    if trumps:
        return max(trumps, key=lambda i: cards[i][1])
    led = cards[0][0]
    return max((i for i, c in enumerate(cards) if c[0] == led), key=lambda i: cards[i][1])


def legal(row, trump, hand, trick, earlier, first_trick):
    """The legal cards of ``hand`` (docs/rules.md 2), as a sorted list in hand order.

    ``trick`` is the cards of the trick in progress, ``earlier`` the cards of earlier
    tricks that broke their suit (all of them, or with ``broken_by`` ``discard`` those
    played to a trick led in another suit, docs/rules.md 13), ``first_trick`` whether
    this is trick 1.
    """
    hand = set(hand)
    if not trick:
        # 2.1 Leading.
        allowed = set(hand)
        if row["lead"] is not None:
            suit, mode = row["lead"]
            others = {c for c in hand if c[0] != suit}
            if mode == "until-broken":
                broken = any(c[0] == suit for c in earlier)
                if not broken and others:
                    allowed = others
            elif mode == "while-other-suits":
                if others:
                    allowed = others
        if row["trump_lead_restricted"] and trump is not None:
            trump_played = any(c[0] == trump for c in earlier)
            non_trumps = {c for c in allowed if c[0] != trump}
            if not trump_played and non_trumps:  # unless the leader holds only trumps
                allowed = non_trumps
        return sorted(allowed, key=hand_order_key)
    led = trick[0][0]
    follow = {c for c in hand if c[0] == led}
    if follow:
        # 2.2 Following, holding the suit led.
        allowed = follow
        best_led = max(c[1] for c in trick if c[0] == led)
        if row["overtake"]:
            higher = {c for c in follow if c[1] > best_led}
            if higher:
                allowed = higher
        if row["overtrump_on_trump_lead"] and trump is not None and led == trump:
            best_trump = max(c[1] for c in trick if c[0] == trump)
            higher = {c for c in allowed if c[1] > best_trump}
            if higher:
                allowed = higher
        return sorted(allowed, key=hand_order_key)
    # 2.3 Following, void in the suit led.
    allowed = set(hand)
    if first_trick:
        unprotected = {c for c in hand if not row["protected"](c)}
        if unprotected:  # unless every card in the hand is protected
            allowed = unprotected
    # First-trick protection overrides the forced set on trick 1: forced cards that
    # are protected (and so may not be played) drop out of the set.
    forced_playable = {c for c in allowed if row["forced"](c)}
    if forced_playable:
        allowed = forced_playable
    if trump is not None and row["obligation"] != "free":
        trumps = {c for c in allowed if c[0] == trump}
        if trumps:
            in_trick = [c[1] for c in trick if c[0] == trump]
            if not in_trick:
                allowed = trumps
            else:
                higher = {c for c in trumps if c[1] > max(in_trick)}
                if higher:
                    allowed = higher
                elif row["obligation"] == "ruff-overruff-strict":
                    allowed = trumps
                # ruff-overruff: cannot overtrump, any card (of those still allowed)
    return sorted(allowed, key=hand_order_key)


class RefHand:
    """One hand of a trick contract, played card by card (docs/rules.md 2 and 3).

    ``hands`` maps seat letters to cards (text or tuples); seats not in play are left
    out. ``trump`` is a suit letter or None; ``doubles`` only changes ``sides()``.
    """

    def __init__(self, variant, contract, hands, leader="N", trump=None, options=(),
                 doubles=False):
        self.row = contract_spec(variant, contract, options)
        self.trump = trump
        self.doubles = doubles
        order = DIRECTION[variant]
        self.seats = [s for s in order if s in hands]
        self.hands = {s: {card(c) for c in hands[s]} for s in self.seats}
        sizes = {len(h) for h in self.hands.values()}
        assert len(sizes) == 1, "hands of equal size"
        self.n_tricks = sizes.pop()
        self.leader = leader
        self.trick = []            # cards of the trick in progress
        self.trick_seats = []      # who played them
        self.earlier = []          # cards of completed tricks
        self.discarded = []        # of them, those played to a trick led in another suit
        self.winners = []          # seat winning each completed trick
        self.taken = {s: 0 for s in self.seats}
        self.ended_early = self._nothing_left()

    def next_seat(self, seat):
        """The next seat in play direction among the seats in play (docs/rules.md 1)."""
        i = self.seats.index(seat)
        return self.seats[(i + 1) % len(self.seats)]

    def _nothing_left(self):
        # docs/rules.md 2.4: every scored card taken and no remaining trick carries points.
        if any(card_points(self.row, c) for h in self.hands.values() for c in h):
            return False
        return not any(trick_points(self.row, k, self.n_tricks)
                       for k in range(len(self.winners) + 1, self.n_tricks + 1))

    @property
    def complete(self):
        return self.ended_early or len(self.winners) == self.n_tricks

    @property
    def to_move(self):
        if self.complete:
            return None
        if not self.trick:
            return self.winners[-1] if self.winners else self.leader
        return self.next_seat(self.trick_seats[-1])

    def legal(self):
        """The legal cards of the seat on move, in hand order ([] once complete)."""
        seat = self.to_move
        if seat is None:
            return []
        breakers = self.earlier if self.row["broken_by"] == "play" else self.discarded
        return legal(self.row, self.trump, self.hands[seat], self.trick, breakers,
                     first_trick=not self.winners)

    def play(self, c):
        c = card(c)
        assert c in self.legal(), f"{text(c)} is not legal"
        seat = self.to_move
        self.hands[seat].discard(c)
        self.trick.append(c)
        self.trick_seats.append(seat)
        if len(self.trick) == len(self.seats):
            w = self.trick_seats[trick_winner(self.trick, self.trump)]
            number = len(self.winners) + 1
            self.taken[w] += trick_points(self.row, number, self.n_tricks) + \
                sum(card_points(self.row, x) for x in self.trick)
            self.winners.append(w)
            self.earlier.extend(self.trick)
            self.discarded.extend(x for x in self.trick if x[0] != self.trick[0][0])
            self.trick, self.trick_seats = [], []
            if not self.complete:
                self.ended_early = self._nothing_left()

    def scores(self):
        """Points per seat: taken so far, plus the constant once complete (docs/rules.md 3)."""
        const = self.row["constant"] if self.complete else 0
        return {s: v + const for s, v in self.taken.items()}

    def sides(self):
        """Doubles (docs/rules.md 3): N+S against E+W."""
        sc = self.scores()
        return {"NS": sc["N"] + sc["S"], "EW": sc["E"] + sc["W"]}
