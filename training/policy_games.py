"""Games played by the hints, each decision a training example of the policy model.

    python -m training.policy_games --seed 1 --count 400 --out training/data/policy-1.jsonl

Game ``i`` of a set is a function of the seed and ``i`` alone: a random trick contract
of a random rule set (four players; Italian doubles where the contract is scheduled
for them), a seeded deal, trump and first leader. Every seat plays the hint's card
at ``--level`` (``kingsolve.hint``, seeded by the game and the card's number; by default
``BASELINE_LEVEL``, 50 samples of the simple player's play-outs, the hints the shipped
model imitates), so the examples are the hints' choices from each seat's own view.
A seat with one legal card plays it and makes no example.

The output is one JSON line a game: its description, the whole play, the numbers
of the cards that were chosen (not forced) and, for each, every legal card's mean value
in the hint that chose it (the soft targets of ``training.policy_fit --soft``). A run
started again on the same file skips the games it holds, so a set is made in pieces
and always the same.
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
from typing import Iterator

from kingsolve import Card, Deal, Position, Seat, Suit
from kingsolve.game.rules import VARIANTS
from kingsolve.hands.hints import BASELINE_LEVEL, hint
from kingsolve.hands.playouts import POLICIES
from kingsolve.search.budget import Budget

from .generate import done_indices

#: Each search of a hint: the cap keeps a rare slow search from stalling a game.
SEARCH_MS = 5000.0


def game_settings() -> list[tuple[str, str, bool]]:
    """Every (rule set, trick contract, doubles) a game may be, in a fixed order."""
    out = []
    for name, rs in VARIANTS.items():
        for contract, c in rs.contracts.items():
            if c.kind == "tricks":
                out.append((name, contract, False))
                if rs.doubles and contract in rs.doubles_schedule:
                    out.append((name, contract, True))
    return out


def game_of(seed: int, index: int) -> dict:
    """The description of game ``index`` of the set ``seed``."""
    rng = random.Random(f"kingsolve-policy:{seed}:{index}")
    variant, contract, doubles = rng.choice(game_settings())
    rs = VARIANTS[variant]
    trump = rng.choice(list(Suit)).name if rs.contracts[contract].takes_trump else None
    return {"variant": variant, "contract": contract, "doubles": doubles, "trump": trump,
            "deal": Deal.random(seed=rng.randrange(2 ** 31), deck=rs.deck).pbn(),
            "leader": rng.choice(list(Seat)).name}


def start_position(desc: dict) -> Position:
    return Position(desc["variant"], desc["contract"], desc["deal"], leader=desc["leader"],
                    trump=desc["trump"], doubles=desc["doubles"])


def chosen_positions(game: dict) -> Iterator[tuple[int, Position, Card]]:
    """Each chosen card of a played game: its number in the play, the position before
    it (played on once the caller moves on: read it, do not change it) and the card."""
    p = start_position(game["game"])
    chosen = set(game["chosen"])
    for n, text in enumerate(game["play"]):
        card = Card.parse(text)
        if n in chosen:
            yield n, p, card
        p.play(card)


def play_game(job: tuple[int, int, int, str | None]) -> dict:
    """Game ``index`` played to its end by the hints of ``level`` (their play-outs by
    ``policy`` when given, else the level's)."""
    seed, index, level, policy = job
    desc = game_of(seed, index)
    p = start_position(desc)
    chosen, means = [], []
    n = 0
    start = time.perf_counter()
    while not p.complete:
        legal = p.legal_cards()
        if len(legal) == 1:
            p.play(legal[0])
        else:
            seat = p.to_move
            h = hint(desc["variant"], desc["contract"], seat, p.deal.hands[seat],
                     [str(c) for c in p.record], leader=desc["leader"], trump=desc["trump"],
                     doubles=desc["doubles"], seed=seed * 100_003 + index * 61 + n, level=level,
                     policy=policy, budget=Budget(ms=SEARCH_MS))
            chosen.append(n)
            means.append({str(c.card): round(c.mean, 4) for c in h.cards})
            p.play(h.recommended)
        n += 1
    return {"i": index, "game": desc, "play": [str(c) for c in p.record], "chosen": chosen,
            "means": means, "level": level, **({"policy": policy} if policy else {}),
            "ms": round((time.perf_counter() - start) * 1000.0)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.policy_games",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True, help="games in the set")
    ap.add_argument("--start", type=int, default=0, help="first index")
    ap.add_argument("--level", type=int, default=BASELINE_LEVEL,
                    help=f"the hints' level (default {BASELINE_LEVEL}, the baseline)")
    ap.add_argument("--policy", choices=POLICIES,
                    help="the hints' play-out policy (default: the level's)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done = done_indices(args.out)
    todo = [(args.seed, i, args.level, args.policy)
            for i in range(args.start, args.start + args.count)
            if i not in done]
    print(f"{len(done)} done, {len(todo)} to play", file=sys.stderr)
    start = time.perf_counter()
    with args.out.open("a") as out, multiprocessing.Pool(args.workers) as pool:
        for n, row in enumerate(pool.imap_unordered(play_game, todo), 1):
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
            out.flush()
            if n % 10 == 0:
                print(f"{n} games, {n / (time.perf_counter() - start):.2f}/s", file=sys.stderr,
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
