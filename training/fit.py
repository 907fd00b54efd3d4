"""Fit the value model to labelled positions and write its file.

    python -m training.fit --data set-1.jsonl set-2.jsonl --count 9800 20000 --seed 1 \\
        --out kingsolve/data/value_model.bin

A network of two ReLU hidden layers over the core's features, fit by Adam on the
mean squared error of the target share (``training.dataset``), with numpy alone and
a seeded generator: the same data, seed and settings make the same weights. One
position in ten (by index) is held out; the errors on it, in points and as a share
of the contract's total points, go into the file's header with the command.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from kingsolve.search.value_model import MAGIC, write_model

from .dataset import Examples, digest, examples, read_rows


class Network:
    """The model's weights, as the core reads them (w1 is features x h1)."""

    def __init__(self, nf: int, h1: int, h2: int, rng: np.random.Generator,
                 out: int | None = None) -> None:
        # one output (the value model's), or ``out`` of them (the policy's scores)
        self.params = [
            rng.normal(0, np.sqrt(2.0 / nf), (nf, h1)).astype(np.float32), np.zeros(h1, np.float32),
            rng.normal(0, np.sqrt(2.0 / h1), (h1, h2)).astype(np.float32), np.zeros(h2, np.float32),
            rng.normal(0, np.sqrt(1.0 / h2), (h2,) if out is None else (h2, out)).astype(np.float32),
            np.full(1, 0.5, np.float32) if out is None else np.zeros(out, np.float32),
        ]

    def forward(self, x: np.ndarray):
        w1, b1, w2, b2, w3, b3 = self.params
        a1 = x @ w1 + b1
        h1 = np.maximum(a1, 0)
        a2 = h1 @ w2 + b2
        h2 = np.maximum(a2, 0)
        return h2 @ w3 + b3[0], (x, a1, h1, a2, h2)

    def grads(self, cache, dy: np.ndarray) -> list[np.ndarray]:
        x, a1, h1, a2, h2 = cache
        w1, b1, w2, b2, w3, b3 = self.params
        g_w3 = h2.T @ dy
        g_b3 = np.array([dy.sum()], np.float32)
        d2 = np.outer(dy, w3) * (a2 > 0)
        g_w2 = h1.T @ d2
        g_b2 = d2.sum(0)
        d1 = (d2 @ w2.T) * (a1 > 0)
        g_w1 = x.T @ d1
        g_b1 = d1.sum(0)
        return [g_w1, g_b1, g_w2, g_b2, g_w3, g_b3]

    def predict(self, x: np.ndarray, batch: int = 8192) -> np.ndarray:
        return np.concatenate([self.forward(x[i:i + batch])[0] for i in range(0, len(x), batch)])

    def weights(self) -> bytes:
        w1, b1, w2, b2, w3, b3 = self.params
        flat = np.concatenate([w1.ravel(), b1, w2.ravel(), b2, w3, b3]).astype("<f4")
        return flat.tobytes()


class Adam:
    """Adam's moments of a network's parameters, which ``update`` steps in place."""

    def __init__(self, params: list[np.ndarray]) -> None:
        self.params = params
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.step = 0

    def update(self, g: list[np.ndarray], rate: float, weight_decay: float) -> None:
        b1, b2, eps = 0.9, 0.999, 1e-8
        m, v = self.m, self.v
        self.step += 1
        step = self.step
        for k, p in enumerate(self.params):
            gk = g[k] + weight_decay * p
            m[k] = b1 * m[k] + (1 - b1) * gk
            v[k] = b2 * v[k] + (1 - b2) * gk * gk
            mh = m[k] / (1 - b1 ** step)
            vh = v[k] / (1 - b2 ** step)
            p -= (rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)


def epoch_rate(lr: float, epoch: int, epochs: int) -> float:
    """The learning rate of an epoch: ``lr``, halved over the last third of the epochs."""
    return lr * (0.5 ** max(0, (3 * epoch - 2 * epochs) / max(1, epochs / 3)))


def minibatches(rng: np.random.Generator, n: int, batch: int, epochs: int, lr: float):
    """Per epoch: its number, its learning rate (``epoch_rate``) and the examples of each
    minibatch, the ``n`` examples in a new seeded order."""
    for epoch in range(epochs):
        order = rng.permutation(n)
        yield epoch, epoch_rate(lr, epoch, epochs), [order[i:i + batch] for i in range(0, n, batch)]


def fit_arguments(ap: argparse.ArgumentParser, hidden: tuple[int, int], lr: float,
                  weight_decay: float) -> None:
    """The settings every fit takes, with its defaults."""
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, nargs=2, default=hidden)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=lr)
    ap.add_argument("--weight-decay", type=float, default=weight_decay)
    ap.add_argument("--out", type=Path, required=True)


