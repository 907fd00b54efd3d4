"""Post-game review: what each card played cost its player, double dummy.

For every card of a record, the value of the position for the seat that played it
before and after the card (RULES.md section 11: the score the seat can guarantee
against the other three; its side's exact value in doubles), the points the card
cost (before - after: 0 for a double-dummy-best card), the best cards at that moment
and whether the card was forced (the only legal card).

One search per position: the per-card values of the seat on move give the value
after each of its cards, the best of them the value before. With
``skip_unsolved=True`` a position whose search reaches the budget is kept as an
unsolved card (the range of the mover's value proved so far, no cost) and the
review goes on: small budgets then give a whole 13-card hand, exact where the
search finishes (the later tricks) and ranges before.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .analysis import format_number
from .cards import Card, Seat
from .errors import InvalidRequestError, KingsolveError, SolveTimeout
from .record import Record
from .result import Budget, Number, SolveResult, json_number

__all__ = ["review", "Review", "CardReview", "SeatSummary", "format_number", "solve_position"]

Solver = Callable[..., SolveResult]


def solve_position(position, seats: Iterable[Seat] | None = None, budget: Budget | None = None,
                   solver: Solver | None = None) -> SolveResult:
    """Solve a trick or domino position with the library's solver (or ``solver``)."""
    if solver is None:
        if getattr(position.contract, "kind", "tricks") == "domino":
            from .domino import solve_domino as solver
        else:
            from .solver import solve as solver
    return solver(position, seats=None if seats is None else list(seats), budget=budget)


@dataclass(frozen=True)
class CardReview:
    """One card of the play and what it cost the seat that played it."""

    index: int                  # 0-based index of the card in the play
    trick: int | None           # 1-based trick number (None in the domino)
    seat: Seat
    card: Card
    before: Number | None       # the seat's value before the card (None: unsolved)
    after: Number | None        # the seat's value after the card (None: unsolved)
    best: tuple[Card, ...]      # the cards of the best value at that moment
    forced: bool                # the only legal card
    values: dict[Card, Number] = field(default_factory=dict)  # every legal card's value
    bounds: tuple[Number, Number] | None = None  # unsolved: the value range proved before

    @property
    def solved(self) -> bool:
        """Whether the search of this position finished within the budget."""
        return self.before is not None

    @property
    def cost(self) -> Number | None:
        """The points the card gave away: before - after (0 for a best card; None
        when the position was not solved)."""
        if self.before is None or self.after is None:
            return None
        return self.before - self.after

    def to_dict(self) -> dict:
        def num(x: Number | None):
            return None if x is None else json_number(x)
        return {"index": self.index, "trick": self.trick, "seat": self.seat.name,
                "card": str(self.card), "before": num(self.before),
                "after": num(self.after), "cost": num(self.cost),
                "best": [str(c) for c in self.best], "forced": self.forced,
                "values": {str(c): json_number(v) for c, v in self.values.items()},
                "solved": self.solved,
                "bounds": None if self.bounds is None else [json_number(v) for v in self.bounds]}


@dataclass(frozen=True)
class SeatSummary:
    """A seat's mistakes over the reviewed cards."""

    seat: Seat
    cards: int                       # cards reviewed (solved)
    cost: Number                     # total points given away
    costly: int                      # cards with a positive cost
    largest: CardReview | None       # the first of the costliest cards (None if no cost)
    unsolved: int = 0                # cards whose search reached the budget (skipped)

    def to_dict(self) -> dict:
        return {"seat": self.seat.name, "cards": self.cards, "cost": json_number(self.cost),
                "costly": self.costly, "unsolved": self.unsolved,
                "largest": None if self.largest is None else self.largest.to_dict()}


