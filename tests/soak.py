"""A long run of the four-tricks comparison (not collected by pytest; run by hand).

    .venv/bin/python tests/soak.py [--minutes 30] [--tricks 4] [--players 4]
                                   [--doubles | --singles] [--seed 1000]

The compiled core against the alpha-beta over ``Position`` (tests/bruteforce.py) on
positions of full deals with ``--tricks`` tricks left (more for 2 players: those
deals are longer), seeds from ``--seed`` on, every trick contract of every rule
set round and round until the time is up: each seat's value and each legal card's
value. CI runs one position per contract (tests/test_solver_differential.py); a
run of this found the wide-entry fault that test now pins. Prints every mismatch
with its position and exits 1 if there was any.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bruteforce  # noqa: E402
from kingsolve.search.solver import solve  # noqa: E402
from contracts import CONFIGS, config_id, deeper_position  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--tricks", type=int, default=4)
    ap.add_argument("--players", type=int, choices=(2, 3, 4))
    side = ap.add_mutually_exclusive_group()
    side.add_argument("--doubles", action="store_true")
    side.add_argument("--singles", action="store_true")
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    configs = [c for c in CONFIGS
               if (args.players is None or c[4] == args.players)
               and not (args.doubles and not c[5]) and not (args.singles and c[5])]
    deadline = time.monotonic() + 60 * args.minutes
    seed, done, bad = args.seed, 0, 0
    while time.monotonic() < deadline:
        for cfg in configs:
            keep = args.tricks + (2 if cfg[4] == 2 else 0)
            pos = deeper_position(cfg, seed, keep)
            result = solve(pos)
            for seat in pos.seats:
                expected = bruteforce.value_pruned(pos, seat)
                if result.values[seat] != expected:
                    bad += 1
                    print(f"MISMATCH {config_id(cfg)} seed {seed} {seat.name}: core "
                          f"{result.values[seat]}, reference {expected}: {pos!r}", flush=True)
            if not pos.complete:
                expected_cards = bruteforce.card_values_pruned(pos)
                if result.cards != expected_cards:
                    bad += 1
                    print(f"MISMATCH {config_id(cfg)} seed {seed} cards: core {result.cards}, "
                          f"reference {expected_cards}: {pos!r}", flush=True)
            done += 1
            if time.monotonic() >= deadline:
                break
        seed += 1
        print(f"seeds {args.seed}-{seed - 1}: {done} positions, {bad} mismatches", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
