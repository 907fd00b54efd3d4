"""How good the estimates are far from the end of a hand: the analysis's first best
card and its card estimates against exact per-card values.

    python research/estimates.py label --levels 11,12,13 --count 100   # exact values, cached
    python research/estimates.py run --levels 11,12,13 --count 100     # the methods measured

Positions: a seeded set per level (tricks left: 11, 12, 13 = a full deal), the seat on
move of each, from ``training.positions.position`` under a seed of their own (never the
training set's), every trick contract of every 52-card rule set in singles and the
Italian doubles, 4 players. The exact per-card values (``solve`` within ``--exact-ms``)
are kept in ``research/data/estimates_exact.jsonl``; a position not proved within
it is counted and left out.

For each method and position: whether its first ``best`` card is an exact best card;
the regret (the exact value lost by playing it); the card estimates' mean absolute
and mean signed error (estimate minus exact), every legal card; each as a share of
the contract's total points. Methods: ``analyse`` within each ``--budgets`` (the
estimates it publishes; from an empty table each time), the simple player's card.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kingsolve import Position  # noqa: E402
from kingsolve.search.analysis import analyse  # noqa: E402
from kingsolve.errors import SolveTimeout  # noqa: E402
from kingsolve.hands.hints import play_preference  # noqa: E402
from kingsolve.search.budget import Budget  # noqa: E402
from kingsolve.search import engine  # noqa: E402
from kingsolve.search.solver import solve  # noqa: E402
from training.dataset import contract_total, position_of  # noqa: E402
from kingsolve.game.rules import VARIANTS  # noqa: E402
from training.positions import SETTINGS, position  # noqa: E402

CACHE = ROOT / "research" / "data" / "estimates_exact.jsonl"
SEED = 20261202
NODES = 2_000_000_000


def describe(pos: Position) -> dict:
    return {"variant": pos.variant.name, "contract": pos.contract.name,
            "trump": None if pos.trump is None else pos.trump.name, "doubles": pos.doubles,
            "deal": pos.deal.pbn(), "leader": pos.leader.name,
            "play": [str(c) for c in pos.record]}


KINDS = [s for s in SETTINGS if s.players == 4 and VARIANTS[s.variant].deck == 52]


def bench_position(level: int, index: int) -> Position:
    """Position ``index`` of the level's set: 4 players, a 52-card rule set."""
    return position(SEED + level, index, left=level, kinds=KINDS)


class Exact:
    """The cached exact per-card values, by level and index."""

    def __init__(self, path: Path = CACHE) -> None:
        self.path = path
        self.rows: dict[tuple[int, int], dict] = {}
        if path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    self.rows[(row["level"], row["i"])] = row

    def label(self, level: int, index: int, cap_ms: float) -> dict:
        row = self.rows.get((level, index))
        if row is not None and ("cards" in row or row["over_ms"] >= cap_ms):
            return row
        pos = bench_position(level, index)
        engine.idle_cores.clear()
        start = time.perf_counter()
        row = {"level": level, "i": index, "position": describe(pos)}
        try:
            res = solve(pos, seats=[pos.to_move], budget=Budget(nodes=NODES, ms=cap_ms), threads=1)
            row["cards"] = {str(c): int(v) for c, v in res.cards.items()}
            row["ms"] = round((time.perf_counter() - start) * 1000, 1)
        except SolveTimeout:
            row["over_ms"] = cap_ms
        self.rows[(level, index)] = row
        with self.path.open("a") as f:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
        return row


class Score:
    """One method's record: best-card hits, regrets and card errors, as shares."""

    def __init__(self) -> None:
        self.hits: list[float] = []
        self.regret: list[float] = []
        self.errors: list[float] = []
        self.by_rules: dict[str, list[float]] = defaultdict(list)

    def add(self, exact: dict[str, int], first: str, total: int, rules: str,
            estimates: dict[str, float] | None = None) -> None:
        top = max(exact.values())
        self.hits.append(float(exact[first] == top))
        self.regret.append((top - exact[first]) / total)
        self.by_rules[rules].append(float(exact[first] == top))
        if estimates is not None:
            self.errors.extend((estimates[c] - exact[c]) / total for c in exact)

    def line(self, name: str) -> str:
        def pct(x: float) -> str:
            return f"{100 * x:5.1f}%"
        mean = statistics.fmean
        out = f"{name:28s} best {pct(mean(self.hits))}  regret {pct(mean(self.regret))}"
        if self.errors:
            out += (f"  mae {pct(mean(abs(e) for e in self.errors))}"
                    f"  bias {100 * mean(self.errors):+5.1f}%")
        return out + "  " + "  ".join(f"{r} {pct(mean(h))}" for r, h in sorted(self.by_rules.items()))


def first_best(analysis) -> str:
    return str(analysis.best[0]) if analysis.best else str(next(iter(analysis.card_bounds)))


def run(levels: list[int], count: int, budgets: list[float], cap_ms: float,
        estimators: list[str], cached: bool = False) -> None:
    exact = Exact()
    for level in levels:
        scores: dict[str, Score] = defaultdict(Score)
        skipped = 0
        for i in range(count):
            if cached and (level, i) not in exact.rows:
                break
            # --cached labels nothing: a row not proved at a smaller cap stays unproved
            row = exact.rows[(level, i)] if cached else exact.label(level, i, cap_ms)
            if "cards" not in row:
                skipped += 1
                continue
            pos = position_of(row["position"])
            total = contract_total(pos)
            rules = pos.variant.name + ("/d" if pos.doubles else "")
            cards = row["cards"]
            scores["simple player"].add(cards, str(play_preference(pos)[0]), total, rules)
            for ms in budgets:
                for estimator in estimators:
                    engine.idle_cores.clear()
                    a = analyse(pos, seats=[pos.to_move], budget=Budget(nodes=NODES, ms=ms),
                                estimator=estimator)
                    est = {str(c): float(v) for c, v in a.card_estimates.items()}
                    scores[f"analyse {estimator} {ms:g} ms"].add(
                        cards, first_best(a), total, rules, est if len(est) == len(cards) else None)
        print(f"{level} tricks left: {i + 1 - skipped} positions ({skipped} not proved "
              f"within {cap_ms / 1000:g} s)")
        for name, score in scores.items():
            print("  " + score.line(name))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["label", "run"])
    ap.add_argument("--levels", default="11,12,13")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--exact-ms", type=float, default=30000)
    ap.add_argument("--budgets", default="250,1000")
    ap.add_argument("--estimators", default="playout,model")
    ap.add_argument("--cached", action="store_true",
                    help="measure the positions already labelled only (label none)")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    if args.command == "label":
        exact = Exact()
        for i in range(args.count):
            for level in levels:
                row = exact.label(level, i, args.exact_ms)
                print(level, i, row["position"]["variant"], row["position"]["contract"],
                      "proved" if "cards" in row else "not proved", row.get("ms", ""), flush=True)
        return 0
    run(levels, args.count, [float(x) for x in args.budgets.split(",")], args.exact_ms,
        args.estimators.split(","), args.cached)
    return 0


if __name__ == "__main__":
    sys.exit(main())
