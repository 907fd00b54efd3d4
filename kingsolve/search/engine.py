"""The one door between the library and the compiled search core (``kingsolve._core``,
built from ``ext/``).

It loads a trick-contract ``Position`` into a core, leases idle cores so their tables
outlive single searches, turns a seat into the core's side mask and a side's future
points into the seat's score, and runs every core call under a budget: a budget stop
or a table that cannot be allocated becomes ``SolveTimeout`` here, and only here.
``solver`` (exact search) and ``analysis`` (anytime) speak to the core through it;
the value model's loader (``value_model``) alone hands the core its weights.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping, TypeVar

from .._core import BudgetExceeded, ContractTable, Core
from ..game.cards import Seat
from ..errors import SolveTimeout
from ..game.position import Position
from .budget import Budget

__all__ = ["Core", "BudgetExceeded", "contract_table", "load", "side_mask", "total", "first_guess", "run",
           "leased_core", "table_mb", "IdleCores", "idle_cores", "doubles_sides", "meet",
           "other_side", "mirror_sides"]

# ``Core(mb)``: the compiled search core, with a transposition table of ``mb`` MiB.
# ``BudgetExceeded``: what a core call raises at its budget; ``run`` makes it a
# ``SolveTimeout``. Only tools that drive a core by hand (benchmarks) catch it themselves.

T = TypeVar("T")


def table_mb(position: Position, budget: Budget) -> int:
    """A transposition table sized to the problem, never above the budget."""
    cards = sum(m.bit_count() for m in position.hands if m is not None)
    # measured: past 32 MiB a full deal gains few nodes and loses more to cache misses
    need = 1 if cards <= 16 else 4 if cards <= 24 else 16 if cards <= 32 else 32
    return max(1, min(budget.tt_mb, need))


def contract_table(position: Position) -> ContractTable:
    """The position's contract compiled for the core, with its seats in play."""
    t = position.tables
    next_seat = [int(position.next_seat(s)) if s in position.seats else -1 for s in Seat]
    return ContractTable(
        t.card_points, t.trick_points, trump=t.trump, lead_suit=t.lead_suit,
        lead_mode=t.lead_mode, trump_lead_restricted=t.trump_lead_restricted,
        overtake=t.overtake, overtrump_on_trump_lead=t.overtrump_on_trump_lead,
        protected=t.protected, forced=t.forced, trump_obligation=t.trump_obligation,
        broken_by_discard=t.broken_by_discard, next_seat=next_seat)


def load(core: Core, position: Position) -> None:
    """Load ``position`` (its compiled contract, hands, trick and play so far) into ``core``."""
    hands = [m or 0 for m in position.hands]
    core.load(contract_table(position), hands, position.played, len(position.tricks),
              [(int(s), b) for s, b in position.trick], int(position.trick_leader),
              [m or 0 for m in position.deal.hands], broken=position.broken)


def side_mask(position: Position, seat: Seat) -> int:
    """The core's mask of the seats whose points count for ``seat`` (its doubles side)."""
    mask = 0
    for s in position.side_of(seat):
        mask |= 1 << int(s)
    return mask


def total(position: Position, seat: Seat, future: int) -> int:
    """A future value of the seat's side as a score: plus the points taken so far and
    the constant per seat."""
    side = position.side_of(seat)
    return future + sum(position.taken[s] for s in side) + position.tables.seat_constant * len(side)


