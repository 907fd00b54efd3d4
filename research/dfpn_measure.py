"""Issue 40, lead 4: df-pn against alpha-beta on the zero-window question of a misère
(penalty) contract in Italian doubles: "can side X keep its future penalty to at most k?"

    PYTHONPATH=. python research/dfpn_measure.py verify [--count 50]
    PYTHONPATH=. python research/dfpn_measure.py run [--levels 4,5,6,7] [--per 8]
        [--contracts no-tricks,no-queens,no-hearts] [--eps 0.25]
        [--methods ab,dfpn,dfpn-eps,dfpn-slack] [--json FILE]
    PYTHONPATH=. python research/dfpn_measure.py report --json FILE

A plain-Python bitmask model of the Italian (booklet) penalty contracts without trump
(card points, trick points, hearts led only once broken; read from the contract's
``ContractTables``), the same for both searches:

* moves: the legal cards of the seat on move, one card of each run of equivalent cards
  (same suit, no card held or in the trick between them, the same points), in one fixed
  order for both methods: on the lead lowest rank first; following, the cards under
  the trick's top card highest first, then those over it lowest first; void, the
  dearest card first, then the highest;
* leaves: no card left (future 0); the local threshold below 0 (the question is false);
  every point still to take at most the threshold (true);
* one table per search, keyed by the position (the four hands, the trick in progress
  and its leader), holding bounds on X's future penalty; df-pn keeps its proof and
  disproof numbers per (position, local threshold) and writes a proof or disproof into
  the same bounds (a proof at t is an upper bound t, a disproof a lower bound t+1).

``ab``: the fail-soft zero-window alpha-beta test. ``dfpn``: Nagai's df-pn (MID with
thresholds, proof/disproof numbers initialised 1/1), optionally with the 1+eps trick
(Pawlewicz and Lew) as ``dfpn-eps``, and ``dfpn-slack``: 1+eps with a leaf's numbers
initialised from the points at stake (pn = points left - t, dn = t + 1). Nodes are counted the same way for both: every
expansion (a position whose moves are generated; df-pn counts every re-expansion) and
every leaf evaluated (a terminal test that settles a position, per visit). Table
answers are counted apart (``tt``): a visit the table settles in alpha-beta, a child's
numbers read in df-pn.

Positions: contract c, index i draws from ``random.Random("dfpn/<c>/<left>/<i>")`` a
full deal, the leader and the side asked (N+S or E+W), then random legal cards until
``left`` tricks remain; the true value comes from ``kingsolve.solve`` (the compiled
core). Each position asks two questions, k = v (true) and k = v - 1 (false), v the
side's true future penalty (v = 0 asks only the true one). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kingsolve import Deal, Position, Seat, solve  # noqa: E402
from kingsolve.game.rules import LEAD_UNTIL_BROKEN  # noqa: E402

INF = 10 ** 9
LANE = [0xFFFF << (16 * s) for s in range(4)]


def bits_of(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


class Game:
    """A doubles penalty position as bitmasks, played and taken back in place.

    ``pen`` is X's penalty as a positive number; ``acc`` what X has taken since the root.
    """

    def __init__(self, pos: Position, x_seat: Seat):
        t = pos.tables
        assert t.trump < 0 and not t.forced and not t.protected and not t.overtake
        assert not t.broken_by_discard and pos.variant.name == "italian" and pos.doubles
        assert not pos.trick, "positions at a trick start"
        self.cp = [-p for p in t.card_points]
        assert min(self.cp) >= 0 and all(p <= 0 for p in t.trick_points)
        self.tp = [-p for p in t.trick_points] + [0] * 4
        # the suffix sums of the trick penalties
        self.tp_suffix = [sum(self.tp[i:]) for i in range(len(self.tp) + 1)]
        self.scored = [(m, p) for p, m in self._point_masks(t).items()]
        self.lead_lane = LANE[t.lead_suit] if (t.lead_suit >= 0 and
                                                t.lead_mode == LEAD_UNTIL_BROKEN) else 0
        assert t.lead_suit < 0 or t.lead_mode == LEAD_UNTIL_BROKEN
        self.hands = [pos.hands[s] for s in range(4)]
        self.gone = pos.played
        self.done = len(pos.tricks)
        self.trick: list[tuple[int, int]] = []   # (seat, bit)
        self.leader = int(pos.to_move)
        self.x = int(x_seat) & 1                  # seats s with s & 1 == x are side X
        self.acc = 0
        self.undo_stack: list = []

    @staticmethod
    def _point_masks(t) -> dict[int, int]:
        out: dict[int, int] = {}
        for b, p in enumerate(t.card_points):
            if p:
                out[-p] = out.get(-p, 0) | (1 << b)
        return out

    # --- state ------------------------------------------------------------------------
    def to_move(self) -> int:
        if not self.trick:
            return self.leader
        return (self.trick[-1][0] + 1) & 3

    def key(self):
        h = self.hands
        return (h[0], h[1], h[2], h[3], tuple(b for _, b in self.trick), self.leader)

    def present(self) -> int:
        h = self.hands
        m = h[0] | h[1] | h[2] | h[3]
        for _, b in self.trick:
            m |= 1 << b
        return m

    def max_left(self) -> int:
        """Every penalty point still to take: an upper bound on X's future penalty."""
        pres = self.present()
        total = self.tp_suffix[self.done]
        for m, p in self.scored:
            total += p * bin(pres & m).count("1")
        return total

    def empty(self) -> bool:
        return not self.trick and not self.hands[self.leader]

    # --- moves ------------------------------------------------------------------------
    def moves(self) -> list[int]:
        """One card of each run of equivalent legal cards, in the fixed order."""
        seat = self.to_move()
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1] >> 4
            legal = hand & LANE[led] or hand
        else:
            legal = hand
            if self.lead_lane and not self.gone & self.lead_lane and hand & ~self.lead_lane:
                legal = hand & ~self.lead_lane
        pres = self.present()
        cp = self.cp
        reps = []
        prev = -1
        for b in bits_of(legal):                  # ascending: runs within a suit
            if prev >= 0 and prev >> 4 == b >> 4 and cp[prev] == cp[b] and \
                    not pres & (((1 << b) - 1) & ~((2 << prev) - 1)):
                prev = b                          # equivalent to the run's first card
                continue
            reps.append(b)
            prev = b
        if not self.trick:
            reps.sort(key=lambda b: (b & 15, b >> 4))
        elif legal & LANE[self.trick[0][1] >> 4]:
            led = self.trick[0][1] >> 4
            top = max(b for _, b in self.trick if b >> 4 == led)
            under = sorted((b for b in reps if b < top), reverse=True)
            over = sorted(b for b in reps if b > top)
            reps = under + over
        else:
            reps.sort(key=lambda b: (-cp[b], -(b & 15), b >> 4))
        return reps

    def play(self, b: int) -> int:
        """Play card bit ``b`` for the seat on move; returns X's penalty from the trick
        it completes (0 if none)."""
        seat = self.to_move()
        self.hands[seat] &= ~(1 << b)
        self.trick.append((seat, b))
        if len(self.trick) < 4:
            self.undo_stack.append(None)
            return 0
        led = self.trick[0][1] >> 4
        win_seat, win_b = self.trick[0]
        pts = self.tp[self.done]
        for s, c in self.trick:
            pts += self.cp[c]
            if c >> 4 == led and c > win_b:
                win_seat, win_b = s, c
        pen = pts if (win_seat & 1) == self.x else 0
        self.undo_stack.append((self.trick, self.leader, pen))
        for _, c in self.trick:
            self.gone |= 1 << c
        self.trick = []
        self.leader = win_seat
        self.done += 1
        self.acc += pen
        return pen

    def unplay(self) -> None:
        u = self.undo_stack.pop()
        if u is not None:
            trick, leader, pen = u
            for _, c in trick:
                self.gone &= ~(1 << c)
            self.trick = trick
            self.leader = leader
            self.done -= 1
            self.acc -= pen
        seat, b = self.trick.pop()
        self.hands[seat] |= 1 << b


