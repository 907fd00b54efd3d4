"""How well the hint engine plays: simulated hands against a simple heuristic.

For every trick contract of every rule set, over seeded deals, four games are played
from the same deal and first leader, with one *chair* (the seat under test, rotating
over the deals):

- A: four heuristic seats;                    B: the chair follows hints, three heuristic;
- C: four hint-engine seats;                  D: the chair heuristic, three hint-engine.

``B - A`` is what the hint engine gains against three heuristic players, ``C - D``
what it gains against three hint-engine players, both in points per hand for the
chair, with a 95% confidence interval (normal approximation, paired by deal).

Hint seats follow the heuristic until ``--from`` tricks are left (default: every
trick) and the hint engine from there on (the first line printed says how many). With
more than ``--horizon`` tricks left a hint plays each card of each sample out with the
simple player down to that many tricks and solves from there (``kingsolve.hands.hints``);
``--horizon 13`` searches whole hands exactly (out of reach for 13-card singles).
``--doubles`` plays Italian doubles (the chair's side's points). The second part times one hint at
50 and 200 samples for a 13-card position (and, for scale, an 8-card one) under a
time cap.

    python research/hint_play.py --quick
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from kingsolve import Deal, Position, Seat, Suit                       # noqa: E402
from kingsolve.errors import SolveTimeout                               # noqa: E402
from kingsolve.hands.hints import hint, play_preference                        # noqa: E402
from kingsolve.search.budget import Budget                                     # noqa: E402
from kingsolve.game.rules import VARIANTS                                    # noqa: E402


def heuristic(p: Position) -> str:
    """The simple player: the first card of ``kingsolve.hands.hints.play_preference``."""
    return str(play_preference(p)[0])


class Player:
    """A seat's policy: the heuristic, or hints from ``start`` tricks before the end."""

    def __init__(self, use_hint: bool, start: int, samples: int, budget: Budget,
                 horizon: int | None = None):
        self.use_hint, self.start, self.samples, self.budget = use_hint, start, samples, budget
        self.horizon = horizon
        self.hints = self.fallbacks = 0
        self.ms = 0.0

    def choose(self, p: Position, variant: str, contract: str, trump, seed: int) -> str:
        left = p.n_tricks - len(p.tricks)
        if not self.use_hint or left > self.start or len(p.legal_cards()) == 1:
            return heuristic(p)
        seat = p.to_move
        try:
            h = hint(variant, contract, seat, p.deal.hands[seat], [str(c) for c in p.record],
                     leader=p.leader, trump=trump, samples=self.samples, seed=seed,
                     budget=self.budget, horizon=self.horizon, doubles=p.doubles)
        except SolveTimeout:
            self.fallbacks += 1
            return heuristic(p)
        self.hints += 1
        self.ms += h.ms
        return str(h.recommended)


def play_hand(variant, contract, deal, trump, players: dict, seed: int,
              doubles: bool = False) -> dict:
    """Each seat's points (in doubles, its side's) after the hand."""
    p = Position(variant, contract, deal, leader=Seat.N, trump=trump, doubles=doubles)
    n = 0
    while not p.complete:
        seat = p.to_move
        p.play(players[seat].choose(p, variant, contract, trump, seed * 100 + n))
        n += 1
    scores = p.scores()
    return {s: sum(scores[x] for x in p.side_of(s)) for s in scores}


def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def contracts_of(name, doubles: bool = False):
    rs = VARIANTS[name]
    if doubles and not rs.doubles:
        return []
    return [c for c, k in rs.contracts.items() if k.kind == "tricks"]