def meet(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """The intersection of two ranges."""
    return max(a[0], b[0]), min(a[1], b[1])


def other_side(mask: int) -> int:
    """The other side's seat mask (doubles: four seats in two sides)."""
    return 0b1111 ^ mask


def mirror_sides(position: Position, quick: tuple[int, int],
                 ranges: Mapping[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """Ranges of future values by side mask, in doubles each met with the mirror of
    the other side's: the sides take every point left between them (the sum of the
    quick bounds ``quick``), so N+S's value v is E+W's ``sum(quick) - v``."""
    out = dict(ranges)
    if not position.doubles:
        return out
    points = sum(quick)
    for mask, (lo, hi) in ranges.items():
        if other_side(mask) in out:
            out[other_side(mask)] = meet(out[other_side(mask)], (points - hi, points - lo))
    return out


def first_guess(lo: int, hi: int) -> int:
    """Where the zero-window tests start: 0 under a penalty (a seat often escapes),
    the middle of the range otherwise (measured best on doubles deals)."""
    if hi <= 0:
        return hi
    return (lo + hi) // 2


def run(call: Callable[[], T], budget: Budget) -> T:
    """``call()`` into the core; its budget stop, or a table it cannot allocate,
    becomes ``SolveTimeout`` naming the budget (the one place core failures become
    package errors)."""
    try:
        return call()
    except BudgetExceeded as exc:
        which = exc.args[0] if exc.args else "nodes"
        if which == "ms":
            raise SolveTimeout(f"search stopped at its time budget of {budget.ms:g} ms") from None
        raise SolveTimeout(f"search stopped at its node budget of {budget.nodes} nodes") from None
    except MemoryError:
        raise SolveTimeout(f"cannot allocate a transposition table of {budget.tt_mb} MiB") from None


class IdleCores:
    """The search cores no search holds, shared by every thread of the process.

    A core's table is allocated once and its pages touched as searches use them:
    costly for a fresh core (a whole doubles table's five rows on two new threads
    took about three times as long), so cores outlive the searches and the threads
    that ran them. A lease takes the core that last loaded the same deal and contract (its
    table keeps that hand's entries, ext/README.md), else the least recently used
    of its size; idle cores beyond ``KEPT_MB`` of tables go, least recently used
    first.
    """

    KEPT_MB = 256

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: list[tuple[int, Any, Core]] = []   # (MiB, hand key, core), oldest first

    def take(self, mb: int, key: Any) -> "Core | None":
        with self._lock:
            sized = [i for i, (m, _, _) in enumerate(self._idle) if m == mb]
            if not sized:
                return None
            same = [i for i in sized if self._idle[i][1] == key]
            # else the least recently used: the recent ones are likeliest to be
            # wanted again by their own hand (another thread's next position)
            return self._idle.pop(same[-1] if same else sized[0])[2]

    def give(self, mb: int, key: Any, core: Core) -> None:
        dropped = []
        with self._lock:
            self._idle.append((mb, key, core))
            while sum(m for m, _, _ in self._idle) > max(self.KEPT_MB, mb):
                dropped.append(self._idle.pop(0))
        del dropped     # freed outside the lock: a core waits for its stopped helpers

    def sizes(self) -> list[int]:
        """The table sizes of the idle cores, oldest first."""
        with self._lock:
            return [m for m, _, _ in self._idle]

    def clear(self) -> None:
        """Drops every idle core: the next searches start from empty tables."""
        with self._lock:
            dropped, self._idle = self._idle, []
        del dropped


#: The process's idle cores, which every lease takes from and gives back to.
idle_cores = IdleCores()


def _hand_key(position: Position) -> tuple:
    """What a core's table keeps entries for: the deal and the compiled contract."""
    return tuple(position.deal.hands), position.tables


@contextmanager
def leased_core(position: Position, budget: Budget, threads: int = 1) -> Iterator[Core]:
    """A core for the position's table size, loaded with the position, its lone-seat
    searches on ``threads`` threads sharing its table; back among the idle cores
    (``IdleCores``) when the lease ends. A nested lease gets a core of its own.
    """
    mb, key = table_mb(position, budget), _hand_key(position)
    core = idle_cores.take(mb, key)
    if core is None:
        core = run(lambda: Core(mb), budget)
    run(lambda: core.set_threads(threads), budget)
    load(core, position)
    try:
        yield core
    finally:
        idle_cores.give(mb, key, core)


def doubles_sides(position: Position, values: Mapping[Seat, Any]) -> dict:
    """The ``extra`` of a doubles result: ``{"sides": {"NS": v, "EW": w}}`` once
    ``values`` (exact values by seat) hold both sides, else nothing."""
    if not position.doubles:
        return {}
    sides = {"NS" if seat in (Seat.N, Seat.S) else "EW": v for seat, v in values.items()}
    return {"sides": sides} if len(sides) == 2 else {}
