"""The typed results the solvers return, the budgets that bound a search, and the
deadline that a budget under way keeps."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Union

from .cards import Card, Seat

__all__ = ["Number", "Budget", "Deadline", "SolveResult", "Solver", "json_number", "json_int",
           "JSON_SAFE_INT"]

#: A score: an integer, or an exact fraction (domino shared wins).
Number = Union[int, Fraction]


#: The largest integer every JSON and msgpack peer holds exactly (2**53 - 1): a
#: JavaScript client reads a larger one rounded.
JSON_SAFE_INT = 2**53 - 1


def json_int(n: int) -> int | str:
    """``n`` as a JSON value a JavaScript client reads exactly: the integer, or its
    decimal text when it is larger than ``JSON_SAFE_INT``.

    >>> json_int(52), json_int(2**60)
    (52, '1152921504606846976')
    """
    return n if -JSON_SAFE_INT <= n <= JSON_SAFE_INT else str(n)


def json_number(x: Number) -> int | float:
    """A score as a JSON number: an integer when whole, else a float."""
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    if isinstance(x, float) and x != int(x):
        return x
    return int(x)


@dataclass(frozen=True)
class Budget:
    """Limits of one search: nodes, wall time, transposition-table memory.

    A search that reaches ``nodes`` or ``ms`` stops with ``SolveTimeout``; the table
    never grows past ``tt_mb`` mebibytes.
    """

    nodes: int = 200_000_000
    ms: float = 60_000.0
    tt_mb: int = 64

    def to_dict(self) -> dict:
        return {"nodes": self.nodes, "ms": self.ms, "tt_mb": self.tt_mb}

    def start(self, pieces: int = 1, threads: int = 1) -> "Deadline":
        """The budget started now: a ``Deadline`` ``ms`` from now, to share between
        ``pieces`` of work, ``threads`` of them at once."""
        return Deadline(self, pieces, threads)


class Deadline:
    """A budget under way: its absolute deadline on the monotonic clock, and shares
    of what is left for the pieces of work still to come.

    Every request's work runs against one: a table's rows, a review's positions, a
    choice's options, a batch's requests and a hint's samples each get their share
    as they start, so the whole ends by the one deadline. ``take`` hands out the
    shares of ``pieces`` planned pieces, equal parts of what is left, so what one
    piece leaves goes to the pieces after it; with ``threads`` pieces running at
    once, the time the running pieces still hold is set aside first (nodes are
    work, summed over threads, so they are never multiplied). Work that can run
    on past its share asks ``overrun`` instead of stopping at it, and so also gets
    what the pieces after it leave. ``clock`` gives the time (monotonic seconds).
    Thread-safe.

    >>> clock = Budget(nodes=1000, ms=60_000).start(pieces=4)
    >>> clock.take().nodes, clock.expired()
    (250, False)
    """

    def __init__(self, total: Budget, pieces: int = 1, threads: int = 1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.clock = clock                                  # seconds, never going back
        self.at = clock() + total.ms / 1000.0
        self.unstarted = pieces
        self.threads = max(1, threads)
        self.nodes_left = total.nodes
        # id(share) -> (start, end, nodes) of each running piece
        self._running: dict[int, tuple[float, float, int]] = {}
        self._lock = threading.Lock()

    def left_ms(self) -> float:
        """Milliseconds left before the deadline."""
        return max(0.0, self.at - self.clock()) * 1000.0

    def expired(self) -> bool:
        """Whether the deadline has passed."""
        return self.clock() >= self.at

    def share(self, parts: int = 1, most: Budget | None = None) -> Budget:
        """A budget for the next piece of work: an equal part (one of ``parts``) of the
        time left, the total's nodes, never more than ``most``. The pieces are not
        counted: for work that splits only the time (a batch's requests, a hint's
        samples)."""
        most = most or self.total
        return Budget(nodes=min(self.total.nodes, most.nodes),
                      ms=min(most.ms, self.left_ms() / max(1, parts)), tt_mb=most.tt_mb)

    def take(self) -> Budget:
        """The next planned piece's budget; pass it back to ``done`` when the piece ends."""
        with self._lock:
            now = self.clock()
            seconds, nodes = self._fair(now, self._running.values(), max(1, self.unstarted))
            share = Budget(nodes=max(1, nodes), ms=seconds * 1000.0, tt_mb=self.total.tt_mb)
            self.unstarted -= 1
            self._running[id(share)] = (now, now + seconds, share.nodes)
            return share

    def _fair(self, now: float, running, pieces: int, spent: float = 0.0) -> tuple[float, int]:
        """The seconds from now and the nodes of one of ``pieces`` equal parts of what
        the ``running`` pieces do not hold, for a piece that has run ``spent`` seconds
        of its part already."""
        running = list(running)
        left = max(0.0, self.at - now)
        held = sum(max(0.0, end - now) for _, end, _ in running)
        part = (left * self.threads - held + spent) / pieces
        seconds = max(0.0, min(left, part - spent))
        return seconds, (self.nodes_left - sum(n for _, _, n in running)) // pieces

    def plan(self, pieces: int) -> None:
        """``pieces`` more pieces to come (work that is searched again)."""
        with self._lock:
            self.unstarted += pieces

    def free(self) -> Budget:
        """The most a piece could get from now on: the time left and the nodes that
        neither the pieces done nor the running ones hold."""
        with self._lock:
            nodes = self.nodes_left - sum(n for _, _, n in self._running.values())
            return Budget(nodes=max(0, nodes), ms=self.left_ms(), tt_mb=self.total.tt_mb)

    def overrun(self, share: Budget, nodes: int = 0) -> bool:
        """Whether the running piece of ``share`` has used its time, or with ``nodes``
        searched its nodes, its share first grown (never shrunk) to an equal part of
        what is left with the pieces to come, counting the time it has run: what the
        pieces done early leave goes to the running pieces as well as to those to
        come. For work that can run past the budget it started with (an anytime
        analysis stopped by ``cancel``)."""
        with self._lock:
            now = self.clock()
            if id(share) not in self._running:
                return True             # done already
            start, end, most = self._running[id(share)]
            others = [v for k, v in self._running.items() if k != id(share)]
            seconds, more = self._fair(now, others, self.unstarted + 1, now - start)
            end, most = max(end, now + seconds), max(most, more)
            self._running[id(share)] = (start, end, most)
            return now >= end or nodes >= most

    def done(self, share: Budget, nodes: int) -> None:
        """A piece ended, having searched ``nodes``."""
        with self._lock:
            self._running.pop(id(share), None)
            self.nodes_left -= nodes


