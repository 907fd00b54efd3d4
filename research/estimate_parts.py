"""The parts of the analysis's estimates, each measured alone against exact per-card
values: how good each estimator is for the nodes it costs, free of the machine's load.

    python research/estimate_parts.py --levels 11,12,13

Positions: the cached exact set of ``research/estimates.py`` (label it there). For
every legal card of the seat on move, each method's estimate of its value, from the
same core with an empty table:

- ``model dN``: the value model's search, N tricks after the card's trick, the model
  at its horizon (``Core.estimate``);
- ``guided hH``: the play-out in which every seat plays the model's card until H
  tricks are left, the rest searched exactly (``Core.rollout_value``, coalition 2);
- ``simple hH``: the simple player's play-out to H tricks left (coalition 0);
- ``mean dN hH``: the analysis's model estimate, the mean of the two above.

Each line gives, over the positions, how often the method's best card is an exact
best card, the mean regret, the estimates' mean absolute and signed error (shares of
the contract's total points) and the mean nodes a position (every card).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kingsolve.game.cards import Card  # noqa: E402
from kingsolve.search import engine  # noqa: E402
from kingsolve.search.value_model import default_model, read_model  # noqa: E402
from training.dataset import contract_total, position_of  # noqa: E402

from estimates import Exact, Score  # noqa: E402

NODES = 2_000_000_000


class Tally(Score):
    """One method's record over the positions, with the nodes it cost."""

    def __init__(self) -> None:
        super().__init__()
        self.nodes: list[int] = []

    def add_estimates(self, exact: dict[str, int], est: dict[str, float], total: int, rules: str,
                      nodes: int) -> None:
        """The method's best card is its highest estimate."""
        self.add(exact, max(est, key=lambda c: (est[c], c)), total, rules, est)
        self.nodes.append(nodes)

    def line(self, name: str) -> str:
        mean = statistics.fmean
        return (f"{name:18s} best {100 * mean(self.hits):5.1f}%  regret {100 * mean(self.regret):4.1f}%"
                f"  mae {100 * mean(abs(e) for e in self.errors):4.1f}%"
                f"  bias {100 * mean(self.errors):+5.1f}%  nodes {mean(self.nodes) / 1000:8.0f} K")


def fresh_core(model, pos) -> engine.Core:
    """A core with empty tables, loaded with the position, its budget started."""
    core = engine.Core(16)
    core.set_model(model.core)
    engine.load(core, pos)
    core.set_budget(NODES, 1e9)
    return core


def measure(row: dict, model, depths: list[int], horizons: list[int],
            tallies: dict[str, Tally]) -> None:
    pos = position_of(row["position"])
    seat = pos.to_move
    total = contract_total(pos)
    rules = pos.variant.name + ("/d" if pos.doubles else "")
    exact = row["cards"]
    core = fresh_core(model, pos)
    mask = engine.side_mask(pos, seat)
    reps = core.moves()            # bit -> its representative
    guess = engine.first_guess(*core.bounds())
    cards = {str(Card.from_bit(b)): r for b, r in reps.items()}

    def run(name: str, value) -> dict[str, float]:
        nonlocal core
        core = fresh_core(model, pos)
        memo = {rep: float(value(rep)) for rep in set(cards.values())}
        est = {c: engine.total(pos, seat, 0) + memo[r] for c, r in cards.items()}
        tallies[name].add_estimates(exact, est, total, rules, core.nodes)
        return est

    searched = {d: run(f"model d{d}", lambda r, d=d: core.estimate(mask, d, r)) for d in depths}
    for h in horizons:
        guided = run(f"guided h{h}", lambda r: core.rollout_value(r, mask, h, guess, 2))
        run(f"simple h{h}", lambda r: core.rollout_value(r, mask, h, guess, 0))
        for d in depths:
            mean = {c: 0.5 * (searched[d][c] + guided[c]) for c in exact}
            # the nodes of the mean are the sum of its two parts'
            t = tallies[f"mean d{d} h{h}"]
            t.add_estimates(exact, mean, total, rules,
                            tallies[f"model d{d}"].nodes[-1] + tallies[f"guided h{h}"].nodes[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default="11,12,13")
    ap.add_argument("--count", type=int, default=200, help="positions a level at most")
    ap.add_argument("--depths", default="1,2")
    ap.add_argument("--horizons", default="5,7")
    ap.add_argument("--model", type=Path, help="a model file (default: the package's)")
    args = ap.parse_args()
    model = read_model(args.model) if args.model else default_model()
    exact = Exact()
    depths = [int(x) for x in args.depths.split(",")]
    horizons = [int(x) for x in args.horizons.split(",")]
    for level in (int(x) for x in args.levels.split(",")):
        tallies: dict[str, Tally] = defaultdict(Tally)
        rows = [exact.rows[(level, i)] for i in range(args.count)
                if (level, i) in exact.rows and "cards" in exact.rows[(level, i)]]
        for row in rows:
            if len(row["cards"]) > 1:
                measure(row, model, depths, horizons, tallies)
        print(f"{level} tricks left: {len(tallies['model d%d' % depths[0]].hits)} positions "
              f"of more than one card")
        for name in sorted(tallies):
            print("  " + tallies[name].line(name), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
