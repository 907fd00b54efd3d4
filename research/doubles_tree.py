"""The shape of a doubles side's search tree under a penalty, and what could still cut it.

    CFLAGS=-DKS_TREE_LOG=1 KINGSOLVE_PGO=0 KINGSOLVE_EXT=_core \
        .venv/bin/python setup.py build_ext --inplace --force
    .venv/bin/python research/doubles_tree.py [--contracts no-tricks,no-hearts,no-queens]
        [--played 3] [--deals 3] [--every 5]

The core's tree log is compiled in only on request (the first command);
``rm .venv/.installed-*; make install-test`` builds the normal core again.

Positions as in research/doubles_full.py (deal i of a contract, ``--played`` tricks of
random legal cards in, one side's value). Per contract, beside ``no-trumps`` on the same
deals where a table compares:

1. Where the nodes lie: the trick starts the rules before the moves leave to search, by
   tricks left, and the share of all nodes in their subtrees (a free exact solver of the
   last k tricks would save at most the share below k).
2. Move order at cut nodes: how often the first card cuts, and the share of the cut
   nodes' nodes spent on cards before the cutting one (what a perfect order saves there).
3. The wide entries: cards kept of the cards in hands, averaged over their stores (how
   many positions an entry stands for).
4. MTD's first guess: nodes from the exact value as the guess, against the usual start,
   each on a fresh table (what a perfect guess saves).
5. A side that loses every trick left: at every ``--every``-th trick start searched,
   whether either side's two hands each survive their suit games as a lone seat
   (``Core.lone_safe``, the partner among the others). For a side this is optimistic
   (a hand's exit may be beaten by its partner), so the share settled is an upper limit
   on what a rule of that kind, with its cards free, could settle.

A measurement, not a test: the figures are in research/HISTORY.md.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from doubles_full import problem  # noqa: E402
from kingsolve.search import engine  # noqa: E402

NODES = 50_000_000


def searched(core: engine.Core, mask: int, guess: int | None = None) -> int:
    """The side's exact future value on a fresh budget (the guess: MTD's usual start)."""
    core.set_budget(NODES, 600_000)
    lo, hi = core.bounds()
    return core.value(mask, engine.first_guess(lo, hi) if guess is None else guess)


def loses_all(probe: engine.Core, side: list[int]) -> bool:
    return all(probe.lone_safe(1 << s) for s in side)


def shape(contract: str, args: argparse.Namespace) -> dict:
    levels: dict[int, list[int]] = defaultdict(lambda: [0] * 4)   # logged, settled, sub, of them
    starts = [[0, 0] for _ in range(16)]
    cuts = [0] * 128
    out = {"nodes": 0, "kept": 0, "held": 0, "stores": 0, "perfect": 0}
    for i in range(args.deals):
        pos, seat = problem(contract, i, args.played)
        mask = engine.side_mask(pos, seat)
        table = engine.contract_table(pos)
        deal = [m or 0 for m in pos.deal.hands]
        every_card = deal[0] | deal[1] | deal[2] | deal[3]
        core = engine.Core(32)
        engine.load(core, pos)
        try:
            core.set_log(400_000, args.every)
        except RuntimeError as exc:
            sys.exit(f"doubles_tree: {exc}")
        value = searched(core, mask)
        log, level_counts, counts = core.take_log()
        core.set_log(0)
        stores, kept, held = core.wide_width
        out["nodes"] += core.nodes
        out["stores"] += stores
        out["kept"] += kept
        out["held"] += held
        cuts = [a + b for a, b in zip(cuts, counts)]
        for left, (k, sub) in enumerate(level_counts):
            starts[left][0] += k
            starts[left][1] += sub
        fresh = engine.Core(32)
        engine.load(fresh, pos)
        searched(fresh, mask, value)
        out["perfect"] += fresh.nodes
        mine = [s for s in range(4) if mask >> s & 1]
        others = [s for s in range(4) if not mask >> s & 1]
        probe = engine.Core(1)
        for rec in log if pos.contract.penalty else ():
            hands, leader, done, sub = list(rec[:4]), rec[4], rec[5], rec[9]
            in_hands = hands[0] | hands[1] | hands[2] | hands[3]
            probe.load(table, hands, every_card & ~in_hands, done, [], leader, deal)
            row = levels[13 - done]
            row[0] += 1
            row[2] += sub
            if loses_all(probe, mine) or loses_all(probe, others):
                row[1] += 1
                row[3] += sub
    out.update(levels=levels, starts=starts, cuts=cuts)
    return out


def report(contract: str, r: dict, args: argparse.Namespace) -> None:
    total = r["nodes"]
    print(f"\n## {contract}: {args.deals} deals, {13 - args.played} tricks left, {total:,} nodes\n")
    print("| tricks left | trick starts searched | share of all nodes below them |")
    print("|---|---|---|")
    for left in range(12 - args.played, 0, -1):
        k, sub = r["starts"][left]
        if k:
            print(f"| {left} | {k:,} | {sub / total:.1%} |")
    print("\n| tricks left | side | cut nodes | first card cuts | nodes before the cutting card |")
    print("|---|---|---|---|---|")
    for left in range(15, 0, -1):
        for side, name in ((1, "asked"), (0, "other")):
            k, first, before, nodes = r["cuts"][8 * left + 4 * side: 8 * left + 4 * side + 4]
            if k:
                print(f"| {left} | {name} | {k:,} | {first / k:.1%} | "
                      f"{before / max(nodes, 1):.1%} |")
    stores = max(r["stores"], 1)
    print(f"\nwide entries: {r['stores']:,} stored, {r['kept'] / stores:.1f} cards kept of "
          f"{r['held'] / stores:.1f} in hands")
    print(f"a perfect first guess: {r['perfect']:,} nodes against {total:,} "
          f"({r['perfect'] / max(total, 1):.2f})")
    if not r["levels"]:
        return
    print("\n| tricks left | logged | a side loses every trick (best case) | their subtree share |")
    print("|---|---|---|---|")
    for left in sorted(r["levels"], reverse=True):
        n, k, sub, ks = r["levels"][left]
        print(f"| {left} | {n:,} | {k / n:.1%} | {ks / max(sub, 1):.1%} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--contracts", default="no-tricks,no-hearts,no-queens,no-trumps")
    ap.add_argument("--played", type=int, default=3, help="tricks of random play first")
    ap.add_argument("--deals", type=int, default=3, help="deals per contract")
    ap.add_argument("--every", type=int, default=5, help="table 5 at every n-th trick start")
    args = ap.parse_args()
    for contract in args.contracts.split(","):
        report(contract, shape(contract, args), args)


if __name__ == "__main__":
    main()
