"""A deal's double-dummy table: every trick contract times every seat, ``dd_table``.

Each row is an anytime analysis of the contract's opening position (``kingsolve.analyse``,
seats' values only), so every cell answers within the table's budget: exact where
proved, otherwise an estimate inside a proved range. The budget bounds the whole
table: the rows take equal shares of what is left as they start (``Budget.start``),
so the time a quick row leaves goes to the rows after it.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable

from .analysis import LEGEND, Analysis, analyse, exact_analysis, value_text
from .cards import Seat, Suit
from .checks import check_threads
from .deal import Deal
from .errors import InvalidRequestError, SolveTimeout
from .position import Position
from .result import Budget, Number, json_number
from .rules import TRUMP_NAMED, TRUMP_NAMED_OR_NONE, RuleSet, get_variant
from .solver import solve

__all__ = ["Table", "TableRow", "dd_table", "format_table"]


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
        return value_text(self.analysis.bounds[seat], self.analysis.estimates.get(seat))

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


def dd_table(variant: "str | RuleSet", deal: "Deal | str", leader: "Seat | str" = Seat.N,
             contracts: "Iterable[str] | None" = None, trump: "Suit | str | None" = None,
             doubles: bool = False, budget: Budget | None = None, threads: int = 2,
             exact: bool = False, on_update: Callable[[Table], Any] | None = None) -> Table:
    """Every trick contract (trump contracts once per trump suit) times every seat.

    ``budget`` bounds the whole table, never a row: the rows run on ``threads``
    threads (the search releases the GIL; each row's search has a transposition
    table of its own, kept for later calls) and share it as they start. Every cell gets a proved range and an
    estimate inside it (exact where proved). With ``exact`` every value must be
    proved within the budget, or ``SolveTimeout`` names the row that stopped.
    ``on_update`` is called with the table so far (the rows begun, each in its
    latest state) whenever a row improves, one call at a time.
    """
    rs = variant if isinstance(variant, RuleSet) else get_variant(variant)
    deal = deal if isinstance(deal, Deal) else Deal(deal)
    budget = budget or Budget()
    check_threads(threads)
    rows = _table_rows(rs, contracts, trump)
    positions = [Position(rs, name, deal, leader=leader, trump=t, doubles=doubles)
                 for name, t in rows]
    threads = min(threads, max(1, len(positions)))
    deadline = budget.start(pieces=len(positions), threads=threads)
    jobs = _RowJobs(Table(variant=rs.name, deal=deal, leader=Seat.parse(leader),
                          doubles=bool(doubles),
                          seats=tuple(positions[0].seats if positions else deal.seats),
                          rows=(), budget=budget),
                    rows, deadline, exact, on_update)
    work = list(enumerate(zip(rows, positions)))
    if threads == 1:
        results = [jobs.run(*w) for w in work]
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            futures = [pool.submit(jobs.run, *w) for w in work]
        results = [f.result() for f in futures]    # the first stopped row raises
    return jobs.table_of(dict(enumerate(results)))


class _RowJobs:
    """The rows' searches, sharing one deadline, and the table made of their results."""

    def __init__(self, empty: Table, rows: list[tuple[str, Suit | None]], deadline,
                 exact: bool, on_update: Callable[[Table], Any] | None) -> None:
        self.empty, self.rows, self.deadline = empty, rows, deadline
        self.exact, self.on_update = exact, on_update
        self.start = time.perf_counter()
        self.stop = threading.Event()       # an exact table ends at its first stopped row
        self.latest: dict[int, Analysis] = {}
        self.shown = threading.Lock()

    def table_of(self, analyses: dict[int, Analysis]) -> Table:
        """The table of the rows in ``analyses``, in row order."""
        done = sorted(analyses)
        return replace(self.empty,
                       rows=tuple(TableRow(*self.rows[i], analyses[i]) for i in done),
                       nodes=sum(int(analyses[i].nodes) for i in done),
                       ms=(time.perf_counter() - self.start) * 1000.0)

    def improved(self, index: int, analysis: Analysis) -> None:
        if self.on_update is None:
            return
        with self.shown:
            self.latest[index] = analysis
            self.on_update(self.table_of(self.latest))

    def run(self, index: int, item: tuple[tuple[str, Suit | None], Position]) -> Analysis | None:
        """One row's analysis within its share of the deadline."""
        (name, t), pos = item
        if self.exact and self.stop.is_set():
            return None             # another row stopped first: the table raises its error
        seats = list(self.empty.seats)
        share = self.deadline.take()
        result = None
        try:
            if not self.exact:
                result = analyse(pos, seats, share, cards=False,
                                 on_update=lambda a: self.improved(index, a))
                return result
            try:
                result = exact_analysis(pos, solve(pos, seats, share, cards=False))
                self.improved(index, result)
            except SolveTimeout as exc:
                self.stop.set()
                label = name if t is None else f"{name} {t.name}"
                raise SolveTimeout(f"table row {label!r} stopped: {exc}",
                                   bounds=exc.bounds) from None
            return result
        finally:
            self.deadline.done(share, 0 if result is None else result.nodes)


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
