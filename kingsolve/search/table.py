"""A deal's double-dummy table: every trick contract times every seat, ``dd_table``.

Each row is an anytime analysis of the contract's opening position (``kingsolve.analyse``,
seats' values only), so every cell answers within the table's budget: exact where
proved, otherwise an estimate inside a proved range. The budget bounds the whole
table: the rows take equal shares of what is left as they start, and the time a
quick row leaves goes to the rows still open, running or to come (``analyse_each``,
which the choices share).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator, Mapping

from .analysis import LEGEND, Analysis, analyses, exact_analysis, value_text
from ..game.cards import Seat, Suit
from ..checks import check_threads
from ..game.deal import Deal
from ..errors import InvalidRequestError, SolveTimeout
from ..game.position import Position
from .budget import Budget, Deadline
from ..game.numbers import Number, json_number
from .result import Solver
from ..game.rule_documents import resolve_variant
from ..game.rules import TRUMP_NAMED, TRUMP_NAMED_OR_NONE, RuleSet
from .solver import solve

__all__ = ["Table", "TableRow", "dd_table", "analyse_each", "format_table"]


@dataclass(frozen=True)
class TableRow:
    """One contract (with one trump) of a table and its analysis for every seat."""

    contract: str
    trump: Suit | None
    analysis: Analysis

    @property
    def label(self) -> str:
        """The contract's name, with the trump suit's letter when it has one."""
        return self.contract if self.trump is None else f"{self.contract} {self.trump.name}"

    @property
    def solved(self) -> bool:
        """Whether every seat's value of the row is exact."""
        return all(lo == hi for lo, hi in self.analysis.bounds.values())

    def cell(self, seat: Seat) -> str:
        """The seat's value as text: exact, ``≈x (lo..hi)``, or ``lo..hi``."""
        return value_text(self.analysis.bounds.get(seat), self.analysis.estimates.get(seat))

    def to_dict(self) -> dict:
        a = self.analysis
        return {"contract": self.contract, "trump": None if self.trump is None else self.trump.name,
                "label": self.label, "solved": self.solved,
                "values": {s.name: json_number(v) for s, v in a.values.items()},
                "bounds": {s.name: [json_number(lo), json_number(hi)]
                           for s, (lo, hi) in a.bounds.items()},
                "estimates": {s.name: json_number(v) for s, v in a.estimates.items()},
                "horizon": a.horizon, "nodes": int(a.nodes), "ms": round(float(a.ms), 3)}


@dataclass(frozen=True)
class Table:
    """A deal's table: a row per trick contract (per trump suit), a cell per seat.

    ``budget`` bounded the whole table. A cell's value is exact where its row's
    analysis proved it (``values``), else an estimate inside a proved range.
    """

    variant: str
    deal: Deal
    leader: Seat
    doubles: bool
    seats: tuple[Seat, ...]
    rows: tuple[TableRow, ...]
    budget: Budget
    nodes: int = 0
    ms: float = 0.0

    @property
    def solved(self) -> bool:
        """Whether every cell is exact."""
        return all(r.solved for r in self.rows)

    def row(self, label: str) -> TableRow:
        """The row of that label (``"no-queens"``, ``"trumps S"``)."""
        for r in self.rows:
            if r.label == label:
                return r
        raise InvalidRequestError(f"no row {label!r}: expected one of "
                                  f"{', '.join(r.label for r in self.rows)}")

    @property
    def values(self) -> dict[str, dict[Seat, Number]]:
        """Each row's exact values by label (the seats not proved left out)."""
        return {r.label: r.analysis.values for r in self.rows}

    def to_dict(self) -> dict:
        """The table as JSON: per row ``values`` (exact only), ``bounds``,
        ``estimates`` and ``solved``."""
        return {"variant": self.variant, "deal": self.deal.pbn(), "leader": self.leader.name,
                "doubles": self.doubles, "seats": [s.name for s in self.seats],
                "solved": self.solved, "rows": [r.to_dict() for r in self.rows],
                "budget": self.budget.to_dict(), "nodes": int(self.nodes),
                "ms": round(float(self.ms), 3)}


