"""Post-game review: what each card played cost its player, double dummy.

For every card of a record, the value of the position for the seat that played it
before and after the card (docs/rules.md section 11: the score the seat can guarantee
against the other three; its side's exact value in doubles), the points the card
cost (before - after: 0 for a double-dummy-best card), the best cards at that moment
and whether the card was forced (the only legal card).

Each position gets an anytime analysis (``kingsolve.analyse``) with a share of the
review's budget, so every card answers: exact where proved, otherwise an estimate
inside a proved range. A card is a *proved* mistake when its highest possible value
is below another card's lowest (``min_cost``: the points it gives away at least),
exact or not; an *estimated* mistake when only the estimates say it costs points.
The positions are analysed from the last to the first: the late ones are small and
often exact at once, and the time they leave goes to the early ones, which need it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..search.analysis import Analysis, format_number, value_text
from ..game.cards import Card, Seat
from ..game.position import Position
from ..checks import check_int, is_int
from ..errors import InvalidRequestError, KingsolveError, SolveTimeout, excerpt
from ..game.record import Record
from ..search.budget import Budget
from ..game.numbers import Number, json_number
from ..search.result import Solver
from ..search.dispatch import analyse_position, solve_position

__all__ = ["review", "Review", "CardReview", "SeatSummary", "format_number", "start_index"]

Range = tuple[Number, Number]


def _cost_range(before: Range, after: Range, top_lo: Number) -> Range:
    """The proved range of a card's cost: at least the best other card's lowest value
    minus this card's highest, at most the seat's highest minus this card's lowest."""
    return max(0, top_lo - after[1]), max(0, before[1] - after[0])


@dataclass(frozen=True)
class CardReview:
    """One card of the play and what it cost the seat that played it.

    ``before`` and ``after`` are exact values (None where not proved exact);
    ``bounds`` and ``after_bounds`` the ranges proved; ``estimate`` and
    ``after_estimate`` the estimates inside them (the exact values once proved).
    """

    index: int                  # 0-based index of the card in the play
    trick: int | None           # 1-based trick number (None in the domino)
    seat: Seat
    card: Card
    before: Number | None       # the seat's exact value before the card
    after: Number | None        # the seat's exact value after the card
    best: tuple[Card, ...]      # the best cards (by estimate while not all are exact)
    forced: bool                # the only legal card
    values: dict[Card, Number] = field(default_factory=dict)  # the legal cards' exact values
    bounds: Range | None = None            # the seat's value range proved before the card
    after_bounds: Range | None = None      # the value range proved after the card
    estimate: Number | None = None         # the estimated value before the card
    after_estimate: Number | None = None   # the estimated value after the card
    cost_bounds: Range | None = None       # the cost's proved range
    best_exact: bool = True                # ``best`` from exact values, not estimates
    line: Any = None    # at a proved mistake of an exact position, when asked: the
    #                     line best play follows instead (kingsolve.search.line.Line)

    @property
    def solved(self) -> bool:
        """Whether the values before and after the card are exact."""
        return self.before is not None and self.after is not None

    @property
    def cost(self) -> Number | None:
        """The points the card gave away: before - after (0 for a best card; None
        when not exact)."""
        if self.before is None or self.after is None:
            return None
        return self.before - self.after

    @property
    def min_cost(self) -> Number:
        """The points the card is proved to give away at least (its cost when exact)."""
        return 0 if self.cost_bounds is None else self.cost_bounds[0]

    @property
    def estimated_cost(self) -> Number | None:
        """The estimate before minus the estimate after (the cost when exact)."""
        if self.cost is not None:
            return self.cost
        if self.estimate is None or self.after_estimate is None:
            return None
        return max(0, self.estimate - self.after_estimate)

    @property
    def mistake(self) -> str | None:
        """``"proved"`` when the card is proved to cost points (another card is proved
        better), ``"estimated"`` when only the estimates say so, else None."""
        if self.min_cost > 0:
            return "proved"
        if self.cost is None and (self.estimated_cost or 0) > 0:
            return "estimated"
        return None

    def to_dict(self) -> dict:
        """The card's review (with ``line`` only when the review found one)."""
        def num(x: Number | None):
            return None if x is None else json_number(x)

        def pair(r: Range | None):
            return None if r is None else [json_number(v) for v in r]
        line = {} if self.line is None else {"line": self.line.to_dict()}
        return {"index": self.index, "trick": self.trick, "seat": self.seat.name,
                "card": str(self.card), "before": num(self.before),
                "after": num(self.after), "cost": num(self.cost),
                "best": [str(c) for c in self.best], "forced": self.forced,
                "values": {str(c): json_number(v) for c, v in self.values.items()},
                "solved": self.solved, "bounds": pair(self.bounds),
                "after_bounds": pair(self.after_bounds), "estimate": num(self.estimate),
                "after_estimate": num(self.after_estimate),
                "cost_bounds": pair(self.cost_bounds), "min_cost": num(self.min_cost),
                "estimated_cost": num(self.estimated_cost), "mistake": self.mistake,
                "best_exact": self.best_exact} | line


