"""The optimal line: the cards best play follows from a position to the end of the hand.

docs/rules.md 11, "The optimal line". For one seat (its side in doubles) the line
plays, from the position to the end of the hand, a card optimal for each player:
the seat or side maximises its value, the others minimise it (the paranoid
coalition in singles, the other side in doubles), so following it gives exactly
the value proved. Among cards of equal value the line takes the simple player's
(``kingsolve.hands.hints.play_preference``, compiled in the core) and names the
others (``LinePlay.equal``).

On a position only estimated (docs/rules.md 12) the line is the one the estimate
rests on: the card of the best estimate, the play-out that estimated it (the simple
player's cards, or the value model's) to its horizon, then the exact line from there.
Every card says which of the two it is.

Each step tests the legal cards by zero-window tests at the value known
(``Core.child_test``), on the table the value's search filled, in the simple
player's order of preference: the first card that keeps the value is the line's
card, and as equal it names the cards alike for the search (of one suit, with no card
still out between them; ``Line.all_equal`` false). That costs a few per cent of the
search of the value. With ``every`` (``all_equal`` on the surfaces) every legal card
is tested and each card names every card equal to it; the cards played are the same,
but a worse card's test needs a proof one point tighter than the value's search, and
an equal card's a proof of its own: about a quarter of a solve more
(``research/line.py``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..game.cards import Card, Seat
from ..game.position import Position, Trick
from .budget import Budget
from ..game.numbers import Number, json_number
from ..errors import InvalidRequestError, KingsolveError, SolveTimeout
from . import engine
from .engine import Core, first_guess, side_mask, total

__all__ = ["Line", "LinePlay", "exact_line", "exact_plays", "estimated_line", "analysis_line",
           "finished_line", "line_seat", "domino_line"]


@dataclass(frozen=True)
class LinePlay:
    """One card of a line: who played it, whether it is proved optimal (``exact``) or
    only the estimate's choice, and the other legal cards proved equal to it (exact
    cards only)."""

    card: Card
    seat: Seat
    exact: bool
    equal: tuple[Card, ...] = ()

    def to_dict(self) -> dict:
        return {"card": str(self.card), "seat": self.seat.name, "exact": self.exact,
                "equal": [str(c) for c in self.equal]}


@dataclass(frozen=True)
class Line:
    """The line for ``seat`` (its side in doubles) from a position to the end of the
    hand: its cards in play order (``plays``), the tricks they complete (the trick in
    progress at the start whole; none in the domino), each seat's final ``scores``
    and the seat's (side's) ``value`` there. ``exact``: every card proved optimal,
    so ``value`` is the position's value; else the cards before ``exact_from`` are
    the estimate's. ``all_equal``: each exact card names every legal card equal to it;
    false by default (``exact_line``): each names only the cards alike for the search."""

    seat: Seat
    side: tuple[Seat, ...]
    plays: tuple[LinePlay, ...]
    tricks: tuple[Trick, ...]
    scores: dict[Seat, Number]
    value: Number
    all_equal: bool = True

    @property
    def cards(self) -> list[Card]:
        return [p.card for p in self.plays]

    @property
    def exact(self) -> bool:
        return all(p.exact for p in self.plays)

    @property
    def exact_from(self) -> int:
        """The index of the first card of the exact part (the line's length when
        there is none)."""
        return next((i for i, p in enumerate(self.plays) if p.exact
                     and all(q.exact for q in self.plays[i:])), len(self.plays))

    def to_dict(self) -> dict:
        """``{"seat", "side", "value", "exact", "exact_from", "all_equal", "cards",
        "plays", "tricks", "scores"}``: ``cards`` the line's cards as text; ``plays``
        each ``{"card", "seat", "exact", "equal"}``; ``tricks`` in ``Trick.to_dict``'s
        shape."""
        return {"seat": self.seat.name, "side": [s.name for s in self.side],
                "value": json_number(self.value), "exact": self.exact,
                "exact_from": self.exact_from, "all_equal": self.all_equal,
                "cards": [str(c) for c in self.cards],
                "plays": [p.to_dict() for p in self.plays],
                "tricks": [t.to_dict() for t in self.tricks],
                "scores": {s.name: json_number(v) for s, v in self.scores.items()}}

    def brief(self) -> str:
        """The line on one line: tricks apart by ``/``, each headed by the seat that
        plays its first card of the line (in the domino each card by its seat),
        ``~`` after an estimated card; then the value.

        >>> from kingsolve import Deal, Position, solve
        >>> pos = Position("italian", "no-tricks", Deal("N:A2... K3... Q4... J5..."))
        >>> solve(pos, seats=["N"], line=True).line.brief()
        'N: S2 S3 S4 S5 / W: SJ SA SK SQ (value -1)'
        """
        cells = [str(p.card) + ("" if p.exact else "~") for p in self.plays]
        if not self.tricks:
            parts = [f"{p.seat.name} {c}" for p, c in zip(self.plays, cells)]
        else:
            parts, done = [], len(self.plays) - sum(len(t.cards) for t in self.tricks)
            for t in self.tricks:
                first = max(done, 0)
                parts.append(f"{self.plays[first].seat.name}: "
                             + " ".join(cells[first:done + len(t.cards)]))
                done += len(t.cards)
        return " / ".join(parts) + f" (value {json_number(self.value)})"

    def text(self) -> str:
        """The line as readable lines: a head, a line per trick (four cards a line in
        the domino), ``~`` after an estimated card, ``(=C ...)`` after a card with
        equal cards."""
        who = "+".join(s.name for s in self.side)
        head = (f"best line for {who}: value {json_number(self.value)}"
                + (" (exact)" if self.exact else
                   f" (the estimate's line; exact from card {self.exact_from + 1})"))
        cells = [f"{p.seat.name} {p.card}" + ("" if p.exact else "~")
                 + (f" (={' '.join(map(str, p.equal))})" if p.equal else "")
                 for p in self.plays]
        lines = [head]
        if self.tricks:
            # the first trick may have begun before the line: its earlier cards are not
            # the line's
            done = len(self.plays) - sum(len(t.cards) for t in self.tricks)
            for t in self.tricks:
                mine = cells[max(done, 0):done + len(t.cards)]
                done += len(t.cards)
                lines.append(f"  {t.number:>2}. " + "  ".join(mine)
                             + f"  won by {t.winner.name} ({t.points})")
        else:
            lines.extend("      " + "  ".join(cells[i:i + 4]) for i in range(0, len(cells), 4))
        lines.append("  scores: " + "  ".join(f"{s.name} {json_number(v)}"
                                              for s, v in self.scores.items()))
        if not self.exact:
            lines.append("  (~ a card of the estimate's play-out, not proved optimal)")
        return "\n".join(lines)


def line_seat(position, seats: list[Seat], line: Any) -> Seat | None:
    """The seat a ``line`` request names: None for none (false), the seat on move when
    asked (else the first seat asked) for ``True``, else the seat given, which must
    be asked (its side's, in doubles)."""
    if line is False or line is None:
        return None
    if line is True:
        mover = position.to_move
        return next((s for s in seats if mover in _side_of(position, s)),
                    seats[0] if seats else None)
    try:
        seat = Seat.parse(line)
    except KingsolveError:
        raise InvalidRequestError(f"invalid line {line!r}: expected true, false or a seat",
                                  field="line") from None
    if not any(seat in _side_of(position, s) for s in seats):
        raise InvalidRequestError(f"invalid line {seat.name!r}: the line's seat must be one "
                                  f"of the seats asked ({' '.join(s.name for s in seats)})",
                                  field="line")
    return seat


def _side_of(position, seat: Seat) -> tuple[Seat, ...]:
    """The seats whose points count with ``seat`` (the domino has no sides)."""
    return position.side_of(seat) if isinstance(position, Position) else (seat,)


def _finish(start: Position, seat: Seat, position: Position, plays: list[LinePlay],
            every: bool = True) -> Line:
    """The line once ``position`` (``start`` with the line's cards played) is over."""
    scores: dict[Seat, Number] = dict(position.scores())
    side = position.side_of(seat)
    first = len(start.tricks)
    return Line(seat, side, tuple(plays), tuple(position.tricks[first:]), scores,
                sum(scores[s] for s in side), every)


def finished_line(position, seat: Seat) -> Line:
    """The line of a hand already over: no card, its scores."""
    return _finish(position, seat, position, [])


def _card_tests(core: Core, mask: int, future: int, maximising: bool, budget: Budget,
                every: bool) -> list[int]:
    """The representative bits of the cards at the loaded root that keep the side's
    future value ``future`` (at least it for the side, at most it for the others):
    every one with ``every``; else only the simple player's preferred one among them
    (the cards tested in its order of preference, up to the first that keeps). Each
    card is one zero-window test: the card that proved the value finds its test in
    the table, a worse card's, or another equal card's, costs a proof the value's
    search did not need (``research/line.py``)."""
    moves = core.moves()
    reps = sorted(set(moves.values()))
    if len(reps) == 1:
        return reps
    beta = future if maximising else future + 1

    def keeps(rep: int) -> bool:
        v = engine.run(lambda: core.child_test(rep, mask, beta), budget)
        return v >= future if maximising else v <= future
    if every:
        return [r for r in reps if keeps(r)]
    untried = sum(1 << b for b in moves)
    while untried:
        rep = moves[core.preferred(untried)]
        if keeps(rep):
            return [rep]
        untried &= ~sum(1 << b for b, r in moves.items() if r == rep)
    return []


def exact_plays(core: Core | None, position: Position, seat: Seat, value: int,
                budget: Budget, every: bool = False) -> list[LinePlay]:
    """Plays the optimal line from ``position`` (changing it) to the end of the hand,
    ``value`` being the seat's proved value (a score, as ``solve`` gives it);
    returns its cards. The core holds the position's deal (its table is kept); a
    complete position needs none."""
    side = position.side_of(seat)
    mask = side_mask(position, seat)
    plays: list[LinePlay] = []
    while not position.complete:
        if core is None:
            raise KingsolveError("the optimal line of a hand in play needs its core")
        engine.load(core, position)
        mover = _mover(position)
        future = value - total(position, seat, 0)
        moves = core.moves()
        good = set(_card_tests(core, mask, future, mover in side, budget, every))
        if not good:
            raise KingsolveError(f"no card of {mover.name} keeps the value {value} "
                                 f"after {' '.join(map(str, position.record))}")
        equal = sum(1 << b for b, r in moves.items() if r in good)
        bit = core.preferred(equal)
        others = tuple(Card.from_bit(b) for b in sorted(moves) if equal >> b & 1 and b != bit)
        card = Card.from_bit(bit)
        plays.append(LinePlay(card, mover, True, tuple(sorted(others, key=_hand_order))))
        position.play(card)
    return plays


def _mover(position: Position) -> Seat:
    """The seat on move of a hand not over."""
    seat = position.to_move
    assert seat is not None
    return seat


def _hand_order(card: Card) -> tuple[int, int]:
    return int(card.suit), -int(card.rank)


def exact_line(core: Core | None, position: Position, seat: Seat, value: int,
               budget: Budget, every: bool = False) -> Line:
    """The optimal line for ``seat`` from ``position`` (left unchanged), ``value``
    its proved value (docs/rules.md 11). Each card names as equal the cards alike for
    the search (of one suit, with no card still out between them); with ``every``,
    every legal card equal to it, at about a quarter of a solve more
    (``research/line.py``). The cards played are the same either way."""
    p = position.copy()
    plays = exact_plays(core, p, seat, value, budget, every)
    return _finish(position, seat, p, plays, every)


def estimated_line(core: Core, position: Position, seat: Seat, first: int, horizon: int,
                   coalition: int, budget: Budget, every: bool = False) -> Line:
    """The line an estimate of ``seat``'s value rests on: the card ``first`` (a bit),
    the play-out after it (``Core.rollout_value``'s, with ``coalition`` as there) until
    a trick starts with at most ``horizon`` tricks left, then the exact line of the
    value searched there (docs/rules.md 12); ``every`` as for ``exact_line``."""
    p = position.copy()
    mask = side_mask(p, seat)
    engine.load(core, p)
    played = engine.run(lambda: core.playout_cards(first, mask, horizon, coalition), budget)
    plays = []
    for bit in played:
        if p.complete:          # the hand ended early: no points were left
            break
        plays.append(LinePlay(Card.from_bit(bit), _mover(p), False))
        p.play(Card.from_bit(bit))
    if not p.complete:
        engine.load(core, p)
        future = engine.run(lambda: core.value(mask, first_guess(*core.bounds())), budget)
        plays += exact_plays(core, p, seat, total(p, seat, future), budget, every)
    return _finish(position, seat, p, plays, every)


# --- the anytime analysis -------------------------------------------------------------------
def analysis_line(run, core: Core, seat: Seat, budget: Budget,
                  every: bool = False) -> Line | None:
    """The line of an analysis's state ``run`` (``kingsolve.search.analysis.AnalysisState``)
    for ``seat``: the optimal line once its value is exact, else the line its
    estimate rests on (docs/rules.md 12); None before any estimate. ``every`` as for
    ``exact_line``."""
    p = run.position
    mask = side_mask(p, seat)
    lo, hi = run.side_ranges()[mask]
    if lo == hi:
        return exact_line(core, p, seat, total(p, seat, lo), budget, every)
    h = run.horizon
    if h is None:
        return None
    engine.load(core, p)
    first = core.preferred(sum(1 << r for r in _estimate_cards(run, mask, h)))
    if mask == run.mover_mask and run.with_cards and \
            run.card_range[first][0] == run.card_range[first][1]:
        # the card chosen by estimate is itself exact: the optimal line follows it
        child = p.copy()
        child.play(Card.from_bit(first))
        plays = [LinePlay(Card.from_bit(first), p.to_move, False)]
        plays += exact_plays(core, child, seat, total(p, seat, run.card_range[first][0]),
                             budget, every)
        return _finish(p, seat, child, plays, every)
    # the value model guides the play-outs past the first horizon (Searcher.deepen)
    guided = run.model is not None and (h != run.horizons[0] or len(run.horizons) == 1)
    return estimated_line(core, p, seat, first, h, 2 if guided else 0, budget, every)


def _estimate_cards(run, mask: int, h: int) -> list[int]:
    """The representative cards of the side's estimate at horizon ``h``: its best
    for the mover's side, its least for the others (the mover is their opponent)."""
    if mask == run.mover_mask and run.with_cards:
        rated = {r: run.card_estimate(r) for r in run.reps}
    else:
        rated = {r: run.estimates[h][(r, mask)] for r in run.reps}
    top = (max if mask == run.mover_mask else min)(rated.values())
    return [r for r, v in rated.items() if v == top]


# --- the domino ----------------------------------------------------------------------------
def domino_line(position, seat: Seat, value: Number, budget: Budget,
                solve_domino) -> tuple[Line, int]:
    """The optimal line of a domino position for ``seat`` (docs/rules.md 9 and 11):
    each card the best for its player, the seat maximising its value and the others
    minimising it, ``value`` its proved value; among equal cards the first in hand
    order (the domino has no simple player). ``solve_domino`` searches each step,
    all of them within ``budget`` (a stop raises ``SolveTimeout``). Returns the line
    and the nodes its searches took."""
    p = position.copy()
    plays: list[LinePlay] = []
    left = _Allowance(budget)
    while not p.complete:
        mover = p.to_move
        child = _domino_children(p, seat, left, solve_domino)
        good = list(child) if len(child) == 1 else [c for c, v in child.items() if v == value]
        if not good:
            raise KingsolveError(f"no card of {mover.name} keeps the value {value}")
        plays.append(LinePlay(good[0], mover, True, tuple(good[1:])))
        p.play(good[0])
    scores = p.scores()
    return Line(seat, (seat,), tuple(plays), (), scores, scores[seat]), \
        budget.nodes - left.nodes


class _Allowance:
    """What is left of one budget over several searches."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.nodes = budget.nodes
        self.end = time.perf_counter() + budget.ms / 1000.0

    def solve(self, solve_domino, p, seat: Seat):
        ms = (self.end - time.perf_counter()) * 1000.0
        if self.nodes <= 0 or ms <= 0:
            raise SolveTimeout(f"the line stopped at its budget of {self.budget.nodes} nodes "
                               f"or {self.budget.ms:g} ms")
        result = solve_domino(p, seats=[seat], budget=Budget(self.nodes, ms, self.budget.tt_mb))
        self.nodes -= result.nodes
        return result


def _domino_children(p, seat: Seat, left: _Allowance,
                     solve_domino) -> "dict[Card, Number | None]":
    """Each legal card's value for ``seat`` once played, in hand order (None for a
    card played alone: nothing to compare)."""
    cards = sorted(p.legal_cards(), key=_hand_order)
    if len(cards) == 1:
        return {cards[0]: None}
    if p.to_move == seat:
        values = left.solve(solve_domino, p, seat).cards
        return {c: values[c] for c in cards}
    out = {}
    for card in cards:
        p.play(card)
        out[card] = p.scores()[seat] if p.complete else \
            left.solve(solve_domino, p, seat).values[seat]
        p.undo()
    return out