@dataclass(frozen=True)
class Review:
    """The review of one record, from card ``start`` to the end of its play."""

    record: Record
    start: int                               # index of the first card reviewed
    cards: tuple[CardReview, ...]
    seats: dict[Seat, SeatSummary]
    start_values: dict[Seat, Number]         # every seat's value before card ``start``
                                             # (empty when that search did not finish)
    final_scores: dict[Seat, Number] | None  # the hand's actual scores, when known
    budget: Budget
    nodes: int = 0
    ms: float = 0.0

    @property
    def total_cost(self) -> dict[Seat, Number]:
        """Each seat's total cost."""
        return {s: summary.cost for s, summary in self.seats.items()}

    def to_dict(self) -> dict:
        r = self.record
        return {
            "record": r.to_dict(),
            "start": self.start,
            "start_trick": None if r.is_domino else self.start // r.deal.players + 1,
            "start_values": {s.name: json_number(v) for s, v in self.start_values.items()},
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
            f"{s.name} {format_number(v)}" for s, v in self.start_values.items())
            or "not solved within the budget"))
        if self.start:
            lines.append(f"(the cards before {where} are not reviewed)")
        lines.append("")
        by_index = {c.index: c for c in self.cards}
        if r.is_domino:
            lines.extend(self._domino_lines(by_index))
        else:
            lines.extend(self._trick_lines(by_index))
        lines.append("")
        lines.append("Mistakes (points given away, double dummy):")
        for seat, summary in self.seats.items():
            skipped = f" ({summary.unsolved} not solved)" if summary.unsolved else ""
            if not summary.costly:
                lines.append(f"  {seat.name}: none in {summary.cards} cards{skipped}")
                continue
            big = summary.largest
            assert big is not None
            lines.append(f"  {seat.name}: {format_number(summary.cost).lstrip('+')} in "
                         f"{summary.costly} of {summary.cards} cards; largest "
                         f"{big.card} ({format_number(big.cost).lstrip('+')})"
                         + ("" if big.trick is None else f" at trick {big.trick}") + skipped)
        if self.final_scores is not None:
            lines.append("Score: " + "  ".join(f"{s.name} {format_number(v)}"
                                               for s, v in self.final_scores.items()))
        return "\n".join(lines) + "\n"

    def _unsolved_line(self, c: CardReview) -> str:
        rng = "" if c.bounds is None else (f" (value {format_number(c.bounds[0])} to "
                                           f"{format_number(c.bounds[1])})")
        return f"      ? {c.seat.name} {c.card}: not solved within the budget{rng}"

    def _mistake_line(self, c: CardReview) -> str:
        return (f"      * {c.seat.name} {c.card} cost {format_number(c.cost).lstrip('+')} "
                f"(value {format_number(c.before)} -> {format_number(c.after)}; best "
                f"{' '.join(str(b) for b in c.best)})")

    def _trick_lines(self, by_index: dict[int, CardReview]) -> list[str]:
        r = self.record
        pos = r.position(0)
        lines = []
        notes: list[str] = []
        cells: list[str] = []
        for i, card in enumerate(r.play):
            seat = pos.to_move
            mark = ""
            c = by_index.get(i)
            if c is not None and not c.solved:
                mark = "?"
                notes.append(self._unsolved_line(c))
            elif c is not None and c.cost > 0:
                mark = "*"
                notes.append(self._mistake_line(c))
            elif c is not None and c.forced:
                mark = "="
            elif c is None:
                mark = " "
            cells.append(f"{seat.name} {card}{mark or ' '}")
            number = pos.trick_number + 1
            trick = pos.play(card)
            if trick is not None or i == len(r.play) - 1:
                tail = (f"  won by {trick.winner.name} ({format_number(trick.points)})"
                        if trick is not None else "")
                lines.append(f"  {number:>2}. " + "  ".join(cells) + tail)
                lines.extend(notes)
                cells, notes = [], []
        lines.append("  (* a costly card, = a forced card, ? not solved within the budget)")
        return lines

    def _domino_lines(self, by_index: dict[int, CardReview]) -> list[str]:
        r = self.record
        pos = r.position(0)
        lines, cells, notes = [], [], []
        for i, card in enumerate(r.play):
            seat = pos.to_move
            c = by_index.get(i)
            mark = " "
            if c is not None and not c.solved:
                mark = "?"
                notes.append(self._unsolved_line(c))
            elif c is not None and c.cost > 0:
                mark = "*"
                notes.append(self._mistake_line(c))
            elif c is not None and c.forced:
                mark = "="
            cells.append(f"{seat.name} {card}{mark}")
            pos.play(card)
            if len(cells) == 4 or i == len(r.play) - 1:
                lines.append(f"  {i - len(cells) + 2:>3}. " + "  ".join(cells))
                lines.extend(notes)
                cells, notes = [], []
        lines.append("  (* a costly card, = a forced card)")
        return lines


