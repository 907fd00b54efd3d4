"""``kingsolve table``: a deal's double-dummy table, every contract times every seat."""

from __future__ import annotations

import argparse

from kingsolve.errors import KingsolveError
from .args import add_rules_flag, budget_from_args, rules_document
from .terminal import LiveText, print_json

HELP = "a deal's double-dummy table: every contract times every seat"


def add_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", help="rule set (default italian)")
    add_rules_flag(p)
    p.add_argument("--deal", help="PBN-style deal text")
    p.add_argument("--leader", default="N", help="seat that leads the first trick (default N)")
    p.add_argument("--trump", help="only this trump suit for the trump contracts")
    p.add_argument("--contracts", help="only these contracts, comma separated")
    p.add_argument("--doubles", action="store_true", help="Italian doubles (N+S vs E+W)")
    p.add_argument("--threads", type=int, default=2, help="threads (default 2)")
    p.add_argument("--nodes", type=int, help="node budget of the whole table")
    p.add_argument("--ms", type=float, help="time budget of the whole table, in milliseconds "
                                            "(default 10000)")
    p.add_argument("--exact", action="store_true",
                   help="exact values only: fail naming the row the budget stops")
    p.add_argument("--watch", action="store_true",
                   help="show the table as its rows improve (redrawn on a terminal; "
                        "JSON lines with --json)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def run(args: argparse.Namespace) -> int:
    from kingsolve.search.table import dd_table, format_table
    if not args.deal:
        raise KingsolveError("table needs --deal")
    live = LiveText()

    def update(table) -> None:
        if args.json:
            print_json(table.to_dict())
        else:
            live.draw(format_table(table))

    variant = rules_document(args) or args.variant or "italian"
    table = dd_table(variant, args.deal, leader=args.leader, trump=args.trump,
                     doubles=args.doubles, threads=args.threads,
                     contracts=args.contracts.split(",") if args.contracts else None,
                     budget=budget_from_args(args), exact=args.exact,
                     on_update=update if args.watch else None)
    if args.watch:
        update(table)           # the whole table, last
    elif args.json:
        print_json(table.to_dict())
    else:
        print(format_table(table))
    return 0