@dataclass(frozen=True)
class SeatSummary:
    """A seat's mistakes over the reviewed cards, the proved apart from the estimated.

    ``cost`` and ``costly`` count the proved mistakes (the points each is proved to
    give away at least: its exact cost where exact); ``estimated_cost`` and
    ``estimated`` the cards only estimated to cost points.
    """

    seat: Seat
    cards: int                       # cards reviewed
    cost: Number                     # points proved given away (at least)
    costly: int                      # proved mistakes
    largest: CardReview | None       # the first of the largest proved mistakes
    unsolved: int = 0                # cards whose values are not all exact
    estimated: int = 0               # mistakes by estimate only
    estimated_cost: Number = 0       # their estimated costs in all
    largest_estimated: CardReview | None = None

    def to_dict(self) -> dict:
        return {"seat": self.seat.name, "cards": self.cards, "cost": json_number(self.cost),
                "costly": self.costly, "unsolved": self.unsolved,
                "largest": None if self.largest is None else self.largest.to_dict(),
                "estimated": self.estimated,
                "estimated_cost": json_number(self.estimated_cost),
                "largest_estimated": None if self.largest_estimated is None
                else self.largest_estimated.to_dict()}


@dataclass(frozen=True)
class Review:
    """The review of one record, from card ``start`` to the end of its play."""

    record: Record
    start: int                               # index of the first card reviewed
    cards: tuple[CardReview, ...]
    seats: dict[Seat, SeatSummary]
    start_values: dict[Seat, Number]         # the seats' exact values before card ``start``
    final_scores: dict[Seat, Number] | None  # the hand's actual scores, when known
    budget: Budget                           # the whole review's
    nodes: int = 0
    ms: float = 0.0
    start_bounds: dict[Seat, Range] = field(default_factory=dict)     # proved ranges there
    start_estimates: dict[Seat, Number] = field(default_factory=dict)

    @property
    def total_cost(self) -> dict[Seat, Number]:
        """Each seat's points proved given away (at least)."""
        return {s: summary.cost for s, summary in self.seats.items()}

    def to_dict(self) -> dict:
        r = self.record
        return {
            "record": r.to_dict(),
            "start": self.start,
            "start_trick": None if r.is_domino else self.start // r.deal.players + 1,
            "start_values": {s.name: json_number(v) for s, v in self.start_values.items()},
            "start_bounds": {s.name: [json_number(lo), json_number(hi)]
                             for s, (lo, hi) in self.start_bounds.items()},
            "start_estimates": {s.name: json_number(v) for s, v in self.start_estimates.items()},
            "cards": [c.to_dict() for c in self.cards],
            "seats": {s.name: summary.to_dict() for s, summary in self.seats.items()},
            "final_scores": None if self.final_scores is None else
            {s.name: json_number(v) for s, v in self.final_scores.items()},
            "budget": self.budget.to_dict(),
            "nodes": int(self.nodes),
            "ms": round(float(self.ms), 3),
        }

    def text(self) -> str:
        """A readable report: the hand, each trick with costly cards marked, a summary."""
        r = self.record
        head = []
        if r.hand is not None:
            head.append(f"Hand {r.hand}")
        head.append(f"{r.variant} {r.contract}")
        if r.trump is not None:
            head.append(f"trump {r.trump.letter}")
        if r.options:
            head.append(" ".join(r.options))
        if r.doubles:
            head.append("doubles")
        if r.dealer is not None:
            head.append(f"dealer {r.dealer.name}")
        head.append(f"{r.leader.name} {'moves first' if r.is_domino else 'leads'}")
        lines = [" · ".join(head)]
        if r.event:
            lines.append(f"Event: {r.event}")
        lines.append(f"Deal: {r.deal.pbn()}")
        where = (f"card {self.start + 1}" if r.is_domino
                 else f"trick {self.start // r.deal.players + 1}")
        lines.append(f"Values at {where}: " + ("  ".join(
            f"{s.name} {value_text(b, self.start_estimates.get(s), signed=True)}"
            for s, b in self.start_bounds.items()) or "not known"))
        if self.start:
            lines.append(f"(the cards before {where} are not reviewed)")
        lines.append("")
        lines.extend(self._play_lines())
        lines.append("")
        lines.append("Mistakes (points given away, double dummy):")
        for seat, summary in self.seats.items():
            lines.append(f"  {seat.name}: " + _summary_text(summary))
        if self.final_scores is not None:
            lines.append("Score: " + "  ".join(f"{s.name} {format_number(v)}"
                                               for s, v in self.final_scores.items()))
        return "\n".join(lines) + "\n"

    def _note(self, c: CardReview) -> tuple[str, str | None]:
        """The card's mark in the trick line and its note below (None: no note)."""
        if c.mistake == "proved":
            mark, cost = "*", (f"cost {format_number(c.cost, False)}" if c.cost is not None
                               else f"cost at least {format_number(c.min_cost, False)}")
        elif c.mistake == "estimated" and c.estimated_cost is not None:
            mark, cost = "~", f"cost ≈{format_number(c.estimated_cost, False)}, not proved"
        elif c.forced:
            return "=", None
        elif c.estimate is None and not c.solved:
            rng = "" if c.bounds is None else f" (value {value_text(c.bounds, signed=True)})"
            return "?", f"      ? {c.seat.name} {c.card}: no estimate within the budget{rng}"
        else:
            return " ", None
        line = "" if c.line is None else f"\n        best line: {c.line.brief()}"
        return mark, (f"      {mark} {c.seat.name} {c.card} {cost} (value "
                      f"{value_text(c.bounds, c.estimate, signed=True)} -> "
                      f"{value_text(c.after_bounds, c.after_estimate, signed=True)}; best "
                      f"{' '.join(str(b) for b in c.best)}"
                      + ("" if c.best_exact else " by estimate") + ")" + line)

    def _play_lines(self) -> list[str]:
        """The play, a line per trick (the domino: four cards a line), each card with its
        mark and, below the line, the notes of its marked cards."""
        by_index = {c.index: c for c in self.cards}
        r = self.record
        pos = r.position(0)
        lines: list[str] = []
        notes: list[str] = []
        cells: list[str] = []
        for i, card in enumerate(r.play):
            seat = pos.to_move
            assert seat is not None     # a card follows: the hand goes on
            c = by_index.get(i)
            mark = " "
            if c is not None:
                mark, note = self._note(c)
                if note is not None:
                    notes.append(note)
            cells.append(f"{seat.name} {card}{mark}")
            if not isinstance(pos, Position):     # the domino
                pos.play(card)
                head, tail, ends = f"{i - len(cells) + 2:>3}", "", len(cells) == 4
            else:
                head = f"{pos.trick_number + 1:>2}"
                trick = pos.play(card)
                tail = (f"  won by {trick.winner.name} ({format_number(trick.points)})"
                        if trick is not None else "")
                ends = trick is not None
            if ends or i == len(r.play) - 1:
                lines.append(f"  {head}. " + "  ".join(cells) + tail)
                lines.extend(notes)
                cells, notes = [], []
        lines.append(f"  {LEGEND}")
        return lines


