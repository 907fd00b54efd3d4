"""Anytime analysis: an estimate of every value at once, proved ranges, exact values
as they are proved.

Exact paranoid values of whole singles deals are often out of reach in a user's time
(docs/rules.md, "Values"), so ``analyse`` answers every question it is asked within its
budget and says how sure each number is:

* ``bounds`` and ``card_bounds``: ranges ``[lo, hi]`` proved by the exact search (the
  quick bounds of the points left before any search; ``lo == hi`` once exact);
* ``estimates`` and ``card_estimates``: a number for every value, always inside its
  proved range, the exact value once proved;
* ``best``: the best cards when every card is exact, else the cards of the best
  estimate among those not proved worse than another card.

**What an estimate is** (docs/rules.md 12). A legal card's estimate at horizon ``h``
is either its play-out value (``estimator="playout"``): the card is played, every
seat then plays the simple player (``kingsolve.hands.hints.play_preference``, compiled in the
core) until a trick starts with at most ``h`` tricks left, and the rest is searched
exactly; or (``"model"``) the mean of the value model's search a few tricks deep and
of the play-out the model guides, searched exactly from ``h`` tricks left
(``kingsolve.search.value_model``). ``"auto"`` takes the model where it measured better. The
estimate of the mover's value is the best of its cards' estimates; of any other seat
(side), the least over the mover's cards of that seat's estimate after the card (the
mover is one of its opponents). Every estimate is then held inside the range proved
for it. The horizon deepens while time remains (3, 5, 6, 7, ... up to one trick fewer
than are left); past the last step only the exact search improves the answer, and a
value it proves replaces its estimate.

**How the time is spent.** The exact search has a first slice of two milliseconds
(``SPRINT_FIRST``): a small position is exact at once. Then the first horizon gets the
whole budget: an estimate of everything comes next (about a millisecond on a full
deal). Then the exact search goes on as ``solve`` runs it, card after card, in slices
of doubling length (``Searcher.sprint``), each slice's proved values and ranges reported as they
come. Within the first quarter of the budget (``SPRINT_WHOLE_SHARE``) a slice spends
its whole time on the zero-window tests toward the value (``Core.set_budget(...,
whole=True)``), none on narrowing the range a stop leaves, so a stop costs little: the
table keeps what the stopped search finished and a proved card is not searched again
(the slices search 1.00-1.01 times ``solve``'s nodes). Later slices spend half of
their time narrowing that range from both ends, as ``solve`` does at a stop: the
estimates are held inside it. Estimates deepen between the slices only for a
share of each that grows with the share of the budget the exact search has had: none
at first, half of it at most. So a value the engine proves quickly arrives about as
soon as ``solve`` gives it (``research/latency.py``). Once what is left of the budget
is less than the exact search has had, the exact values are taken to be out of reach,
and the work goes in rounds of doubling length: each round first deepens the
estimates by one horizon step, then gives every value not yet exact an equal share of
the round in the exact search (MTD(f), then tests at both ends of its range, which
narrow the proved range even when it stops). One transposition table serves both, so
each helps the other. With ``threads`` above one, each exact search runs on that many
threads sharing the one table.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Mapping

from . import engine
from ..game.cards import Card, Seat
from ..checks import check_threads
from .engine import (Core, doubles_sides, first_guess, leased_core, meet, mirror_sides,
                     side_mask, total)
from .solver import ExactSearch
from ..errors import InvalidRequestError, SolveTimeout
from ..game.position import Position, check_seats
from .budget import Budget, Deadline
from ..game.numbers import Number, json_number
from .result import SolveResult, answer_dict
from .line import analysis_line, finished_line, line_seat

__all__ = ["Analysis", "analyse", "analyses", "exact_analysis", "value_text",
           "format_number", "HORIZONS", "LEGEND"]

#: The horizons the estimates step through (tricks left where the exact search starts).
HORIZONS = (3, 5, 6, 7, 8, 9, 10, 11, 12)

#: The exact search's slices in seconds: a first one before any estimate (a small
#: position is exact at once), then one of ``SPRINT_SLICE``, each after it doubling
#: the last.
SPRINT_FIRST = 0.002
SPRINT_SLICE = 0.02
#: The node budget under which the first estimates come before any exact slice, and
#: the tricks left over which they do (a whole hand is never proved in a first slice:
#: its first answer comes at once).
SPRINT_FIRST_NODES = 1 << 20
SPRINT_FIRST_LEFT = 11
#: The share of the budget within which the exact slices spend their whole time on
#: the value; the slices after it spend half on the value and half narrowing the range
#: a stop leaves (``Core.set_budget``), which the estimates are held in.
SPRINT_WHOLE_SHARE = 0.25

#: The first round's length in seconds; each round doubles it, up to the longest.
FIRST_ROUND = 0.02
LONGEST_ROUND = 0.4     # a cancelled analysis stops within one search of at most this


@dataclass(frozen=True)
class Analysis:
    """One state of an anytime analysis of a trick-contract position.

    Values are scores for the whole hand (points taken so far included, the constant
    per seat added), as ``solve`` gives them: in singles a seat's paranoid value, in
    doubles its side's exact value. ``bounds[seat]`` and ``card_bounds[card]`` are
    proved ranges; ``estimates`` and ``card_estimates`` lie inside them and equal the
    value once it is exact. ``horizon``: the tricks left at which the estimates were
    searched exactly (the tricks left in the hand once everything is exact; ``None``
    before any estimate); ``estimator``: what the estimates are, "model" or
    "playout" (None once exact); ``equal``: the groups of legal cards proved equal
    before any search (cards of one suit in the hand, of one kind, with no card still
    out between them).
    """

    to_move: Seat | None
    taken: Mapping[Seat, Number]
    complete: bool
    bounds: Mapping[Seat, tuple[Number, Number]]
    estimates: Mapping[Seat, Number]
    card_bounds: Mapping[Card, tuple[Number, Number]]
    card_estimates: Mapping[Card, Number]
    best: list[Card]
    horizon: int | None
    nodes: int = 0
    ms: float = 0.0
    extra: dict = field(default_factory=dict)
    estimator: str | None = None
    equal: list[list[Card]] = field(default_factory=list)
    line: Any = None        # the line asked for (kingsolve.search.line.Line), else None

    @property
    def values(self) -> dict[Seat, Number]:
        """The seats' values proved exact."""
        return {s: lo for s, (lo, hi) in self.bounds.items() if lo == hi}

    @property
    def cards(self) -> dict[Card, Number]:
        """The legal cards' values proved exact."""
        return {c: lo for c, (lo, hi) in self.card_bounds.items() if lo == hi}

    @property
    def solved(self) -> bool:
        """Whether every value asked and every card's value is exact."""
        return all(lo == hi for lo, hi in self.bounds.values()) and \
            all(lo == hi for lo, hi in self.card_bounds.values())

    @property
    def estimated(self) -> bool:
        """Whether every value asked and every card's value has an estimate (false
        only when the budget ended before the first play-outs)."""
        return len(self.estimates) == len(self.bounds) and \
            len(self.card_estimates) == len(self.card_bounds)

    def worse(self, card: Card) -> bool:
        """Whether ``card`` is proved worse than another legal card (its highest value
        below another card's lowest)."""
        top_lo = max(lo for lo, _ in self.card_bounds.values())
        return self.card_bounds[card][1] < top_lo

    def text(self) -> str:
        """The analysis as readable lines: every seat's value and every card's, each
        marked exact, estimated (``≈``) or as a proved range, the best cards, and a
        legend while anything is not exact."""
        if self.complete:
            head = "the hand is complete"
        else:
            mover = self.to_move.name if self.to_move is not None else "?"
            head = f"{mover} to play"
            if not self.solved:
                head += " · estimates " + ("not made yet" if self.horizon is None else
                                           f"searched exactly from {self.horizon} tricks left")
                if self.horizon is not None and self.estimator == "model":
                    head += " (value model)"
        lines = [head + f" · {self.nodes} nodes, {self.ms:.0f} ms",
                 "values: " + "  ".join(f"{s.name} {value_text(b, self.estimates.get(s))}"
                                       for s, b in self.bounds.items())]
        if self.card_bounds:
            cells = [f"{c} {value_text(b, self.card_estimates.get(c))}"
                     + ("-" if self.worse(c) else "") for c, b in self.card_bounds.items()]
            # a few cards a line: lines that fit a terminal can be redrawn in place
            for i in range(0, len(cells), CARDS_PER_LINE):
                lines.append(("cards:  " if i == 0 else " " * 8)
                             + "  ".join(cells[i:i + CARDS_PER_LINE]))
            exact_cards = all(lo == hi for lo, hi in self.card_bounds.values())
            lines.append("best:   " + (" ".join(map(str, self.best)) or "not known yet")
                         + ("" if exact_cards or not self.best else " (by estimate)"))
        if not self.solved:
            lines.append(LEGEND + (" · card- proved worse than another"
                                   if self.card_bounds else ""))
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """The shared JSON response shape: ``values`` and ``cards`` hold exact numbers
        only; every seat asked has ``bounds`` and ``estimates``, every legal card
        ``card_bounds`` and ``card_estimates``."""
        def pair(r: tuple[Number, Number]) -> list:
            return [json_number(r[0]), json_number(r[1])]

        return answer_dict(self, {
            "solved": self.solved,
            "bounds": {s.name: pair(r) for s, r in self.bounds.items()},
            "card_bounds": {str(c): pair(r) for c, r in self.card_bounds.items()},
            "estimates": {s.name: json_number(v) for s, v in self.estimates.items()},
            "card_estimates": {str(c): json_number(v) for c, v in self.card_estimates.items()},
            "horizon": self.horizon,
            "estimator": self.estimator,
            "equal": [[str(c) for c in group] for group in self.equal],
        })


