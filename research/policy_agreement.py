"""How often a card agrees with the hints, and what it costs by the hints' own values.

    python research/policy_agreement.py --data training/data/policy-1.jsonl.gz --count 600 \\
        --out rehint-1.jsonl --models kingsolve/data/policy_model.bin

On the held-out games of a policy set (``training.policy_games``; one game in ten by
index, as ``training.policy_fit`` holds them out), each chosen card's position is asked
again of the baseline level's hint with another seed (``REHINT_SALT`` plus the game and card
numbers): new sampled deals, the same settings. Against that second hint it reports,
for the card the set recorded (the hints' self-agreement: the ceiling of an imitation's
agreement), the simple player's card and each policy model's card:

- agreement: the share of the positions where the card is the second hint's card;
- regret: the second hint's best mean minus its mean of the card, in points and as a
  share of the contract's points (``contract_total``), averaged over the positions.

The second hint's means are independent of the samples that chose the recorded card,
so the recorded card's regret is the noise floor an imitation is measured against.
The second hints are appended to ``--out`` a game a line and read back (a run resumes;
``--report-only`` only reads them).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from kingsolve.hands.hints import BASELINE_LEVEL, hint, play_preference         # noqa: E402
from kingsolve.hands.match import contract_total                              # noqa: E402
from kingsolve.hands.playouts import model_preference                         # noqa: E402
from kingsolve.search.budget import Budget                                    # noqa: E402
from kingsolve.search.policy_model import read_policy                         # noqa: E402
from training.policy_fit import read_games                                    # noqa: E402
from training.policy_games import SEARCH_MS, chosen_positions                 # noqa: E402

#: Added to the second hint's seed so that it draws other deals than the first.
REHINT_SALT = 1_000_000_007


def rehint(game: dict) -> dict:
    """The second hint's means of every chosen position of a game."""
    desc, out = game["game"], []
    for n, p, card in chosen_positions(game):
        seat = p.to_move
        h = hint(desc["variant"], desc["contract"], seat, p.deal.hands[seat],
                 [str(c) for c in p.record], leader=desc["leader"], trump=desc["trump"],
                 doubles=desc["doubles"], seed=REHINT_SALT + game["i"] * 1000 + n,
                 level=BASELINE_LEVEL, budget=Budget(ms=SEARCH_MS))
        out.append({"n": n, "card": str(card), "means": {str(c.card): c.mean for c in h.cards}})
    return {"i": game["i"], "hints": out}


def read_rehints(path: str) -> dict[int, dict]:
    rows = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.endswith("\n"):
                    row = json.loads(line)
                    rows[row["i"]] = row
    return rows


def measure(games: list[dict], rehints: dict[int, dict], models: list[str]) -> dict:
    """Per player (recorded, simple, each model): agreement with the second hint and the
    mean regret by its means, in points and as a share of the contract's points."""
    policies = {m: read_policy(m) for m in models}
    names = ["recorded", "simple", *models]
    agree = {k: 0 for k in names}
    regret = {k: 0.0 for k in names}
    share = {k: 0.0 for k in names}
    count = 0
    for g in games:
        second = {h["n"]: h["means"] for h in rehints[g["i"]]["hints"]}
        total = abs(contract_total(g["game"]["variant"], g["game"]["contract"]))
        for n, p, card in chosen_positions(g):
            means = second[n]
            top = max(means, key=means.__getitem__)
            cards = {"recorded": card, "simple": play_preference(p)[0],
                     **{m: model_preference(p, policies[m])[0] for m in models}}
            for k, c in cards.items():
                agree[k] += str(c) == top
                regret[k] += means[top] - means[str(c)]
                share[k] += (means[top] - means[str(c)]) / total
            count += 1
    return {"positions": count, "players": {
        k: {"agreement": agree[k] / count, "regret": regret[k] / count,
            "regret_share": share[k] / count} for k in names}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="a policy set (training.policy_games)")
    ap.add_argument("--count", type=int, help="the games of index below this")
    ap.add_argument("--out", required=True, help="JSONL file of the second hints")
    ap.add_argument("--models", nargs="*", default=[], help="policy model files to measure")
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args(argv)
    games = [g for g in read_games(Path(args.data), args.count) if g["i"] % 10 == 0]
    rehints = read_rehints(args.out)
    start = time.perf_counter()
    if not args.report_only:
        with open(args.out, "a") as sink:
            for g in games:
                if g["i"] not in rehints:
                    rehints[g["i"]] = row = rehint(g)
                    sink.write(json.dumps(row, separators=(",", ":")) + "\n")
                    sink.flush()
    games = [g for g in games if g["i"] in rehints]
    result = measure(games, rehints, args.models)
    print(f"{len(games)} held-out games, {result['positions']} chosen cards, "
          f"{time.perf_counter() - start:.0f} s")
    print(f"{'player':40} {'agreement':>9} {'regret, points':>15} {'share':>8}")
    for k, r in result["players"].items():
        print(f"{k:40} {r['agreement']:9.3f} {r['regret']:15.3f} {100 * r['regret_share']:7.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
