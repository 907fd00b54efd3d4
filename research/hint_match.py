"""Hint configurations against each other in play: paired by deal, framed by a floor and a ceiling.

Each deal (rule set, trick contract, singles or Italian doubles, seeded hands and trump)
is played several times from the same first leader. One seat, the *chair*, rotates
over the deals; the other three seats always follow the *base* configuration (today's
default hint: 50 samples, play-out to 3 tricks left, no inference). A game is named by
the chair's configuration:

- ``base``: the chair follows the base too (the reference game);
- each configuration under test (``--configs``): the chair follows it;
- ``simple``: the chair follows the simple player (``play_preference``), the floor;
- ``ceiling``: the chair's hints are given the true deal as their only sample (the same
  evaluator, all-seeing), an upper frame for what better sampling can buy;
- ``seer`` (on request, ``--configs seer``): all-seeing too, its ties broken by the
  base's sampled means (one deal's play-out values tie often, and the ceiling then
  falls back on the simple player's order);
- ``model`` and its kin: the play-outs by the policy model
  (``kingsolve.search.policy_model``), at other samples or horizons; ``policy``: the
  policy model's card alone, no samples; ``model-seer``: all-seeing, the true deal the
  only sample and its play-outs by the policy model (what the model play-outs would
  gain if the hidden cards were known).

The gain of a configuration is the chair's points (its side's in doubles) in its game
minus the base game's, paired by deal. Per family (rule set x penalty or positive
contracts; Italian doubles apart) the harness prints the mean gain with a 95% interval
(normal approximation) in points and as a share of the contract's points
(``contract_total``), the share of the base-to-ceiling gap it closes (mean gain over
mean ceiling gain, shown only where the ceiling's interval is above zero), the chair's
milliseconds per hint and, with inference, the mean effective sample size of its hints
as a share of the samples. The opponents are never the simple player, so an inference
that models the simple player does not meet its own model at the table.

Every game is appended to a JSONL file as it ends, keyed by deal and configuration;
a run skips the games already there, so a long measurement can be split over runs
(the same ``--seed``; ``--first`` and ``--deals`` choose the deals, and processes on
disjoint ranges can run side by side, their files joined for ``--report-only``).
``--against NAME`` reports the gains over another configuration's games of the same
deals (``--report-only --configs policy,base --against simple``: the policy model's
card alone against the simple player). ``--policy-file FILE --policy-tag T`` plays
the configurations named ``NAME@T`` (``model@T``) by another policy model file. Forced cards are played without a hint; ``--timing`` times each level's hints (and
those of the configurations named) instead.

    python research/hint_match.py --quick
    python research/hint_match.py --deals 400 --configs level:4 --out match.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from kingsolve import Deal, Position, Seat, Suit                                 # noqa: E402
from kingsolve.errors import SolveTimeout                                         # noqa: E402
from kingsolve.search.budget import Budget                                          # noqa: E402
from kingsolve.game.rules import VARIANTS                                         # noqa: E402
from kingsolve.hands.hints import hint, play_preference                          # noqa: E402
from kingsolve.hands.inference import PlayModel                                   # noqa: E402
from kingsolve.hands.match import contract_total                                  # noqa: E402

#: Named hint configurations (keyword arguments of ``hint``); ``level:N`` names a level.
CONFIGS = {
    "base": {"samples": 50},
    "infer": {"samples": 50, "inference": True},
    "infer-soft": {"samples": 50, "inference": PlayModel(beta=0.5, noise=0.2)},
    "h5": {"samples": 50, "horizon": 5},
    "s100": {"samples": 100},
    "s75": {"samples": 75},
    "s4": {"samples": 4},
    "coalition": {"samples": 50, "policy": "coalition"},
    "guided10": {"samples": 10, "policy": "guided"},
    "h0": {"samples": 50, "horizon": 0},
    "h1": {"samples": 50, "horizon": 1},
    "h2": {"samples": 50, "horizon": 2},
    "h4": {"samples": 50, "horizon": 4},
    # the policy model (kingsolve.search.policy_model): its card alone, and play-outs by it
    "policy": {"level": 0, "policy": "model"},
    "model": {"samples": 50, "policy": "model"},
    "model25": {"samples": 25, "policy": "model"},
    "model-h2": {"samples": 50, "policy": "model", "horizon": 2},
    "model-h4": {"samples": 50, "policy": "model", "horizon": 4},
    "model-h5": {"samples": 50, "policy": "model", "horizon": 5},
    # all-seeing (the true deal its only sample), playing out by the policy model
    "model-seer": {"samples": 1, "policy": "model"},
}
FRAME = ("simple", "ceiling")
#: An all-seeing chair whose ties (frequent: one deal's play-out values are coarse) are
#: broken by the base's sampled means instead of the simple player's order.
SEER = "seer"
#: The chairs whose hints are given the true deal (every other seat's hand pinned).
ALL_SEEING = ("ceiling", SEER, "model-seer")


def hint_kwargs(name: str) -> dict:
    """A configuration's hint keywords (``NAME@TAG``: NAME's, with ``--policy-file``'s
    policy model in place of the package's)."""
    name = name.split("@", 1)[0]
    if name.startswith("level:"):
        return {"level": int(name.split(":", 1)[1])}
    return dict(CONFIGS[name])


