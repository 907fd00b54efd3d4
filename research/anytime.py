"""The anytime analysis measured: how good its estimates are, how soon
it answers, how soon it is exact.

    nice -n 5 .venv/bin/python research/anytime.py --positions 300 --time-positions 100

Positions: a seeded random deal, random legal play to a trick start with the given tricks
left, every penalty contract (all points negative) of every 52-card rule set in turn, the
seat on move asked (singles). A position whose hand ends early (no points left) is dealt
again.

1. Quality (``--levels``, default 10 and 11 tricks left): exact per-card values of the
   seat on move by ``solve`` within ``--exact-ms``; a position not exact within it is
   skipped and counted. For each horizon ``h`` (3, 5, 6, 7, 8, 9, ... up to one trick
   fewer than are left) the cards' play-out values (``rollout_values``: the card, the
   simple player down to ``h`` tricks left, the exact search from there) are compared
   with the exact ones:

   * best card: the share of the cards of the highest estimate that are exact best
     cards (one card is a hit or a miss; among tied cards, the chance that a pick among
     them is a best card);
   * MAE: the mean absolute error of the per-card values, over every legal card, in the
     rule set's points (also by rule set: Turkish and Portuguese points are larger);
     bias: the mean of estimate minus exact (play-outs are not paranoid: the three
     opponents do not play together against the seat);
   * "decisive": the same over the positions where not every legal card is best.

   Beside each horizon, the exact search stopped after the time that horizon's estimate
   took: the analysis's own exact part with its estimates switched off (``AnalysisState`` with
   no horizon to step through: rounds of doubling length, each giving every card not
   yet exact an equal share), scored by the midpoint of each card's proved range.
   Baselines in the same run: the simple player's card (``play_preference(p)[0]``);
   ``analyse`` itself within 250 ms and 1 s (its ``best`` cards, its card estimates),
   beside its exact part alone within the same budgets (midpoints, as above). Other
   estimators from the same play-outs: ties broken by the simple player's order; the
   mean and the least of a card's values over the horizons so far; the estimate held
   in the range the stopped search proved (as the analysis holds it, though the
   analysis splits one budget between the two). And the best card by contract.

2. Time (``--time-levels``, default 6 to 13 tricks left, 13 a full deal; and Russian's
   full 8-trick deals): ``analyses`` run within ``--time-cap-ms``; the time of the first
   result with an estimate on every legal card, and of the first result ``solved``.

Exact values are cached in ``--cache`` (JSON lines keyed by the position's ``repr``), so
a rerun with the same seeds only repeats the timed parts. Times are wall clock on a
shared machine: compare runs made together, not across days.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from core_speed import forget  # noqa: E402
from kingsolve import Deal, Position, Seat  # noqa: E402
from kingsolve.search.analysis import HORIZONS, AnalysisState, Searcher, analyse, analyses  # noqa: E402
from kingsolve.errors import SolveTimeout  # noqa: E402
from kingsolve.hands.hints import play_preference  # noqa: E402
from kingsolve.search.budget import Budget, Deadline  # noqa: E402
from kingsolve.game.rules import VARIANTS, RuleSet  # noqa: E402
from kingsolve.search import engine  # noqa: E402
from kingsolve.search.solver import rollout_values, solve  # noqa: E402

NODES = 2_000_000_000          # the time caps stop every search here, never the nodes
ANALYSE_MS = (250, 1000)
DEFAULT_CACHE = Path(__file__).resolve().parent / "data" / "anytime_exact.jsonl"


def penalty_contracts(deck: int | None = 52) -> list[tuple[RuleSet, str]]:
    """Every contract whose points are all negative (card points, trick points), of the
    rule sets with the given deck (all when ``None``)."""
    out = []
    for rs in VARIANTS.values():
        if deck is not None and rs.deck != deck:
            continue
        for name, c in rs.contracts.items():
            if c.kind != "tricks" or c.takes_trump or c.seat_constant:
                continue
            if c.each_trick > 0 or c.last_two > 0 or any(p > 0 for _, p in c.card_points):
                continue
            out.append((rs, name))
    return out


def seeded_position(contracts: list[tuple[RuleSet, str]], left: int, index: int,
                    seed: int) -> Position:
    """Position ``index`` of the set with ``left`` tricks left: contract ``index`` of
    the list in turn, a random deal and leader, random legal play."""
    rnd = random.Random(f"{seed}:{left}:{index}")
    rs, name = contracts[index % len(contracts)]
    while True:
        pos = Position(rs, name, Deal.random(rnd.randrange(2**32), deck=rs.deck),
                       leader=Seat(rnd.randrange(4)))
        for _ in range(4 * (pos.n_tricks - left)):
            if pos.complete:
                break
            pos.play(rnd.choice(pos.legal_cards()))
        if not pos.complete:
            return pos


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def mean(xs: list[float]) -> float:
    return statistics.fmean(xs) if xs else float("nan")


def mae(errors: list[float]) -> float:
    return mean([abs(e) for e in errors])


class ExactCache:
    """Exact per-card values by position, kept in a JSON-lines file: one line a
    position, ``cards`` when solved, ``over_ms`` when ``solve`` did not finish within
    that cap (tried again only under a larger one)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.known: dict[str, dict] = {}
        if path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    self.known[row["position"]] = row

    def values(self, pos: Position, cap_ms: float) -> dict[str, int] | None:
        key = repr(pos)
        row = self.known.get(key)
        if row is not None and ("cards" in row or row["over_ms"] >= cap_ms):
            return row.get("cards")
        try:
            res = solve(pos, seats=[pos.to_move], budget=Budget(nodes=NODES, ms=cap_ms))
            row = {"position": key, "cards": {str(c): v for c, v in res.cards.items()},
                   "ms": round(res.ms, 1)}
        except SolveTimeout:
            row = {"position": key, "over_ms": cap_ms}
        self.known[key] = row
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as f:
            f.write(json.dumps(row) + "\n")
        return row.get("cards")