def review(record: "Record | str", budget: Budget | None = None, from_trick: int = 1,
           from_card: int | None = None, solver: Solver | None = None,
           progress: Callable[[int, int], Any] | None = None,
           skip_unsolved: bool = False) -> Review:
    """Review the play of a record card by card, double dummy (RULES.md 11).

    ``from_trick`` (or ``from_card``, a 0-based card index, for the domino) starts the
    review later in the hand: the positions there are smaller and solve faster.
    ``solver`` replaces the library's solver (same signature as ``kingsolve.solve``);
    ``progress(done, total)`` is called after each position. A search that reaches
    the budget raises ``SolveTimeout``, or with ``skip_unsolved`` leaves that card
    unsolved (``CardReview.bounds``: the range proved) and the review goes on.
    """
    if isinstance(record, str):
        record = Record.parse(record)
    if not isinstance(record, Record):
        raise InvalidRequestError(f"review needs a Record or record text, got "
                                  f"{type(record).__name__}")
    budget = budget or Budget()
    start = _start_index(record, from_trick, from_card)
    pos = record.position(start)
    seats = list(pos.seats)
    reviews: list[CardReview] = []
    start_values: dict[Seat, Number] = {}
    nodes, began = 0, time.perf_counter()
    total = len(record.play) - start
    for i in range(start, len(record.play)):
        card = record.play[i]
        mover = pos.to_move
        wanted = seats if i == start else [mover]
        head = dict(index=i, trick=None if record.is_domino else pos.trick_number + 1,
                    seat=mover, card=card, forced=len(pos.legal_cards()) == 1)
        try:
            result = solve_position(pos, wanted, budget, solver)
        except SolveTimeout as exc:
            if not skip_unsolved:
                where = "" if record.is_domino else f" (trick {pos.trick_number + 1})"
                raise SolveTimeout(f"review stopped at card {i + 1}{where}: {exc} (skip_unsolved, "
                                   f"--skip-unsolved in the CLI, goes on past such positions)",
                                   bounds=exc.bounds) from None
            reviews.append(CardReview(**head, before=None, after=None, best=(),
                                      bounds=(exc.bounds or {}).get(mover)))
        else:
            nodes += int(result.nodes)
            if i == start:
                start_values = {s: result.values[s] for s in seats}
            if card not in result.cards:
                raise KingsolveError(f"the solver gave no value for {card} at card {i + 1}: "
                                     f"its per-card values are {sorted(map(str, result.cards))}")
            reviews.append(CardReview(
                **head, before=result.values[mover], after=result.cards[card],
                best=tuple(sorted(result.best, key=lambda c: (c.suit, -c.rank))),
                values=dict(result.cards)))
        pos.play(card)
        if progress is not None:
            progress(i - start + 1, total)
    if start == len(record.play):
        result = solve_position(pos, seats, budget, solver)
        nodes += int(result.nodes)
        start_values = {s: result.values[s] for s in seats}
    summaries = {}
    for seat in seats:
        mine = [c for c in reviews if c.seat == seat and c.solved]
        costly = [c for c in mine if c.cost > 0]
        largest = max(costly, key=lambda c: c.cost, default=None)
        if largest is not None:
            largest = next(c for c in costly if c.cost == largest.cost)
        unsolved = sum(1 for c in reviews if c.seat == seat and not c.solved)
        summaries[seat] = SeatSummary(seat, len(mine), sum((c.cost for c in mine), 0),
                                      len(costly), largest, unsolved)
    return Review(record, start, tuple(reviews), summaries, start_values,
                  record.final_scores(), budget, nodes, (time.perf_counter() - began) * 1000)