#: Cards shown on one line of ``Analysis.text``.
CARDS_PER_LINE = 4

#: What the marks of ``value_text`` mean, for a text surface's last line.
LEGEND = "-3 exact · ≈-3 estimate · -6..-2 proved range (the exact value lies in it)"


def format_number(x: Number, signed: bool = True) -> str:
    """A score for display: ``-3``, ``+2`` (``2`` unless ``signed``), or a fraction
    ``-7/3``."""
    if isinstance(x, Fraction) and x.denominator != 1:
        return f"{'+' if signed and x > 0 else ''}{x.numerator}/{x.denominator}"
    if isinstance(x, float) and x != int(x):
        return f"{x:+.1f}" if signed else f"{x:.1f}"
    return f"{int(x):+d}" if signed and x else str(int(x))


def value_text(bounds: "tuple[Number, Number] | None", estimate: Number | None = None,
               signed: bool = False) -> str:
    """A value as text: the exact number, ``≈x`` for an estimate, ``lo..hi`` for a
    proved range, ``≈x (lo..hi)`` for both, ``?`` for nothing known (``signed``
    writes a plus before positive numbers).

    >>> value_text((-3, -3), -3), value_text((-6, -2), -3), value_text((-6, -2))
    ('-3', '≈-3 (-6..-2)', '-6..-2')
    """
    def num(x: Number) -> str:
        return format_number(x, signed)
    if bounds is None:
        return "?" if estimate is None else f"≈{num(estimate)}"
    lo, hi = bounds
    if lo == hi:
        return num(lo)
    if estimate is None:
        return f"{num(lo)}..{num(hi)}"
    return f"≈{num(estimate)} ({num(lo)}..{num(hi)})"


