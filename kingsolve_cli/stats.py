"""``kingsolve stats``: distributions of double-dummy values over a batch's results."""

from __future__ import annotations

import argparse
import sys

from .terminal import print_json

HELP = "distributions of double-dummy values over batch results"


def add_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("requests", help="the batch's requests (JSONL or msgpack)")
    p.add_argument("responses", help="the batch's responses, in the same order")
    p.add_argument("--by", choices=["role", "seat"], default="role",
                   help="group by role (leader, 2nd...) or by seat (default role)")
    p.add_argument("--plot", help="also write bar charts to this PNG file")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def run(args: argparse.Namespace) -> int:
    from kingsolve.io.batch import read_requests
    from kingsolve.io.stats import collect, format_stats, plot_stats
    stats = collect(read_requests(args.requests), read_requests(args.responses))
    if args.plot:   # first, so that a plot that cannot be written fails before any output
        plot_stats(stats, args.plot, by=args.by)
    if args.json:
        print_json(stats.to_dict())
    else:
        print(format_stats(stats, by=args.by))
    if args.plot:
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0
