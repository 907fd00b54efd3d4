"""Label positions with their exact values: the value model's training data.

    python -m training.generate --seed 1 --count 100000 --out training/data/set-1.jsonl

Position ``i`` of a set is ``training.positions.position(seed, i)``; each gets the
exact value of every seat (singles: the paranoid value, docs/rules.md 11) or of each
side (doubles), by ``kingsolve.solve`` within ``--cap-ms``. A position not proved
within it keeps the ranges proved (``bounds``) and is left out of the fit. The output
is one JSON line a position, appended as results come; a run started again on the same
file skips the indices it holds, so a set is made in pieces and always the same.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

from kingsolve import solve
from kingsolve.errors import SolveTimeout
from kingsolve.result import Budget

from .positions import position, seat_names

NODES = 2_000_000_000


def label(job: tuple[int, int, float]) -> dict:
    """The record of position ``index``: its replayable description and its values."""
    seed, index, cap_ms = job
    pos = position(seed, index)
    seats = seat_names(pos)
    row = {"i": index, "position": {
        "variant": pos.variant.name, "contract": pos.contract.name,
        "trump": None if pos.trump is None else pos.trump.name, "doubles": pos.doubles,
        "deal": pos.deal.pbn(), "leader": pos.leader.name,
        "play": [str(c) for c in pos.record]},
        "left": pos.n_tricks - len(pos.tricks)}
    start = time.perf_counter()
    try:
        res = solve(pos, seats=seats, cards=False, budget=Budget(nodes=NODES, ms=cap_ms))
        row["values"] = {s.name: int(v) for s, v in res.values.items()}
        row["nodes"] = res.nodes
    except SolveTimeout as exc:
        row["bounds"] = {s.name: [int(lo), int(hi)] for s, (lo, hi) in exc.bounds.items()}
    row["ms"] = round((time.perf_counter() - start) * 1000.0, 1)
    return row


def done_indices(path: Path) -> set[int]:
    """The indices already in an output file (a torn last line is dropped)."""
    if not path.exists():
        return set()
    done, good = set(), 0
    with path.open("rb") as f:
        data = f.read()
    for line in data.splitlines(keepends=True):
        if not line.endswith(b"\n"):
            break
        try:
            done.add(json.loads(line)["i"])
        except (ValueError, KeyError):
            break
        good += len(line)
    if good != len(data):
        with path.open("r+b") as f:
            f.truncate(good)
    return done


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.generate", description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True, help="positions in the set")
    ap.add_argument("--start", type=int, default=0, help="first index")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--cap-ms", type=float, default=4000.0, help="budget of each position's solve")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done = done_indices(args.out)
    todo = [(args.seed, i, args.cap_ms) for i in range(args.start, args.start + args.count)
            if i not in done]
    print(f"{len(done)} done, {len(todo)} to label", file=sys.stderr)
    start, n = time.perf_counter(), 0
    with args.out.open("a") as out, multiprocessing.Pool(args.workers) as pool:
        for row in pool.imap_unordered(label, todo, chunksize=4):
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
            out.flush()
            n += 1
            if n % 500 == 0:
                rate = n / (time.perf_counter() - start)
                print(f"{n} labelled, {rate:.1f}/s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