def use_policy_file(path: str, tag: str, configs: list[str]) -> None:
    """Make ``path`` the policy model of this process's hints; each configuration that
    plays by the policy model must then be named ``NAME@tag`` (its games apart from
    the package model's)."""
    from kingsolve.search import policy_model
    untagged = [c for c in configs if "@" not in c and hint_kwargs(c).get("policy") == "model"]
    if untagged:
        raise SystemExit(f"with --policy-file, name {', '.join(untagged)} as NAME@{tag}")
    found = policy_model.read_policy(path)
    policy_model.default_policy = lambda: found


def table_entries(variants, doubles_too: bool) -> list[tuple[str, str, bool]]:
    """Every (rule set, trick contract, doubles) the match plays, in a fixed order."""
    out = []
    for name in variants:
        rs = VARIANTS[name]
        for contract, c in rs.contracts.items():
            if c.kind == "tricks":
                out.append((name, contract, False))
                if doubles_too and rs.doubles and contract in rs.doubles_schedule:
                    out.append((name, contract, True))
    return out


def family(variant: str, contract: str, doubles: bool) -> str:
    p = Position(variant, contract, Deal.random(seed=0, deck=VARIANTS[variant].deck),
                 trump=Suit.S if VARIANTS[variant].contracts[contract].takes_trump else None)
    positive = sum(p.tables.trick_points) + sum(p.tables.card_points) > 0
    return f"{variant}{' doubles' if doubles else ''} {'positive' if positive else 'penalty'}"