def _start_index(record: Record, from_trick: int, from_card: int | None) -> int:
    if from_card is not None:
        if isinstance(from_card, bool) or not isinstance(from_card, int) or \
                not 0 <= from_card <= len(record.play):
            raise InvalidRequestError(f"invalid from_card {from_card!r}: expected a card index "
                                      f"from 0 to {len(record.play)}")
        return from_card
    if record.is_domino:
        if from_trick != 1:
            raise InvalidRequestError("the domino has no tricks: use from_card")
        return 0
    tricks = (len(record.play) + record.deal.players - 1) // record.deal.players
    if isinstance(from_trick, bool) or not isinstance(from_trick, int) or \
            not 1 <= from_trick <= max(1, tricks):
        raise InvalidRequestError(f"invalid from_trick {from_trick!r}: expected a trick from 1 "
                                  f"to {max(1, tricks)} (the record has {len(record.play)} cards)")
    return (from_trick - 1) * record.deal.players


# --- command line: kingsolve review FILE ----------------------------------------------------
def add_review_flags(p) -> None:
    """The flags of ``kingsolve review``."""
    p.add_argument("file", help="a record or match file (PBN-style), or - for standard input")
    p.add_argument("--json", action="store_true", help="print JSON instead of the report")
    p.add_argument("--from-trick", type=int, default=1, metavar="K",
                   help="review from trick K on (faster on long hands)")
    p.add_argument("--nodes", type=int, help="node budget of each search")
    p.add_argument("--ms", type=float, help="time budget of each search, in milliseconds")
    p.add_argument("--skip-unsolved", action="store_true",
                   help="go on past a position the budget does not solve (its card shows '?' "
                        "and the value range proved)")


#: The command line's time budget of one analysis (a solve, a table, a review, a choice)
#: when no ``--ms`` is given: long enough for most exact values below 10 tricks left,
#: short enough that an answer of estimates never keeps a user waiting long.
DEFAULT_MS = 10_000.0


def budget_from_args(args) -> Budget:
    """The budget the ``--nodes`` and ``--ms`` flags give (``DEFAULT_MS`` and the
    default nodes otherwise)."""
    base = Budget()
    nodes = base.nodes if getattr(args, "nodes", None) is None else args.nodes
    ms = DEFAULT_MS if getattr(args, "ms", None) is None else args.ms
    if nodes < 1 or ms <= 0:
        raise InvalidRequestError(f"invalid budget: --nodes {nodes} and --ms {ms} must be positive")
    return Budget(nodes=nodes, ms=ms, tt_mb=base.tt_mb)


class ProgressBar:
    """A one-line progress bar on standard error, drawn only when it is a terminal."""

    def __init__(self, label: str, stream=None) -> None:
        import sys
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        width = 30
        filled = width * done // total
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
                          f"{done}/{total}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def cmd_review(args) -> int:
    """``kingsolve review FILE``: a review of each hand; a match report for several."""
    import json
    import sys

    from .record import parse_records, read_records
    from .report import match_report

    records = parse_records(sys.stdin.read()) if args.file == "-" else read_records(args.file)
    budget = budget_from_args(args)
    if len(records) == 1:
        start = max(1, args.from_trick) if not records[0].is_domino else 1
        rv = review(records[0], budget=budget, from_trick=start,
                    progress=ProgressBar("review"), skip_unsolved=args.skip_unsolved)
        print(json.dumps(rv.to_dict(), ensure_ascii=False) if args.json else rv.text(), end="\n"
              if args.json else "")
        return 0
    report = match_report(records, budget=budget, from_trick=max(1, args.from_trick),
                          progress=ProgressBar(f"review {len(records)} hands"),
                          skip_unsolved=args.skip_unsolved)
    if args.json:
        out = report.to_dict()
        out["reviews"] = [None if h.review is None else h.review.to_dict() for h in report.hands]
        print(json.dumps(out, ensure_ascii=False))
        return 0
    for h in report.hands:
        if h.review is not None:
            print(h.review.text())
    print(report.text(), end="")
    return 0