def _table_rows(variant: RuleSet, contracts: "Iterable[str] | None",
                trump: "Suit | str | None") -> list[tuple[str, Suit | None]]:
    names = list(contracts) if contracts is not None else [
        n for n, c in variant.contracts.items() if c.kind == "tricks"]
    rows: list[tuple[str, Suit | None]] = []
    for name in names:
        c = variant.contract(name)
        if c.kind != "tricks":
            raise InvalidRequestError(f"contract {name!r} is not a trick contract")
        if c.trump in (TRUMP_NAMED, TRUMP_NAMED_OR_NONE):
            suits = [Suit.parse(trump)] if trump not in (None, "") else list(Suit)
            rows.extend((name, s) for s in suits)
            if c.trump == TRUMP_NAMED_OR_NONE and trump in (None, ""):
                rows.append((name, None))
        else:
            rows.append((name, None))
    return rows


def dd_table(variant: "str | RuleSet | Mapping[str, Any]", deal: "Deal | str", leader: "Seat | str" = Seat.N,
             contracts: "Iterable[str] | None" = None, trump: "Suit | str | None" = None,
             doubles: bool = False, budget: Budget | None = None, threads: int = 2,
             exact: bool = False, on_update: Callable[[Table], Any] | None = None) -> Table:
    """Every trick contract (trump contracts once per trump suit) times every seat.

    ``budget`` bounds the whole table, never a row: the rows run on ``threads``
    threads (the search releases the GIL) and share it as ``analyse_each`` does, so
    the time the quick rows leave goes to the rows still open. Every cell gets a
    proved range and an estimate inside it (exact where proved). With ``exact``
    every value must be proved within the budget, or ``SolveTimeout`` names the row
    left open. ``on_update`` is called with the table so far (the rows begun, each
    in its latest state) whenever a row improves, one call at a time.
    """
    rs = resolve_variant(variant)
    deal = deal if isinstance(deal, Deal) else Deal(deal)
    budget = budget or Budget()
    check_threads(threads)
    rows = _table_rows(rs, contracts, trump)
    positions = [Position(rs, name, deal, leader=leader, trump=t, doubles=doubles)
                 for name, t in rows]
    threads = min(threads, max(1, len(positions)))
    empty = Table(variant=rs.name, deal=deal, leader=Seat.parse(leader), doubles=bool(doubles),
                  seats=tuple(positions[0].seats if positions else deal.seats), rows=(),
                  budget=budget)
    start = time.perf_counter()
    shown = threading.Lock()
    latest: dict[int, Analysis] = {}

    def table_of(analyses: dict[int, Analysis]) -> Table:
        done = sorted(analyses)
        return replace(empty, rows=tuple(TableRow(*rows[i], analyses[i]) for i in done),
                       nodes=sum(int(analyses[i].nodes) for i in done),
                       ms=(time.perf_counter() - start) * 1000.0)

    def improved(index: int, analysis: Analysis) -> None:
        with shown:
            latest[index] = analysis
            if on_update is not None:
                on_update(table_of(latest))

    labels = [name if t is None else f"{name} {t.name}" for name, t in rows]
    results = analyse_each(list(zip(labels, positions)), list(empty.seats),
                           budget.start(pieces=len(positions), threads=threads),
                           threads=threads, exact=exact, what="table row",
                           on_update=improved if on_update is not None else None)
    return table_of(dict(enumerate(results)))


