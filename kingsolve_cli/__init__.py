"""The ``kingsolve`` command line: one subcommand per surface of the library.

Every subcommand that takes a request reads it as a JSON file, ``-`` for standard
input, or builds it from flags (``--variant --contract --deal ...``), and prints
the same JSON the API returns.

Each subcommand is a module of this package with its ``HELP``, its ``add_flags``
and its ``run``. A command imports the library modules it uses when it runs, and
only the command given gets its flags: ``kingsolve --help`` imports no analysis.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Sequence

from kingsolve.errors import KingsolveError, SolveTimeout
from . import batch, bench, choices, hint, legal, review, serve, solve, stats, table
from .args import read_request
from .exit_codes import ExitCode, epilog

__all__ = ["main", "build_parser", "read_request", "ExitCode", "COMMANDS"]

#: Each subcommand: what runs it, its one-line help and what adds its flags.
COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str,
                          Callable[[argparse.ArgumentParser], None]]] = {
    module.__name__.rpartition(".")[2]: (module.run, module.HELP, module.add_flags)
    for module in (legal, solve, table, batch, stats, serve, review, choices, hint, bench)
}


class _Parser(argparse.ArgumentParser):
    """argparse's parser with its usage errors on one line, as every other error: the
    full usage is what ``--help`` is for."""

    def error(self, message: str):
        self.exit(ExitCode.USAGE, f"{self.prog}: error: {message}; see {self.prog} --help\n")


def build_parser(commands: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the command line: every subcommand, and the flags of ``commands``
    (default: all). A command's flags may import what they describe (the hint's
    choices, the server's defaults), so ``main`` builds only those of the command given.
    """
    parser = _Parser(prog="kingsolve", description="Double-dummy analysis for King.",
                     epilog=epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (func, help_text, add_flags) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if commands is None or name in commands:
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


def _command_of(argv: Sequence[str]) -> list[str]:
    """The subcommand named in ``argv``: its first word that is not a flag (the
    command line has no flags of its own before the subcommand but ``--help``)."""
    return [next((a for a in argv if not a.startswith("-")), "")]


def _run(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(_command_of(argv))
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