#: The review's marks, under its tricks.
LEGEND = ("(* a proved mistake, ~ a mistake by estimate only, = a forced card, ? no "
          "estimate within the budget; values: -3 exact, ≈-3 estimate, -6..-2 proved range)")


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _summary_text(s: SeatSummary) -> str:
    """A seat's line of the summary: proved mistakes, then those by estimate only."""
    if s.costly:
        big = s.largest
        assert big is not None
        text = (f"{format_number(s.cost, False)} in {s.costly} of {s.cards} cards; largest "
                f"{big.card} ({format_number(big.min_cost, False)})"
                + ("" if big.trick is None else f" at trick {big.trick}"))
        if s.unsolved:
            text = "at least " + text       # the cards not exact may cost more
    else:
        text = f"none proved in {s.cards} cards"
    if s.estimated:
        big = s.largest_estimated
        assert big is not None and big.estimated_cost is not None
        text += (f"; by estimate ≈{format_number(s.estimated_cost, False)} more in "
                 f"{_cards(s.estimated)}, largest {big.card} "
                 f"(≈{format_number(big.estimated_cost, False)})"
                 + ("" if big.trick is None else f" at trick {big.trick}"))
    if s.unsolved:
        text += f" ({_cards(s.unsolved)} not exact)"
    return text


