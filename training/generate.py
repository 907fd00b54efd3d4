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
import random
import sys
import time
from pathlib import Path

from kingsolve import solve
from kingsolve.errors import SolveTimeout
from kingsolve.search.budget import Budget

from kingsolve.hands.hints import play_preference

from .positions import CHAIN_LEVELS, position, seat_names

NODES = 2_000_000_000


def label_position(pos, index: int, cap_ms: float, step: int = 0) -> dict:
    """The record of a position: its replayable description and its values."""
    seats = seat_names(pos)
    row = {"i": index, "k": step, "position": {
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


def label(job: tuple[int, int, float, bool]) -> list[dict]:
    """The records of position ``index`` of the set and, with ``chain``, of the
    trick starts its play then reaches down to 4 tricks left (the same mix of play,
    seeded by the index). The positions of one hand share the core's table, so each
    after the first costs a few percent of it."""
    seed, index, cap_ms, chain = job
    pos = position(seed, index, levels=CHAIN_LEVELS if chain else None)
    rows = [label_position(pos, index, cap_ms)]
    rnd = random.Random(f"kingsolve-chain:{seed}:{index}")
    step = 0
    while chain and not pos.complete and pos.n_tricks - len(pos.tricks) > 4:
        for _ in pos.seats:
            if pos.complete:
                break
            legal = pos.legal_cards()
            pos.play(rnd.choice(legal) if rnd.random() < 0.5 else play_preference(pos)[0])
        if pos.complete:
            break
        step += 1
        rows.append(label_position(pos, index, cap_ms, step))
    return rows


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
    # a chain is written whole; a torn write leaves its index out
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
    ap.add_argument("--chain", action="store_true",
                    help="each position from the top levels, then every trick start of its play "
                         "down to 4 tricks left")
    args = ap.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done = done_indices(args.out)
    todo = [(args.seed, i, args.cap_ms, args.chain)
            for i in range(args.start, args.start + args.count) if i not in done]
    print(f"{len(done)} done, {len(todo)} to label", file=sys.stderr)
    start, n = time.perf_counter(), 0
    with args.out.open("a") as out, multiprocessing.Pool(args.workers) as pool:
        for rows in pool.imap_unordered(label, todo, chunksize=4):
            # one write a position and its chain: a torn file loses whole indices
            out.write("".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows))
            out.flush()
            n += 1
            if n % 500 == 0:
                rate = n / (time.perf_counter() - start)
                print(f"{n} labelled, {rate:.1f}/s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
