"""The ``kingsolve`` command line: one subcommand per surface of the library.

Every subcommand that takes a request reads it as a JSON file, ``-`` for standard
input, or builds it from flags (``--variant --contract --deal ...``), and prints
the same JSON the API returns.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from enum import IntEnum
from typing import Any, Callable

from .errors import KingsolveError, SolveTimeout
from .server import add_serve_flags, cmd_serve
from .choices import add_choices_flags, cmd_choices
from .review import add_review_flags, cmd_review

__all__ = ["main", "build_parser", "read_request", "ExitCode"]

SAMPLE_DEAL = "N:AQ74.K93.J82.T65 KJ2.QT754.A3.K84 T98.AJ86.KQ95.A2 653.2.T764.QJ973"


def add_request_flags(p: argparse.ArgumentParser) -> None:
    """The flags that build a request when no JSON file is given."""
    p.add_argument("request", nargs="?", help="a JSON request file, or - for standard input")
    p.add_argument("--variant", help="rule set: italian, italian-wikipedia, portuguese, turkish, russian")
    p.add_argument("--contract", help="contract name, as in docs/rules.md")
    p.add_argument("--trump", help="trump suit letter for trumps and festa")
    p.add_argument("--option", action="append", dest="options", help="contract option (repeatable)")
    p.add_argument("--doubles", action="store_true", default=None, help="Italian doubles (N+S vs E+W)")
    p.add_argument("--deal", help="PBN-style deal text")
    p.add_argument("--leader", help="seat that leads the first trick")
    p.add_argument("--play", help="cards played so far, separated by spaces or commas")


def read_request(args: argparse.Namespace) -> dict[str, Any]:
    """The request from a JSON file, standard input, or flags (flags override)."""
    req: dict[str, Any] = {}
    if args.request:
        try:
            if args.request == "-":
                req = json.load(sys.stdin)
            else:
                with open(args.request, encoding="utf-8") as fh:
                    req = json.load(fh)
        except json.JSONDecodeError as exc:
            raise KingsolveError(f"invalid JSON request in {args.request!r}: {exc}") from None
        except OSError as exc:
            raise KingsolveError(f"cannot read request {args.request!r}: {exc.strerror}") from None
        if not isinstance(req, dict):
            raise KingsolveError(f"invalid request in {args.request!r}: expected a JSON object")
    for name in ("variant", "contract", "trump", "deal", "leader", "options", "doubles"):
        value = getattr(args, name, None)
        if value is not None:
            req[name] = value
    if getattr(args, "play", None) is not None:
        req["play"] = [c for c in args.play.replace(",", " ").split() if c]
    return req


def _print_json(obj: Any) -> None:
    print(json.dumps(obj, indent=None, ensure_ascii=False))


def cmd_legal(args: argparse.Namespace) -> int:
    from .request import legal_request
    _print_json(legal_request(read_request(args)))
    return 0


def cmd_batch(args: argparse.Namespace) -> int:
    from .batch import run_batch
    summary = run_batch(args.input, args.output, operation=args.operation, workers=args.workers,
                        in_format=args.in_format, out_format=args.format,
                        scheduler=args.scheduler,
                        progress=False if args.quiet else None)
    if not args.quiet:
        print(summary.text(), file=sys.stderr)
    return ExitCode.FAILED_ITEMS if summary.failed or summary.failed_before else ExitCode.OK


def add_batch_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="requests: JSON Lines (one per line), a msgpack stream, or -")
    p.add_argument("-o", "--output", required=True,
                   help="responses file (appended; a rerun resumes where it stopped), or -")
    p.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    p.add_argument("--scheduler", help="address of a Dask distributed scheduler to run on")
    p.add_argument("--operation", default="solve", choices=["solve", "legal"],
                   help="what to answer for each request (default solve)")
    p.add_argument("--in-format", choices=["jsonl", "msgpack"], help="input format (default by name)")
    p.add_argument("--format", choices=["jsonl", "msgpack"], help="output format (default by name)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")


def cmd_stats(args: argparse.Namespace) -> int:
    from .batch import read_requests
    from .stats import collect, format_stats, plot_stats
    stats = collect(read_requests(args.requests), read_requests(args.responses))
    if args.plot:   # first, so that a plot that cannot be written fails before any output
        plot_stats(stats, args.plot, by=args.by)
    if args.json:
        _print_json(stats.to_dict())
    else:
        print(format_stats(stats, by=args.by))
    if args.plot:
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


def add_stats_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("requests", help="the batch's requests (JSONL or msgpack)")
    p.add_argument("responses", help="the batch's responses, in the same order")
    p.add_argument("--by", choices=["role", "seat"], default="role",
                   help="group by role (leader, 2nd...) or by seat (default role)")
    p.add_argument("--plot", help="also write bar charts to this PNG file")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def cmd_hint(args: argparse.Namespace) -> int:
    from .hint import request_from_args
    from .request import hint_request
    _print_json(hint_request(request_from_args(args, read_request(args))))
    return 0


def add_hint_flags(p: argparse.ArgumentParser) -> None:
    from .hint import add_hint_flags as add
    add_request_flags(p)
    add(p)


class LiveText:
    """Text redrawn in place on a terminal as it changes (plain lines, no screen
    library); on a pipe or a file each state follows the one before."""

    def __init__(self, stream=None) -> None:
        self.stream = sys.stdout if stream is None else stream
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = 0              # lines drawn last time, to move back over

    def draw(self, text: str) -> None:
        if self.tty and self.shown:
            # up to the first line drawn, then clear from there to the end of the screen
            self.stream.write(f"\x1b[{self.shown}F\x1b[J")
        elif self.shown:
            self.stream.write("\n")
        self.stream.write(text + "\n")
        self.stream.flush()
        # a line longer than the terminal wraps onto more rows, all to move back over
        width = max(1, shutil.get_terminal_size().columns)
        self.shown = sum(max(1, -(-len(line) // width)) for line in text.split("\n"))


def cmd_solve(args: argparse.Namespace) -> int:
    from .errors import SolveTimeout
    from .request import solve_request
    req = read_request(args)
    if args.seats:
        req["seats"] = [x for x in args.seats.replace(",", " ").split() if x]
    if args.nodes is not None:
        req["nodes"] = args.nodes
    if args.ms is not None:
        req["ms"] = args.ms
    elif req.get("ms") is None:
        from .review import DEFAULT_MS
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
            _print_json({"id": req["id"], **out} if "id" in req else out)

    out = solve_request(req, on_update=update)
    if args.watch and exact and not out["solved"]:
        raise SolveTimeout(f"not every value exact within the budget of {req['ms']:g} ms; "
                           f"left open: {_open_values(last[0])}", bounds=last[0].bounds)
    if args.watch:
        sys.stdout.flush()
    elif args.text:
        print(last[0].text())
    else:
        _print_json(out)
    return 0


def _open_values(analysis) -> str:
    """The values an analysis leaves open, with their proved ranges."""
    from .analysis import value_text
    open_ = [f"{s.name} {value_text(b)}" for s, b in analysis.bounds.items() if b[0] != b[1]]
    open_ += [f"{c} {value_text(b)}" for c, b in analysis.card_bounds.items() if b[0] != b[1]]
    return ", ".join(open_)


def add_solve_flags(p: argparse.ArgumentParser) -> None:
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


def cmd_table(args: argparse.Namespace) -> int:
    from .review import budget_from_args
    from .table import dd_table, format_table
    if not args.deal:
        raise KingsolveError("table needs --deal")
    live = LiveText()

    def update(table) -> None:
        if args.json:
            _print_json(table.to_dict())
        else:
            live.draw(format_table(table))

    table = dd_table(args.variant, args.deal, leader=args.leader, trump=args.trump,
                     doubles=args.doubles, threads=args.threads,
                     contracts=args.contracts.split(",") if args.contracts else None,
                     budget=budget_from_args(args), exact=args.exact,
                     on_update=update if args.watch else None)
    if args.watch:
        update(table)           # the whole table, last
    elif args.json:
        _print_json(table.to_dict())
    else:
        print(format_table(table))
    return 0


def add_table_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="italian", help="rule set (default italian)")
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


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str, Callable[[argparse.ArgumentParser], None]]] = {
    "legal": (cmd_legal, "the seat on move, its legal cards, the trick and points taken",
              add_request_flags),
    "solve": (cmd_solve, "double-dummy values of every seat and of each legal card",
              add_solve_flags),
    "table": (cmd_table, "a deal's double-dummy table: every contract times every seat",
              add_table_flags),
    "batch": (cmd_batch, "answer a file of requests, one response per request, resumable",
              add_batch_flags),
    "stats": (cmd_stats, "distributions of double-dummy values over batch results",
              add_stats_flags),
    "serve": (cmd_serve, "serve the JSON API and the analysis board (gunicorn, several workers)",
              add_serve_flags),
    "review": (cmd_review, "review a played hand or match file card by card, double dummy",
               add_review_flags),
    "choices": (cmd_choices, "trump, sale, festa and contract choices before the play, "
                             "double dummy", add_choices_flags),
    "hint": (cmd_hint, "a seat's legal cards ranked over sampled deals it cannot tell apart, "
                       "or its choice (trump, sale, contract, festa) from its hand alone",
             add_hint_flags),
}


class ExitCode(IntEnum):
    """The exit codes of every subcommand, each with its meaning for ``kingsolve --help``.

    2 is argparse's own code for usage errors; 130 and 141 are what shells report for
    a process ended by SIGINT and SIGPIPE (128 + the signal), as for ``yes | head``.
    """

    OK = 0, "done"
    FAILED_ITEMS = 1, "batch: some requests failed (this run or an earlier one)"
    USAGE = 2, "usage: unknown flag, missing or malformed argument"
    BAD_INPUT = 3, "bad input: a request, record, value or file kingsolve cannot use"
    BUDGET = 4, "budget stop: a search ran out of its nodes or time"
    INTERNAL = 5, "internal error, a bug (KINGSOLVE_TRACEBACK=1 shows where)"
    INTERRUPTED = 130, "interrupted (Ctrl-C)"
    BROKEN_PIPE = 141, "the output's reader closed the pipe (e.g. | head)"

    def __new__(cls, code: int, meaning: str) -> "ExitCode":
        member = int.__new__(cls, code)
        member._value_ = code
        member.meaning = meaning
        return member


def _epilog() -> str:
    return "exit codes:\n" + "\n".join(f"  {int(code):>3}  {code.meaning}" for code in ExitCode)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kingsolve", description="Double-dummy analysis for King.",
                                     epilog=_epilog(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (func, help_text, add_flags) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        add_flags(p)
        p.set_defaults(func=func)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; returns its ``ExitCode``. Errors are one line on standard error."""
    try:
        code = _run(argv)
        sys.stdout.flush()   # a closed pipe shows here for output still in the buffer
        return code
    except BrokenPipeError:
        # As Python's signal docs advise: stdout goes to devnull, so that the interpreter's
        # last flush at exit does not fail on the closed pipe again.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):   # a stdout with no file behind it: nothing to flush
            pass
        return ExitCode.BROKEN_PIPE
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return ExitCode.USAGE
    try:
        return args.func(args)
    except SolveTimeout as exc:
        return _fail(args.command, str(exc), ExitCode.BUDGET)
    except KingsolveError as exc:
        return _fail(args.command, str(exc), ExitCode.BAD_INPUT)
    except BrokenPipeError:   # an OSError, but main() ends every command on it the same way
        raise
    except OSError as exc:   # a file named on the command line that cannot be read or written
        where = f" {exc.filename!r}" if exc.filename else ""
        return _fail(args.command, f"cannot use{where}: {exc.strerror or exc}", ExitCode.BAD_INPUT)
    except Exception as exc:
        if os.environ.get("KINGSOLVE_TRACEBACK"):
            raise
        return _fail(args.command, f"internal error: {type(exc).__name__}: {exc} (a bug: please "
                                   f"report it; KINGSOLVE_TRACEBACK=1 shows where)",
                     ExitCode.INTERNAL)


def _fail(command: str, message: str, code: ExitCode) -> ExitCode:
    print(f"kingsolve {command}: error: {message}", file=sys.stderr)
    return code