class AlphaBeta:
    """Fail-soft zero-window alpha-beta: ``test(t)`` returns a bound v on X's future
    penalty with v <= t (an upper bound: the question is true) or v > t (a lower
    bound: false)."""

    def __init__(self, g: Game):
        self.g = g
        self.tt: dict = {}
        self.expanded = self.leaves = self.tt_hits = 0
        self.distinct: set = set()

    def test(self, t: int) -> int:
        g = self.g
        if t < 0:
            self.leaves += 1
            return 0
        if g.empty():
            self.leaves += 1
            return 0
        rem = g.max_left()
        if rem <= t:
            self.leaves += 1
            return rem
        key = g.key()
        lb, ub = self.tt.get(key, (0, rem))
        if ub <= t:
            self.tt_hits += 1
            return ub
        if lb > t:
            self.tt_hits += 1
            return lb
        self.expanded += 1
        self.distinct.add(key)
        x_moves = (g.to_move() & 1) == g.x
        best = INF if x_moves else -INF
        for b in g.moves():
            pen = g.play(b)
            v = pen + self.test(t - pen)
            g.unplay()
            if x_moves:
                if v < best:
                    best = v
                    if best <= t:
                        break
            elif v > best:
                best = v
                if best > t:
                    break
        if best <= t:
            ub = min(ub, best)
        else:
            lb = max(lb, best)
        self.tt[key] = (lb, ub)
        return best


