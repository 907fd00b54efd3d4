"""What the commands write besides their answer: JSON lines, text redrawn in place,
and the progress bar of the long runs (a batch, a review)."""

from __future__ import annotations

import json
import shutil
import sys
from typing import Any


def print_json(obj: Any) -> None:
    """One JSON document on one line of standard output."""
    print(json.dumps(obj, indent=None, ensure_ascii=False))


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


class ProgressBar:
    """A one-line progress bar on standard error, drawn only when it is a terminal."""

    def __init__(self, label: str, stream=None) -> None:
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        width = 30
        filled = width * done // total
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
                          f"{done}/{total}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()
