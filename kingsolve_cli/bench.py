"""``kingsolve bench``: the fixed, seeded suite of ``kingsolve.bench``, its speed on
this machine and the node-count signature of the build."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .exit_codes import ExitCode
from .terminal import ProgressBar

HELP = "speed on this machine over a fixed, seeded suite, and the build's node signature"


def _plot_file(text: str) -> str:
    if not text.lower().endswith((".png", ".svg")):
        raise argparse.ArgumentTypeError(f"plot file {text!r} must end in .png or .svg")
    return _writable(text)


def _writable(text: str) -> str:
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"no folder {folder!r} to write {text!r} in")
    return text


def add_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true",
                   help="one problem a group (under 30 s on 2 cores) instead of the full suite")
    p.add_argument("--group", action="append", metavar="TEXT",
                   help="only the groups whose name holds TEXT (repeatable), e.g. 'full deal'")
    p.add_argument("--dds", action="store_true",
                   help="also time DDS 2.9 on the doubles problems (pip install 'kingsolve[dds]')")
    p.add_argument("--json", metavar="FILE", type=_writable,
                   help="write the run in pytest-benchmark's JSON form")
    p.add_argument("--compare", metavar="FILE",
                   help="an earlier run's JSON: show the change, flag the problems whose nodes "
                        "changed (exit 1 if any did)")
    p.add_argument("--plot", metavar="FILE", type=_plot_file,
                   help="write the plot (.png or .svg; pip install 'kingsolve[stats]')")


def run(args: argparse.Namespace) -> int:
    from kingsolve import bench
    chosen = bench.select(bench.problems(args.quick), args.group)
    if not chosen:
        print(f"kingsolve bench: error: no group's name holds {' or '.join(map(repr, args.group))}; "
              f"the groups: {', '.join(map(repr, bench.groups()))}", file=sys.stderr)
        return ExitCode.USAGE
    earlier = bench.read_run(args.compare) if args.compare else None
    dds = bench.dds_solver() if args.dds else None
    print(f"kingsolve bench{' --quick' if args.quick else ''}: {len(chosen)} problems on "
          f"{bench.machine()}\n", flush=True)
    bar = ProgressBar("bench", interval=0.2)
    outcomes = bench.run_problems(chosen, dds, bar)
    bar.close()
    print(bench.format_table(outcomes, dds is not None))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(bench.to_json(outcomes, args.quick), f, indent=2)
    if args.plot:
        from kingsolve.bench.plot import plot_run
        plot_run(outcomes, args.plot)
    if earlier is None:
        return 0
    table, changed = bench.compare(outcomes, earlier)
    print(f"\nagainst {args.compare}:\n{table}")
    for line in changed:
        print(f"nodes changed: {line}")
    if changed:
        print(f"{len(changed)} problems searched a different number of nodes: the search's tree "
              f"changed", file=sys.stderr)
    return ExitCode.FAILED_ITEMS if changed else ExitCode.OK
