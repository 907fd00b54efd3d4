"""``kingsolve solve``: double-dummy values of every seat and of each legal card,
within a budget, optionally watched as they improve."""

from __future__ import annotations

import argparse
import sys

from kingsolve.errors import SolveTimeout
from .args import DEFAULT_MS, add_request_flags, read_request
from .terminal import LiveText, print_json

HELP = "double-dummy values of every seat and of each legal card"


def add_flags(p: argparse.ArgumentParser) -> None:
    add_request_flags(p)
    p.add_argument("--seats", help="seats to value, e.g. N,E (default: every seat in play)")
    p.add_argument("--nodes", type=int, help="node budget of the analysis")
    p.add_argument("--ms", type=float, help="time budget of the analysis, in milliseconds "
                                            "(default 10000)")
    p.add_argument("--exact", action="store_true",
                   help="exact values only: fail, naming the values left open, when the "
                        "budget ends first")
    p.add_argument("--watch", action="store_true",
                   help="show each improvement as it comes (JSON lines, or text with --text)")
    p.add_argument("--text", action="store_true",
                   help="readable text, each value marked exact, ≈estimate or lo..hi range")
    p.add_argument("--threads", type=int,
                   help="threads of each search, sharing one table (default 1)")
    p.add_argument("--line", nargs="?", const=True, metavar="SEAT",
                   help="the optimal line from the position to the end of the hand: of the "
                        "seat on move's side, or of SEAT (docs/rules.md 11)")
    p.add_argument("--all-equal", action="store_true",
                   help="with --line: each card names every card equal to it (about a "
                        "quarter of a solve more), not only the cards alike for the search")


def run(args: argparse.Namespace) -> int:
    from kingsolve.io.request import solve_request
    req = read_request(args)
    if args.seats:
        req["seats"] = [x for x in args.seats.replace(",", " ").split() if x]
    if args.nodes is not None:
        req["nodes"] = args.nodes
    if args.threads is not None:
        req["threads"] = args.threads
    if args.line is not None:
        req["line"] = args.line
    if args.all_equal:
        req["all_equal"] = True
    if args.ms is not None:
        req["ms"] = args.ms
    elif req.get("ms") is None:
        req["ms"] = DEFAULT_MS
    exact = args.exact or req.get("exact") is True
    if args.watch:
        # watched, an exact request runs as an analysis and is checked at its end
        req["exact"] = False
    elif exact:
        req["exact"] = True
    last: list = []
    live = LiveText()

    def update(analysis) -> None:
        last[:] = [analysis]
        if not args.watch:
            return
        if args.text:
            live.draw(analysis.text())
        else:
            out = analysis.to_dict()
            print_json({"id": req["id"], **out} if "id" in req else out)

    out = solve_request(req, on_update=update)
    if args.watch and exact and not out["solved"]:
        raise SolveTimeout(f"not every value exact within the budget of {req['ms']:g} ms; "
                           f"left open: {_open_values(last[0])}", bounds=last[0].bounds)
    if args.watch:
        sys.stdout.flush()
    elif args.text:
        print(last[0].text())
        if last[0].line is not None:
            print("line:   " + last[0].line.brief())
    else:
        print_json(out)
    return 0


def _open_values(analysis) -> str:
    """The values an analysis leaves open, with their proved ranges."""
    from kingsolve.search.analysis import value_text
    open_ = [f"{s.name} {value_text(b)}" for s, b in analysis.bounds.items() if b[0] != b[1]]
    open_ += [f"{c} {value_text(b)}" for c, b in analysis.card_bounds.items() if b[0] != b[1]]
    return ", ".join(open_)
