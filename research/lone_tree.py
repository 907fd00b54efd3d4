"""The shape of the lone seat's search tree, and what rules could still cut it.

    CFLAGS=-DKS_TREE_LOG=1 KINGSOLVE_PGO=0 KINGSOLVE_EXT=_core \
        .venv/bin/python setup.py build_ext --inplace --force
    .venv/bin/python research/lone_tree.py [--left 10] [--per 1] [--bound [--best-case]]

The core's tree log is compiled in only on request (the first command);
``rm .venv/.installed-*; make install-test`` builds the normal core again.

Positions as in research/frontier.py (every penalty contract of the 52-card rule sets
without trump or overtaking, ``--per`` deals, random play to a trick start with
``--left`` tricks left, one random seat); each seat's value is searched once with the
core's tree log on (``Core.set_log``). Three tables, by tricks left at the node:

1. Where the nodes lie: the trick starts the rules before the moves leave to search,
   and the share of all nodes in their subtrees. A solver for the last k tricks that cost nothing would save at most the
   share below k tricks left.
2. Move order: at cut nodes of the lone seat P and of the others, how often the first
   card cuts and the share of the cut nodes' nodes spent on cards before the cutting
   one (what a perfect order would save there).
3. With ``--bound``: how often "P loses at most k more" settles a logged node. Per
   suit, the most the others can force on P when they have every power across suits
   (any of them, or P, may be made to lead the suit at any time; any card may leave
   the suit as a discard at any time; P's discards never score, as P cannot win a
   trick it does not follow) and P plays its best in that suit alone; the sum over
   suits, capped by the tricks left, plus the point cards the others can shed on those
   wins, bounds P's loss (no trump: a trick belongs to its suit led). ``--best-case``
   drops P's own leads from the games: not sound, an upper limit on what any bound of
   this family can settle. A node is settled when the bound reaches its beta.

A measurement, not a test: the figures are in research/HISTORY.md.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from frontier import penalty_contracts, position_at  # noqa: E402
from kingsolve.search.budget import Budget  # noqa: E402
from kingsolve.search import engine  # noqa: E402

Cards = tuple[tuple[int, int], ...]     # (rank, owner) of one suit's cards, high to low


def suit_cards(hands: list[int], s: int) -> Cards:
    return tuple((r, h) for r in range(14, 1, -1) for h in range(4)
                 if hands[h] >> (16 * s + r) & 1)


@lru_cache(maxsize=None)
def suit_game(cards: Cards, P: int, pts: tuple[int, ...], wins: bool, p_leads: bool) -> int:
    """The most the others can force on P in one suit's relaxed game: its wins, or
    (not `wins`) the points `pts[rank]` of the suit's cards in the tricks it wins."""
    owners = {h for _, h in cards}
    if P not in owners:
        return 0
    if owners == {P}:
        if not p_leads:
            return 0
        return len(cards) if wins else sum(pts[r] for r, _ in cards)
    best = max(suit_game(cards[:i] + cards[i + 1:], P, pts, wins, p_leads)
               for i in range(len(cards)))
    for lead in sorted(owners):
        if lead == P and not p_leads:
            continue
        order = tuple(h for h in ((lead + k) % 4 for k in range(4)) if h in owners)
        best = max(best, suit_trick(cards, P, pts, wins, p_leads, order, ()))
    return best


def suit_trick(cards: Cards, P: int, pts: tuple[int, ...], wins: bool, p_leads: bool,
               order: tuple[int, ...], played: Cards) -> int:
    if len(played) == len(order):
        rest = tuple(c for c in cards if c not in played)
        got = 0
        if max(played)[1] == P:
            got = 1 if wins else sum(pts[r] for r, _ in played)
        return got + suit_game(rest, P, pts, wins, p_leads)
    h = order[len(played)]
    values = [suit_trick(cards, P, pts, wins, p_leads, order, played + (c,))
              for c in cards if c[1] == h]
    return min(values) if h == P else max(values)


