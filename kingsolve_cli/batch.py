"""``kingsolve batch``: answer a file of requests, one response per request, resumable."""

from __future__ import annotations

import argparse
import sys

from .exit_codes import ExitCode
from .terminal import ProgressBar

HELP = "answer a file of requests, one response per request, resumable"


def add_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="requests: JSON Lines (one per line), a msgpack stream, or -")
    p.add_argument("-o", "--output", required=True,
                   help="responses file (appended; a rerun resumes where it stopped), or -")
    p.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    p.add_argument("--scheduler", help="address of a Dask distributed scheduler to run on")
    from kingsolve.io.batch import OPERATIONS
    p.add_argument("--operation", default="solve", choices=OPERATIONS,
                   help="what to answer for each request (default solve)")
    p.add_argument("--in-format", choices=["jsonl", "msgpack"], help="input format (default by name)")
    p.add_argument("--format", choices=["jsonl", "msgpack"], help="output format (default by name)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")


def run(args: argparse.Namespace) -> int:
    from kingsolve.io.batch import run_batch
    # a batch can answer thousands of requests a second: a few drawings a second are enough
    bar = None if args.quiet else ProgressBar("batch", interval=0.2)
    try:
        summary = run_batch(args.input, args.output, operation=args.operation,
                            workers=args.workers, in_format=args.in_format,
                            out_format=args.format, scheduler=args.scheduler, progress=bar)
    finally:
        if bar is not None:
            bar.close()
    if not args.quiet:
        print(summary.text(), file=sys.stderr)
    return ExitCode.FAILED_ITEMS if summary.failed or summary.failed_before else ExitCode.OK
