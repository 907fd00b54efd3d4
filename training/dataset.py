"""Labelled positions as the model's inputs and targets.

Each labelled seat (or doubles side) of a position is one example: the core's
features (``Core.features``, the same the estimating search evaluates) and the
target, the exact future value's share of the points still to fall, between the
quick bounds: ``(value - lo) / (hi - lo)``. Examples with no points left are dropped
(their value is known without a model).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kingsolve.game.cards import Seat
from kingsolve.game.position import Position
from kingsolve.search import engine


@dataclass
class Examples:
    x: np.ndarray          # features, float32 (examples x NF)
    y: np.ndarray          # targets in [0, 1]
    lo: np.ndarray         # the quick bounds of the future value, in points
    hi: np.ndarray
    total: np.ndarray      # the contract's total points (every point of the hand)
    index: np.ndarray      # the position's index in its set (a chain's rows share it)
    left: np.ndarray       # tricks left
    group: list[str]       # the position's rule set and contract


def position_of(desc: dict) -> Position:
    return Position(desc["variant"], desc["contract"], desc["deal"], leader=desc["leader"],
                    trump=desc["trump"], doubles=desc["doubles"], play=desc["play"])


def contract_total(pos: Position) -> int:
    """Every point of a whole hand of the contract, in absolute value."""
    t = pos.tables
    return sum(abs(p) for p in t.trick_points) + sum(abs(p) for p in t.card_points)


def read_rows(paths: list[Path], counts: "list[int] | None" = None) -> list[dict]:
    """The labelled rows of the files, each position with the rows of its chain
    (``training.generate --chain``); with ``counts`` (one per file), the positions
    of index below the file's count only, every one of which must be present (a set
    is used whole or not at all). A row's ``set`` is its file's place in the list."""
    out: list[dict] = []
    for n, path in enumerate(paths):
        rows: dict[tuple[int, int], dict] = {}
        with (gzip.open(path, "rt") if path.suffix == ".gz" else path.open()) as f:
            for line in f:
                if line.endswith("\n"):
                    row = json.loads(line)
                    row["set"] = n
                    rows[row["i"], row.get("k", 0)] = row
        if counts is not None:
            count = counts[n]
            have = {i for i, _ in rows}
            missing = [i for i in range(count) if i not in have]
            if missing:
                raise SystemExit(f"{path}: {len(missing)} of the first {count} positions are not "
                                 f"labelled yet (the first missing: {missing[0]})")
            rows = {key: row for key, row in rows.items() if key[0] < count}
        out.extend(rows[key] for key in sorted(rows))
    return out


def digest(rows: list[dict]) -> str:
    """A hash of the rows' positions and values (the data a model was fit on)."""
    h = hashlib.sha256()
    for row in rows:
        h.update(json.dumps([row["set"], row["i"], row.get("k", 0), row["position"], row.get("values")],
                            sort_keys=True).encode())
    return h.hexdigest()[:16]


def examples(rows: list[dict]) -> Examples:
    """Every labelled seat of every proved row, as features and targets."""
    core = engine.Core(1)
    xs, ys, los, his, totals, idx, lefts, groups = [], [], [], [], [], [], [], []
    for row in rows:
        values = row.get("values")
        if not values:
            continue
        pos = position_of(row["position"])
        engine.load(core, pos)
        lo, hi = core.bounds()
        total = contract_total(pos)
        for name, value in values.items():
            seat = Seat.parse(name)
            mask = engine.side_mask(pos, seat)
            f = core.features(mask)
            if f is None:
                continue
            future = value - engine.total(pos, seat, 0)
            xs.append(f)
            ys.append((future - lo) / (hi - lo))
            los.append(lo)
            his.append(hi)
            totals.append(total)
            idx.append(row["i"])
            lefts.append(row["left"])
            groups.append(f"{pos.variant.name}/{pos.contract.name}" + ("/doubles" if pos.doubles else ""))
    return Examples(np.asarray(xs, np.float32), np.asarray(ys, np.float32),
                    np.asarray(los, np.float32), np.asarray(his, np.float32),
                    np.asarray(totals, np.float32), np.asarray(idx), np.asarray(lefts),
                    groups)
