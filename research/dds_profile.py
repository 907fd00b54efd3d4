"""Where the search core's instructions go, against DDS's, on the same doubles problems.

    .venv/bin/python research/dds_profile.py [--deals 12] [--max-nodes 500000] [--trumps S]

The problems are core_speed.py's section 1 (or 5 with ``--trumps``): Italian doubles,
``Deal.random(seed)`` with ``Seat(seed % 4)`` leading, the leader's side value, each
solver from an empty table. Deals on which DDS visits more than ``--max-nodes``
trick-start nodes are left out (one such deal outweighs all the others under
callgrind, which runs about 50 times slower than the machine). Each solver runs under
valgrind's callgrind counting only its searches (kingsolve's ``Core.value``, DDS's
``SolveBoardInternal``); the table gives, per part of the search, the instructions per
trick-start node of each (the count both report) and their ratio.

kingsolve's instructions are attributed to the lines of ``ext/*.pyx`` through the
generated ``ext/_core.c`` (so the core must have been built from the tree as it is,
with ``-g``, the default): an inlined helper counts where it is written, so the bit
helpers (``high_bit``, ``popcount``, ...) are a part of their own. DDS's are attributed
by function name. Needs valgrind (Debian's ``valgrind``) and the DDS extra (endplay).

Instruction counts do not vary from run to run, but they are not times: kingsolve runs
more instructions per cycle than DDS (benchmarks/RESULTS.md, part by part), so
the ratios here overstate the time ratios.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

# the parts of a search, in the order printed; every line of the core belongs to one
PARTS = ["driver", "quick rules at trick starts", "quick tricks within a trick",
         "tables", "move generation and ordering", "make and unmake", "bit helpers", "other"]

KS_PARTS = {
    "driver": "search search_moves count_node now_s start_bounds decides sure_gain gain_on "
              "bound_lo bound_hi store_node mtd narrow trick_rel entry_bounds wide_bounds "
              "lone_endgame last_trick busy_slot",
    "quick rules at trick starts": "quick_bounds quick_tricks lead_tops lead_barred above_others whole_lanes suit_run longest_other "
              "cash_count cash_reach partner_cash split_suit split_more partner_winner "
              "cash_counts all_barred lead_lost later_tricks",
    "quick tricks within a trick": "follow_bounds follow_quick",
    "tables": "wide_match wide_probe wide_store wide_hash wide_bucket wide_bucket_of wide_fp "
              "wide_fp_tops keeps_tops "
              "top_of top_mask reach_pack kpack_cards tt_key tt_bucket "
              "tt_probe tt_store tt_read tt_write scramble encode_move decode_move entry_cards "
              "pid_of suit_lane pattern_fill patterns_complete",
    "move generation and ordering": "gen_moves legal_moves lead_suit order_moves lead_scores "
              "follow_scores sort_moves next_live dds_follows dds_lead_weight "
              "dds_follow_weight third_hand_weight second_hand_weight lead_length_weight "
              "trump_second_void_weight trump_second_weight trump_third_weight "
              "trump_late_void_weight lead_suit_weights forces_ace second_card trick_tendency "
              "rel_rank sure_exit run_head holds_kx max_rank min_rank contract_positive",
    "make and unmake": "play_card unplay_card close_trick reopen_trick",
    "bit helpers": "high_bit low_bit popcount above_mask lane_of in_hands above beats nth_holder run_above",
}
KS_PART_OF = {name: part for part, names in KS_PARTS.items() for name in names.split()}

DDS_PARTS = [   # (part, pattern on the function's name), the first match wins
    ("quick tricks within a trick", r"QuickTricksSecondHand"),
    ("quick rules at trick starts", r"QuickTricks|Qtricks|LaterTricks"),
    ("tables", r"TransTable"),
    ("move generation and ordering", r"Moves::"),
    ("make and unmake", r"\bMake\d|\bUndo\d"),
    ("driver", r"ABsearch|Evaluate"),
]


def problems(deals: int, trump: str | None):
    from kingsolve import Deal, Position, Seat
    for seed in range(deals):
        deal, leader = Deal.random(seed), Seat(seed % 4)
        yield seed, Position("italian", "trumps" if trump else "no-trumps", deal,
                             leader=leader, doubles=True, trump=trump)


def child(which: str, seeds: list[int], trump: str | None, deals: int) -> dict:
    """Solves the problems of `seeds` with one solver; their trick-start nodes."""
    from core_speed import dds_board, forget, seat_value
    from kingsolve.search.budget import Budget
    if which != "kingsolve":
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
    budget = Budget(ms=600_000)
    nodes = {}
    for seed, pos in problems(deals, trump):
        if seed not in seeds:
            continue
        if which == "kingsolve":
            forget(pos, budget)
            nodes[seed] = seat_value(pos, pos.leader, budget)[3]
        else:
            # each deal differs from the last: DDS starts from an empty table
            nodes[seed] = solve_board(dds_board(pos.deal, pos.leader, trump),
                                      SolveMode.OptimalOne)._data.nodes
    return nodes


def callgrind(which: str, seeds: list[int], args, out: Path) -> dict:
    toggle = "*4Core_*value" if which == "kingsolve" else "*SolveBoardInternal*"
    counts = out.with_suffix(".json")
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
           "--collect-atstart=no", f"--toggle-collect={toggle}",
           sys.executable, __file__, "--child", which, "--seeds", ",".join(map(str, seeds)),
           "--deals", str(args.deals), "--out", str(counts)]
    if args.trumps:
        cmd += ["--trumps", args.trumps]
    subprocess.run(cmd, check=True, capture_output=True)
    return json.loads(counts.read_text())


def annotate(out: Path, *sources: str) -> list[str]:
    # the functions, then each of `sources` line by line
    return subprocess.run(["callgrind_annotate", "--show-percs=no", "--auto=no", str(out), *sources],
                          check=True, capture_output=True, text=True, cwd=ROOT).stdout.splitlines()


def count(line: str) -> int | None:
    head = line.split(None, 1)
    if not head or "=>" in line:
        return None
    c = head[0].replace(",", "")
    return int(c) if c.isdigit() else None


def ks_parts(out: Path) -> collections.Counter:
    """Self instructions per part, by the pyx line each line of _core.c comes from."""
    owner = {}
    for src in sorted((ROOT / "ext").glob("*.px[id]")) + [ROOT / "ext" / "_core.pyx"]:
        name = "?"
        for i, text in enumerate(src.read_text().splitlines(), 1):
            m = re.match(r"\s*(?:cdef|cpdef|def)\s+(?:inline\s+)?(?:[\w*]+\s+)*?\**(\w+)\(", text)
            if m:
                name = m.group(1)
            owner[(src.name, i)] = name
    parts: collections.Counter = collections.Counter()
    where = None
    marker = re.compile(r'/\* "(?:kingsolve/|ext/)?([\w.]+)":(\d+)')
    inside = False
    # the generated C file under the name the build's debug information gives it
    source = next(m.group(1) for line in annotate(out)
                  if (m := re.search(r"(\S*_core\.c):", line)))
    lines = annotate(out, source)
    for line in lines:
        if "PROGRAM TOTALS" in line:
            # what no line of ext/*.pyx claims (Cython's glue, header code inlined:
            # the SSE compares of the wide probe) is "other"
            parts["other"] += count(line) or 0
        if line.startswith("-- User-annotated source:"):
            inside = line.rstrip().endswith("_core.c")
            continue
        if "events annotated" in line:   # the summary after the sources
            break
        if not inside:
            continue
        m = marker.search(line)
        if m:
            where = (m.group(1), int(m.group(2)))
        c = count(line)
        if c and where:
            parts[KS_PART_OF.get(owner.get(where, "?"), "other")] += c
            parts["other"] -= c
    return parts


def dds_parts(out: Path) -> collections.Counter:
    parts: collections.Counter = collections.Counter()
    for line in annotate(out):
        c = count(line)
        if c is None:
            continue
        if "PROGRAM TOTALS" in line:
            parts["other"] += c      # the rest: setting up, the library's own helpers
            continue
        name = line.split(None, 1)[1]
        part = next((p for p, pat in DDS_PARTS if re.search(pat, name)), None)
        if part:
            parts[part] += c
            parts["other"] -= c
    return parts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--max-nodes", type=int, default=500_000,
                    help="leave out deals where DDS visits more trick-start nodes")
    ap.add_argument("--trumps", help="a trump suit letter (S, H, D, C): section 5's problems")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--seeds", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    trump = args.trumps.upper() if args.trumps else None
    if args.child:
        seeds = [int(s) for s in args.seeds.split(",")]
        Path(args.out).write_text(json.dumps(child(args.child, seeds, trump, args.deals)))
        return
    try:
        import endplay.dds  # noqa: F401
    except ImportError:
        sys.exit("needs the DDS extra: pip install -e '.[dds]'")
    try:
        subprocess.run(["valgrind", "--version"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        sys.exit("needs valgrind (apt-get install valgrind)")
    everything = list(range(args.deals))
    dds_nodes = child("dds", everything, trump, args.deals)
    seeds = [s for s in everything if dds_nodes[s] <= args.max_nodes]
    left_out = sorted(set(everything) - set(seeds))
    with tempfile.TemporaryDirectory() as tmp:
        ks_out, dds_out = Path(tmp) / "ks.out", Path(tmp) / "dds.out"
        ks_nodes = callgrind("kingsolve", seeds, args, ks_out)
        dds_nodes = callgrind("dds", seeds, args, dds_out)
        ks, dds = ks_parts(ks_out), dds_parts(dds_out)
    kn, dn = sum(ks_nodes.values()), sum(dds_nodes.values())
    strain = f"trumps {trump}" if trump else "no-trumps"
    print(f"doubles {strain}, deals {','.join(map(str, seeds))}"
          + (f" (left out: {','.join(map(str, left_out))})" if left_out else ""))
    print(f"trick-start nodes: kingsolve {kn:,}, DDS {dn:,}")
    print(f"{'part':<32}{'kingsolve':>12}{'DDS':>10}{'ratio':>8}   instructions per trick-start node")
    for part in PARTS + ["all"]:
        a = (sum(ks.values()) if part == "all" else ks[part]) / kn
        b = (sum(dds.values()) if part == "all" else dds[part]) / dn
        ratio = f"{a / b:8.2f}" if b else " " * 8
        print(f"{part:<32}{a:12,.0f}{b:10,.0f}{ratio}")


if __name__ == "__main__":
    main()