class DfPn:
    """df-pn (Nagai 2002) on "X's future penalty <= t": OR nodes where X moves."""

    def __init__(self, g: Game, eps: float = 0.0, slack: bool = False):
        self.g = g
        self.eps = eps
        self.slack = slack           # initial numbers from the points at stake
        self.bounds: dict = {}       # position -> (lb, ub) of X's future penalty
        self.pd: dict = {}           # (position, t) -> (pn, dn), unresolved
        self.expanded = self.leaves = self.tt_hits = 0
        self.distinct: set = set()

    def leaf(self, t: int):
        """(pn, dn) of the position on the board if a leaf test settles it, else None."""
        g = self.g
        if t < 0:
            return (INF, 0)
        if g.empty() or g.max_left() <= t:
            return (0, INF)
        return None

    def numbers(self, key, t, init):
        self.tt_hits += 1
        lb, ub = self.bounds.get(key, (0, INF))
        if ub <= t:
            return 0, INF
        if lb > t:
            return INF, 0
        return self.pd.get((key, t), init)

    def prove(self, t: int) -> bool:
        g = self.g
        got = self.leaf(t)
        if got is not None:
            self.leaves += 1
            return got[0] == 0
        key = g.key()
        self.mid(key, t, INF - 1, INF - 1)
        lb, ub = self.bounds.get(key, (0, INF))
        assert ub <= t or lb > t, "df-pn stopped unresolved at the root"
        return ub <= t

    def mid(self, key, t: int, thpn: int, thdn: int) -> None:
        g = self.g
        self.expanded += 1
        self.distinct.add(key)
        x_moves = (g.to_move() & 1) == g.x
        kids = []                    # (card, key, t, fixed (pn, dn) or None)
        for b in g.moves():
            pen = g.play(b)
            ct = t - pen
            fixed = self.leaf(ct)
            if fixed is not None:
                self.leaves += 1
                kids.append((b, None, ct, fixed, None))
            else:
                # with ``slack``: proving "X takes at most t of the m points left" is
                # harder the more points X must avoid (m - t), disproving it the more
                # points the others must force on X (t + 1)
                init = (max(1, g.max_left() - ct), ct + 1) if self.slack else (1, 1)
                kids.append((b, g.key(), ct, None, init))
            g.unplay()
        eps = self.eps
        while True:
            pns, dns = [], []
            for b, ck, ct, fixed, init in kids:
                pn, dn = fixed if fixed is not None else self.numbers(ck, ct, init)
                pns.append(pn)
                dns.append(dn)
            if x_moves:
                pn, dn = min(pns), min(INF, sum(dns))
            else:
                pn, dn = min(INF, sum(pns)), min(dns)
            if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
                break
            # the most proving child (OR: least pn; AND: least dn), first in move order
            sel = pns if x_moves else dns
            i = min(range(len(kids)), key=sel.__getitem__)
            second = min((v for j, v in enumerate(sel) if j != i), default=INF)
            limit = second + 1 if not eps else max(second + 1, int(second * (1 + eps)) + 1)
            if x_moves:
                cth_pn = min(thpn, limit)
                cth_dn = min(INF - 1, thdn - dn + dns[i])
            else:
                cth_pn = min(INF - 1, thpn - pn + pns[i])
                cth_dn = min(thdn, limit)
            b, ck, ct, _, _ = kids[i]
            g.play(b)
            self.mid(ck, ct, cth_pn, cth_dn)
            g.unplay()
        if pn == 0:
            lb, ub = self.bounds.get(key, (0, INF))
            self.bounds[key] = (lb, min(ub, t))
            self.pd.pop((key, t), None)
        elif dn == 0:
            lb, ub = self.bounds.get(key, (0, INF))
            self.bounds[key] = (max(lb, t + 1), ub)
            self.pd.pop((key, t), None)
        else:
            self.pd[(key, t)] = (pn, dn)


