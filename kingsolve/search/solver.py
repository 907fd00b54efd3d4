"""Double-dummy values of trick contracts: ``solve``.

docs/rules.md section 11: in singles the value of a seat is the score it can guarantee
when the three others play together against it (the paranoid value); in Italian
doubles it is the exact value of its side. The search runs in the compiled core,
reached through ``kingsolve.search.engine``; this module speaks in the value types.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Any, Iterable, Mapping

from ..game.cards import Card, Seat
from ..checks import check_int, check_threads
from . import engine
from .engine import (Core, doubles_sides, first_guess, leased_core, mirror_sides, other_side,
                     side_mask, total)
from ..errors import InvalidRequestError, SolveTimeout
from ..game.position import Position, check_seats
from .budget import Budget
from ..game.numbers import Number
from .result import SolveResult
from .line import Line, exact_line, line_seat

__all__ = ["solve", "solve_loaded", "ExactSearch", "rollout_values", "playout_values"]


def _valid_horizon(horizon: Any) -> int:
    return check_int(horizon, "horizon", 0, expected="a number of tricks >= 0")


@contextmanager
def _playout_core(position: Position, budget: Budget):
    """A core loaded with the position and its budget started, and the first guess."""
    with leased_core(position, budget) as core:
        guess = first_guess(*core.bounds())
        core.set_budget(budget.nodes, budget.ms)
        yield core, guess


def rollout_values(position: Position, seat: "Seat | str", horizon: int,
                   budget: Budget | None = None) -> dict[Card, int]:
    """Each legal card's value for ``seat`` (its side's in doubles) when the card is
    played, every seat then plays the simple player (``kingsolve.hands.hints.play_preference``)
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
    seat = check_seats(position, [seat])[0]
    budget = budget or Budget()
    mask = side_mask(position, seat)
    with _playout_core(position, budget) as (core, guess):
        return {Card.from_bit(b): total(position, seat, engine.run(
                    lambda: core.rollout_value(b, mask, horizon, guess), budget))
                for b in sorted(core.moves())}


def playout_values(position: Position, seats: "Iterable[Seat | str] | None", horizon: int,
                   budget: Budget | None = None) -> Mapping[Seat, Number]:
    """The seats' values (their sides' in doubles) when every seat plays the simple
    player (``kingsolve.hands.hints.play_preference``) from the position until a trick starts
    with at most ``horizon`` tricks left, and the rest is solved double dummy. With no
    more than ``horizon`` tricks left, the double-dummy values (``solve``). The choice
    hints' evaluation of a whole hand."""
    if not isinstance(position, Position):
        raise InvalidRequestError(f"playout_values needs a trick-contract Position, "
                                  f"got {type(position).__name__}")
    _valid_horizon(horizon)
    wanted = check_seats(position, seats)
    budget = budget or Budget()
    if position.complete or position.n_tricks - len(position.tricks) <= horizon \
            and not position.current_trick():
        return solve(position, seats=wanted, budget=budget, cards=False).values
    futures: dict[int, int] = {}           # side mask -> future value (one play-out per side)
    with _playout_core(position, budget) as (core, guess):
        first = core.policy()
        for seat in wanted:
            mask = side_mask(position, seat)
            if mask not in futures:
                futures[mask] = engine.run(
                    lambda: core.rollout_value(first, mask, horizon, guess), budget)
    return {seat: total(position, seat, futures[side_mask(position, seat)]) for seat in wanted}


def solve_loaded(core: Core, position: Position, seats: list[Seat],
                 budget: Budget, with_cards: bool = True) -> tuple[dict[Seat, int], dict[Card, int]]:
    """Values (future points plus taken, plus the constant) and per-card values
    (none when ``with_cards`` is false: each seat's value alone).

    On a budget stop the ``SolveTimeout`` carries, for every seat asked, the range
    of values proved so far (exact for the seats already solved).
    """
    return ExactSearch(core, position, budget, with_cards).run(seats)


