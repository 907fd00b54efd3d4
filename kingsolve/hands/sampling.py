"""What one seat can know of the unseen hands, and deals drawn uniformly from it.

docs/rules.md section 2 turns every card played into facts about the hand that played
it: the card was legal, so the hand held none of the cards that would have made
it illegal. ``SeatView`` replays the public play (no hidden hand is needed to know
who played what and who won each trick) and collects those facts, together with
the cards already seen and the number of cards each hand still holds.
``DealSampler`` counts the deals consistent with a view exactly, by groups of
cards that have the same set of possible holders, and draws deals uniformly by
unranking a random index, so no seat is dealt before another and the same seed
gives the same deals on every machine.

The legality rules of section 2 all have one shape (``trick_rules.Restriction``): a
*filter* ``A`` narrows the candidate cards to ``cand & A`` when that is not empty.
For a card ``c`` played from a hand ``H`` that is legal exactly when, for each
filter ``A`` in order with ``c`` outside ``A``, ``H`` held no card of ``A`` among the
candidates left by the earlier filters that ``c`` passed. So each play excludes one mask ``Z`` from the
hand it came from (``exclusion_mask``), and the view is a set of allowed holders
per unseen card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from typing import Iterable, Iterator, Mapping, Sequence

from ..game.cards import ASCII_SPACE, CARD_BODY_PATTERN, END_PATTERN, SPACE_PATTERN, Card, Seat, Suit, cards_of_mask, deck_mask, format_cards, iter_bits
from ..checks import check_int, is_int
from ..game.deal import HAND_BODY_PATTERN, Deal, parse_hand, seats_for_players
from ..errors import IllegalPlayError, InvalidDealError, InvalidRequestError, ParseError
from ..game.position import check_trump
from ..game.rule_documents import resolve_variant
from ..game.rules import Contract, RuleSet, compile_contract
from ..game.trick_rules import Restriction, breaks_suit, ends_early, legality_filters, trick_winner_index

__all__ = ["Inference", "SeatView", "DealSampler", "exclusion_mask", "parse_cards", "MAX_EXACT"]

_FULL = deck_mask(52)

#: Deals are enumerated one by one (no random draw) when at most this many remain.
MAX_EXACT = 5_000


def exclusion_mask(filters: Iterable[Restriction], bit: int) -> tuple[int, list[tuple[int, str]]]:
    """The cards a hand cannot have held for ``bit`` to pass ``filters``, and why.

    Returns the whole mask and its parts ``(mask, rule)`` per filter that excluded
    something. The played card is legal in a hand ``H`` holding it exactly when
    ``H`` and the mask are disjoint.
    """
    passed = _FULL
    total = 0
    parts = []
    for mask, rule, _ in filters:
        if mask >> bit & 1:
            passed &= mask
        else:
            z = passed & mask & _FULL
            if z:
                total |= z
                parts.append((z, rule))
    return total, parts


_SEPARATORS = str.maketrans({c: " " for c in ASCII_SPACE + ","})


_LIST_SEPARATOR = "[ \\t\\n\\r\\f\\v,]"
#: What ``parse_cards`` reads from text: a hand's PBN text, or cards separated by ASCII
#: white space or commas.
CARDS_TEXT_PATTERN = (f"^{SPACE_PATTERN}*(?:{HAND_BODY_PATTERN}|{_LIST_SEPARATOR}*(?:{CARD_BODY_PATTERN}"
                      f"(?:{_LIST_SEPARATOR}+{CARD_BODY_PATTERN})*)?{_LIST_SEPARATOR}*)"
                      f"{SPACE_PATTERN}*{END_PATTERN}")


def parse_cards(value, where: str) -> int:
    """A set of cards from PBN hand text, a list of cards or a card text list."""
    if is_int(value):
        return value
    if isinstance(value, str):
        text = value.strip(ASCII_SPACE)
        if "." in text:
            return parse_hand(text, where=where)
        # ASCII white space and commas separate the cards, as the request schema says
        value = [c for c in text.translate(_SEPARATORS).split(" ") if c]
    if not isinstance(value, (list, tuple)):
        raise InvalidRequestError(f"invalid {where}: expected PBN hand text or a list of cards, "
                                  f"got {value!r}")
    mask = 0
    for item in value:
        try:
            card = Card.parse(item)
        except ParseError as exc:
            raise ParseError(f"invalid {where}: {exc}") from None
        if mask & card.mask:
            raise InvalidDealError(f"invalid {where}: card {str(card)!r} is listed twice")
        mask |= card.mask
    return mask


@dataclass(frozen=True)
class Inference:
    """One fact learned from a card played: ``seat`` held none of ``cards`` afterwards."""

    seat: Seat
    index: int          # position of the card in the play record
    card: Card
    rule: str           # the section 2 rule: follow, forced, overtake, ruff, ...
    cards: int          # mask of the excluded cards

    def to_dict(self) -> dict:
        return {"seat": self.seat.name, "play": self.index, "card": str(self.card),
                "rule": self.rule, "excluded": format_cards(self.cards)}


@dataclass
class SeatView:
    """What ``seat`` knows: its hand, the play, known cards and the rules' inferences.

    ``hand`` is the seat's hand now, or at the start of the hand (then it must hold
    every card the seat has played). ``known`` pins cards to other hands (a hand
    shown, for example). Raises ``IllegalPlayError`` if no deal could explain the
    play, and ``InvalidRequestError``/``InvalidDealError`` for bad input.
    """

    variant: RuleSet
    contract: Contract
    seat: Seat
    hand: int
    play: tuple[int, ...] = ()
    leader: Seat = Seat.N
    trump: Suit | None = None
    players: int = 4
    known: dict[Seat, int] = field(default_factory=dict)
    # filled in by build()
    seats: tuple[Seat, ...] = ()
    tricks: int = 0
    played_by: dict[Seat, int] = field(default_factory=dict)
    remaining: dict[Seat, int] = field(default_factory=dict)
    excluded: dict[Seat, int] = field(default_factory=dict)
    inferences: list[Inference] = field(default_factory=list)
    to_move: Seat | None = None
    complete: bool = False
    seat_of: list[Seat] = field(default_factory=list)       # who played each card of ``play``
    judged: list[list[Restriction]] = field(default_factory=list)  # the rules that judged it

    @classmethod
    def build(cls, variant: "str | RuleSet", contract: "str | Contract", seat: "Seat | str",
              hand, play: Iterable = (), leader: "Seat | str" = Seat.N, trump=None,
              options: Iterable[str] = (), known: Mapping | None = None,
              players: int = 4) -> "SeatView":
        """Check the inputs, replay the public play and collect every inference."""
        rs = resolve_variant(variant)
        options = tuple(options)
        if isinstance(contract, Contract):
            c = contract.with_options(options) if options else contract
        else:
            c = rs.contract(contract, options)
        if c.kind != "tricks":
            raise InvalidRequestError(f"contract {c.name!r} is not a trick contract: "
                                      f"the hint engine plays trick contracts")
        if players not in rs.players:
            raise InvalidRequestError(f"invalid players {players!r} for variant {rs.name!r}: "
                                      f"expected {' or '.join(map(str, rs.players))}")
        view = cls(rs, c, Seat.parse(seat), 0, (), Seat.parse(leader), check_trump(c, trump), players)
        view._build(hand, play, known or {})
        return view

    # --- construction --------------------------------------------------------------
    def _deck(self) -> int:
        deck = deck_mask(self.variant.deck)
        if self.players == 3:
            deck &= ~Card("C2").mask
        return deck

    def _build(self, hand, play, known: Mapping) -> None:
        self.seats = seats_for_players(self.players)
        if self.seat not in self.seats:
            raise InvalidRequestError(f"invalid seat {self.seat.name!r}: not in play with "
                                      f"{self.players} players")
        if self.leader not in self.seats:
            raise InvalidRequestError(f"invalid leader {self.leader.name!r}: not in play with "
                                      f"{self.players} players")
        deck = self._deck()
        self.tricks = deck.bit_count() // self.players
        bits = []
        for i, item in enumerate(play):
            try:
                bits.append(Card.parse(item).bit)
            except ParseError as exc:
                raise IllegalPlayError(f"invalid card at play[{i}]: {exc}") from None
        self.play = tuple(bits)
        hand_mask = parse_cards(hand, f"hand of {self.seat.name}")
        stray = hand_mask & ~deck
        if stray:
            raise InvalidDealError(f"invalid hand of {self.seat.name}: {' '.join(format_cards(stray))} "
                                   f"not in the deck of this game")
        seat_of, judged = self._replay()
        self.seat_of, self.judged = seat_of, judged
        self.played_by = {s: 0 for s in self.seats}
        for s, b in zip(seat_of, self.play):
            self.played_by[s] |= 1 << b
        own_played = self.played_by[self.seat]
        if hand_mask & own_played:
            if hand_mask & own_played != own_played:
                missing = own_played & ~hand_mask
                raise InvalidRequestError(
                    f"invalid hand of {self.seat.name}: it holds some of the cards {self.seat.name} "
                    f"played but not {' '.join(format_cards(missing))}; give the hand now or at the start")
            hand_mask &= ~own_played
        played_all = 0
        for m in self.played_by.values():
            played_all |= m
        clash = hand_mask & played_all
        if clash:
            raise InvalidRequestError(f"invalid hand of {self.seat.name}: "
                                      f"{' '.join(format_cards(clash))} already played by another seat")
        self.hand = hand_mask
        for s in self.seats:
            self.remaining[s] = self.tricks - self.played_by[s].bit_count()
        if hand_mask.bit_count() != self.remaining[self.seat]:
            raise InvalidRequestError(
                f"invalid hand of {self.seat.name}: {hand_mask.bit_count()} cards, expected "
                f"{self.remaining[self.seat]} ({self.tricks} dealt, "
                f"{self.played_by[self.seat].bit_count()} played)")
        self._read_known(known, deck, played_all)
        self._infer(seat_of, judged)

    def _replay(self) -> tuple[list[Seat], list[list[Restriction]]]:
        """Who played each card of the record and the rules that judged it.

        The public play alone answers both: the seat on move follows from the
        winners of the tricks, and the rules from the cards before it.
        """
        t = compile_contract(self.contract, self.tricks, self.trump)
        self.tables = t
        nxt = {s: self.variant.next_seat(s, self.seats) for s in self.seats}
        deck = self._deck()
        seen = broken = 0
        trick: list[tuple[Seat, int]] = []
        leader = self.leader
        seat_of: list[Seat] = []
        judged: list[list[Restriction]] = []
        n_tricks_done = 0
        self.complete = False
        for i, b in enumerate(self.play):
            card = Card.from_bit(b)
            if self.complete:
                raise IllegalPlayError(f"illegal card {str(card)!r} at play[{i}]: the hand is "
                                       f"already complete")
            if not deck >> b & 1:
                raise IllegalPlayError(f"illegal card {str(card)!r} at play[{i}]: "
                                       f"it is not in the deck of this game")
            if seen >> b & 1:
                raise IllegalPlayError(f"illegal card {str(card)!r} at play[{i}]: "
                                       f"it has already been played")
            seat = leader if not trick else nxt[trick[-1][0]]
            seat_of.append(seat)
            judged.append(legality_filters(t, [x for _, x in trick], broken, n_tricks_done == 0, b))
            if breaks_suit(t, [x for _, x in trick], b):
                broken |= 1 << b
            seen |= 1 << b
            trick.append((seat, b))
            if len(trick) == len(self.seats):
                winner = trick[trick_winner_index([x for _, x in trick], t.trump)][0]
                n_tricks_done += 1
                trick = []
                leader = winner
                if n_tricks_done == self.tricks or \
                        ends_early(t, n_tricks_done, t.scored_cards & deck & ~seen):
                    self.complete = True
        self.to_move = None if self.complete else (leader if not trick else nxt[trick[-1][0]])
        return seat_of, judged

    def _read_known(self, known: Mapping, deck: int, played_all: int) -> None:
        taken = self.hand | played_all
        for key, value in known.items():
            s = Seat.parse(key)
            if s not in self.seats:
                raise InvalidRequestError(f"invalid field 'known': seat {s.name!r} is not in play")
            if s == self.seat:
                continue
            mask = parse_cards(value, f"known cards of {s.name}")
            mask &= ~self.played_by[s]          # a card shown and since played by that seat
            bad = mask & ~deck
            if bad:
                raise InvalidDealError(f"invalid known cards of {s.name}: "
                                       f"{' '.join(format_cards(bad))} not in the deck of this game")
            clash = mask & taken
            if clash:
                raise InvalidRequestError(f"invalid known cards of {s.name}: "
                                          f"{' '.join(format_cards(clash))} already seen elsewhere")
            taken |= mask
            self.known[s] = self.known.get(s, 0) | mask
            if self.known[s].bit_count() > self.remaining[s]:
                raise InvalidRequestError(f"invalid known cards of {s.name}: "
                                          f"{self.known[s].bit_count()} cards but {s.name} holds "
                                          f"{self.remaining[s]}")

    def _infer(self, seat_of: list[Seat], judged: list[list[Restriction]]) -> None:
        self.excluded = {s: 0 for s in self.seats}
        later = dict(self.played_by)        # cards each seat plays from this point on
        for i, (s, b, filters) in enumerate(zip(seat_of, self.play, judged)):
            later[s] &= ~(1 << b)
            z, parts = exclusion_mask(filters, b)
            card = Card.from_bit(b)
            if later[s] & z:
                bad = cards_of_mask(later[s] & z)[0]
                rule = next(r for m, r in parts if m & later[s])
                raise IllegalPlayError(f"illegal card {str(card)!r} at play[{i}]: {s.name} still held "
                                       f"{bad} (it played it later), so the {rule} rule forbade it")
            for m, rule in parts:
                self.inferences.append(Inference(s, i, card, rule, m))
            self.excluded[s] |= z
        own = self.hand & self.excluded[self.seat]
        if own:
            raise IllegalPlayError(f"illegal play for {self.seat.name}: it holds "
                                   f"{' '.join(format_cards(own))}, which the rules say it could "
                                   f"not hold after the cards it played")
        for s, m in self.known.items():
            if m & self.excluded[s]:
                raise IllegalPlayError(f"invalid known cards of {s.name}: "
                                       f"{' '.join(format_cards(m & self.excluded[s]))} contradict "
                                       f"the cards {s.name} played")

    # --- reading ---------------------------------------------------------------------
    @property
    def hidden_seats(self) -> tuple[Seat, ...]:
        """The seats whose hands the viewer does not see."""
        return tuple(s for s in self.seats if s != self.seat)

    @property
    def deck_mask(self) -> int:
        """The cards of this game (no two of clubs with three players)."""
        return self._deck()

    @property
    def played_mask(self) -> int:
        out = 0
        for m in self.played_by.values():
            out |= m
        return out

    @property
    def unseen(self) -> int:
        """The cards still in hidden hands that are not known to be in a given one."""
        known = 0
        for m in self.known.values():
            known |= m
        return self._deck() & ~self.hand & ~self.played_mask & ~known

    def holders(self, bit: int) -> tuple[Seat, ...]:
        """The hidden seats that may hold the unseen card ``bit``."""
        return tuple(s for s in self.hidden_seats
                     if self.remaining[s] > 0 and not self.excluded[s] >> bit & 1)

    def to_dict(self) -> dict:
        return {"seat": self.seat.name, "to_move": None if self.to_move is None else self.to_move.name,
                "remaining": {s.name: n for s, n in self.remaining.items()},
                "inferences": [x.to_dict() for x in self.inferences]}


class DealSampler:
    """Uniform draws over the full deals consistent with a ``SeatView``.

    Unseen cards are grouped into *types*, the cards with the same set of possible
    holders. ``count`` is the exact number of consistent deals: a sum over how many
    cards of each type each seat gets, of products of multinomials. A deal is
    ``deal(index)`` for an index in ``range(count)``, a bijection (unranking), so a
    uniform index is a uniform deal.
    """

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.hidden = view.hidden_seats
        by_holders: dict[tuple[int, ...], list[int]] = {}
        for bit in iter_bits(view.unseen):
            hs = tuple(self.hidden.index(s) for s in view.holders(bit))
            if not hs:
                raise IllegalPlayError(f"no deal is consistent with the play: no hidden seat can "
                                       f"hold {Card.from_bit(bit)}")
            by_holders.setdefault(hs, []).append(bit)
        # Types with the most holders last: the last split is then forced by the counts.
        self.types = sorted(by_holders.items(), key=lambda kv: (len(kv[0]), kv[0]))
        self.need = tuple(view.remaining[s] - view.known.get(s, 0).bit_count() for s in self.hidden)
        self._ways = lru_cache(maxsize=None)(self._ways_uncached)
        self.count = self._ways(0, self.need)
        if self.count == 0:
            raise IllegalPlayError("no deal is consistent with the play, the hand and the known "
                                   "cards: the hidden hands cannot be filled")

    def _splits(self, i: int, caps: tuple[int, ...]):
        holders, bits = self.types[i]
        n = len(bits)

        def rec(j: int, left: int):
            if j == len(holders) - 1:
                if left <= caps[holders[j]]:
                    yield (left,)
                return
            for k in range(min(left, caps[holders[j]]), -1, -1):
                for rest in rec(j + 1, left - k):
                    yield (k,) + rest
        yield from rec(0, n)

    @staticmethod
    def _multinomial(split: tuple[int, ...]) -> int:
        out, total = 1, 0
        for k in split:
            total += k
            out *= comb(total, k)
        return out

    def _after(self, i: int, caps: tuple[int, ...], split: tuple[int, ...]) -> tuple[int, ...]:
        holders = self.types[i][0]
        new = list(caps)
        for h, k in zip(holders, split):
            new[h] -= k
        return tuple(new)

    def _ways_uncached(self, i: int, caps: tuple[int, ...]) -> int:
        if i == len(self.types):
            return 1 if not any(caps) else 0
        total = 0
        for split in self._splits(i, caps):
            rest = self._ways(i + 1, self._after(i, caps, split))
            if rest:
                total += self._multinomial(split) * rest
        return total

    def deal(self, index: int) -> Deal:
        """The consistent full deal (hands as dealt) of rank ``index`` in ``range(count)``."""
        if not 0 <= index < self.count:
            raise InvalidRequestError(f"invalid deal index {index!r}: expected 0..{self.count - 1}")
        caps = self.need
        hands = {s: 0 for s in self.hidden}
        for i, (holders, bits) in enumerate(self.types):
            for split in self._splits(i, caps):
                after = self._after(i, caps, split)
                rest = self._ways(i + 1, after)
                block = self._multinomial(split) * rest
                if index < block:
                    arrangement, index = divmod(index, rest)
                    left = list(bits)
                    for h, k in zip(holders, split):
                        size = comb(len(left), k)
                        arrangement, r = divmod(arrangement, size)
                        chosen = _unrank_subset(left, k, r)
                        for b in chosen:
                            hands[self.hidden[h]] |= 1 << b
                        chosen_set = set(chosen)
                        left = [b for b in left if b not in chosen_set]
                    caps = after
                    break
                index -= block
        masks: list[int | None] = [None] * 4
        v = self.view
        for s in v.seats:
            now = v.hand if s == v.seat else hands[s] | v.known.get(s, 0)
            masks[s] = now | v.played_by[s]
        return Deal(masks)

    def sample(self, n: int, seed: "int | random.Random" = 0) -> tuple[list[Deal], bool]:
        """The first ``n`` deals of ``iter_sample(seed)``, and whether they are all of them."""
        check_int(n, "number of samples", lo=1)
        deals = []
        for d in self.iter_sample(seed):
            deals.append(d)
            if len(deals) == n:
                break
        return deals, len(deals) == self.count

    def iter_sample(self, seed: "int | random.Random" = 0) -> Iterator[Deal]:
        """Distinct uniform deals, in random order; every deal, then stop, when few remain.

        At most ``MAX_EXACT`` deals are enumerated in a shuffled order; beyond that,
        distinct uniform indices are drawn (a repeat is drawn again).
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        if self.count <= MAX_EXACT:
            order = list(range(self.count))
            rng.shuffle(order)
            for k in order:
                yield self.deal(k)
            return
        seen: set[int] = set()
        while True:
            k = rng.randrange(self.count)
            if k not in seen:
                seen.add(k)
                yield self.deal(k)


def _unrank_subset(items: Sequence[int], k: int, r: int) -> list[int]:
    """The ``r``-th ``k``-subset of ``items`` in lexicographic order of positions."""
    out = []
    m = len(items)
    for i, item in enumerate(items):
        if k == 0:
            break
        with_it = comb(m - i - 1, k - 1)
        if r < with_it:
            out.append(item)
            k -= 1
        else:
            r -= with_it
    return out
