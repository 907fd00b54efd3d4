"""Fit the policy model to the hints' choices and write its file.

    python -m training.policy_fit --data training/data/policy-1.jsonl.gz --count 800 \\
        --seed 1 --out kingsolve/data/policy_model.bin

Each chosen card of a game (``training.policy_games``) is one example: the core's
features of the seat's view (``Core.policy_features``, the ones the play-outs
evaluate) and the slot of the card the hints chose, among the slots of the legal
cards. A network of two ReLU hidden layers and a score per slot, fit by Adam on the
cross-entropy of a softmax over the legal cards, with numpy alone and a seeded
generator: the same data, seed and settings make the same weights. One game in ten
(by index) is held out; the agreement with the hints on it, beside the simple
player's, goes into the file's header with the command and the data's digest.

With ``--soft T`` (a set whose games record the hints' means) the target is not the
hint's one card but the softmax of its means over the legal cards, each mean a share
of the contract's points divided by the temperature ``T``. Given several temperatures,
each is fit with the games of index 5 mod 10 set aside, the one of least regret on them
(the hint's best mean minus its mean of the model's card) is kept, and the model is fit
again on every training game with it. The held-out regret goes into the header too.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kingsolve.game.cards import Card
from kingsolve.hands.hints import play_preference
from kingsolve.hands.match import contract_total
from kingsolve.search import engine
from kingsolve.search.policy_model import POLICY_MAGIC, card_slot, shown_voids

from .fit import Adam, Network, fit_arguments, minibatches, stopwatch_log, write_fit
from .policy_games import chosen_positions

SLOTS = 52
#: The starting weight of the simple player's card in its slot's score (the last
#: SLOTS features flag it): the fit starts near the simple player.
SKIP = 2.0


@dataclass
class Choices:
    x: np.ndarray          # features, float32 (examples x NPF)
    y: np.ndarray          # the chosen card's slot
    legal: np.ndarray      # the legal cards' slots, bool (examples x SLOTS)
    simple: np.ndarray     # the simple player's slot
    game: np.ndarray       # the game's index in its set
    family: list[str]      # rule set, contract, doubles
    value: np.ndarray      # each slot's mean in the hint, a share of the contract's points
                           # (examples x SLOTS; NaN where illegal or the set has no means)

    def subset(self, keep: np.ndarray) -> "Choices":
        return Choices(self.x[keep], self.y[keep], self.legal[keep], self.simple[keep],
                       self.game[keep], [f for f, k in zip(self.family, keep) if k],
                       self.value[keep])

    @property
    def valued(self) -> bool:
        """Whether every example has the hint's means (the set recorded them)."""
        return bool(len(self.y)) and not np.isnan(self.value[self.legal]).any()


def read_games(path: Path, count: int | None) -> list[dict]:
    """The games of a file of index below ``count`` (every one of them present)."""
    rows = {}
    with (gzip.open(path, "rt") if path.suffix == ".gz" else path.open()) as f:
        for line in f:
            if line.endswith("\n"):
                row = json.loads(line)
                rows[row["i"]] = row
    if count is not None:
        missing = [i for i in range(count) if i not in rows]
        if missing:
            raise SystemExit(f"{path}: {len(missing)} of the first {count} games are not "
                             f"played yet (the first missing: {missing[0]})")
        rows = {i: r for i, r in rows.items() if i < count}
    return [rows[i] for i in sorted(rows)]


def digest(games: list[dict]) -> str:
    """A hash of the games' descriptions, play and means (the data a policy was fit on)."""
    h = hashlib.sha256()
    for g in games:
        row = [g["i"], g["game"], g["play"], g["chosen"]] + ([g["means"]] if "means" in g else [])
        h.update(json.dumps(row, sort_keys=True).encode())
    return h.hexdigest()[:16]