class Score:
    """One method's record over the positions: best-card hits, card errors, times."""

    def __init__(self) -> None:
        self.hits: list[float] = []
        self.decisive: list[float] = []
        self.first: list[float] = []          # ties broken by the simple player's order
        self.first_decisive: list[float] = []
        self.errors: list[float] = []         # estimate minus exact, every legal card
        self.by_rules: dict[str, list[float]] = defaultdict(list)
        self.ms: list[float] = []
        self.solved = 0

    def add(self, exact: dict[str, int], chosen: list[str],
            values: dict[str, float] | None = None, ms: float | None = None,
            order: list[str] | None = None, rules: str = "") -> float:
        top = max(exact.values())
        decisive = any(v != top for v in exact.values())
        hit = sum(exact[c] == top for c in chosen) / len(chosen)
        self.hits.append(hit)
        if decisive:
            self.decisive.append(hit)
        if order is not None:
            first = float(exact[min(chosen, key=order.index)] == top)
            self.first.append(first)
            if decisive:
                self.first_decisive.append(first)
        if values is not None:
            errors = [values[c] - exact[c] for c in exact]
            self.errors.extend(errors)
            self.by_rules[rules].extend(errors)
        if ms is not None:
            self.ms.append(ms)
        return hit


def best_of(values: dict[str, float]) -> list[str]:
    top = max(values.values())
    return [c for c, v in values.items() if v == top]


def stopped_search(pos: Position, ms: float) -> dict[str, tuple[int, int]]:
    """Each card's range proved by the analysis's exact part alone in ``ms``."""
    mover = pos.to_move
    budget = Budget(nodes=NODES, ms=ms)
    forget(pos, budget)
    with engine.leased_core(pos, budget) as core:
        run = AnalysisState(core, pos, [mover], Deadline(budget, clock=time.perf_counter), None)
        run.horizons = []                          # no estimates: the exact search only
        for _ in Searcher(run, core).rounds():
            pass
        last = run.snapshot()
    return {str(c): r for c, r in last.card_bounds.items()}