def analyse_each(items: "list[tuple[str, Position]]", seats: list[Seat], deadline: Deadline,
                 threads: int = 1, exact: bool = False, solver: Solver | None = None,
                 on_update: Callable[[int, Analysis], Any] | None = None,
                 what: str = "position") -> list[Analysis]:
    """The analysis of each labelled position (the seats' values only), all within
    one deadline, in the order given.

    The positions run ``threads`` at once, each turn with an equal part of what is
    left (``Deadline.take``), grown while the others leave time
    (``Deadline.overrun``). An anytime analysis (the library's search, not ``exact``)
    that uses its part with positions still waiting is set aside, its search kept,
    and goes on after them; a search whose budget is fixed when it starts
    (``exact``, or a given ``solver``) that stops is searched again once the others
    have had their turn, with an equal part of what is left then, its ranges kept,
    while the budget has time and nodes left. So the whole budget goes to the values
    still open. With ``exact`` a value
    left open raises ``SolveTimeout`` naming the position (``what`` and its label)
    with the ranges proved. ``on_update(index, analysis)`` is called with each
    improvement, from the thread that made it.
    """
    work = _Shares(items, seats, deadline, exact, solver, on_update)
    try:
        if threads <= 1:
            work.run()
        else:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                for f in [pool.submit(work.run) for _ in range(threads)]:
                    f.result()
    finally:
        work.close()
    if work.open is not None:
        # the first position in order left open, and every other one after it
        left = [j for j in range(len(items)) if j in work.best and not work.settled(j)]
        i, why = left[0] if left else work.open[0], work.open[1]
        bounds = dict(work.best[i].bounds) if i in work.best else {}
        head = f"{what} {items[i][0]!r} stopped: {why}"
        stop = SolveTimeout.proved(head, bounds) if bounds else SolveTimeout(head)
        if len(left) > 1:
            stop = SolveTimeout(f"{stop} (also left open: "
                                f"{', '.join(repr(items[j][0]) for j in left[1:])})",
                                bounds=stop.bounds)
        raise stop
    return [work.best[i] for i in range(len(items))]


class _Shares:
    """The positions of ``analyse_each`` against their deadline: the ones still to
    search, each one's best analysis so far and the anytime analyses set aside."""

    def __init__(self, items: "list[tuple[str, Position]]", seats: list[Seat],
                 deadline: Deadline, exact: bool, solver: Solver | None,
                 on_update: Callable[[int, Analysis], Any] | None) -> None:
        self.items, self.seats, self.deadline = items, seats, deadline
        self.fixed = exact or solver is not None
        self.exact, self.solver, self.on_update = exact, solver, on_update
        self.best: dict[int, Analysis] = {}
        self.aside: dict[int, Iterator[Analysis]] = {}  # anytime analyses to go on with
        self.queue = deque(range(len(items)))
        self.again: list[int] = []          # to search again once the queue is done
        self.lock = threading.Lock()
        self.open: tuple[int, str] | None = None    # exact: the first left open, and why
        self.halt = threading.Event()       # start nothing more: that one, or a failure

    def _next(self) -> int | None:
        with self.lock:
            if self.halt.is_set():
                return None
            if not self.queue and self.again:
                if self.fixed:
                    self.deadline.plan(len(self.again))
                self.queue.extend(self.again)
                self.again = []
            return self.queue.popleft() if self.queue else None

    def run(self) -> None:
        """Search the positions in turn until none is left."""
        try:
            while (i := self._next()) is not None:
                if self.fixed:
                    self._fixed(i)
                else:
                    self._anytime(i)
        except BaseException:
            self.halt.set()
            raise

    def close(self) -> None:
        """End the analyses still set aside (a failure stopped the others)."""
        for gen in self.aside.values():
            gen.close()             # type: ignore[attr-defined]
        self.aside.clear()

    def _improved(self, i: int, a: Analysis) -> None:
        self.best[i] = a
        if self.on_update is not None:
            self.on_update(i, a)

    def _anytime(self, i: int) -> None:
        """One turn of the position's analysis: until it ends, or uses its part with
        other positions waiting (then it is set aside to go on after them)."""
        share = self.deadline.take()
        spent = 0
        try:
            gen = self.aside.pop(i, None)
            if gen is None:
                room = self.deadline.free()
                most = replace(room, nodes=room.nodes + share.nodes)
                gen = analyses(self.items[i][1], self.seats, most, cancel=self.halt,
                               cards=False)
            before = int(self.best[i].nodes) if i in self.best else 0
            for a in gen:
                spent = int(a.nodes) - before
                self._improved(i, a)
                if self.deadline.overrun(share, spent) and not self.deadline.expired():
                    with self.lock:
                        self.aside[i] = gen
                    self._again(i)
                    return
        finally:
            self.deadline.done(share, spent)

    def _fixed(self, i: int) -> None:
        """One search of the position with its share, searched again after the
        others if it stops while the budget has time and nodes left."""
        share = self.deadline.take()
        began = self.deadline.clock()
        a = None
        try:
            a = self._solve(self.items[i][1], share)
        finally:
            nodes = 0 if a is None else int(a.nodes)
            if a is not None and not a.solved and \
                    (self.deadline.clock() - began) * 1000.0 < 0.9 * share.ms:
                nodes = share.nodes     # stopped before its time: at its nodes
            self.deadline.done(share, nodes)
        self._improved(i, a if i not in self.best else _joined(self.best[i], a))
        if self.settled(i):
            return
        total = self.deadline.total
        if self.deadline.expired():
            self._left_open(i, f"not proved within the budget of {total.ms:g} ms")
        elif self.deadline.nodes_left <= 0:
            self._left_open(i, f"not proved within the budget of {total.nodes} nodes")
        else:
            self._again(i)

    def settled(self, i: int) -> bool:
        """Whether every seat's value of the position is proved (a search may stop
        before any range is)."""
        a = self.best[i]
        return a.solved and all(s in a.bounds for s in self.seats)

    def _again(self, i: int) -> None:
        """Search the position again once the queue is done. An analysis set aside
        counts as a piece to come at once, so that the running ones share with it; a
        search from scratch only then, so that the others have their whole part."""
        with self.lock:
            self.again.append(i)
        if not self.fixed:
            self.deadline.plan(1)

    def _left_open(self, i: int, why: str) -> None:
        if self.exact:
            with self.lock:
                if self.open is None:
                    self.open = (i, why)
            self.halt.set()

    def _solve(self, pos: Position, share: Budget) -> Analysis:
        try:
            if self.solver is None:
                return exact_analysis(pos, solve(pos, self.seats, share, cards=False))
            return exact_analysis(pos, self.solver(pos, seats=list(self.seats), budget=share))
        except SolveTimeout as exc:
            # the ranges proved only (a stop may come before any)
            return Analysis(to_move=pos.to_move, taken=dict(pos.taken), complete=False,
                            bounds=dict(exc.bounds or {}), estimates={}, card_bounds={},
                            card_estimates={}, best=[], horizon=None)