def choices(games: list[dict]) -> Choices:
    """Every chosen card of the games, with the seat's features before it."""
    core = engine.Core(1)
    xs, ys, legals, simple, index, family, values = [], [], [], [], [], [], []
    for g in games:
        means = dict(zip(g["chosen"], g.get("means", [])))
        total = abs(contract_total(g["game"]["variant"], g["game"]["contract"])) or 1
        name = f"{g['game']['variant']}/{g['game']['contract']}" + (
            "/doubles" if g["game"]["doubles"] else "")
        for n, p, card in chosen_positions(g):
            engine.load(core, p)
            core.set_voids(shown_voids(p))
            xs.append(core.policy_features(engine.side_mask(p, p.to_move)))
            ys.append(card_slot(p, card.bit))
            row = np.zeros(SLOTS, bool)
            row[[card_slot(p, c.bit) for c in p.legal_cards()]] = True
            legals.append(row)
            value = np.full(SLOTS, np.nan, np.float32)
            for c, v in means.get(n, {}).items():
                value[card_slot(p, Card.parse(c).bit)] = v / total
            values.append(value)
            simple.append(card_slot(p, play_preference(p)[0].bit))
            index.append(g["i"])
            family.append(name)
    return Choices(np.asarray(xs, np.float32), np.asarray(ys), np.asarray(legals),
                   np.asarray(simple), np.asarray(index), family,
                   np.asarray(values, np.float32).reshape(-1, SLOTS))