def midpoints(ranges: dict[str, tuple[int, int]]) -> dict[str, float]:
    return {c: (lo + hi) / 2 for c, (lo, hi) in ranges.items()}


class Quality:
    """The scores of one level's positions: each horizon's play-outs, the estimators
    made from them, the stopped exact search, and the anytime analysis."""

    def __init__(self, left: int) -> None:
        self.left = left
        self.horizons = hs = sorted({min(h, left - 1) for h in HORIZONS})
        self.est = {h: Score() for h in hs}
        self.stop = {h: Score() for h in hs}
        self.simple = Score()
        self.blend = {h: Score() for h in hs}     # the mean of the horizons up to h
        self.least = {h: Score() for h in hs}     # the least of the horizons up to h
        self.clamped = {h: Score() for h in hs}   # held in the stopped search's range
        self.anytime = {m: Score() for m in ANALYSE_MS}
        self.exact_only = {m: Score() for m in ANALYSE_MS}  # the same budgets, no estimates
        self.by_contract: dict[str, dict[int, list[float]]] = \
            defaultdict(lambda: defaultdict(list))

    def add_horizons(self, pos: Position, exact: dict[str, int], order: list[str]) -> None:
        rules = pos.variant.name
        label = f"{rules}/{pos.contract.name}"
        done: list[dict[str, int]] = []
        for h in self.horizons:
            # each run from an empty table: a core keeps its table for a hand's
            # positions, so a run would read the runs before it
            forget(pos, Budget())
            t = time.perf_counter()
            vals = {str(c): v for c, v in
                    rollout_values(pos, pos.to_move, h, Budget(nodes=NODES, ms=60_000)).items()}
            ms = (time.perf_counter() - t) * 1000.0
            self.by_contract[label][h].append(self.est[h].add(exact, best_of(vals), vals, ms,
                                                              order, rules))
            done.append(vals)
            mixed = {c: mean([d[c] for d in done]) for c in vals}
            self.blend[h].add(exact, best_of(mixed), mixed, None, order, rules)
            low = {c: min(d[c] for d in done) for c in vals}
            self.least[h].add(exact, best_of(low), low, None, order, rules)
            ranges = stopped_search(pos, ms)
            mids = midpoints(ranges)
            self.stop[h].add(exact, best_of(mids), mids, ms, rules=rules)
            held = {c: min(max(vals[c], ranges[c][0]), ranges[c][1]) for c in vals}
            self.clamped[h].add(exact, best_of(held), held, None, order, rules)

    def add_analyses(self, pos: Position, exact: dict[str, int], order: list[str]) -> None:
        rules = pos.variant.name
        self.simple.add(exact, [order[0]])
        for m in ANALYSE_MS:
            forget(pos, Budget())
            a = analyse(pos, seats=[pos.to_move], budget=Budget(nodes=NODES, ms=m))
            vals = {str(c): v for c, v in a.card_estimates.items()}
            chosen = [str(c) for c in a.best] or best_of(vals)
            self.anytime[m].add(exact, chosen, vals, a.ms, rules=rules)
            self.anytime[m].solved += a.solved
            ranges = stopped_search(pos, m)
            mids = midpoints(ranges)
            self.exact_only[m].add(exact, best_of(mids), mids, rules=rules)
            self.exact_only[m].solved += all(lo == hi for lo, hi in ranges.values())

    def print_horizons(self) -> None:
        print("| horizon | estimate ms p50 / p95 | best card | decisive | MAE | bias "
              "| stopped search: best card | decisive | MAE |")
        print("|---|---|---|---|---|---|---|---|---|")
        for h in self.horizons:
            e, s = self.est[h], self.stop[h]
            print(f"| {h} | {pct(e.ms, .5):.0f} / {pct(e.ms, .95):.0f} "
                  f"| {100 * mean(e.hits):.1f}% | {100 * mean(e.decisive):.1f}% "
                  f"| {mae(e.errors):.2f} | {mean(e.errors):+.2f} | {100 * mean(s.hits):.1f}% "
                  f"| {100 * mean(s.decisive):.1f}% | {mae(s.errors):.2f} |")

    def print_baselines(self, n: int) -> None:
        print("\n| baseline | best card | decisive | MAE | solved |")
        print("|---|---|---|---|---|")
        print(f"| simple player's card | {100 * mean(self.simple.hits):.1f}% "
              f"| {100 * mean(self.simple.decisive):.1f}% | - | - |")
        for m in ANALYSE_MS:
            a = self.anytime[m]
            print(f"| analyse {m} ms | {100 * mean(a.hits):.1f}% "
                  f"| {100 * mean(a.decisive):.1f}% | {mae(a.errors):.2f} "
                  f"| {a.solved} of {n} |")
        for m in ANALYSE_MS:
            a = self.exact_only[m]
            print(f"| exact search alone {m} ms (midpoints) | {100 * mean(a.hits):.1f}% "
                  f"| {100 * mean(a.decisive):.1f}% | {mae(a.errors):.2f} | {a.solved} of {n} |")

    def print_estimators(self) -> None:
        print(f"\nOther estimators from the same play-outs ({self.left} tricks left): ties "
              f"broken by the simple player's order; the mean and the least of each card's "
              f"values at the horizons up to h; the estimate held in the range the stopped "
              f"search proved (twice the time: the analysis's way, both at once)\n")
        print("| horizon | estimate, ties by simple player: best card | decisive "
              "| mean of horizons: best card | decisive | MAE "
              "| least of horizons: best card | decisive | MAE "
              "| held in the range: best card | decisive | MAE |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for h in self.horizons:
            e, b, lw, hd = self.est[h], self.blend[h], self.least[h], self.clamped[h]
            print(f"| {h} | {100 * mean(e.first):.1f}% | {100 * mean(e.first_decisive):.1f}% "
                  f"| {100 * mean(b.hits):.1f}% | {100 * mean(b.decisive):.1f}% "
                  f"| {mae(b.errors):.2f} | {100 * mean(lw.hits):.1f}% "
                  f"| {100 * mean(lw.decisive):.1f}% | {mae(lw.errors):.2f} "
                  f"| {100 * mean(hd.hits):.1f}% | {100 * mean(hd.decisive):.1f}% "
                  f"| {mae(hd.errors):.2f} |")

    def print_breakdowns(self) -> None:
        hs, est = self.horizons, self.est
        print(f"\nMAE by rule set ({self.left} tricks left; rule sets score on different "
              f"scales):\n")
        print("| rule set | " + " | ".join(f"h{h}" for h in hs)
              + " | stopped at h" + str(hs[-1]) + "'s time | analyse 1000 ms |")
        print("|---|" + "---|" * (len(hs) + 2))
        for rules in sorted(est[hs[0]].by_rules):
            print(f"| {rules} | " + " | ".join(f"{mae(est[h].by_rules[rules]):.2f}" for h in hs)
                  + f" | {mae(self.stop[hs[-1]].by_rules[rules]):.2f}"
                  + f" | {mae(self.anytime[ANALYSE_MS[-1]].by_rules[rules]):.2f} |")
        print(f"\nBest card by contract ({self.left} tricks left), per horizon:\n")
        print("| contract | n | " + " | ".join(f"h{h}" for h in hs) + " |")
        print("|---|---|" + "---|" * len(hs))
        for label in sorted(self.by_contract):
            row = self.by_contract[label]
            print(f"| {label} | {len(row[hs[0]])} | "
                  + " | ".join(f"{100 * mean(row[h]):.0f}%" for h in hs) + " |")


def measure_quality(args, contracts, cache: ExactCache) -> None:
    for left in args.levels:
        q = Quality(left)
        skipped = 0
        t0 = time.perf_counter()
        for i in range(args.positions):
            pos = seeded_position(contracts, left, i, args.seed)
            exact = cache.values(pos, args.exact_ms)
            if exact is None:
                skipped += 1
                continue
            order = [str(c) for c in play_preference(pos)]
            q.add_horizons(pos, exact, order)
            q.add_analyses(pos, exact, order)
            if args.verbose:
                print(f"  {left} left #{i} {pos.variant.name}/{pos.contract.name}: "
                      + " ".join(f"h{h} {q.est[h].hits[-1]:.2f}" for h in q.horizons),
                      file=sys.stderr, flush=True)
        n = args.positions - skipped
        print(f"\n### Quality at {left} tricks left: {n} positions exact within "
              f"{args.exact_ms:g} ms ({skipped} skipped), {len(q.est[q.horizons[0]].decisive)} "
              f"decisive; {time.perf_counter() - t0:.0f} s\n")
        if not n:
            continue
        q.print_horizons()
        q.print_baselines(n)
        q.print_estimators()
        q.print_breakdowns()


def measure_time(args, contracts) -> None:
    cap = args.time_cap_ms
    sets = [(left, contracts, f"{left}" + (" (full deal)" if left == 13 else ""))
            for left in args.time_levels]
    russian = penalty_contracts(32)
    if russian and args.russian:
        sets.append((8, russian, "russian, 8 (full deal)"))
    print(f"\n### Time to first answer and to exact, within {cap:g} ms\n")
    print("| tricks left | positions | first answer ms p50 / p95 / max | exact ms p50 / p95 "
          "| not exact |")
    print("|---|---|---|---|---|")
    for left, cset, label in sets:
        first, exact = [], []
        for i in range(args.time_positions):
            pos = seeded_position(cset, left, i, args.seed + 1)
            legal = set(pos.legal_cards())
            t_first = t_exact = float("inf")
            forget(pos, Budget())
            for a in analyses(pos, seats=[pos.to_move], budget=Budget(nodes=NODES, ms=cap)):
                if t_first == float("inf") and legal <= set(a.card_estimates):
                    t_first = a.ms
                if a.solved:
                    t_exact = a.ms
                    break
            first.append(t_first)
            exact.append(t_exact)

        def show(xs: list[float], q: float) -> str:
            v = pct(xs, q)
            return f">{cap:g}" if v == float("inf") else f"{v:.1f}" if v < 10 else f"{v:.0f}"

        unsolved = sum(x == float("inf") for x in exact)
        print(f"| {label} | {len(first)} | {show(first, .5)} / {show(first, .95)} / "
              f"{show(first, 1)} | {show(exact, .5)} / {show(exact, .95)} | {unsolved} |",
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=300, help="quality: positions per level")
    ap.add_argument("--levels", type=int, nargs="*", default=[10, 11],
                    help="quality: tricks left (10 11)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--exact-ms", type=float, default=10_000.0,
                    help="quality: the cap on each exact solve; positions over it are skipped")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="exact values (JSONL)")
    ap.add_argument("--time-positions", type=int, default=100, help="time: positions per level")
    ap.add_argument("--time-levels", type=int, nargs="*", default=list(range(6, 14)),
                    help="time: tricks left (6 to 13)")
    ap.add_argument("--time-cap-ms", type=float, default=3000.0,
                    help="time: each analysis's budget")
    ap.add_argument("--no-russian", dest="russian", action="store_false",
                    help="time: leave out Russian's full 8-trick deals")
    ap.add_argument("--verbose", action="store_true", help="each position's hits on stderr")
    args = ap.parse_args()
    contracts = penalty_contracts(52)
    print(f"{len(contracts)} penalty contracts of the 52-card rule sets; seed {args.seed}")
    cache = ExactCache(args.cache)
    if args.levels:
        measure_quality(args, contracts, cache)
    if args.time_levels and args.time_positions:
        measure_time(args, contracts)


if __name__ == "__main__":
    main()
