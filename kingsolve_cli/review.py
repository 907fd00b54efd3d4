"""``kingsolve review FILE``: a review of each hand; a match report for several."""

from __future__ import annotations

import argparse
import json
import sys

from .args import budget_from_args
from .terminal import ProgressBar

HELP = "review a played hand or match file card by card, double dummy"


def add_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a record or match file (PBN-style), or - for standard input")
    p.add_argument("--json", action="store_true", help="print JSON instead of the report")
    p.add_argument("--from-trick", type=int, default=1, metavar="K",
                   help="review from trick K on (faster on long hands)")
    p.add_argument("--lines", action="store_true",
                   help="at each proved mistake, the line best play would have followed instead")
    p.add_argument("--nodes", type=int, help="node budget of the review (of each hand of a match)")
    p.add_argument("--ms", type=float, help="time budget of the review (of each hand of a "
                                            "match), in milliseconds (default 10000)")


def run(args: argparse.Namespace) -> int:
    from kingsolve.game.record import parse_records, read_records
    from kingsolve.hands.report import match_report
    from kingsolve.hands.reviews import review

    records = parse_records(sys.stdin.read()) if args.file == "-" else read_records(args.file)
    budget = budget_from_args(args)
    if len(records) == 1:
        bar = ProgressBar("review")
        try:
            rv = review(records[0], budget=budget, from_trick=args.from_trick, progress=bar,
                        lines=args.lines)
        finally:
            bar.close()
        print(json.dumps(rv.to_dict(), ensure_ascii=False) if args.json else rv.text(), end="\n"
              if args.json else "")
        return 0
    bar = ProgressBar(f"review {len(records)} hands")
    try:
        report = match_report(records, budget=budget, from_trick=args.from_trick, progress=bar,
                              lines=args.lines)
    finally:
        bar.close()
    if args.json:
        out = report.to_dict()
        out["reviews"] = [None if h.review is None else h.review.to_dict() for h in report.hands]
        print(json.dumps(out, ensure_ascii=False))
        return 0
    for h in report.hands:
        if h.review is not None:
            print(h.review.text())
    print(report.text(), end="")
    return 0
