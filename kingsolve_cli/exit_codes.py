"""The exit codes of every subcommand, each with its meaning: the one table that
``kingsolve --help`` and the README's table are both made from."""

from __future__ import annotations

import textwrap
from enum import IntEnum


class ExitCode(IntEnum):
    """The exit codes of every subcommand, each with its meaning (Markdown: code in
    backticks).

    2 is argparse's own code for usage errors; 130 and 141 are what shells report for
    a process ended by SIGINT and SIGPIPE (128 + the signal), as for ``yes | head``.
    """

    OK = 0, "done"
    FAILED_ITEMS = 1, ("`batch`: some requests failed (this run or an earlier one); "
                       "`bench --compare`: some problems' nodes changed")
    USAGE = 2, "usage: unknown flag, missing or malformed argument"
    BAD_INPUT = 3, "bad input: a request, record, value or file kingsolve cannot use"
    BUDGET = 4, ("budget stop: exact values (`--exact`, the domino's) not proved, no "
                 "estimate at all, or no sampled deal of a hint solved within the budget")
    INTERNAL = 5, "internal error, a bug (`KINGSOLVE_TRACEBACK=1` shows where)"
    INTERRUPTED = 130, "interrupted (Ctrl-C)"
    BROKEN_PIPE = 141, "the output's reader closed the pipe (`kingsolve solve ... | head`)"

    meaning: str

    def __new__(cls, code: int, meaning: str) -> "ExitCode":
        member = int.__new__(cls, code)
        member._value_ = code
        member.meaning = meaning
        return member


def epilog(width: int = 79) -> str:
    """The exit codes for ``--help``: a code a paragraph, the meanings as plain text
    wrapped to ``width``."""
    return "exit codes:\n" + "\n".join(
        textwrap.fill(code.meaning.replace("`", ""), width, initial_indent=f"  {int(code):>3}  ",
                      subsequent_indent=" " * 7)
        for code in ExitCode)


def markdown_table() -> str:
    """The exit codes as the README's Markdown table."""
    rows = [f"| {int(code)} | {code.meaning.replace('|', chr(92) + '|')} |" for code in ExitCode]
    return "\n".join(["| code | meaning |", "|------|---------|", *rows])
