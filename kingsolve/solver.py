"""Double-dummy values of trick contracts: ``solve``.

docs/rules.md section 11: in singles the value of a seat is the score it can guarantee
when the three others play together against it (the paranoid value); in Italian
doubles it is the exact value of its side. The search runs in the compiled core
(``kingsolve._core``, built from ``ext/``); this module speaks in the value types and
is the one place where core failures become package errors.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Any, Iterable

from . import _core
from .cards import Card, Seat
from .checks import check_int, check_threads
from .errors import InvalidRequestError, SolveTimeout
from .position import Position
from .result import Budget, SolveResult

__all__ = ["solve"]


def _table_mb(position: Position, budget: Budget) -> int:
    """A transposition table sized to the problem, never above the budget."""
    cards = sum(m.bit_count() for m in position.hands if m is not None)
    # measured: past 32 MiB a full deal gains few nodes and loses more to cache misses
    need = 1 if cards <= 16 else 4 if cards <= 24 else 16 if cards <= 32 else 32
    return max(1, min(budget.tt_mb, need))


def _load(core: "_core.Core", position: Position) -> None:
    t = position.tables
    next_seat = [int(position.next_seat(s)) if s in position.seats else -1 for s in Seat]
    hands = [m or 0 for m in position.hands]
    table = _core.ContractTable(
        t.card_points, t.trick_points, trump=t.trump, lead_suit=t.lead_suit,
        lead_mode=t.lead_mode, trump_lead_restricted=t.trump_lead_restricted,
        overtake=t.overtake, overtrump_on_trump_lead=t.overtrump_on_trump_lead,
        protected=t.protected, forced=t.forced, trump_obligation=t.trump_obligation,
        next_seat=next_seat)
    core.load(table, hands, position.played, len(position.tricks),
              [(int(s), b) for s, b in position.trick], int(position.trick_leader),
              [m or 0 for m in position.deal.hands])


def _side_mask(position: Position, seat: Seat) -> int:
    mask = 0
    for s in position.side_of(seat):
        mask |= 1 << int(s)
    return mask


def _run(call, budget: Budget):
    """Call into the core; its budget stop becomes ``SolveTimeout`` (the one place)."""
    try:
        return call()
    except _core.BudgetExceeded as exc:
        which = exc.args[0] if exc.args else "nodes"
        if which == "ms":
            raise SolveTimeout(f"search stopped at its time budget of {budget.ms:g} ms") from None
        raise SolveTimeout(f"search stopped at its node budget of {budget.nodes} nodes") from None
    except MemoryError:
        raise SolveTimeout(f"cannot allocate a transposition table of {budget.tt_mb} MiB") from None


class _IdleCores:
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
        self._idle: list[tuple[int, Any, "_core.Core"]] = []   # (MiB, hand key, core), oldest first

    def take(self, mb: int, key: Any) -> "_core.Core | None":
        with self._lock:
            sized = [i for i, (m, _, _) in enumerate(self._idle) if m == mb]
            if not sized:
                return None
            same = [i for i in sized if self._idle[i][1] == key]
            # else the least recently used: the recent ones are likeliest to be
            # wanted again by their own hand (another thread's next position)
            return self._idle.pop(same[-1] if same else sized[0])[2]

    def give(self, mb: int, key: Any, core: "_core.Core") -> None:
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


_idle_cores = _IdleCores()


def _hand_key(position: Position) -> tuple:
    """What a core's table keeps entries for: the deal and the compiled contract."""
    return tuple(position.deal.hands), position.tables


@contextmanager
def _leased_core(position: Position, budget: Budget, threads: int = 1):
    """A core for the position's table size, loaded with the position, its lone-seat
    searches on ``threads`` threads sharing its table; back among the idle cores
    (``_IdleCores``) when the lease ends. A nested lease gets a core of its own.
    """
    mb, key = _table_mb(position, budget), _hand_key(position)
    core = _idle_cores.take(mb, key)
    if core is None:
        core = _run(lambda: _core.Core(mb), budget)
    _run(lambda: core.set_threads(threads), budget)
    _load(core, position)
    try:
        yield core
    finally:
        _idle_cores.give(mb, key, core)