def _card_review(head: dict, a: Analysis, card: Card, mover: Seat) -> CardReview:
    """A card's review from the analysis of the position where it was played."""
    before = a.bounds.get(mover)
    after = a.card_bounds.get(card)
    if a.card_bounds and after is None:
        raise KingsolveError(f"the analysis gave no value for {card} at card "
                             f"{head['index'] + 1}: its cards are "
                             f"{sorted(map(str, a.card_bounds))}")
    cost = None
    if before is not None and after is not None:
        cost = _cost_range(before, after, max(lo for lo, _ in a.card_bounds.values()))
    return CardReview(
        **head, before=a.values.get(mover), after=a.cards.get(card),
        best=tuple(sorted(a.best, key=lambda c: (c.suit, -c.rank))), values=dict(a.cards),
        bounds=before, after_bounds=after, estimate=a.estimates.get(mover),
        after_estimate=a.card_estimates.get(card), cost_bounds=cost,
        best_exact=len(a.cards) == len(a.card_bounds))


def _seat_summary(seat: Seat, mine: list[CardReview]) -> SeatSummary:
    proved = [c for c in mine if c.mistake == "proved"]
    guessed = [c for c in mine if c.mistake == "estimated"]

    def first_largest(cards: list[CardReview], key) -> CardReview | None:
        top = max((key(c) for c in cards), default=None)
        return next((c for c in cards if key(c) == top), None)
    return SeatSummary(seat, len(mine), sum((c.min_cost for c in proved), 0), len(proved),
                       first_largest(proved, lambda c: c.min_cost),
                       sum(1 for c in mine if not c.solved), len(guessed),
                       # every mistake by estimate has its estimated cost
                       sum((cost for c in guessed if (cost := c.estimated_cost) is not None), 0),
                       first_largest(guessed, lambda c: c.estimated_cost))


