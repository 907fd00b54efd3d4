"""Match reports: the score of every hand next to its double-dummy values, with checks.

For a match file: per hand the actual score of each seat next to the value the seat
could guarantee double dummy from the deal (docs/rules.md 11), the running totals, the
total cost of each seat's mistakes (from ``kingsolve.hands.reviews``), and the checks the
rules promise: each complete hand hands out exactly its contract's points (docs/rules.md
3, plus payments that move points between seats), every rule set's full match adds
up to zero (docs/rules.md 4-8), and the Turkish quotas (docs/rules.md 7).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..game.cards import Seat
from ..game.position import Position
from ..errors import InvalidRequestError
from ..game.record import Record, parse_records
from ..search.budget import Budget
from ..game.numbers import Number, json_number
from ..search.result import Solver
from .reviews import Review, format_number, review, start_index
from ..search.dispatch import analyse_position

__all__ = ["match_report", "MatchReport", "HandReport", "hand_total"]



def hand_total(record: Record) -> Number:
    """The points a complete hand of this contract hands out in all (docs/rules.md 3, 9)."""
    if not record.is_played:
        return sum(record.adjustments().values())   # festa settled 433 (docs/rules.md 6)
    start = record.position(0)
    if not isinstance(start, Position):
        return 0  # the domino: the winner(s) take exactly what the losers lose
    t = start.tables
    return (t.points_of_mask(record.deal.mask) + sum(t.trick_points)
            + t.seat_constant * record.deal.players)


@dataclass(frozen=True)
class HandReport:
    """One hand of the match."""

    number: int                               # the hand's number in the match
    record: Record
    actual: dict[Seat, Number] | None         # the score as played (None if unknown)
    values: dict[Seat, Number] | None         # double-dummy values from the deal (None:
                                              # not solved within the budget)
    costs: dict[Seat, Number] | None          # the seats' mistakes (None if not reviewed)
    running: dict[Seat, Number]               # running totals after this hand
    total: Number                             # the contract's points for the hand
    sum_ok: bool | None                       # actual scores add up to ``total``
    review: Review | None = None

    def to_dict(self) -> dict:
        def seats(d: dict | None) -> dict | None:
            return None if d is None else {s.name: json_number(v) for s, v in d.items()}
        return {"number": self.number, "contract": self.record.contract,
                "trump": None if self.record.trump is None else self.record.trump.letter,
                "dealer": None if self.record.dealer is None else self.record.dealer.name,
                "leader": self.record.leader.name, "festa": self.record.festa,
                "actual": seats(self.actual),
                "values": seats(self.values), "costs": seats(self.costs),
                "running": seats(self.running), "total": json_number(self.total),
                "sum_ok": self.sum_ok}


@dataclass(frozen=True)
class MatchReport:
    """A whole match: the hands, the totals and the checks."""

    variant: str
    hands: tuple[HandReport, ...]
    totals: dict[Seat, Number]
    costs: dict[Seat, Number]
    checks: dict[str, Any]
    budget: Budget
    nodes: int = 0
    ms: float = 0.0
    seeds: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"variant": self.variant, "hands": [h.to_dict() for h in self.hands],
                "totals": {s.name: json_number(v) for s, v in self.totals.items()},
                "costs": {s.name: json_number(v) for s, v in self.costs.items()},
                "checks": self.checks, "seeds": self.seeds, "budget": self.budget.to_dict(),
                "nodes": int(self.nodes), "ms": round(float(self.ms), 3)}

    def text(self) -> str:
        """A score sheet: per hand actual, double dummy, mistakes and running totals."""
        seats = list(self.totals)
        lines = [f"Match report · {self.variant} · {len(self.hands)} hands",
                 f"{'hand':<28}" + "".join(f"{s.name:>8}" for s in seats)]

        def row(label: str, d: dict | None, signed: bool = True) -> str:
            if d is None:
                return f"  {label:<26}" + "".join(f"{'?':>8}" for _ in seats)
            cells = (format_number(d[s]) if signed else format_number(d[s]).lstrip("+")
                     for s in seats)
            return f"  {label:<26}" + "".join(f"{c:>8}" for c in cells)

        for h in self.hands:
            r = h.record
            title = f"{h.number:>2}. {r.contract}" + ("" if r.trump is None else f" {r.trump.letter}") \
                + ("" if r.is_played else " settled 433")
            lines.append(title + ("" if h.sum_ok in (None, True) else "  (scores do not add up!)"))
            lines.append(row("played", h.actual))
            lines.append(row("double dummy", h.values))
            if h.costs is not None:
                lines.append(row("mistakes", h.costs, signed=False))
            lines.append(row("running total", h.running))
        lines.append(row("TOTAL", self.totals))
        lines.append(row("mistakes in all", self.costs, signed=False))
        c = self.checks
        lines.append(f"Hand sums: {'ok' if c['hand_sums_ok'] else 'WRONG in hands ' + str(c['hand_sums_wrong'])}")
        if c["zero_sum"] is None:
            lines.append(f"Zero sum: not checked ({len(self.hands)} of {c['match_hands']} hands)")
        else:
            lines.append(f"Zero sum: {'ok' if c['zero_sum'] else 'WRONG'} "
                         f"(the totals add up to {c['match_sum']})")
        if "quotas" in c:
            q = c["quotas"]
            lines.append(f"Quotas: {'ok' if q['ok'] else 'broken: ' + '; '.join(q['problems'])}")
        return "\n".join(lines) + "\n"


def match_report(records: "Sequence[Record] | str", budget: Budget | None = None,
                 review_play: bool = True, from_trick: int = 1, solver: Solver | None = None,
                 progress: Callable[[int, int], Any] | None = None,
                 lines: bool = False) -> MatchReport:
    """Report on a match: records (or match-file text) of one rule set, in order.

    With ``review_play`` each hand's play is reviewed (``from_trick`` on) for the
    mistakes (the points proved given away); otherwise only the deal's values are
    analysed. ``budget`` bounds each hand. A hand whose values are not all proved
    exact within it shows no double-dummy values. ``progress(done, total)`` is called
    after each hand.
    ``lines`` gives each reviewed hand's proved mistakes the line best play would have
    followed instead.
    """
    records = _match_records(records, review_play, from_trick)
    budget = budget or Budget()
    began = time.perf_counter()
    seats = list(records[0].deal.seats)
    running: dict[Seat, Number] = {s: 0 for s in seats}
    costs_total: dict[Seat, Number] = {s: 0 for s in seats}
    hands, wrong, nodes = [], [], 0
    for i, record in enumerate(records):
        values, costs, rv = _hand_values(record, budget, review_play, from_trick, solver, lines)
        if rv is not None:
            nodes += rv.nodes
        actual = record.final_scores()
        total = hand_total(record)
        sum_ok = None
        if actual is not None:
            for s in seats:
                running[s] += actual[s]
            sum_ok = sum(actual.values()) == total
            if not sum_ok:
                wrong.append(record.hand or i + 1)
        if costs is not None:
            for s in seats:
                costs_total[s] += costs[s]
        hands.append(HandReport(record.hand or i + 1, record, actual, values, costs,
                                dict(running), total, sum_ok, rv))
        if progress is not None:
            progress(i + 1, len(records))
    checks = _match_checks(records, hands, running, wrong)
    seeds = [r.seed for r in records if r.seed is not None]
    return MatchReport(records[0].variant, tuple(hands), dict(running), costs_total, checks,
                       budget, nodes, (time.perf_counter() - began) * 1000, seeds)


def _match_records(records: "Sequence[Record] | str", review_play: bool,
                   from_trick: int) -> list[Record]:
    """The match's records, refused at once if they cannot make one report."""
    if isinstance(records, str):
        records = parse_records(records)
    records = list(records)
    if not records:
        raise InvalidRequestError("match report: no records")
    if not all(isinstance(r, Record) for r in records):
        raise InvalidRequestError("match report: expected Record values or match-file text")
    variants = {r.variant for r in records}
    if len(variants) != 1:
        raise InvalidRequestError(f"match report: the records mix rule sets "
                                  f"({', '.join(sorted(variants))})")
    rules = records[0].rules
    for i, record in enumerate(records[1:], 2):
        if record.rules != rules:        # one name, but house rules in a tag Rules
            raise InvalidRequestError(f"match report: hand {i} is played under other rules "
                                      f"than the first hand's, both named {rules.name!r}")
    seats = list(records[0].deal.seats)
    for i, record in enumerate(records):
        if list(record.deal.seats) != seats:
            raise InvalidRequestError(f"match report: hand {i + 1} has seats "
                                      f"{' '.join(s.name for s in record.deal.seats)}, the "
                                      f"first hand {' '.join(s.name for s in seats)}")
        # Every start is checked before the first search: a match is refused at once,
        # not after minutes of reviews, for a trick one hand does not have.
        if review_play and record.is_played and record.play and not record.is_domino:
            try:
                start_index(record, from_trick)
            except InvalidRequestError as exc:
                raise InvalidRequestError(f"match report: hand {i + 1}: {exc}") from None
    return records