def write_fit(args: argparse.Namespace, argv: list[str] | None, prog: str, features: int,
              net: "Network", trained: dict, log, magic: bytes = MAGIC) -> None:
    """Write the fitted network to ``args.out``, its header recording the command, the
    settings ``fit_arguments`` read and ``trained`` (the data and the held-out figures)."""
    record = {"command": f"python -m {prog} " + " ".join(argv if argv is not None else sys.argv[1:]),
              **trained, "seed": args.seed, "epochs": args.epochs, "batch": args.batch,
              "lr": args.lr, "weight_decay": args.weight_decay}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_model(args.out, features, tuple(args.hidden), net.weights(), record, magic=magic)
    log(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


def stopwatch_log():
    """A log to standard error, each line stamped with the seconds since it was made."""
    start = time.perf_counter()

    def log(text: str) -> None:
        print(f"[{time.perf_counter() - start:7.1f} s] {text}", file=sys.stderr, flush=True)
    return log


def fit(train: Examples, seed: int, hidden: tuple[int, int] = (128, 32), epochs: int = 30,
        batch: int = 256, lr: float = 1e-3, weight_decay: float = 1e-5,
        log=None, huber: float = 0.0) -> Network:
    """A network fit to the examples (Adam, the learning rate halved over the last
    third of the epochs). Each example weighs its share of the contract's points
    still to fall (the errors measured are shares of the contract's points); with
    ``huber`` above 0 the loss is Huber's with that threshold, else the square."""
    rng = np.random.default_rng(seed)
    net = Network(train.x.shape[1], hidden[0], hidden[1], rng)
    adam = Adam(net.params)
    n = len(train.y)
    weight = ((train.hi - train.lo) / train.total).astype(np.float32)
    weight /= weight.mean()
    for epoch, rate, parts in minibatches(rng, n, batch, epochs, lr):
        total = 0.0
        for j in parts:
            pred, cache = net.forward(train.x[j])
            err = (pred - train.y[j]).astype(np.float32)
            total += float((err ** 2).sum())
            if huber > 0:
                err = np.clip(err, -huber, huber)
            adam.update(net.grads(cache, (2.0 / len(j)) * err * weight[j]), rate, weight_decay)
        if log:
            log(f"epoch {epoch + 1}: train mse {total / n:.5f}")
    return net


def errors(predicted: np.ndarray, ex: Examples) -> dict:
    """The held-out errors of the predicted targets: mean absolute and mean signed, in
    points and as a share of the contract's total points, overall and by tricks left."""
    pred = np.clip(predicted, 0, 1)
    pts = (pred - ex.y) * (ex.hi - ex.lo)
    share = pts / ex.total
    out = {"examples": int(len(ex.y)), "mae_points": float(np.abs(pts).mean()),
           "mae_share": float(np.abs(share).mean()), "bias_share": float(share.mean()),
           "by_left": {}}
    for left in sorted(set(ex.left.tolist())):
        k = ex.left == left
        out["by_left"][int(left)] = {"examples": int(k.sum()),
                                     "mae_share": round(float(np.abs(share[k]).mean()), 5)}
    return out


def split(ex: Examples, held: np.ndarray) -> Examples:
    return Examples(ex.x[held], ex.y[held], ex.lo[held], ex.hi[held], ex.total[held],
                    ex.index[held], ex.left[held], [g for g, h in zip(ex.group, held) if h])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.fit", description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, nargs="+", required=True)
    ap.add_argument("--count", type=int, nargs="+",
                    help="per file, fit on the positions of index below this (all labelled)")
    fit_arguments(ap, (128, 32), 1e-3, 1e-4)
    ap.add_argument("--huber", type=float, default=0.1)
    args = ap.parse_args(argv)
    log = stopwatch_log()

    rows = read_rows(args.data, args.count)
    ex = examples(rows)
    log(f"{len(rows)} positions, {len(ex.y)} examples")
    held = ex.index % 10 == 0
    train, test = split(ex, ~held), split(ex, held)
    net = fit(train, args.seed, tuple(args.hidden), args.epochs, args.batch, args.lr,
              args.weight_decay, log=log, huber=args.huber)
    measured = errors(net.predict(test.x), test)
    log(f"held out: mae {measured['mae_share']:.4f} of the contract's points, "
        f"bias {measured['bias_share']:+.4f}")
    write_fit(args, argv, "training.fit", ex.x.shape[1], net, {
        "data": [p.name for p in args.data], "positions": len(rows), "data_digest": digest(rows),
        "examples": int(len(train.y)), "huber": args.huber, "held_out": measured}, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