# --- positions -------------------------------------------------------------------------
def position(contract: str, left: int, i: int, tag: str = "dfpn") -> tuple[Position, Seat]:
    rng = random.Random(f"{tag}/{contract}/{left}/{i}")
    deal = Deal.random(rng.randrange(10 ** 9))
    leader = Seat(rng.randrange(4))
    seat = Seat(rng.randrange(2))                      # N for N+S, E for E+W
    pos = Position("italian", contract, deal, leader=leader, doubles=True)
    while not pos.complete and (pos.n_tricks - len(pos.tricks) > left or pos.trick):
        pos.play(rng.choice(pos.legal_cards()))
    return pos, seat


def true_penalty(pos: Position, seat: Seat) -> int:
    """X's future penalty (positive) by the compiled core."""
    r = solve(pos, seats=[seat], cards=False)
    taken = sum(pos.taken[s] for s in pos.side_of(seat))
    return -(r.values[seat] - taken)


def model_penalty(pos: Position, seat: Seat) -> int:
    """X's future penalty by the model: the least t whose alpha-beta test is true."""
    t = 0
    while True:
        ab = AlphaBeta(Game(pos, seat))
        if ab.test(t) <= t:
            return t
        t += 1


def verify(args) -> None:
    bad = n = 0
    for contract in args.contracts:
        for left in (3, 4):
            for i in range(args.count // (2 * len(args.contracts)) + 1):
                pos, seat = position(contract, left, i, tag="verify")
                if pos.complete:
                    continue
                v, m = true_penalty(pos, seat), model_penalty(pos, seat)
                g = Game(pos, seat)
                d_true = DfPn(g).prove(v)
                d_false = v == 0 or not DfPn(Game(pos, seat)).prove(v - 1)
                n += 1
                if v != m or not d_true or not d_false:
                    bad += 1
                    print(f"MISMATCH {contract} left {left} #{i}: core {v} model {m} "
                          f"dfpn {d_true} {d_false}")
    print(f"verified {n} positions, {bad} mismatches")


def run(args) -> None:
    rows = []
    methods = ["ab"] + [m for m in args.methods.split(",") if m != "ab"]
    for left in args.levels:
        for contract in args.contracts:
            for i in range(args.per):
                pos, seat = position(contract, left, i)
                if pos.complete:
                    continue
                v = true_penalty(pos, seat)
                for k in ([v, v - 1] if v > 0 else [v]):
                    rec = {"left": left, "contract": contract, "i": i, "v": v, "k": k,
                           "answer": k >= v}
                    ab = AlphaBeta(Game(pos, seat))
                    assert (ab.test(k) <= k) == (k >= v)
                    rec["ab"] = (ab.expanded + ab.leaves, ab.expanded, ab.tt_hits, len(ab.distinct))
                    for name, eps, slack in (("dfpn", 0.0, False), ("dfpn-eps", args.eps, False),
                                             ("dfpn-slack", args.eps, True)):
                        if name not in methods:
                            continue
                        d = DfPn(Game(pos, seat), eps, slack)
                        assert d.prove(k) == (k >= v)
                        rec[name] = (d.expanded + d.leaves, d.expanded, d.tt_hits, len(d.distinct))
                    rows.append(rec)
                    print(json.dumps(rec), flush=True)
                    if args.json:
                        with open(args.json, "a") as f:
                            f.write(json.dumps(rec) + "\n")
    report(rows, methods)


def report(rows, methods) -> None:
    levels = sorted({r["left"] for r in rows})
    others = [m for m in methods if m != "ab"]
    print("\n| tricks left | questions (true/false) | " +
          " | ".join(f"{m} median / total" for m in methods) + " | " +
          " | ".join(f"{m}/ab median / total" for m in others) + " |")
    print("|" + "---|" * (2 + len(methods) + len(others)))
    prev = {}
    growth = {m: [] for m in methods}
    for left in levels:
        rs = [r for r in rows if r["left"] == left]
        cells = [str(left), f"{len(rs)} ({sum(r['answer'] for r in rs)}/"
                            f"{sum(not r['answer'] for r in rs)})"]
        tot = {}
        for m in methods:
            xs = [r[m][0] for r in rs]
            tot[m] = sum(xs)
            cells.append(f"{statistics.median(xs):,.0f} / {tot[m]:,}")
            if m in prev:
                growth[m].append((statistics.median(xs) / prev[m][0], tot[m] / prev[m][1]))
            prev[m] = (statistics.median(xs), tot[m])
        for m in others:
            ratios = [r[m][0] / r["ab"][0] for r in rs]
            cells.append(f"{statistics.median(ratios):.2f} / {tot[m] / tot['ab']:.2f}")
        print("| " + " | ".join(cells) + " |")
    print("\ngrowth per trick (median, total):",
          {m: [f"{a:.1f}, {b:.1f}" for a, b in g] for m, g in growth.items()})
    if len(levels) > 1:
        span = levels[-1] - levels[0]
        first = [r for r in rows if r["left"] == levels[0]]
        last = [r for r in rows if r["left"] == levels[-1]]
        print(f"geometric growth per trick, {levels[0]} to {levels[-1]} left (median, total): " +
              "; ".join(f"{m} {(statistics.median(r[m][0] for r in last) / statistics.median(r[m][0] for r in first)) ** (1 / span):.2f}, "
                        f"{(sum(r[m][0] for r in last) / sum(r[m][0] for r in first)) ** (1 / span):.2f}"
                        for m in methods))
    print("\ndistinct positions expanded (total) and expansions per distinct position:")
    for left in levels:
        rs = [r for r in rows if r["left"] == left]
        print(f"  {left}: " + ", ".join(
            f"{m} {sum(r[m][3] for r in rs):,} (x{sum(r[m][1] for r in rs) / max(1, sum(r[m][3] for r in rs)):.2f})"
            for m in methods))
    for ans in (True, False):
        print(f"\nquestions answered {'true' if ans else 'false'}, total nodes by level:")
        for left in levels:
            rs = [r for r in rows if r["left"] == left and r["answer"] == ans]
            if rs:
                print(f"  {left}: " + ", ".join(f"{m} {sum(r[m][0] for r in rs):,}" for m in methods) +
                      "".join(f", {m}/ab {sum(r[m][0] for r in rs) / sum(r['ab'][0] for r in rs):.2f}"
                              for m in others))
    print("\nquestions where the method used fewer nodes than ab, by level:")
    for left in levels:
        rs = [r for r in rows if r["left"] == left]
        print(f"  {left}: " + ", ".join(f"{m} {sum(r[m][0] < r['ab'][0] for r in rs)}/{len(rs)}"
                                       for m in others))
    for c in sorted({r["contract"] for r in rows}):
        print(f"\n{c}, total nodes by level: " + "; ".join(
            f"{left}: " + ", ".join(f"{m} {sum(r[m][0] for r in rows if r['left'] == left and r['contract'] == c):,}"
                                    for m in methods) for left in levels
            if any(r["left"] == left and r["contract"] == c for r in rows)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["verify", "run", "report"])
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--levels", default="4,5,6,7")
    ap.add_argument("--per", type=int, default=8)
    ap.add_argument("--contracts", default="no-tricks,no-queens,no-hearts")
    ap.add_argument("--eps", type=float, default=0.25)
    ap.add_argument("--methods", default="ab,dfpn,dfpn-eps",
                    help="of ab, dfpn, dfpn-eps (the 1+eps trick), dfpn-slack (the 1+eps trick and "
                         "numbers initialised from the points at stake); ab always runs")
    ap.add_argument("--json", default=None, help="append each record (run) / read them (report)")
    args = ap.parse_args()
    args.levels = [int(x) for x in args.levels.split(",")]
    args.contracts = args.contracts.split(",")
    if args.mode == "verify":
        verify(args)
    elif args.mode == "run":
        run(args)
    else:
        rows = [json.loads(line) for line in Path(args.json).read_text().splitlines()
                if line.startswith("{")]
        methods = [m for m in ("ab", "dfpn", "dfpn-eps", "dfpn-slack") if m in rows[0]]
        report(rows, methods)


if __name__ == "__main__":
    main()