def _hand_values(record: Record, budget: Budget, review_play: bool, from_trick: int,
                 solver: Solver | None, lines: bool = False):
    """(values, costs, review) of one hand: costs and review only when its play is reviewed."""
    if not record.is_played:
        # a festa settled 433 (docs/rules.md 6): the settlement is the hand's value
        return record.adjustments(), None, None
    if not (review_play and record.play):
        return _deal_values(record, budget, solver), None, None
    start = 1 if record.is_domino else from_trick
    rv = review(record, budget=budget, from_trick=start, solver=solver, lines=lines)
    if rv.start == 0:
        values = _exact(rv.start_values, rv.start_bounds)
    else:
        values = _deal_values(record, budget, solver)
    return values, dict(rv.total_cost), rv


def _match_checks(records: list[Record], hands: list, running: dict, wrong: list) -> dict[str, Any]:
    """The match's sums: each hand's, the whole match's, and the Turkish quotas."""
    rules = records[0].rules
    doubles = records[0].doubles
    match_hands = len(rules.match_schedule(doubles))
    complete = len(records) == match_hands and all(h.actual is not None for h in hands)
    match_sum = sum(running.values())
    checks: dict[str, Any] = {
        "hand_sums_ok": not wrong, "hand_sums_wrong": wrong, "match_hands": match_hands,
        "match_sum": json_number(match_sum),
        "zero_sum": (match_sum == 0) if complete else None,
    }
    if rules.lacks("chooser") is None:
        checks["quotas"] = _turkish_quotas(records, rules, complete)
    return checks