def simulate(args) -> list[dict]:
    budget = Budget(ms=args.search_ms)
    rows = []
    total_hints = total_ms = fallbacks = 0
    for variant in args.variants:
        rs = VARIANTS[variant]
        for contract in contracts_of(variant, args.doubles):
            if args.contracts and contract not in args.contracts:
                continue
            c = rs.contracts[contract]
            gains_h, gains_e = [], []
            for i in range(args.deals):
                seed = args.seed + i
                deal = Deal.random(seed=seed, deck=rs.deck)
                trump = list(Suit)[i % 4] if c.takes_trump else None
                chair = Seat(i % 4)

                def table(hint_seats):
                    return {s: Player(s in hint_seats, args.start, args.samples, budget,
                                      args.horizon) for s in Seat}
                games = {}
                for key, hint_seats in (("A", ()), ("B", (chair,)),
                                        ("C", tuple(Seat)),
                                        ("D", tuple(s for s in Seat if s != chair))):
                    if key in ("C", "D") and args.no_hint_tables:
                        continue
                    players = table(hint_seats)
                    games[key] = play_hand(variant, contract, deal, trump, players, seed,
                                           args.doubles)[chair]
                    for pl in players.values():
                        total_hints += pl.hints
                        total_ms += pl.ms
                        fallbacks += pl.fallbacks
                gains_h.append(games["B"] - games["A"])
                if "C" in games:
                    gains_e.append(games["C"] - games["D"])
            gain_h, ci_h = mean_ci(gains_h)
            row = {"variant": variant, "contract": contract, "deals": args.deals,
                   "vs_heuristic": gain_h, "ci_h": ci_h}
            if gains_e:
                gain_e, ci_e = mean_ci(gains_e)
                row.update({"vs_hint": gain_e, "ci_e": ci_e})
            rows.append(row)
            print(f"{variant:18} {contract:22} {gain_h:+9.2f} ±{ci_h:7.2f}"
                  + (f"   {row['vs_hint']:+9.2f} ±{row['ci_e']:7.2f}" if gains_e else ""),
                  flush=True)
    print(f"\n{total_hints} hints, {total_ms / max(total_hints, 1):.1f} ms per hint on average, "
          f"{fallbacks} fell back to the heuristic (search budget)")
    return rows


def timing(args) -> None:
    budget = Budget(ms=args.cap_ms)
    for cards in (13, 8):
        deal = Deal.random(seed=args.seed)
        p = Position("italian", "no-queens", deal, leader=Seat.N)
        while p.n_tricks - len(p.tricks) > cards:
            p.play(heuristic(p))
        seat = p.to_move
        for samples in (50, 200):
            start = time.perf_counter()
            h = None
            try:
                h = hint("italian", "no-queens", seat, deal.hands[seat],
                         [str(c) for c in p.record], samples=samples, ms=args.cap_ms,
                         budget=budget, threads=args.threads, horizon=args.horizon)
                done, timeouts = h.samples, h.timeouts
            except SolveTimeout:
                done, timeouts = 0, None
            el = time.perf_counter() - start
            per = f"{el / done * 1000:.2f} ms per sample" if done else "no sample finished"
            how = ("searched whole" if h is None or h.horizon is None
                   else f"played out to {h.horizon} tricks left")
            print(f"{cards:2}-card position ({how}), {samples:3} samples asked: {done:3} solved in "
                  f"{el * 1000:8.1f} ms on {args.threads} threads ({per}; cap {args.cap_ms / 1000:.0f} s"
                  + (f", {timeouts} searches stopped" if timeouts else "") + ")", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="few deals, small samples, short caps")
    ap.add_argument("--deals", type=int, help="deals per contract (default 40; quick 4)")
    ap.add_argument("--samples", type=int, help="samples per hint (default 30; quick 10)")
    ap.add_argument("--from", dest="start", type=int,
                    help="hint seats use hints once this many tricks are left (default 13: whole hands)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search-ms", type=float, default=2000.0, help="budget of each search")
    ap.add_argument("--cap-ms", type=float, help="time cap of a timed hint (default 300 s; quick 20 s)")
    ap.add_argument("--threads", type=int, default=2, help="threads of the timed hints")
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS))
    ap.add_argument("--horizon", type=int, help="the hints' horizon (default: kingsolve's)")
    ap.add_argument("--contracts", type=lambda v: v.split(","), help="only these contracts")
    ap.add_argument("--doubles", action="store_true",
                    help="Italian doubles (rule sets that have them): the chair's side's points")
    ap.add_argument("--no-hint-tables", action="store_true", help="skip games C and D")
    ap.add_argument("--skip-timing", action="store_true")
    ap.add_argument("--timing-only", action="store_true", help="only time the hints")
    args = ap.parse_args(argv)
    q = args.quick
    args.deals = args.deals or (4 if q else 40)
    args.samples = args.samples or (10 if q else 30)
    args.start = args.start or 13
    args.cap_ms = args.cap_ms or (20_000.0 if q else 300_000.0)
    print(f"hint play: {args.deals} deals per contract, {args.samples} samples per hint, "
          f"hints in the last {args.start} tricks, heuristic before; horizon "
          f"{args.horizon if args.horizon is not None else 'default'}\n"
          f"chair's points per hand: hint minus heuristic, against 3 heuristic seats "
          f"(B-A) and against 3 hint seats (C-D), 95% CI\n")
    start = time.perf_counter()
    if not args.timing_only:
        simulate(args)
        print(f"simulation: {time.perf_counter() - start:.0f} s\n")
    if not args.skip_timing:
        timing(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