class ExactSearch:
    """The searches of one position loaded in the core, and what each has proved so far.

    ``run`` proves every value within the budget. ``values`` may also be called again
    after a budget stop, with a new budget set on the core: what was proved is kept
    (``done``, ``children``) and the table keeps the stopped search's finished subtrees,
    so the anytime analysis spends its time in slices at little cost (``analysis``).
    """

    def __init__(self, core: Core, position: Position, budget: Budget,
                 with_cards: bool) -> None:
        self.core, self.position, self.budget, self.with_cards = core, position, budget, with_cards
        self.mover = position.to_move
        self.quick = core.bounds()
        self.done: dict[int, int] = {}              # side mask -> exact future value
        self.running: Any = None                    # the side mask being searched now, or "cards"
        self.children: dict[int, int] = {}          # representative card -> exact future value
        self.current: int | None = None             # the card being searched, or the last
        self.mover_mask = None if self.mover is None else side_mask(position, self.mover)
        self.ranges: dict[int, tuple[int, int]] = {}  # side mask -> range proved by a stopped search

    def run(self, seats: list[Seat]) -> tuple[dict[Seat, int], dict[Card, int]]:
        self.core.set_budget(self.budget.nodes, self.budget.ms)
        try:
            values, card_values = self.values(seats)
        except SolveTimeout as exc:
            masks = {seat: side_mask(self.position, seat) for seat in seats}
            ranges = mirror_sides(self.position, self.quick,
                                  {m: self.proved(seat) for seat, m in masks.items()})
            bounds = {seat: (self.total(seat, ranges[m][0]), self.total(seat, ranges[m][1]))
                      for seat, m in masks.items()}
            raise SolveTimeout.proved(str(exc), bounds) from None
        return values, card_values

    def values(self, seats: list[Seat]) -> tuple[dict[Seat, int], dict[Card, int]]:
        """The values and per-card values, searched within the budget set on the core
        (``SolveTimeout`` at its end, keeping what is proved)."""
        if not self.with_cards:
            self.shared(list(dict.fromkeys(side_mask(self.position, s) for s in seats)))
        card_values = self.card_values() if self.with_cards else {}
        values = {seat: self.total(seat, self.value(side_mask(self.position, seat)))
                  for seat in seats}
        return values, card_values

    def total(self, seat: Seat, future: int) -> int:
        return total(self.position, seat, future)

    def proved(self, seat: Seat) -> tuple[int, int]:
        """The range of ``seat``'s future value proved so far."""
        core = self.core
        mask = side_mask(self.position, seat)
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
            guess = first_guess(*self.quick)
            self.done[mask] = engine.run(lambda: self.core.value(mask, guess), self.budget)
            self._mirror(mask)
        return self.done[mask]

    def _mirror(self, mask: int) -> None:
        """Doubles: the sides share the points left, so one's value gives the other's."""
        if self.position.doubles:
            self.done.setdefault(other_side(mask), sum(self.quick) - self.done[mask])

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
                    done[mask] = engine.run(lambda: core.value(
                        mask, min(max(first_guess(*quick), lo), hi), len(todo) - i), self.budget)
                    self._mirror(mask)
                except SolveTimeout as exc:
                    plo, phi = core.proved
                    self.ranges[mask] = (max(lo, plo), min(hi, phi))
                    if not core.budget_left:
                        raise
                    stop = exc
        if stop is not None and any(m not in done for m in masks):
            raise stop

    def card_values(self) -> dict[Card, int]:
        """Each legal card's value to the mover; equal cards are searched once (and
        once only over calls: a card proved before a stop is not searched again)."""
        self.running = "cards"
        mover, mover_mask = self.mover, self.mover_mask
        assert mover is not None and mover_mask is not None   # cards are asked before the end
        children = self.children
        moves = self.core.moves()
        for rep in sorted(set(moves.values())):
            if rep in children:
                continue
            guess = max(children.values(), default=first_guess(*self.quick))
            self.current = rep
            children[rep] = engine.run(
                lambda: self.core.child_value(rep, mover_mask, guess), self.budget)
        self.done[mover_mask] = max(children.values())
        self._mirror(mover_mask)
        return {Card.from_bit(b): self.total(mover, children[r])
                for b, r in sorted(moves.items())}


def solve(position: Position, seats: "Iterable[Seat | str] | None" = None,
          budget: Budget | None = None, cards: bool = True, threads: int = 1,
          line: "bool | Seat | str" = False, all_equal: bool = False) -> SolveResult:
    """The double-dummy values of a position for the given seats (default: all in play).

    ``values[seat]`` includes the points taken so far and the constant per seat; in
    doubles it is the side's value. ``cards`` gives each legal card of the seat on
    move and that seat's value after it (docs/rules.md section 11); with ``cards=False``
    only the seats' values are searched (faster) and ``cards`` and ``best`` are empty.
    With ``threads`` above 1 each search (a seat's, or a doubles side's) runs on that many
    threads sharing one table (the nodes of the budget are shared between them).
    ``line`` (true: for the seat on move when asked, else the first seat asked; or a
    seat asked) adds the optimal line (``kingsolve.search.line``, docs/rules.md 11),
    searched within the same budget; each card of it names as equal the cards alike
    for the search, or with ``all_equal`` every equal card (about a quarter of a solve
    more).
    """
    if not isinstance(position, Position):
        raise InvalidRequestError(f"solve needs a trick-contract Position, got {type(position).__name__}")
    threads = check_threads(threads)
    budget = budget or Budget()
    wanted = check_seats(position, seats)
    line_for = line_seat(position, wanted, line)
    best_line = None
    start = time.perf_counter()
    taken = dict(position.taken)
    if position.complete:
        scores = position.scores()
        values = {s: sum(scores[x] for x in position.side_of(s)) for s in wanted}
        card_values: dict[Card, int] = {}
        best: list[Card] = []
        nodes = 0
        if line_for is not None:
            best_line = _proved_line(None, position, line_for, values, budget, all_equal)
    else:
        with leased_core(position, budget, threads) as core:
            values, card_values = solve_loaded(core, position, wanted, budget, cards)
            if line_for is not None:
                best_line = _proved_line(core, position, line_for, values, budget, all_equal)
            nodes = core.nodes
        top = max(card_values.values(), default=None)
        best = [c for c, v in card_values.items() if v == top]
    return SolveResult(to_move=position.to_move, taken=taken, values=values, cards=card_values,
                       best=best, complete=position.complete, nodes=nodes,
                       ms=(time.perf_counter() - start) * 1000.0,
                       extra=doubles_sides(position, values), line=best_line)


def _proved_line(core: Core | None, position: Position, seat: Seat, values: dict[Seat, int],
                 budget: Budget, all_equal: bool) -> Line:
    """The optimal line of the seat whose value ``values`` holds; a budget stop
    raises ``SolveTimeout`` with the values, all proved."""
    value = next(v for s, v in values.items() if seat in position.side_of(s))
    try:
        return exact_line(core, position, seat, value, budget, all_equal)
    except SolveTimeout as exc:
        raise SolveTimeout.proved(f"{exc} (in the optimal line)",
                                  {s: (v, v) for s, v in values.items()}) from None