def deal_of(entries, index: int, seed: int) -> dict:
    """The ``index``-th deal of the match: its table entry, hands, trump and chair."""
    variant, contract, doubles = entries[index % len(entries)]
    rs = VARIANTS[variant]
    rng = random.Random(seed * 1_000_003 + index)
    deal_seed = rng.randrange(2 ** 31)
    trump = rng.choice(list(Suit)) if rs.contracts[contract].takes_trump else None
    return {"index": index, "variant": variant, "contract": contract, "doubles": doubles,
            "deal_seed": deal_seed, "trump": None if trump is None else trump.name,
            "chair": Seat((index // len(entries)) % 4).name}


class Seatplay:
    """One seat's policy in a game: a hint configuration, the simple player, or all-seeing."""

    def __init__(self, name: str, budget: Budget):
        self.name, self.budget = name, budget
        self.kwargs = None if name in FRAME or name == SEER else hint_kwargs(name)
        self.hints, self.ms = 0, 0.0
        self.ess: list[float] = []          # effective samples of the weighted hints

    def choose(self, p: Position, d: dict, seed: int):
        if self.name == "simple" or len(p.legal_cards()) == 1:
            return play_preference(p)[0]
        seat = p.to_move
        kwargs = dict(self.kwargs or {"samples": 1})
        if self.name.split("@", 1)[0] in ALL_SEEING:
            kwargs["known"] = {s: p.deal.hands[s] for s in Seat if s != seat}
        start = time.perf_counter()
        try:
            h = self.hint(p, d, seed, kwargs)
            if self.name == SEER:
                sampled = {x.card: x.mean for x in self.hint(p, d, seed, CONFIGS["base"]).cards}
                return max(h.cards, key=lambda x: (x.mean, sampled[x.card])).card
        except SolveTimeout:
            return play_preference(p)[0]
        finally:
            self.ms += (time.perf_counter() - start) * 1000.0
            self.hints += 1
        if h.effective_samples is not None:
            self.ess.append(h.effective_samples / h.samples)
        return h.recommended


    def hint(self, p: Position, d: dict, seed: int, kwargs: dict):
        seat = p.to_move
        return hint(d["variant"], d["contract"], seat, p.deal.hands[seat],
                    [str(c) for c in p.record], leader=Seat.N, trump=d["trump"],
                    doubles=d["doubles"], seed=seed, budget=self.budget, **kwargs)


def play_game(d: dict, chair_config: str, budget: Budget) -> dict:
    """The chair's points (its side's in doubles) with the chair following ``chair_config``."""
    deal = Deal.random(seed=d["deal_seed"], deck=VARIANTS[d["variant"]].deck)
    chair = Seat[d["chair"]]
    seats = {s: Seatplay(chair_config if s == chair else "base", budget) for s in Seat}
    p = Position(d["variant"], d["contract"], deal, leader=Seat.N, trump=d["trump"],
                 doubles=d["doubles"])
    n = 0
    while not p.complete:
        p.play(seats[p.to_move].choose(p, d, d["deal_seed"] % 100_000 * 100 + n))
        n += 1
    scores = p.scores()
    points = sum(scores[x] for x in p.side_of(chair))
    return {**d, "config": chair_config, "points": points,
            "chair_hints": seats[chair].hints, "chair_ms": round(seats[chair].ms, 2),
            "all_ms": round(sum(s.ms for s in seats.values()), 2),
            "chair_ess": [round(x, 3) for x in seats[chair].ess]}


def read_games(path: str) -> dict:
    games = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    g = json.loads(line)
                    games[(g["index"], g["config"], g["seed"])] = g
    return games


def run(args, entries) -> dict:
    games = read_games(args.out)
    configs = ["base"] + args.configs + ([] if args.no_frame else list(FRAME))
    budget = Budget(ms=args.search_ms)
    started = time.perf_counter()
    played = 0
    with open(args.out, "a") if args.out else open(os.devnull, "w") as sink:
        for index in range(args.first, args.first + args.deals):
            d = deal_of(entries, index, args.seed)
            for config in configs:
                if (index, config, args.seed) in games:
                    continue
                g = {**play_game(d, config, budget), "seed": args.seed}
                games[(index, config, args.seed)] = g
                sink.write(json.dumps(g) + "\n")
                sink.flush()
                played += 1
            if args.progress and (index + 1) % args.progress == 0:
                print(f"  deal {index + 1}: {played} games played, "
                      f"{time.perf_counter() - started:.0f} s", flush=True)
    return games


def mean_ci(xs) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def paired(games: dict, config: str, indices, seed: int, entries,
           against: str = "base") -> list[dict]:
    rows = []
    for i in indices:
        a, b = games.get((i, config, seed)), games.get((i, against, seed))
        if a and b:
            total = abs(contract_total(a["variant"], a["contract"]))
            rows.append({"fam": family(*entries[i % len(entries)]),
                         "gain": a["points"] - b["points"],
                         "share": (a["points"] - b["points"]) / total,
                         "ms": a["chair_ms"], "hints": a["chair_hints"],
                         "ess": a.get("chair_ess", [])})
    return rows


def report(games: dict, args, entries) -> list[dict]:
    """Per configuration and family: gain, share of the contract, share of the gap, ms/hint."""
    indices = range(args.first, args.first + args.deals)
    ceiling = paired(games, "ceiling", indices, args.seed, entries)
    gap = defaultdict(list)
    for r in ceiling:
        gap[r["fam"]].append(r["share"])
        gap["all"].append(r["share"])
    out = []
    for config in args.configs + list(FRAME):
        if config == args.against:
            continue
        rows = paired(games, config, indices, args.seed, entries, args.against)
        if not rows:
            continue
        by = defaultdict(list)
        for r in rows:
            by[r["fam"]].append(r)
            by["all"].append(r)
        for fam in sorted(by, key=lambda f: (f == "all", f)):
            rs = by[fam]
            g, gci = mean_ci([r["gain"] for r in rs])
            s, sci = mean_ci([r["share"] for r in rs])
            hints = sum(r["hints"] for r in rs)
            ess = [x for r in rs for x in r["ess"]]
            ceil, ceil_ci = mean_ci(gap[fam]) if len(gap[fam]) > 1 else (0.0, 0.0)
            out.append({"config": config, "family": fam, "deals": len(rs), "gain": g,
                        "gain_ci": gci, "share": s, "share_ci": sci,
                        # the share of a gap only where the ceiling is surely above the base
                        "gap": s / ceil if ceil - ceil_ci > 0 else float("nan"),
                        "ms_per_hint": sum(r["ms"] for r in rs) / hints if hints else 0.0,
                        "ess": sum(ess) / len(ess) if ess else None})
    return out


def print_report(rows: list[dict]) -> None:
    print(f"{'config':10} {'family':28} {'deals':>5} {'gain (points)':>18} "
          f"{'share of contract':>20} {'gap':>7} {'ms/hint':>8} {'ess':>5}")
    for r in rows:
        gap = "-" if r["gap"] != r["gap"] else f"{100 * r['gap']:+6.0f}%"
        print(f"{r['config']:10} {r['family']:28} {r['deals']:5} {r['gain']:+9.2f} "
              f"±{r['gain_ci']:7.2f} {100 * r['share']:+9.2f}% ±{100 * r['share_ci']:6.2f}% "
              f"{gap:>7} {r['ms_per_hint']:8.1f} "
              f"{'-' if r['ess'] is None else format(r['ess'], '5.2f'):>5}")


def timed_settings(configs) -> list[tuple[str, dict]]:
    """Each level, then each configuration named (``--configs``), with its hint's keywords."""
    from kingsolve.hands.hints import LEVELS
    out = [(f"level {n} ({lv.samples:3} samples, horizon {lv.horizon}, inference "
            f"{'on' if lv.inference else 'off'}, {lv.policy})", {"level": n})
           for n, lv in enumerate(LEVELS)]
    return out + [(name, hint_kwargs(name)) for name in configs or []]


def timing(args) -> None:
    """Each level's (and each configuration's named) time per hint at 13 and 8 cards
    (Italian ``no-queens``, the simple player's play before), median over
    ``--timing-deals`` deals, on ``--threads`` threads."""
    for cards in (13, 8):
        positions = []
        for k in range(args.timing_deals):
            deal = Deal.random(seed=args.seed + k)
            p = Position("italian", "no-queens", deal, leader=Seat.N)
            while p.n_tricks - len(p.tricks) > cards:
                p.play(play_preference(p)[0])
            positions.append((deal, p))
        for label, kwargs in timed_settings(args.configs):
            times = []
            for deal, p in positions:
                seat = p.to_move
                start = time.perf_counter()
                hint("italian", "no-queens", seat, deal.hands[seat], [str(c) for c in p.record],
                     threads=args.threads, seed=len(times), **kwargs)
                times.append((time.perf_counter() - start) * 1000.0)
            times.sort()
            print(f"{cards:2} cards, {label}: median {times[len(times) // 2]:7.1f} ms on "
                  f"{args.threads} threads", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a few deals of a few rule sets")
    ap.add_argument("--deals", type=int, help="deals in all (default 200; quick 8)")
    ap.add_argument("--first", type=int, default=0, help="index of the first deal")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--configs", type=lambda v: [x for x in v.split(",") if x], default=None,
                    help=f"chair configurations against the base: {', '.join(CONFIGS)} or level:N")
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS))
    ap.add_argument("--no-doubles", action="store_true", help="singles only")
    ap.add_argument("--no-frame", action="store_true", help="skip the simple and ceiling games")
    ap.add_argument("--search-ms", type=float, default=5000.0, help="budget of each search")
    ap.add_argument("--out", help="JSONL file the games are appended to and read back from")
    ap.add_argument("--progress", type=int, default=0, help="print progress every N deals")
    ap.add_argument("--report-only", action="store_true", help="report the games in --out")
    ap.add_argument("--against", default="base",
                    help="report the gains over this configuration's games (default the base)")
    ap.add_argument("--policy-file", help="a policy model file to play NAME@TAG by")
    ap.add_argument("--policy-tag", default="new", help="the TAG of --policy-file's games")
    ap.add_argument("--timing", action="store_true", help="only time each level's hints")
    ap.add_argument("--timing-deals", type=int, default=9)
    ap.add_argument("--threads", type=int, default=2, help="threads of the timed hints")
    args = ap.parse_args(argv)
    if args.policy_file:
        use_policy_file(args.policy_file, args.policy_tag, args.configs or [])
    if args.timing:
        timing(args)
        return 0
    args.deals = args.deals or (8 if args.quick else 200)
    if args.configs is None:
        args.configs = ["infer"]
    if args.quick and args.variants == list(VARIANTS):
        args.variants = ["russian", "italian"]
    entries = table_entries(args.variants, not args.no_doubles)
    start = time.perf_counter()
    games = read_games(args.out) if args.report_only else run(args, entries)
    print(f"hint match: {args.deals} deals from {args.first} (seed {args.seed}) over "
          f"{len(entries)} contracts; opponents follow the base "
          f"({CONFIGS['base']}); gains over {args.against}; "
          f"{time.perf_counter() - start:.0f} s\n")
    print_report(report(games, args, entries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