class PolicyNetwork(Network):
    """The policy's weights, as the core reads them (w1 is features x h1; last, the
    weight of the simple player's card in its slot's score)."""

    def __init__(self, nf: int, h1: int, h2: int, rng: np.random.Generator) -> None:
        super().__init__(nf, h1, h2, rng, SLOTS)
        self.params.append(np.full(1, SKIP, np.float32))

    def forward(self, x: np.ndarray):
        w1, b1, w2, b2, w3, b3, skip = self.params
        a1 = x @ w1 + b1
        h1 = np.maximum(a1, 0)
        a2 = h1 @ w2 + b2
        h2 = np.maximum(a2, 0)
        return h2 @ w3 + b3 + skip[0] * x[:, -SLOTS:], (x, a1, h1, a2, h2)

    def grads(self, cache, dz: np.ndarray) -> list[np.ndarray]:
        x, a1, h1, a2, h2 = cache
        w1, b1, w2, b2, w3, b3, skip = self.params
        d2 = (dz @ w3.T) * (a2 > 0)
        d1 = (d2 @ w2.T) * (a1 > 0)
        return [x.T @ d1, d1.sum(0), h1.T @ d2, d2.sum(0), h2.T @ dz, dz.sum(0),
                np.array([(dz * x[:, -SLOTS:]).sum()], np.float32)]

    def choose(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The slot of highest score among the legal ones (ties to the first, as the
        core breaks them by card bit: a suit's slots run high to low, bits low to high,
        so a tie is rare enough to leave unmatched)."""
        scores = self.forward(x)[0]
        return np.where(legal, scores, -np.inf).argmax(1)

    def weights(self) -> bytes:
        return np.concatenate([p.ravel() for p in self.params]).astype("<f4").tobytes()


def masked_softmax(z: np.ndarray, legal: np.ndarray) -> np.ndarray:
    z = np.where(legal, z, -1e9)
    z = z - z.max(1, keepdims=True)
    e = np.exp(z) * legal
    return e / e.sum(1, keepdims=True)


def targets(ex: Choices, soft: float | None) -> np.ndarray:
    """Each example's target distribution over the slots: the hint's card alone, or
    (``soft``, a temperature) the softmax of the hint's means over the legal cards."""
    if soft is None:
        out = np.zeros(ex.legal.shape, np.float32)
        out[np.arange(len(ex.y)), ex.y] = 1.0
        return out
    if not ex.valued:
        raise SystemExit("soft targets need a set whose games record the hints' means")
    return masked_softmax(np.nan_to_num(ex.value) / soft, ex.legal).astype(np.float32)


def fit(train: Choices, seed: int, hidden: tuple[int, int] = (64, 32), epochs: int = 20,
        batch: int = 256, lr: float = 2e-3, weight_decay: float = 1e-3, log=None,
        soft: float | None = None) -> PolicyNetwork:
    """A network fit to the choices (Adam, the rate halved over the last third of the
    epochs; cross-entropy of the softmax over the legal cards against ``targets``)."""
    rng = np.random.default_rng(seed)
    net = PolicyNetwork(train.x.shape[1], hidden[0], hidden[1], rng)
    adam = Adam(net.params)
    n = len(train.y)
    goal = targets(train, soft)
    for epoch, rate, parts in minibatches(rng, n, batch, epochs, lr):
        loss = 0.0
        for j in parts:
            z, cache = net.forward(train.x[j])
            prob = masked_softmax(z, train.legal[j])
            loss -= float((goal[j] * np.log(prob + 1e-12)).sum())
            dz = prob - goal[j]
            adam.update(net.grads(cache, (dz / len(j)).astype(np.float32)), rate, weight_decay)
        if log:
            log(f"epoch {epoch + 1}: train cross-entropy {loss / n:.4f}")
    return net


def regret(slots: np.ndarray, ex: Choices) -> float:
    """The mean, over examples, of the hint's best mean minus its mean of the card in
    ``slots``, a share of the contract's points (NaN when the set has no means)."""
    if not ex.valued:
        return float("nan")
    best = np.where(ex.legal, np.nan_to_num(ex.value, nan=-np.inf), -np.inf).max(1)
    return float((best - ex.value[np.arange(len(slots)), slots]).mean())


def temperature(train: Choices, args, log) -> float | None:
    """The soft targets' temperature: the one given, or of several the one whose fit on
    the games other than 5 mod 10 has the least regret on those (None: hard targets)."""
    if not args.soft or len(args.soft) == 1:
        return args.soft[0] if args.soft else None
    aside = train.game % 10 == 5
    fit_on, check = train.subset(~aside), train.subset(aside)
    scores = {}
    for t in args.soft:
        net = fit(fit_on, args.seed, tuple(args.hidden), args.epochs, args.batch, args.lr,
                  args.weight_decay, soft=t)
        scores[t] = regret(net.choose(check.x, check.legal), check)
        log(f"temperature {t}: regret {scores[t]:.5f} of the contract's points on "
            f"{len(check.y)} choices set aside")
    return min(args.soft, key=scores.__getitem__)


def agreement(net: PolicyNetwork, test: Choices) -> dict:
    """The share of held-out choices the model and the simple player make as the hints
    did, overall and per family (rule set, contract, doubles)."""
    card = net.choose(test.x, test.legal)
    model = card == test.y
    simple = test.simple == test.y
    out: dict = {"examples": int(len(test.y)), "model": round(float(model.mean()), 4),
                 "simple": round(float(simple.mean()), 4), "by_family": {}}
    if test.valued:
        out["regret"] = {"model": round(regret(card, test), 5),
                         "simple": round(regret(test.simple, test), 5)}
    fams = np.asarray(test.family)
    for fam in sorted(set(test.family)):
        k = fams == fam
        out["by_family"][fam] = [int(k.sum()), round(float(model[k].mean()), 3),
                                 round(float(simple[k].mean()), 3)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.policy_fit",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, nargs="+", required=True,
                    help="policy sets (training.policy_games), one game in ten of each held out")
    ap.add_argument("--count", type=int,
                    help="fit on the games of index below this in each set (all played)")
    ap.add_argument("--soft", type=float, nargs="*",
                    help="fit to the softmax of the hints' means at this temperature (a "
                         "share of the contract's points; of several, the least regret's)")
    fit_arguments(ap, (64, 32), 2e-3, 1e-3)
    args = ap.parse_args(argv)
    log = stopwatch_log()

    games = [g for path in args.data for g in read_games(path, args.count)]
    ex = choices(games)
    log(f"{len(games)} games, {len(ex.y)} choices")
    held = ex.game % 10 == 0
    train, test = ex.subset(~held), ex.subset(held)
    soft = temperature(train, args, log)
    net = fit(train, args.seed, tuple(args.hidden), args.epochs, args.batch, args.lr,
              args.weight_decay, log=log, soft=soft)
    measured = agreement(net, test)
    log(f"held out: the model agrees with the hints on {measured['model']:.3f} of "
        f"{measured['examples']} choices, the simple player on {measured['simple']:.3f}; "
        f"regret {measured.get('regret')}")
    write_fit(args, argv, "training.policy_fit", ex.x.shape[1], net, {
        "data": ", ".join(path.name for path in args.data), "games": len(games),
        "data_digest": digest(games),
        "examples": int(len(train.y)), "temperature": soft, "held_out": measured}, log,
        magic=POLICY_MAGIC)
    return 0


if __name__ == "__main__":
    sys.exit(main())