def review(record: "Record | str", budget: Budget | None = None, from_trick: int = 1,
           from_card: int | None = None, solver: Solver | None = None,
           progress: Callable[[int, int], Any] | None = None, lines: bool = False) -> Review:
    """Review the play of a record card by card, double dummy (docs/rules.md 11).

    ``budget`` bounds the whole review; each position analysed gets an equal share
    of what is left when its turn comes (see the module's text). ``from_trick`` (or
    ``from_card``, a 0-based card index, for the domino) starts the review later in
    the hand. ``solver`` replaces the anytime analysis by an exact solver (same
    signature as ``kingsolve.solve``; a position it stops keeps the ranges its
    ``SolveTimeout`` proved). ``progress(done, total)`` is called after each position.
    With ``lines``, each proved mistake whose position's value is exact gets the
    optimal line from there (``CardReview.line``, docs/rules.md 11), searched within
    that position's share (none when the share ends first).
    """
    if isinstance(record, str):
        record = Record.parse(record)
    if not isinstance(record, Record):
        raise InvalidRequestError(f"review needs a Record or record text, got "
                                  f"{type(record).__name__}")
    budget = budget or Budget()
    start = start_index(record, from_trick, from_card)
    seats = list(record.position(start).seats)
    began = time.perf_counter()
    indices = list(range(start, len(record.play))) or [start]
    deadline = budget.start(pieces=len(indices))
    found: dict[int, CardReview] = {}
    first: Analysis | None = None
    nodes = 0
    for done, i in enumerate(reversed(indices), 1):
        pos = record.position(i)
        share = deadline.take()
        if i == len(record.play):               # nothing played from the start on
            a = analyse_position(pos, seats, share, solver, cards=False)
        else:
            mover = pos.to_move
            assert mover is not None    # card i follows: the hand goes on
            a = analyse_position(pos, seats if i == start else [mover], share, solver)
            head = dict(index=i, trick=pos.trick_number + 1 if isinstance(pos, Position) else None,
                        seat=mover, card=record.play[i], forced=len(pos.legal_cards()) == 1)
            found[i] = _card_review(head, a, record.play[i], mover)
            if lines and found[i].mistake == "proved" and found[i].before is not None:
                found[i], line_nodes = _with_line(found[i], pos, share, solver)
                a = replace(a, nodes=a.nodes + line_nodes)
        deadline.done(share, int(a.nodes))
        nodes += int(a.nodes)
        if i == start:
            first = a
        if progress is not None and i < len(record.play):
            progress(done, len(record.play) - start)
    reviews = [found[i] for i in sorted(found)]
    assert first is not None
    summaries = {s: _seat_summary(s, [c for c in reviews if c.seat == s]) for s in seats}
    return Review(record, start, tuple(reviews), summaries, dict(first.values),
                  record.final_scores(), budget, nodes, (time.perf_counter() - began) * 1000,
                  start_bounds=dict(first.bounds), start_estimates=dict(first.estimates))


def _with_line(card: CardReview, position, share: Budget,
               solver: Solver | None) -> tuple[CardReview, int]:
    """The card's review with the optimal line of its seat from the position where it
    was played, and the nodes that took (the review as it was on a budget stop)."""
    try:
        result = solve_position(position, [card.seat], share, solver, line=card.seat)
    except SolveTimeout:
        return card, 0
    return replace(card, line=result.line), int(result.nodes)


def start_index(record: Record, from_trick: int = 1, from_card: int | None = None) -> int:
    """The index of the first card a review of ``record`` from there looks at.

    Raises ``InvalidRequestError`` for a start the record does not have, the same
    for the API and the command line: a trick past the last one played is refused
    with the record's trick count, never moved back to it.
    """
    if from_card is not None:
        return check_int(from_card, "from_card", 0, len(record.play),
                         f"a card index from 0 to {len(record.play)}")
    if record.is_domino:
        if from_trick != 1:
            raise InvalidRequestError(f"invalid from_trick {from_trick!r}: the domino has no "
                                      f"tricks (from_card starts a review at a card)")
        return 0
    tricks = (len(record.play) + record.deal.players - 1) // record.deal.players
    if not is_int(from_trick, 1, max(1, tricks)):
        raise InvalidRequestError(f"invalid from_trick {excerpt(from_trick)}: the record has "
                                  f"{tricks} trick{'' if tricks == 1 else 's'} played "
                                  f"({len(record.play)} cards), so expected 1 to {max(1, tricks)}")
    return (from_trick - 1) * record.deal.players
