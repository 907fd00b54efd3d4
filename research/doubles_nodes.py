"""Search-core node counts on fixed sets of doubles deals: how changes to the search
are judged here, since this machine's timings vary by up to 1.7x between runs.

Each deal is ``Deal.random(seed)`` with ``Seat(seed % 4)`` leading, Italian doubles,
the leader's side value, one 32 MiB core reused across the set (as a thread of
``kingsolve.solve`` reuses it). Prints the nodes summed, their geometric mean, the
trick-start nodes (the count DDS reports) and the search time, how many cards the
wide table's entries keep on average (``Core.wide_width``), then each deal's nodes
in thousands. The sets used so far (ext/README.md, "How changes are judged"): seeds
0-3 and 5-40 (``trumps``: 0-15) are the deals the first lead weights were tuned on,
100-140 and 200-240 (``trumps``: 100-115, 200-215) unseen ones.

    python research/doubles_nodes.py [--contract no-trumps|trumps] [--seeds 0-3,5-40]

With ``--against-dds TRICKS`` it instead runs one zero-window test per seed (can
the leader's side make TRICKS tricks?) in ``Core.probe`` and in DDS ``solve_board``
(TargetOne), and prints both trick-start node counts; ``--prefix "CK C3"`` plays
cards first (the test is then of the position reached, each solver with a fresh
table), and ``--children`` repeats it after each legal card from there. Walking
down the tree this way, card by card, finds the positions where one solver's
subtree is much larger than the other's (ext/README.md, "How changes are
judged"). DDS does not search a position with a single distinct card to play
(0 nodes there); its root is not cut by its quick tricks, so compare children
rather than roots at a trick start.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kingsolve import Card, Deal, Position, Seat  # noqa: E402
from kingsolve.game.deal import hand_text  # noqa: E402
from kingsolve.search import engine  # noqa: E402


def parse_seeds(text: str) -> list[int]:
    """``"0-3,5,7-9"`` as a list of seeds."""
    seeds: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi or lo) + 1))
    return seeds


def position(seed: int, contract: str) -> Position:
    return Position("italian", contract, Deal.random(seed), leader=Seat(seed % 4),
                    doubles=True, trump="S" if contract == "trumps" else None)


def count_nodes(seeds: list[int], contract: str, node_budget: int) -> None:
    core = engine.Core(32)
    nodes, trick_nodes, secs, log_sum, each = 0, 0, 0.0, 0.0, []
    stores, kept, held = 0, 0, 0
    for seed in seeds:
        pos = position(seed, contract)
        engine.load(core, pos)
        core.set_budget(node_budget, 600_000)
        t = time.perf_counter()
        try:
            core.value(engine.side_mask(pos, pos.leader), engine.first_guess(*core.bounds()))
            mark = ""
        except engine.BudgetExceeded:
            mark = "+"                      # stopped at the node budget
        secs += time.perf_counter() - t
        nodes += core.nodes
        trick_nodes += core.trick_nodes
        w = core.wide_width
        stores, kept, held = stores + w[0], kept + w[1], held + w[2]
        log_sum += math.log(max(core.nodes, 1))
        each.append(f"{core.nodes // 1000}{mark}")
    print(f"{contract}, {len(seeds)} deals: {nodes / 1e6:.2f} M nodes (geometric mean "
          f"{math.exp(log_sum / len(seeds)) / 1e3:.0f} K), {trick_nodes / 1e6:.2f} M at trick "
          f"starts, {secs:.2f} s")
    print(f"wide entries stored: {stores}, keeping {kept / max(stores, 1):.1f} of "
          f"{held / max(stores, 1):.1f} cards in hands on average")
    print("per deal (K nodes):", " ".join(each))


def against_dds(seeds: list[int], contract: str, tricks: int, prefix: list[str],
                children: bool) -> None:
    try:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal as DDSDeal, Denom, Player
    except ImportError:
        sys.exit("endplay is not installed (pip install -e '.[dds]')")
    per_trick = 2 if contract == "no-trumps" else 1
    unrelated = DDSDeal("N:" + " ".join(hand_text(h) for h in Deal.random(10**6).hands))

    def compare(pos: Position, label: str) -> None:
        side = pos.side_of(pos.leader)
        need = tricks - sum(1 for t in pos.tricks if t.winner in side)
        core = engine.Core(32)              # a fresh table, as DDS starts
        engine.load(core, pos)
        core.set_budget(2_000_000_000, 600_000)
        beta = per_trick * need
        v = core.probe(engine.side_mask(pos, pos.leader), beta - 1, beta)
        hands = list(pos.hands)
        for seat, bit in pos.trick:
            hands[seat] |= 1 << bit
        board = DDSDeal("N:" + " ".join(hand_text(h) for h in hands),
                        first=Player(int(pos.trick_leader)),
                        trump=Denom.spades if contract == "trumps" else Denom.nt)
        for _, bit in pos.trick:
            board.play(str(Card.from_bit(bit)))
        # DDS's target is for the side on move; an unrelated deal solved first makes
        # it start from an empty table (it keeps its table between similar deals)
        target = need if pos.to_move in side else 13 - len(pos.tricks) - need + 1
        solve_board(unrelated, SolveMode.TargetOne, target=1)
        solved = solve_board(board, SolveMode.TargetOne, target=target)
        dds_makes = bool(len(list(solved))) == (pos.to_move in side)
        print(f"{label}: kingsolve {'makes' if v >= beta else 'fails'}, "
              f"{core.trick_nodes / 1e3:.1f} K trick-start nodes; DDS "
              f"{'makes' if dds_makes else 'fails'}, {solved._data.nodes / 1e3:.1f} K")

    for seed in seeds:
        pos = position(seed, contract)
        for card in prefix:
            pos.play(card)
        label = f"seed {seed}, {tricks} tricks" + (f", after {' '.join(prefix)}" if prefix else "")
        compare(pos, label)
        if children:
            for card in pos.legal_cards():
                pos.play(card)
                compare(pos, f"  then {card}")
                pos.undo()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--contract", choices=("no-trumps", "trumps"), default="no-trumps")
    ap.add_argument("--seeds", default="0-3,5-40")
    ap.add_argument("--node-budget", type=int, default=300_000_000)
    ap.add_argument("--against-dds", type=int, metavar="TRICKS")
    ap.add_argument("--prefix", default="", help="cards played first (with --against-dds)")
    ap.add_argument("--children", action="store_true",
                    help="also each legal card after the prefix (with --against-dds)")
    args = ap.parse_args()
    seeds = parse_seeds(args.seeds)
    if args.against_dds is not None:
        against_dds(seeds, args.contract, args.against_dds, args.prefix.split(), args.children)
    else:
        count_nodes(seeds, args.contract, args.node_budget)


if __name__ == "__main__":
    main()