@dataclass(frozen=True)
class SolveResult:
    """Double-dummy values of a position (docs/rules.md section 11).

    ``values[seat]``: the score for the whole hand (points taken so far included)
    that the seat can guarantee against the other three (its side's exact value in
    doubles). ``cards``: for the seat on move, each legal card and the value for that
    seat after playing it. ``best``: the cards of the best value.
    """

    to_move: Seat | None
    taken: dict[Seat, Number]
    values: dict[Seat, Number]
    cards: dict[Card, Number]
    best: list[Card]
    complete: bool
    nodes: int = 0
    ms: float = 0.0
    extra: dict = field(default_factory=dict)
    line: Any = None        # the optimal line asked for (kingsolve.search.line.Line)

    def to_dict(self) -> dict:
        """The shared JSON response shape (``line`` only when a line was asked for)."""
        out = {
            "to_move": None if self.to_move is None else self.to_move.name,
            "taken": {s.name: json_number(v) for s, v in self.taken.items()},
            "values": {s.name: json_number(v) for s, v in self.values.items()},
            "cards": {str(c): json_number(v) for c, v in self.cards.items()},
            "best": [str(c) for c in self.best],
            "complete": self.complete,
            "nodes": int(self.nodes),
            "ms": round(float(self.ms), 3),
        }
        out.update(self.extra)
        if self.line is not None:
            out["line"] = self.line.to_dict()
        return out


#: What the analyses call to solve a position: ``kingsolve.solve``'s signature, so
#: that a caller may pass its own (a shared-core or counting one) in its place.
Solver = Callable[..., SolveResult]
