"""Best cases of candidate misère bounds: how many of the trick starts a side's (or the
lone seat's) search leaves to its moves a bound could settle, before it is built.

    CFLAGS=-DKS_TREE_LOG=1 KINGSOLVE_PGO=0 KINGSOLVE_EXT=_core \
        .venv/bin/python setup.py build_ext --inplace --force
    .venv/bin/python research/doubles_bounds.py [--lead 1|2|3]
        [--contracts no-tricks,no-queens] [--played 3] [--deals 3] [--every 10]
        [--depth 3] [--singles --left 10 --per 1]

Positions as in research/doubles_full.py (deal i of a contract, ``--played`` tricks of
random legal cards in, one side's value) or, with ``--singles``, as in
research/frontier.py (one seat of each penalty contract without trump or
overtaking). Each is searched once with the core's tree log on; every ``--every``-th
trick start the rules before the moves leave to search is logged with its window and
subtree size. Per logged trick start, by tricks left, whether a bound decides its
window, and the share of the level's subtree nodes under those it decides:

1. **The forced line**: the leader's side X on lead, every card it may lead and every
   card of X's other hands searched, while the other side may only duck (its highest
   card under the trick's top card, or a point card under it; void, the top card of a
   suit or a point card); X's winning hand leads again. Its value over the next
   ``--depth`` tricks is a lower bound on the points X takes: restricting the other
   side's moves, and counting nothing once it cannot duck, only lowers the value of a
   game X minimises. A line too wide to follow (20,000 tricks searched) counts as
   none. Depth 1 is about what ``lead_kept`` with its sheds knows; deeper rows are
   what chaining adds.
2. **The suit games** (research/lone_tree.py's, for a side): per suit, the most the
   others can force on X when they hold every power across suits (who leads, when a
   card leaves the suit), summed with the point cards shed on those wins; for either
   side. Sound, and, without X's leads, the family's best case (not sound).
3. **Payoff-similar entries** (Furtak and Buro, IJCAI 2011), at every trick start
   (``--every 1``): an earlier searched trick start of the same shape (each suit's
   owners high to low, the leader) with other point cards, its bound widened by the
   points moved (the same play gives the same winners, so the values differ by at most
   that), decides this one's window. The best case: every earlier bound kept.

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

from doubles_full import problem  # noqa: E402
from frontier import penalty_contracts, position_at  # noqa: E402
from kingsolve.search import engine  # noqa: E402

NODES = 200_000_000
LANES = [0x7FFC << (16 * s) for s in range(4)]


def bits(m: int):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


class Line:
    """The forced-line game of one contract's points: a memo per position."""

    def __init__(self, card_points, trick_points, seats: int):
        self.pts = [-p for p in card_points]           # penalties as positive numbers
        self.trick = [-p for p in trick_points]
        self.seats = seats
        self.memo: dict = {}
        self.calls = 0
        self.cap = 1 << 62

    def value(self, hands: tuple, L: int, X: int, done: int, depth: int) -> int:
        """Fewest points side X (a seat mask, L in it) takes over the next `depth`
        tricks when the others may only duck."""
        if depth == 0 or done >= len(self.trick) or not hands[L]:
            return 0
        key = (hands, L, X, done, depth)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.calls += 1
        if self.calls > self.cap:
            raise TimeoutError
        best = None
        for card in self.leads(hands, L):
            nh = list(hands)
            nh[L] &= ~(1 << card)
            v = self.follow(tuple(nh), L, X, done, depth, [(L, card)], card)
            if best is None or v < best:
                best = v
            if best == 0:
                break
        self.memo[key] = best
        return best

    def leads(self, hands, L):
        """L's cards, one of each run of equal cards (no card out between them)."""
        held = hands[0] | hands[1] | hands[2] | hands[3]
        out = []
        for s in range(4):
            mine = hands[L] & LANES[s]
            prev = None
            for b in sorted(bits(mine), reverse=True):
                if prev is not None and not (held & ((1 << prev) - (2 << b)) & ~mine) \
                        and self.pts[b] == self.pts[prev]:
                    prev = b
                    continue
                out.append(b)
                prev = b
        return out

    def follow(self, hands, L, X, done, depth, trick, top) -> int:
        j = (trick[-1][0] + 1) % 4
        if len(trick) == self.seats or j == L:
            return self.close(hands, L, X, done, depth, trick, top)
        suit = LANES[trick[0][1] >> 4]
        h = hands[j]
        in_suit = h & suit
        mine = (X >> j) & 1
        if mine:
            options = list(bits(in_suit)) if in_suit else list(bits(h))
        elif in_suit:
            under = in_suit & ((1 << top) - 1) if (top >> 4) == (trick[0][1] >> 4) else 0
            if not under:
                return 0                                   # it cannot duck: nothing more
            options = [max(bits(under))] + [b for b in bits(under) if self.pts[b]]
        else:
            options = [max(bits(h & LANES[s])) for s in range(4) if h & LANES[s]] + \
                [b for b in bits(h) if self.pts[b]]
        best = None
        for b in set(options):
            nh = list(hands)
            nh[j] &= ~(1 << b)
            nt = top if (b >> 4) != (trick[0][1] >> 4) or b < top else b
            v = self.follow(tuple(nh), L, X, done, depth, trick + [(j, b)], nt)
            if best is None or (v < best if mine else v > best):
                best = v
        return best

    def close(self, hands, L, X, done, depth, trick, top) -> int:
        winner = next(j for j, b in trick if b == top)
        if not (X >> winner) & 1:
            return 0
        got = self.trick[done] + sum(self.pts[b] for _, b in trick)
        return got + self.value(hands, winner, X, done + 1, depth - 1)