def loss_bound(hands: list[int], P: int, tricks_done: int, tables, p_leads: bool) -> int:
    """The most P can lose from here (a positive number), by the suit games."""
    wins = points = 0
    for s in range(4):
        cards = suit_cards(hands, s)
        pts = tuple(-tables.card_points[16 * s + r] if r >= 2 else 0 for r in range(15))
        wins += suit_game(cards, P, pts, True, p_leads)
        if any(pts):
            points += suit_game(cards, P, pts, False, p_leads)
    wins = min(wins, len(tables.trick_points) - tricks_done)
    trick_pen = sorted((-p for p in tables.trick_points[tricks_done:] if p < 0), reverse=True)
    shed = sorted((-tables.card_points[b] for h in range(4) if h != P for b in range(64)
                   if hands[h] >> b & 1 and tables.card_points[b] < 0), reverse=True)
    return sum(trick_pen[:wins]) + points + sum(shed[:3 * wins])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--left", type=int, default=10, help="tricks left at the root")
    ap.add_argument("--per", type=int, default=1, help="deals per contract")
    ap.add_argument("--every", type=int, default=20,
                    help="table 3: the bound at every n-th trick start searched")
    ap.add_argument("--cap", type=int, default=200_000, help="table 3: nodes at most")
    ap.add_argument("--nodes", type=int, default=50_000_000, help="node budget per search")
    ap.add_argument("--bound", action="store_true", help="table 3: the suit games' bound")
    ap.add_argument("--best-case", action="store_true",
                    help="table 3 without P's leads: not sound, the family's upper limit")
    args = ap.parse_args()
    # per tricks left: logged, settled, subtree nodes, of them settled, fail-high, settled
    levels: dict[int, list[int]] = defaultdict(lambda: [0] * 6)
    cuts = [0] * 128
    starts = [[0, 0] for _ in range(16)]
    total = unsound = searches = 0
    for vname, cname in penalty_contracts():
        for seed in range(args.per):
            pos, seat = position_at(vname, cname, seed, args.left)
            tables = pos.tables
            if pos.complete or tables.overtake or tables.trump >= 0:
                continue
            budget = Budget(nodes=args.nodes)
            with engine.leased_core(pos, budget) as core:
                core.set_budget(budget.nodes, 600_000)
                try:
                    core.set_log(args.cap, args.every)
                except RuntimeError as exc:
                    sys.exit(f"lone_tree: {exc}")
                lo, hi = core.bounds()
                try:
                    core.value(engine.side_mask(pos, seat), engine.first_guess(lo, hi))
                    stopped = False
                except engine.BudgetExceeded:
                    stopped = True
                log, level_counts, counts = core.take_log()
                core.set_log(0)
                total += core.nodes
            searches += 1
            cuts = [a + b for a, b in zip(cuts, counts)]
            for left, (k, sub) in enumerate(level_counts):
                starts[left][0] += k
                starts[left][1] += sub
            for rec in log:
                hands, done, beta, best, sub = list(rec[:4]), rec[5], rec[7], rec[8], rec[9]
                row = levels[len(tables.trick_points) - done]
                row[0] += 1
                row[2] += sub
                if not args.bound:
                    continue
                settled = -loss_bound(hands, int(seat), done, tables, not args.best_case) >= beta
                row[1] += settled
                row[3] += sub if settled else 0
                if best >= beta:
                    row[4] += 1
                    row[5] += settled
                elif settled and not stopped and not args.best_case:
                    unsound += 1
    print(f"{searches} searches, {args.left} tricks left, {total:,} nodes")
    print("\n1. Where the nodes lie\n")
    print("| tricks left | trick starts searched | share of all nodes below them |")
    print("|---|---|---|")
    for left in range(args.left - 1, 0, -1):
        k, sub = starts[left]
        if k:
            print(f"| {left} | {k:,} | {sub / total:.1%} |")
    print("\n2. Move order at cut nodes\n")
    print("| tricks left | side | cut nodes | first card cuts | nodes before the cutting card |")
    print("|---|---|---|---|---|")
    for left in range(15, 0, -1):
        for side, name in ((1, "P"), (0, "others")):
            k, first, before, nodes = cuts[8 * left + 4 * side: 8 * left + 4 * side + 4]
            if k:
                print(f"| {left} | {name} | {k:,} | {first / k:.1%} | {before / max(nodes, 1):.1%} |")
    if args.bound:
        kind = "best case (P never leads in the suit games)" if args.best_case else "sound"
        print(f"\n3. The suit games' bound, {kind}, at every {args.every}-th trick start\n")
        print("| tricks left | logged | settled | their subtree nodes | of the fail-high nodes |")
        print("|---|---|---|---|---|")
        for left in sorted(levels, reverse=True):
            n, k, sub, subk, fh, fhk = levels[left]
            print(f"| {left} | {n:,} | {k / n:.1%} | {subk / max(sub, 1):.1%} | "
                  f"{fhk:,} of {fh:,} |")
        if unsound:
            print(f"\n{unsound} nodes settled against their result: the bound is wrong")


if __name__ == "__main__":
    main()