def _joined(old: Analysis, new: Analysis) -> Analysis:
    """Two analyses of one position as one: the ranges both proved, the estimates of
    the deeper horizon held in them, the nodes and time of both."""
    bounds: dict[Seat, tuple[Number, Number]] = {}
    for s in dict.fromkeys([*old.bounds, *new.bounds]):
        found = [r for r in (old.bounds.get(s), new.bounds.get(s)) if r is not None]
        bounds[s] = (max(lo for lo, _ in found), min(hi for _, hi in found))
    deeper = new if (new.horizon or -1) >= (old.horizon or -1) else old
    estimates: dict[Seat, Number] = {}
    for s, (lo, hi) in bounds.items():
        e = deeper.estimates.get(s, old.estimates.get(s, new.estimates.get(s)))
        if lo == hi:
            estimates[s] = lo
        elif e is not None:
            estimates[s] = min(max(e, lo), hi)
    extra = new.extra if new.bounds == bounds else old.extra if old.bounds == bounds else {}
    return replace(new, bounds=bounds, estimates=estimates, horizon=deeper.horizon,
                   nodes=old.nodes + new.nodes, ms=old.ms + new.ms, extra=extra)


def format_table(table: Table) -> str:
    """A table as readable text: one row per contract, a column per seat, the cells
    marked as exact, estimated or proved ranges, and a legend when any is not exact."""
    seats = table.seats
    cells = [[r.cell(s) for s in seats] for r in table.rows]
    width = max([len(r.label) for r in table.rows] + [len("contract")])
    # every column as wide as its widest cell, two spaces apart, so cells never touch
    col = max([len(c) for row in cells for c in row] + [3])
    lines = [f"{table.variant}  {table.deal.pbn()}  leader {table.leader.name}"
             + ("  doubles" if table.doubles else ""),
             f"{'contract':<{width}}" + "".join(f"  {s.name:>{col}}" for s in seats)]
    for r, row in zip(table.rows, cells):
        lines.append(f"{r.label:<{width}}" + "".join(f"  {c:>{col}}" for c in row))
    if not table.solved:
        lines.append(LEGEND)
    lines.append(f"{table.nodes} nodes, {table.ms:.0f} ms")
    return "\n".join(lines)
