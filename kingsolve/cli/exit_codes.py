"""The exit codes of every subcommand, each with its meaning for ``kingsolve --help``."""

from __future__ import annotations

from enum import IntEnum


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
