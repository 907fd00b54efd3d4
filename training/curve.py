"""How the value model's error falls with data, per model family and feature family.

    python -m training.curve --data training/data/set-1.jsonl.gz --sizes 300,600,1200 \\
        --models mean,linear,net,boosted [--without-playouts]

Each size fits on the positions of index below it (one position in ten, by index,
held out as in ``training.fit``) and prints the held-out mean absolute and mean
signed error as shares of the contract's total points, overall and by tricks left.
Models: ``mean`` (always the training mean), ``linear`` (least squares with a small
ridge), ``net`` (``training.fit``'s network and its command's settings, but hidden
layers of 64 and 16 units), ``boosted`` (gradient-boosted trees; needs scikit-learn).
``--without-playouts`` leaves out the features of the two play-outs to the end of the
hand (the simple player's, the coalition's against a lone seat: ``ext/core_eval.pxi``,
512 and 513), to measure what they add.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from .dataset import Examples, examples, read_rows
from .fit import errors, fit, split

#: Where the play-outs' features start in the core's layout.
PLAYOUT_FEATURES = 512


def predict(model: str, train: Examples, test: Examples, seed: int) -> np.ndarray:
    weight = (train.hi - train.lo) / train.total
    if model == "mean":
        return np.full(len(test.y), np.average(train.y, weights=weight))
    if model == "linear":
        x = np.hstack([train.x, np.ones((len(train.y), 1), np.float32)])
        w = np.sqrt(weight)[:, None]
        coef = np.linalg.solve((x * w).T @ (x * w) + np.eye(x.shape[1]), (x * w).T @ (train.y * w[:, 0]))
        return np.hstack([test.x, np.ones((len(test.y), 1), np.float32)]) @ coef
    if model == "net":
        return fit(train, seed, (64, 16), 20, 256, 1e-3, 1e-4, huber=0.1).predict(test.x)
    if model == "boosted":
        from sklearn.ensemble import HistGradientBoostingRegressor
        trees = HistGradientBoostingRegressor(max_iter=400, learning_rate=0.08, max_leaf_nodes=63,
                                              random_state=seed)
        return trees.fit(train.x, train.y, sample_weight=weight).predict(test.x)
    raise SystemExit(f"unknown model {model!r}: expected mean, linear, net or boosted")


def line(name: str, n: int, test: Examples, pred: np.ndarray) -> str:
    measured = errors(pred, test)
    by_left = "  ".join(f"{left}: {100 * e['mae_share']:.1f}"
                        for left, e in measured["by_left"].items() if left <= 13)
    return (f"{name:8s} {n:7d} examples  mae {100 * measured['mae_share']:5.2f}%  "
            f"bias {100 * measured['bias_share']:+5.2f}%  by tricks left  {by_left}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.curve", description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, nargs="+", required=True)
    ap.add_argument("--sizes", default="300,600,1200", help="positions (indices) fit on")
    ap.add_argument("--models", default="mean,linear,net")
    ap.add_argument("--without-playouts", action="store_true",
                    help="leave out the two play-outs' features")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    rows = read_rows(args.data, [max(sizes)] * len(args.data))
    ex = examples(rows)
    if args.without_playouts:
        ex.x = ex.x[:, :PLAYOUT_FEATURES]
    held = ex.index % 10 == 0
    test = split(ex, held)
    print(f"{len(rows)} trick starts, {len(ex.y)} examples, {int(held.sum())} held out, "
          f"{ex.x.shape[1]} features", flush=True)
    for size in sizes:
        train = split(ex, ~held & (ex.index < size))
        for model in args.models.split(","):
            start = time.perf_counter()
            pred = predict(model, train, test, args.seed)
            print(line(model, len(train.y), test, pred) +
                  f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