Cards = tuple  # (rank, owner) of one suit's cards, high to low


def suit_cards(hands, s: int) -> Cards:
    return tuple((r, h) for r in range(14, 1, -1) for h in range(4) if hands[h] >> (16 * s + r) & 1)


@lru_cache(maxsize=None)
def suit_game(cards: Cards, X: int, pts: tuple, wins: bool, x_leads: bool) -> int:
    """research/lone_tree.py's suit game for a side X (a seat mask): the most the
    others can force on X in one suit when they hold every power across suits (who
    leads, when a card leaves the suit); X's wins, or the points of the suit's cards
    in them."""
    owners = {h for _, h in cards}
    if not any((X >> h) & 1 for h in owners):
        return 0
    if all((X >> h) & 1 for h in owners):
        if not x_leads:
            return 0
        return len(cards) if wins else sum(pts[r] for r, _ in cards)
    best = max(suit_game(cards[:i] + cards[i + 1:], X, pts, wins, x_leads)
               for i in range(len(cards)))
    for lead in sorted(owners):
        if (X >> lead) & 1 and not x_leads:
            continue
        order = tuple(h for h in ((lead + k) % 4 for k in range(4)) if h in owners)
        best = max(best, suit_trick(cards, X, pts, wins, x_leads, order, ()))
    return best


def suit_trick(cards, X, pts, wins, x_leads, order, played) -> int:
    if len(played) == len(order):
        rest = tuple(c for c in cards if c not in played)
        got = 0
        if (X >> max(played)[1]) & 1:
            got = 1 if wins else sum(pts[r] for r, _ in played)
        return got + suit_game(rest, X, pts, wins, x_leads)
    h = order[len(played)]
    values = [suit_trick(cards, X, pts, wins, x_leads, order, played + (c,))
              for c in cards if c[1] == h]
    return min(values) if (X >> h) & 1 else max(values)


def loss_bound(hands, X: int, done: int, tables, x_leads: bool) -> int:
    """The most side X can be made to take from here (positive), by the suit games:
    the tricks summed over suits (capped by the tricks left) at the dearest trick
    points, the suits' own point cards, and any point card shed on each of those wins."""
    wins = points = 0
    for s in range(4):
        cards = suit_cards(hands, s)
        pts = tuple(-tables.card_points[16 * s + r] if r >= 2 else 0 for r in range(15))
        wins += suit_game(cards, X, pts, True, x_leads)
        if any(pts):
            points += suit_game(cards, X, pts, False, x_leads)
    wins = min(wins, len(tables.trick_points) - done)
    trick_pen = sorted((-p for p in tables.trick_points[done:] if p < 0), reverse=True)
    shed = sorted((-tables.card_points[b] for h in range(4) for b in range(64)
                   if hands[h] >> b & 1 and tables.card_points[b] < 0), reverse=True)
    return sum(trick_pen[:wins]) + points + sum(shed[:3 * wins])


def logged(pos, mask: int, every: int):
    """The search's logged trick starts: (hands, leader, done, alpha, beta, best, sub)."""
    core = engine.Core(32)
    engine.load(core, pos)
    core.set_log(2_000_000, every)
    core.set_budget(NODES, 3_600_000)
    lo, hi = core.bounds()
    core.value(mask, engine.first_guess(lo, hi))
    log, levels, _ = core.take_log()
    core.set_log(0)
    return log, levels, core.nodes


def problems(args):
    if args.singles:
        for vname, cname in penalty_contracts():
            for i in range(args.per):
                pos, seat = position_at(vname, cname, i, args.left)
                if pos.complete or pos.tables.overtake or pos.tables.trump >= 0:
                    continue
                yield f"{vname}/{cname}", pos, 1 << int(seat)
    else:
        for contract in args.contracts.split(","):
            for i in range(args.deals):
                pos, seat = problem(contract, i, args.played)
                yield contract, pos, engine.side_mask(pos, seat)


