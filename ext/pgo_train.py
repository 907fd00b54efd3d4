"""The training run of the core's profile-guided build (setup.py): searches like the
ones users ask for, driven through the compiled ``Core`` alone.

    python ext/pgo_train.py PATH/TO/_core.so [--seconds S]

Doubles ``no-trumps`` and ``trumps`` on full deals (a side's value), singles
penalty endings (a lone seat's value, every card's value) and hint play-outs, by the
simple player and by the policy model (the default level's), on seeded deals, each
search capped by a node budget. It needs only the built module and the policy model's
file, not the rest of the package, so the build can run it before anything is
installed.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import json
import random
import struct
import sys
import time
from pathlib import Path

#: The policy model the default level's play-outs follow (kingsolve.search.policy_model).
POLICY = Path(__file__).resolve().parent.parent / "kingsolve" / "data" / "policy_model.bin"

def load_core(path: str):
    loader = importlib.machinery.ExtensionFileLoader("kingsolve._core", path)
    spec = importlib.util.spec_from_file_location("kingsolve._core", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def deal(rng: random.Random, per_hand: int) -> tuple[list[int], int]:
    """Four hands of ``per_hand`` cards (bit 16 * suit + rank) and the cards left out."""
    cards = [16 * s + r for s in range(4) for r in range(2, 15)]
    rng.shuffle(cards)
    hands = []
    for seat in range(4):
        mask = 0
        for b in cards[seat * per_hand:(seat + 1) * per_hand]:
            mask |= 1 << b
        hands.append(mask)
    out = 0
    for b in cards[4 * per_hand:]:
        out |= 1 << b
    return hands, out


def load(mod, core, hands, out, tricks, leader, trump=-1, card_points=None, each=0):
    points = card_points or [0] * 64
    table = mod.ContractTable(points, [each] * tricks, trump=trump)
    core.load(table, hands, out, 0, [], leader)


def value(core, mod, maxmask, nodes):
    core.set_budget(nodes, 10_000.0)
    lo, hi = core.bounds()
    try:
        core.value(maxmask, (lo + hi) // 2 if hi > 0 else hi)
    except mod.BudgetExceeded:
        pass


def policy_model(mod):
    """The core's copy of the policy model from its file (the value model's format:
    magic, header length, JSON header, float32 weights); None without the file."""
    try:
        data = POLICY.read_bytes()
    except OSError:
        return None
    (n,) = struct.unpack_from("<I", data, 4)
    header = json.loads(data[8:8 + n].decode("utf-8"))
    h1, h2 = header["hidden"]
    return mod.PolicyModel(header["features"], h1, h2, data[8 + n:])


def play_outs(mod, core, maxmask: int, coalition: int) -> None:
    """Every legal card's play-out to 3 tricks left and the search from there."""
    core.set_budget(300_000, 10_000.0)
    legal = core.legal()
    for bit in (b for b in range(64) if legal >> b & 1):
        try:
            core.rollout_value(bit, maxmask, 3, 0, coalition)
        except mod.BudgetExceeded:
            break


def train(mod, seconds: float) -> int:
    core = mod.Core(32)
    policy = policy_model(mod)
    rng = random.Random(2026)
    end = time.monotonic() + seconds
    hearts = [0] * 64
    queens = [0] * 64
    for r in range(2, 15):
        hearts[16 + r] = -1
    for s in range(4):
        queens[16 * s + 12] = -2
    rounds = 0
    while time.monotonic() < end:
        rounds += 1
        leader = rounds % 4
        side = (1 << leader) | (1 << ((leader + 2) % 4))
        hands, out = deal(rng, 13)
        load(mod, core, hands, out, 13, leader, each=2)            # doubles no-trumps
        value(core, mod, side, 400_000)
        load(mod, core, hands, out, 13, leader, trump=rounds % 4, each=1)   # doubles trumps
        value(core, mod, side, 400_000)
        for points, each in ((None, -1), (hearts, 0), (queens, 0)):   # singles endings
            hands, out = deal(rng, 8)
            load(mod, core, hands, out, 8, leader, card_points=points, each=each)
            value(core, mod, 1 << leader, 300_000)
            core.set_budget(300_000, 10_000.0)
            legal = core.legal()
            for bit in (b for b in range(64) if legal >> b & 1):
                try:
                    core.child_value(bit, 1 << leader, 0)
                    core.rollout_value(bit, 1 << leader, 3, 0)
                except mod.BudgetExceeded:
                    break
        if policy is not None:                                       # model play-outs
            core.set_policy(policy)
            for points, each in ((queens, 0), (None, 1)):
                hands, out = deal(rng, 13)
                load(mod, core, hands, out, 13, leader, card_points=points, each=each)
                core.set_voids(0)
                play_outs(mod, core, 1 << leader, 3)
            core.set_policy(None)
    return rounds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("module", help="the built kingsolve._core extension")
    ap.add_argument("--seconds", type=float, default=6.0)
    args = ap.parse_args()
    rounds = train(load_core(args.module), args.seconds)
    print(f"pgo training: {rounds} rounds", file=sys.stderr)


if __name__ == "__main__":
    main()