def _clamp(x: int, lo: int, hi: int) -> int:
    return lo if x < lo else hi if x > hi else x


class AnalysisState:
    """The shared state of one analysis: the ranges proved so far (future values,
    without the points taken) and the estimates of each horizon done, which its
    searcher (``Searcher``) fills."""

    def __init__(self, core: Core, position: Position, seats: list[Seat],
                 clock: Deadline, cancel: threading.Event | None,
                 cards: bool = True, estimator: str = "auto") -> None:
        self.with_cards = cards
        self.position = position
        self.seats = seats
        self.clock = clock                    # the analysis's budget under way
        self.budget = clock.total
        self.cancel = cancel
        self.start = clock.at - clock.total.ms / 1000.0
        self.deadline = clock.at              # on the clock's seconds (time.perf_counter)
        self.nodes = 0
        self.lock = threading.Lock()
        self.halted = threading.Event()       # the consumer has gone: start no search
        self.quick = core.bounds()
        mover = position.to_move
        assert mover is not None              # an analysis searches a hand still in play
        self.mover = mover
        self.mover_mask = side_mask(position, self.mover)
        self.moves = core.moves()                       # bit -> representative bit
        self.reps = sorted(set(self.moves.values()))
        # cards alike for the search (of one hand, suit and kind, nothing still out
        # between them): proved equal before any search
        groups: dict[int, list[Card]] = {}
        for bit, rep in sorted(self.moves.items()) if cards else ():
            groups.setdefault(rep, []).append(Card.from_bit(bit))
        self.equal = [g for g in groups.values() if len(g) > 1]
        masks = [side_mask(position, s) for s in seats]
        if cards:
            # the mover's range and estimate come from its cards'
            self.masks = list(dict.fromkeys([self.mover_mask] + masks))
            self.card_range = {r: self.quick for r in self.reps}
            self.seat_range = {m: self.quick for m in self.masks if m != self.mover_mask}
        else:
            # the mover's side searched whole like the others: one search, not one a card
            self.masks = list(dict.fromkeys(masks))
            self.card_range = {}
            self.seat_range = {m: self.quick for m in self.masks}
        self.tricks_left = position.n_tricks - len(position.tricks)
        self.model = estimator_model(estimator, position)
        if self.model is not None:
            core.set_model(self.model.core)
        last = max(self.tricks_left - 1, 0)
        self.horizons = sorted({min(h, last) for h in HORIZONS})
        # horizon -> {(rep, mask): play-out value}, filled by the parts
        self.estimates: dict[int, dict[tuple[int, int], int]] = {h: {} for h in self.horizons}
        self.horizon: int | None = None

    @property
    def nodes_left(self) -> int:
        return self.clock.nodes_left

    def stopped(self) -> bool:
        return (self.cancel is not None and self.cancel.is_set()) or self.halted.is_set() \
            or self.nodes_left <= 0 or self.clock.expired()

    def exact_done(self) -> bool:
        return all(lo == hi for lo, hi in self.card_range.values()) and \
            all(lo == hi for lo, hi in self.side_ranges().values())

    def spent(self, nodes: int) -> None:
        self.clock.spend(nodes)
        with self.lock:
            self.nodes += nodes

    def finish_horizon(self, h: int) -> None:
        """Publish horizon ``h`` once every estimate of it is in."""
        with self.lock:
            if len(self.estimates[h]) == len(self.reps) * len(self.masks) and \
                    (self.horizon is None or h > self.horizon):
                self.horizon = h

    def model_depth(self, h: int) -> int:
        """The tricks the model's search plays exactly beside the play-out of horizon
        ``h``: about as costly (measured at 12 and 13 tricks left)."""
        return max(1, min((h - 3) // 2, self.tricks_left - 1))

    # --- the answer ------------------------------------------------------------------
    def _mover_range(self) -> tuple[int, int]:
        if not self.with_cards:
            return self.seat_range[self.mover_mask]
        return (max(lo for lo, _ in self.card_range.values()),
                max(hi for _, hi in self.card_range.values()))

    def side_ranges(self) -> dict[int, tuple[int, int]]:
        """Each side's proved range by mask; in doubles met with the other side's."""
        return mirror_sides(self.position, self.quick, {
            m: self._mover_range() if m == self.mover_mask else self.seat_range[m]
            for m in self.masks})

    def card_estimate(self, rep: int) -> int | None:
        """The card's estimate held in its proved range (None before any estimate)."""
        lo, hi = self.card_range[rep]
        if lo == hi:
            return lo
        if self.horizon is None:
            return None
        return _clamp(self.estimates[self.horizon][(rep, self.mover_mask)], lo, hi)

    def seat_estimate(self, mask: int) -> int | None:
        """The side's estimate held in its proved range (None before any estimate)."""
        # the range shown: in doubles the other side's proved range narrows this one
        lo, hi = self.side_ranges()[mask]
        if lo == hi:
            return lo
        if mask == self.mover_mask and self.with_cards:
            cards = [e for r in self.reps if (e := self.card_estimate(r)) is not None]
            return _clamp(max(cards), lo, hi) if len(cards) == len(self.reps) else None
        if self.horizon is None:
            return None
        outs = [self.estimates[self.horizon][(r, mask)] for r in self.reps]
        # the mover picks its best card; for any other side the mover is an opponent
        return _clamp(max(outs) if mask == self.mover_mask else min(outs), lo, hi)

    def snapshot(self) -> Analysis:
        with self.lock:
            return self._snapshot()

    def _snapshot(self) -> Analysis:
        p = self.position
        mover = self.mover
        card_bounds: dict[Card, tuple[int, int]] = {}
        card_estimates: dict[Card, int] = {}
        for bit, rep in sorted(self.moves.items()) if self.with_cards else ():
            card = Card.from_bit(bit)
            lo, hi = self.card_range[rep]
            card_bounds[card] = (total(p, mover, lo), total(p, mover, hi))
            est = self.card_estimate(rep)
            if est is not None:
                card_estimates[card] = total(p, mover, est)
        bounds, estimates = {}, {}
        ranges = self.side_ranges()
        for seat in self.seats:
            mask = side_mask(p, seat)
            lo, hi = ranges[mask]
            bounds[seat] = (total(p, seat, lo), total(p, seat, hi))
            est = self.seat_estimate(mask)
            if est is not None:
                estimates[seat] = total(p, seat, est)
        exact = all(lo == hi for lo, hi in card_bounds.values())
        if not card_bounds:
            best = []
        elif exact:
            top: int | None = max(lo for lo, _ in card_bounds.values())
            best = [c for c, (lo, _) in card_bounds.items() if lo == top]
        else:
            top_lo = max(lo for lo, _ in card_bounds.values())
            live = [c for c, (_, hi) in card_bounds.items() if hi >= top_lo]
            rated = [c for c in live if c in card_estimates]
            top = max((card_estimates[c] for c in rated), default=None)
            best = [c for c in rated if card_estimates[c] == top] if len(rated) == len(live) \
                else []
            # among equal estimates, the card with the most proved for it first
            best.sort(key=lambda c: (-card_bounds[c][0], -card_bounds[c][1]))
        solved = exact and all(lo == hi for lo, hi in bounds.values())
        horizon = self.tricks_left if solved else self.horizon
        return Analysis(to_move=mover, taken=dict(p.taken), complete=False, bounds=bounds,
                        estimates=estimates, card_bounds=card_bounds,
                        card_estimates=card_estimates, best=best, horizon=horizon,
                        nodes=self.nodes, ms=(time.perf_counter() - self.start) * 1000.0,
                        extra=_sides(p, bounds),
                        estimator=None if solved else "model" if self.model is not None else "playout",
                        equal=self.equal)


class Searcher:
    """The searcher of an analysis: its core, the cards for the play-outs and the
    exact searches, and the other seats' exact searches."""

    def __init__(self, run: AnalysisState, core: Core) -> None:
        self.run = run
        self.core = core
        self.reps = run.reps
        self.seat_masks = [m for m in run.masks if m != run.mover_mask or not run.with_cards]
        self.next_horizon = 0             # the index of the next horizon to play out

    def _call(self, seconds: float, call: Callable[[], Any],
              estimate: bool = False) -> tuple[Any, Any] | None:
        """Run one core search within ``seconds`` (and what is left of the budget):
        the range it proved (one value when it finished), None when it did not run
        (or, for an ``estimate``, did not finish)."""
        run = self.run
        seconds = min(seconds, run.deadline - time.perf_counter())
        if seconds <= 0 or run.stopped():
            return None
        self.core.set_budget(run.nodes_left, seconds * 1000.0)
        try:
            v = engine.run(call, run.budget)
            return v, v
        except SolveTimeout:
            return None if estimate else self.core.proved
        finally:
            run.spent(self.core.nodes)

    def deepen(self, until: float) -> bool:
        """This part's play-outs one horizon deeper, searching until ``until`` at
        most; whether that horizon is done here (a stop keeps what is done)."""
        run, core = self.run, self.core
        if self.next_horizon >= len(run.horizons):
            return False
        h = run.horizons[self.next_horizon]
        done = run.estimates[h]
        earlier = run.estimates[run.horizons[self.next_horizon - 1]] if self.next_horizon else {}
        for mask in run.masks:
            for rep in self.reps:
                key = (rep, mask)
                if key in done:
                    continue
                guess = earlier.get(key, first_guess(*run.quick))
                if run.model is not None and (h != run.horizons[0] or len(run.horizons) == 1):
                    depth = run.model_depth(h)
                    got = self._call(until - time.perf_counter(),
                                     lambda: self.model_estimate(rep, mask, h, depth, guess), True)
                else:
                    got = self._call(until - time.perf_counter(),
                                     lambda: core.rollout_value(rep, mask, h, guess))
                if got is None or got[0] != got[1]:
                    return False
                with run.lock:
                    done[key] = got[0]
        self.next_horizon += 1
        run.finish_horizon(h)
        return True

    def model_estimate(self, rep: int, mask: int, h: int, depth: int, guess) -> float:
        """The value model's estimate of a card: the mean of its search ``depth``
        tricks deep and of the play-out it guides, searched exactly from ``h`` tricks
        left (one leans low, the other high: measured at 12 and 13 tricks left)."""
        core = self.core
        searched = core.estimate(mask, depth, rep)
        played = core.rollout_value(rep, mask, h, int(round(guess)), 2)
        return round(0.5 * (searched + played), 1)

    def prove(self, until: float) -> None:
        """This part's open values searched exactly, each with an equal share of the
        time until ``until``, the likeliest best cards first."""
        run, core = self.run, self.core
        cards = [r for r in self.reps
                 if r in run.card_range and run.card_range[r][0] < run.card_range[r][1]]
        cards.sort(key=lambda r: -(run.card_estimate(r) or 0))
        sides = run.side_ranges()
        todo = [(run.card_range, r, run.mover_mask) for r in cards] + \
            [(run.seat_range, m, m) for m in self.seat_masks if sides[m][0] < sides[m][1]]
        for i, (ranges, key, mask) in enumerate(todo):
            share = (until - time.perf_counter()) / (len(todo) - i)
            old = ranges[key]
            guess = run.card_estimate(key) if ranges is run.card_range else run.seat_estimate(key)
            guess = _clamp(first_guess(*old) if guess is None else int(round(guess)), *old)
            if ranges is run.card_range:
                got = self._call(share, lambda: core.child_value(key, mask, guess))
            else:
                got = self._call(share, lambda: core.value(mask, guess))
            if got is not None:
                with run.lock:
                    ranges[key] = meet(ranges[key], got)
            if run.stopped():
                break

    def sprint(self) -> Iterator[None]:
        """The exact search as ``solve`` runs it, in slices of doubling length, while
        it may still prove every value: until what is left of the budget is less than
        it has had. Between slices the estimates deepen for a share of the slice that
        grows with the share of the budget the exact search has had (none at first).
        A report (None) after each step."""
        run = self.run
        search = ExactSearch(self.core, run.position, run.budget, run.with_cards)
        length, spent, spent_nodes = SPRINT_FIRST, 0.0, 0
        while not run.exact_done() and not run.stopped():
            left = run.deadline - time.perf_counter()
            seconds = min(length, (left - spent) / 2)
            nodes = (run.nodes_left - spent_nodes) // 2
            if length == SPRINT_FIRST:
                # before the first estimates, which a small node budget keeps whole
                nodes = 0 if run.nodes_left < SPRINT_FIRST_NODES \
                    or run.tricks_left > SPRINT_FIRST_LEFT else run.nodes_left // 16
            if length == SPRINT_FIRST and nodes <= 0:
                length = SPRINT_SLICE
                yield None
                continue
            if seconds <= 0 or nodes <= 0:
                return
            start, before = time.perf_counter(), run.nodes
            # while the exact search is young, slices go whole to the value; later ones
            # also narrow the ranges a stop leaves, which hold the estimates
            whole = (spent + seconds) * 1000.0 <= run.budget.ms * SPRINT_WHOLE_SHARE
            self.core.set_budget(nodes, seconds * 1000.0, whole=whole)
            try:
                search.values(run.seats)
            except SolveTimeout:
                pass
            finally:
                run.spent(self.core.nodes)
                self._keep(search)
            spent += time.perf_counter() - start
            spent_nodes += run.nodes - before
            yield None
            share = min(0.5, spent * 1000.0 / run.budget.ms)
            if share * seconds > 0.001 and not run.exact_done() and \
                    self.deepen(time.perf_counter() + share * seconds):
                yield None
            length = SPRINT_SLICE if length == SPRINT_FIRST else 2 * length

    def _keep(self, search: ExactSearch) -> None:
        """What a slice of the exact search proved, met with the ranges proved before."""
        run = self.run
        proved = dict(run.card_range)
        for rep, v in search.children.items():
            proved[rep] = (v, v)
        if search.running == "cards" and search.current not in search.children \
                and search.current in proved:
            proved[search.current] = meet(proved[search.current], self.core.proved)
        sides = dict(run.seat_range)
        for mask in sides:
            if mask in search.done:
                sides[mask] = (search.done[mask], search.done[mask])
            elif search.running == mask:
                sides[mask] = meet(sides[mask], self.core.proved)
        with run.lock:
            for rep, r in proved.items():
                run.card_range[rep] = meet(run.card_range[rep], r)
            for mask, r in sides.items():
                run.seat_range[mask] = meet(run.seat_range[mask], r)

    def rounds(self) -> Iterator[None]:
        """Rounds of doubling length, each a horizon deeper then every open value
        searched; a report (None) after each step that may have improved the state."""
        run = self.run
        length = FIRST_ROUND
        while not run.exact_done() and not run.stopped():
            if self.deepen(time.perf_counter() + length):
                yield None
            if run.stopped():
                break
            self.prove(time.perf_counter() + length)
            yield None
            length = min(2 * length, LONGEST_ROUND)


#: The estimators ``analyse`` may use: the value model's search, the play-outs, or
#: the one measured better for the position ("auto").
ESTIMATORS = ("auto", "model", "playout")


def estimator_model(estimator: str, position: Position):
    """The value model the estimates come from, None for the play-outs."""
    if estimator not in ESTIMATORS:
        raise InvalidRequestError(f"invalid estimator {estimator!r}: expected one of "
                                  f"{', '.join(ESTIMATORS)}")
    if estimator == "playout":
        return None
    if estimator == "auto" and not model_measured_better(position):
        return None
    from .value_model import default_model
    return default_model()


def model_measured_better(position: Position) -> bool:
    """Whether the value model's estimates measured better than the play-outs for a
    position like this one: 4 players, 52 cards, at least 12 tricks left
    (research/estimates.py; with fewer tricks left the play-outs' exact part
    reaches nearly the whole hand)."""
    return position.deal.players == 4 and position.variant.deck == 52 and \
        position.n_tricks - len(position.tricks) >= 12


def _sides(position: Position, bounds: dict) -> dict:
    """Doubles: each side's exact value, as ``solve`` reports it, once both are proved."""
    return doubles_sides(position, {s: lo for s, (lo, hi) in bounds.items() if lo == hi})


def _finished(position: Position, seats: list[Seat], start: float) -> Analysis:
    scores = position.scores()
    values = {s: sum(scores[x] for x in position.side_of(s)) for s in seats}
    bounds = {s: (v, v) for s, v in values.items()}
    return Analysis(to_move=None, taken=dict(position.taken), complete=True, bounds=bounds,
                    estimates=dict(values), card_bounds={}, card_estimates={}, best=[],
                    horizon=0, nodes=0, ms=(time.perf_counter() - start) * 1000.0,
                    extra=_sides(position, bounds))


def exact_analysis(position, result: SolveResult) -> Analysis:
    """An exact result (``solve``, ``solve_domino``) in the analysis's shape: every
    range one value, every estimate that value."""
    bounds = {s: (v, v) for s, v in result.values.items()}
    horizon = None
    if isinstance(position, Position) and not result.complete:
        horizon = position.n_tricks - len(position.tricks)
    return Analysis(to_move=result.to_move, taken=dict(result.taken), complete=result.complete,
                    bounds=bounds, estimates=dict(result.values),
                    card_bounds={c: (v, v) for c, v in result.cards.items()},
                    card_estimates=dict(result.cards), best=list(result.best),
                    horizon=horizon,
                    nodes=result.nodes, ms=result.ms, extra=dict(result.extra),
                    line=result.line)


def analyses(position: Position, seats: "Iterable[Seat | str] | None" = None,
             budget: Budget | None = None, cancel: threading.Event | None = None,
             threads: int = 1, cards: bool = True, estimator: str = "auto",
             line: "bool | Seat | str" = False,
             all_equal: bool = False) -> Iterator[Analysis]:
    """Successive analyses of a position, each at least as good as the one before,
    until every value is exact, the budget is spent or ``cancel`` is set.

    ``budget.ms`` and ``budget.nodes`` bound the whole analysis. The first result
    comes at once with the first estimates; one comes at least every round (under a
    second) while the analysis runs; the last is the best. With ``threads`` above 1
    each exact search runs on that many threads sharing one table.
    With ``cards=False`` only the seats' values are analysed (``card_bounds``,
    ``card_estimates`` and ``best`` stay empty): the mover's side is searched whole
    like the others, and its estimate is the best of its cards' play-outs.
    ``line`` (as for ``solve``) adds to the last analysis the line of one seat:
    optimal once its value is exact, else the one its estimate rests on
    (``kingsolve.search.line.analysis_line``; None when the budget allowed none);
    ``all_equal`` as for ``solve``.
    """
    if not isinstance(position, Position):
        raise InvalidRequestError(f"analyses needs a trick-contract Position, "
                                  f"got {type(position).__name__}")
    check_threads(threads)
    budget = budget or Budget()
    wanted = check_seats(position, seats)
    line_for = line_seat(position, wanted, line)
    clock = Deadline(budget, clock=time.perf_counter)
    start = time.perf_counter()
    if position.complete:
        done = _finished(position, wanted, start)
        yield done if line_for is None else replace(done, line=finished_line(position, line_for))
        return
    with leased_core(position, budget, threads) as core:
        run = AnalysisState(core, position, wanted, clock, cancel, cards, estimator)
        # the first horizon, on every card, with the whole budget before anything else
        # (a slice of a busy machine's time could miss it): an estimate of everything
        # comes first, whatever the searches then do
        part = Searcher(run, core)
        slices = part.sprint()
        next(slices, None)      # the first slice, before any estimate
        if not run.exact_done() and part.deepen(run.deadline) and not run.stopped() \
                and not run.exact_done():
            yield run.snapshot()
        for _ in slices:
            if not run.stopped() and not run.exact_done():
                yield run.snapshot()
        for _ in part.rounds():
            if not run.stopped() and not run.exact_done():
                yield run.snapshot()
        last = run.snapshot()
        yield last if line_for is None else _with_line(last, run, core, line_for, all_equal)


def _with_line(last: Analysis, run: AnalysisState, core: Core, seat: Seat,
               all_equal: bool) -> Analysis:
    """The last analysis with the line of ``seat``, searched with what is left of the
    budget and at least half of it; with ``all_equal`` (every card's equal cards
    named), when that ends first, the line naming only the cards alike for the search
    with a quarter more; else none. None too when the analysis was cancelled."""
    if (run.cancel is not None and run.cancel.is_set()) or run.halted.is_set():
        return last
    budget, nodes = run.budget, 0
    for every, share in ((True, 2), (False, 4)) if all_equal else ((False, 2),):
        core.set_budget(max(run.nodes_left, budget.nodes // share),
                        max((run.deadline - time.perf_counter()) * 1000.0, budget.ms / share))
        try:
            found = analysis_line(run, core, seat, budget, every)
        except SolveTimeout:
            found = None
        nodes += core.nodes
        if found is not None:
            break
    return replace(last, line=found, nodes=last.nodes + nodes)


def analyse(position: Position, seats: "Iterable[Seat | str] | None" = None,
            budget: Budget | None = None, on_update: Callable[[Analysis], Any] | None = None,
            cancel: threading.Event | None = None, threads: int = 1,
            cards: bool = True, estimator: str = "auto",
            line: "bool | Seat | str" = False, all_equal: bool = False) -> Analysis:
    """The best analysis of a position within ``budget``: exact where proved,
    estimates and proved ranges elsewhere (see the module's text).

    ``on_update`` is called with each improvement as it comes; ``threads``,
    ``cards``, ``line`` and ``all_equal`` as for ``analyses``.

    >>> from kingsolve import Deal, Position
    >>> pos = Position("italian", "no-queens", Deal.random(seed=7), leader="N")
    >>> a = analyse(pos, seats=["N"], budget=Budget(ms=300))
    >>> lo, hi = a.bounds[Seat.N]
    >>> lo <= a.estimates[Seat.N] <= hi
    True
    """
    last = None
    for result in analyses(position, seats, budget, cancel, threads, cards, estimator, line,
                           all_equal):
        last = result
        if on_update is not None:
            on_update(result)
    assert last is not None
    return last