def line_settles(line, rec, mask, depth) -> bool:
    """Lead 1: the forced line of the leader's side over `depth` tricks decides the window."""
    hands, L, done, alpha, beta = tuple(rec[:4]), rec[4], rec[5], rec[6], rec[7]
    X = mask if (mask >> L) & 1 else 0b1111 & ~mask
    line.calls, line.cap = 0, 20_000
    try:
        take = line.value(hands, L, X, done, depth)
    except TimeoutError:                 # too wide a line to follow here: counts as none
        return False
    if X == mask:
        return -take <= alpha
    neg = sum(line.trick[done:]) + sum(line.pts[b] for h in hands for b in bits(h))
    return -neg + take >= beta


def suits_settle(tables, rec, mask, x_leads: bool) -> bool:
    """Lead 2: the suit games' most either side can be made to take decides the window."""
    hands, done, alpha, beta = tuple(rec[:4]), rec[5], rec[6], rec[7]
    neg = -sum(tables.trick_points[done:]) - sum(tables.card_points[b] for h in hands
                                                  for b in bits(h))
    if -loss_bound(hands, mask, done, tables, x_leads) >= beta:
        return True
    return -(neg - loss_bound(hands, 0b1111 & ~mask, done, tables, x_leads)) <= alpha


def shape_key(hands, L):
    """Each suit's owners high to low, and the leader: the position without its points."""
    return tuple(tuple(h for _, h in suit_cards(hands, s)) for s in range(4)) + (L,)


def point_seq(hands, tables):
    return tuple(-tables.card_points[16 * s + r] for s in range(4)
                 for r, _ in suit_cards(hands, s))


def similar_settles(seen: dict, tables, rec) -> int:
    """Lead 3: 2 when an earlier trick start of the same shape with other point cards
    decides this one's window with its bound widened by the points moved (1 when only
    one with the same points would), 0 else; then records this one's bound."""
    hands, L, alpha, beta, best = tuple(rec[:4]), rec[4], rec[6], rec[7], rec[8]
    key = shape_key(hands, L)
    pts = point_seq(hands, tables)
    out = 0
    for other, lo, hi in seen.get(key, ()):
        moved = sum(abs(a - b) for a, b in zip(pts, other))
        if lo - moved >= beta or hi + moved <= alpha:
            out = max(out, 2 if moved else 1)
    lo = best if best >= beta else -10**6
    hi = best if best <= alpha else 10**6
    entries = seen.setdefault(key, [])
    entries.append((pts, lo, hi))
    del entries[:-8]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--contracts", default="no-tricks,no-hearts,no-queens")
    ap.add_argument("--played", type=int, default=3)
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--lead", type=int, default=1, help="1 the forced line, 2 the suit games, 3 payoff-similar entries")
    ap.add_argument("--singles", action="store_true")
    ap.add_argument("--left", type=int, default=10)
    ap.add_argument("--per", type=int, default=1)
    args = ap.parse_args()
    rows: dict = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0, 0]))
    total = 0
    for name, pos, mask in problems(args):
        log, _, nodes = logged(pos, mask, args.every)
        total += nodes
        t = pos.tables
        line = Line(t.card_points, t.trick_points, 4)
        seen: dict = {}
        group = "singles" if args.singles and args.lead != 3 else name
        for rec in log:
            row = rows[group][len(t.trick_points) - rec[5]]
            row[0] += 1
            row[1] += rec[9]
            if args.lead == 1:
                a = line_settles(line, rec, mask, 1)
                b = line_settles(line, rec, mask, args.depth)
            elif args.lead == 3:
                got = similar_settles(seen, t, rec)
                a, b = got == 1, got == 2
            else:
                a = suits_settle(t, rec, mask, True)
                b = suits_settle(t, rec, mask, False)
            row[2] += a
            row[3] += b
            row[4] += rec[9] if b else 0
        line.memo.clear()
    heads = {1: ["depth 1", f"depth {args.depth}"],
             2: ["sound", "without X's leads (best case)"],
             3: ["by one with the same points", "by one with other points"]}[args.lead]
    for group, levels in rows.items():
        print(f"\n## {group}: lead {args.lead}\n")
        print(f"| tricks left | logged | settled, {heads[0]} | settled, {heads[1]} | "
              f"their subtree share |")
        print("|---|---|---|---|---|")
        for left in sorted(levels, reverse=True):
            n, sub, d1, dk, ksub = levels[left]
            print(f"| {left} | {n:,} | {d1 / n:.1%} | {dk / n:.1%} | {ksub / max(sub, 1):.1%} |")
    print(f"\nnodes searched: {total:,}")


if __name__ == "__main__":
    main()