def _check_seats(position: Position, seats: "Iterable[Seat | str] | None") -> list[Seat]:
    if seats is None:
        return list(position.seats)
    out: list[Seat] = []
    for s in seats:
        seat = Seat.parse(s)
        if seat not in position.seats:
            raise InvalidRequestError(f"invalid seat {seat.name!r}: that seat is not in play")
        if seat not in out:
            out.append(seat)
    return out


def _first_guess(lo: int, hi: int) -> int:
    """Where the zero-window tests start: 0 under a penalty (a seat often escapes),
    the middle of the range otherwise (measured best on doubles deals)."""
    if hi <= 0:
        return hi
    return (lo + hi) // 2


def _total(position: Position, seat: Seat, future: int) -> int:
    """A future value of the seat's side as a score: plus the points taken so far and
    the constant per seat."""
    side = position.side_of(seat)
    return future + sum(position.taken[s] for s in side) + position.tables.seat_constant * len(side)


def _meet(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return max(a[0], b[0]), min(a[1], b[1])


def _other_side(mask: int) -> int:
    """The other side's seats (doubles: four seats in two sides)."""
    return 0b1111 ^ mask


def _mirror_sides(position: Position, quick: tuple[int, int],
                  ranges: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """The ranges of future values by side mask, in doubles each met with the mirror
    of the other side's: the sides take every point left between them (the sum of the
    quick bounds), so N+S's value v is E+W's ``total - v``."""
    if not position.doubles:
        return ranges
    total = sum(quick)
    out = dict(ranges)
    for mask, (lo, hi) in ranges.items():
        other = _other_side(mask)
        if other in out:
            out[other] = _meet(out[other], (total - hi, total - lo))
    return out


def _valid_horizon(horizon: Any) -> int:
    return check_int(horizon, "horizon", 0, expected="a number of tricks >= 0")


@contextmanager
def _playout_core(position: Position, budget: Budget):
    """A core loaded with the position and its budget started, and the first guess."""
    with _leased_core(position, budget) as core:
        guess = _first_guess(*core.bounds())
        core.set_budget(budget.nodes, budget.ms)
        yield core, guess


def rollout_values(position: Position, seat: "Seat | str", horizon: int,
                   budget: Budget | None = None) -> dict[Card, int]:
    """Each legal card's value for ``seat`` (its side's in doubles) when the card is
    played, every seat then plays the simple player (``kingsolve.hints.play_preference``)
    until a trick starts with at most ``horizon`` tricks left, and the rest is solved
    double dummy (docs/rules.md 11). The hint engine's evaluation far from the end of the
    hand; the play-out runs in the compiled core. Every card gets its own play-out:
    cards equal for the search need not be for the simple player, who compares ranks
    across suits.
    """
    if not isinstance(position, Position):
        raise InvalidRequestError(f"rollout_values needs a trick-contract Position, "
                                  f"got {type(position).__name__}")
    _valid_horizon(horizon)
    if position.complete:
        raise InvalidRequestError("the hand is complete: there is no card to play")
    seat = _check_seats(position, [seat])[0]
    budget = budget or Budget()
    mask = _side_mask(position, seat)
    with _playout_core(position, budget) as (core, guess):
        return {Card.from_bit(b): _total(position, seat,
                                         _run(lambda: core.rollout_value(b, mask, horizon, guess),
                                              budget))
                for b in sorted(core.moves())}


def playout_values(position: Position, seats: "Iterable[Seat | str] | None", horizon: int,
                   budget: Budget | None = None) -> dict[Seat, int]:
    """The seats' values (their sides' in doubles) when every seat plays the simple
    player (``kingsolve.hints.play_preference``) from the position until a trick starts
    with at most ``horizon`` tricks left, and the rest is solved double dummy. With no
    more than ``horizon`` tricks left, the double-dummy values (``solve``). The choice
    hints' evaluation of a whole hand."""
    if not isinstance(position, Position):
        raise InvalidRequestError(f"playout_values needs a trick-contract Position, "
                                  f"got {type(position).__name__}")
    _valid_horizon(horizon)
    wanted = _check_seats(position, seats)
    budget = budget or Budget()
    if position.complete or position.n_tricks - len(position.tricks) <= horizon \
            and not position.current_trick():
        return solve(position, seats=wanted, budget=budget, cards=False).values
    futures: dict[int, int] = {}           # side mask -> future value (one play-out per side)
    with _playout_core(position, budget) as (core, guess):
        first = core.policy()
        for seat in wanted:
            mask = _side_mask(position, seat)
            if mask not in futures:
                futures[mask] = _run(lambda: core.rollout_value(first, mask, horizon, guess),
                                     budget)
    return {seat: _total(position, seat, futures[_side_mask(position, seat)]) for seat in wanted}


def _solve_loaded(core: "_core.Core", position: Position, seats: list[Seat],
                  budget: Budget, with_cards: bool = True) -> tuple[dict[Seat, int], dict[Card, int]]:
    """Values (future points plus taken, plus the constant) and per-card values
    (none when ``with_cards`` is false: each seat's value alone).

    On a budget stop the ``SolveTimeout`` carries, for every seat asked, the range
    of values proved so far (exact for the seats already solved).
    """
    return _LoadedSearch(core, position, budget, with_cards).run(seats)


class _LoadedSearch:
    """The searches of one position loaded in the core, and what each has proved so far."""

    def __init__(self, core: "_core.Core", position: Position, budget: Budget,
                 with_cards: bool) -> None:
        self.core, self.position, self.budget, self.with_cards = core, position, budget, with_cards
        self.mover = position.to_move
        self.quick = core.bounds()
        self.done: dict[int, int] = {}              # side mask -> exact future value
        self.running: Any = None                    # the side mask being searched now, or "cards"
        self.children: dict[int, int] = {}          # representative card -> exact future value
        self.mover_mask = None if self.mover is None else _side_mask(position, self.mover)
        self.ranges: dict[int, tuple[int, int]] = {}  # side mask -> range proved by a stopped search

    def run(self, seats: list[Seat]) -> tuple[dict[Seat, int], dict[Card, int]]:
        self.core.set_budget(self.budget.nodes, self.budget.ms)
        try:
            if not self.with_cards:
                self.shared(list(dict.fromkeys(_side_mask(self.position, s) for s in seats)))
            card_values = self.card_values() if self.with_cards else {}
            values = {seat: self.total(seat, self.value(_side_mask(self.position, seat)))
                      for seat in seats}
        except SolveTimeout as exc:
            masks = {seat: _side_mask(self.position, seat) for seat in seats}
            ranges = _mirror_sides(self.position, self.quick,
                                   {m: self.proved(seat) for seat, m in masks.items()})
            bounds = {seat: (self.total(seat, ranges[m][0]), self.total(seat, ranges[m][1]))
                      for seat, m in masks.items()}
            raise SolveTimeout.proved(str(exc), bounds) from None
        return values, card_values

    def total(self, seat: Seat, future: int) -> int:
        return _total(self.position, seat, future)

    def proved(self, seat: Seat) -> tuple[int, int]:
        """The range of ``seat``'s future value proved so far."""
        core = self.core
        mask = _side_mask(self.position, seat)
        if mask in self.done:
            return self.done[mask], self.done[mask]
        if mask in self.ranges:
            return self.ranges[mask]
        if mask == self.mover_mask and self.with_cards and self.running == "cards":
            lo, hi = core.proved
            best = max(self.children.values(), default=self.quick[0])
            left = len(set(core.moves().values())) - len(self.children) - 1
            return max(best, lo), max(best, hi if left == 0 else self.quick[1])
        if self.running == mask:
            return core.proved
        return self.quick

    def value(self, mask: int) -> int:
        if mask not in self.done:
            self.running = mask
            guess = _first_guess(*self.quick)
            self.done[mask] = _run(lambda: self.core.value(mask, guess), self.budget)
        return self.done[mask]

    def shared(self, masks: list[int]) -> None:
        # Each side's value with an equal share of what is left of the budget (what
        # one leaves goes to the next), then the stopped ones again with the rest:
        # a stop leaves every side's range narrowed, not the first side's alone.
        # The table keeps a stopped search's finished subtrees for its second try.
        core, done, quick = self.core, self.done, self.quick
        stop: SolveTimeout | None = None
        for _ in range(2):
            todo = [m for m in masks if m not in done]
            for i, mask in enumerate(todo):
                self.running = mask
                lo, hi = self.ranges.get(mask, quick)
                if mask in done:             # the other side's value gave it
                    continue
                try:
                    done[mask] = _run(lambda: core.value(
                        mask, min(max(_first_guess(*quick), lo), hi), len(todo) - i), self.budget)
                    if self.position.doubles:
                        # the sides share the points left: one's value is the other's
                        done[_other_side(mask)] = sum(quick) - done[mask]
                except SolveTimeout as exc:
                    plo, phi = core.proved
                    self.ranges[mask] = (max(lo, plo), min(hi, phi))
                    if not core.budget_left:
                        raise
                    stop = exc
        if stop is not None and any(m not in done for m in masks):
            raise stop

    def card_values(self) -> dict[Card, int]:
        """Each legal card's value to the mover; equal cards are searched once."""
        self.running = "cards"
        children = self.children
        guess = _first_guess(*self.quick)
        moves = self.core.moves()
        for rep in sorted(set(moves.values())):
            children[rep] = _run(lambda: self.core.child_value(rep, self.mover_mask, guess),
                                 self.budget)
            guess = max(children.values())
        self.done[self.mover_mask] = max(children.values())
        return {Card.from_bit(b): self.total(self.mover, children[r])
                for b, r in sorted(moves.items())}


def solve(position: Position, seats: "Iterable[Seat | str] | None" = None,
          budget: Budget | None = None, cards: bool = True, threads: int = 1) -> SolveResult:
    """The double-dummy values of a position for the given seats (default: all in play).

    ``values[seat]`` includes the points taken so far and the constant per seat; in
    doubles it is the side's value. ``cards`` gives each legal card of the seat on
    move and that seat's value after it (docs/rules.md section 11); with ``cards=False``
    only the seats' values are searched (faster) and ``cards`` and ``best`` are empty.
    With ``threads`` above 1 each singles search runs on that many threads sharing one
    table (the nodes of the budget are shared between them; doubles use one).
    """
    if not isinstance(position, Position):
        raise InvalidRequestError(f"solve needs a trick-contract Position, got {type(position).__name__}")
    threads = check_threads(threads)
    budget = budget or Budget()
    wanted = _check_seats(position, seats)
    start = time.perf_counter()
    taken = dict(position.taken)
    extra: dict[str, Any] = {}
    if position.complete:
        scores = position.scores()
        values = {s: sum(scores[x] for x in position.side_of(s)) for s in wanted}
        card_values: dict[Card, int] = {}
        best: list[Card] = []
        nodes = 0
    else:
        with _leased_core(position, budget, threads) as core:
            values, card_values = _solve_loaded(core, position, wanted, budget, cards)
            nodes = core.nodes
        top = max(card_values.values(), default=None)
        best = [c for c, v in card_values.items() if v == top]
    if position.doubles:
        sides = {}
        for seat in wanted:
            sides["NS" if seat in (Seat.N, Seat.S) else "EW"] = values[seat]
        if len(sides) == 2:
            extra["sides"] = sides
    return SolveResult(to_move=position.to_move, taken=taken, values=values, cards=card_values,
                       best=best, complete=position.complete, nodes=nodes,
                       ms=(time.perf_counter() - start) * 1000.0, extra=extra)