def _exact(values: Mapping[Seat, Number], bounds: Mapping) -> dict[Seat, Number] | None:
    """The values when every seat's is exact, else None."""
    return dict(values) if bounds and len(values) == len(bounds) else None


def _deal_values(record: Record, budget: Budget,
                 solver: Solver | None) -> dict[Seat, Number] | None:
    pos = record.position(0)
    a = analyse_position(pos, list(pos.seats), budget, solver, cards=False)
    return _exact(a.values, a.bounds)


def _turkish_quotas(records: list[Record], rules, complete: bool) -> dict:
    """docs/rules.md 7: each penalty contract twice a match; each chooser 3 penalties, 2 trumps."""
    from .match import TURKISH_PENALTIES, ScoreSheetError, check_turkish_choices
    per_contract = {name: 0 for name in TURKISH_PENALTIES}
    per_seat = {s.name: {"penalties": 0, "trumps": 0} for s in Seat}
    for r in records:
        chooser = r.leader.name  # the chooser leads the first trick
        if r.contract == "trumps":
            per_seat[chooser]["trumps"] += 1
        else:
            per_contract[r.contract] += 1
            per_seat[chooser]["penalties"] += 1
    problems = []
    try:
        check_turkish_choices([(r.leader, r.contract) for r in records], complete=complete,
                              variant=rules)
    except ScoreSheetError as exc:
        problems.append(str(exc))
    return {"contracts": per_contract, "choosers": per_seat, "ok": not problems,
            "problems": problems}
