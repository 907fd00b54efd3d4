"""What the commands write besides their answer: JSON lines, text redrawn in place,
and the progress bar of the long runs (a batch, a review)."""

from __future__ import annotations

import json
import shutil
import sys
import time
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
    """A one-line progress bar on standard error, drawn only when it is a terminal.

    Called as ``bar(done, total)`` (the library's progress callbacks) or
    ``bar(done, total, failed)``: the count done, the rate and the time left since
    the first call, and the failures when counted. ``interval`` seconds at least
    between two drawings (the last state is drawn by ``close``), for runs that
    report faster than a terminal needs.
    """

    WIDTH = 30

    def __init__(self, label: str, stream=None, interval: float = 0.0) -> None:
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval = interval
        self.first: tuple[float, int] | None = None     # when and where the count started
        self.drawn = 0.0
        self.pending: tuple[int, int, int | None] | None = None
        self.open = False           # a line drawn and not yet ended

    def __call__(self, done: int, total: int, failed: int | None = None) -> None:
        if not self.enabled or total <= 0:
            return
        now = time.monotonic()
        if self.first is None:
            self.first = (now, done)
        if done < total and now - self.drawn < self.interval:
            self.pending = (done, total, failed)
            return
        self._draw(done, total, failed, now)

    def _draw(self, done: int, total: int, failed: int | None, now: float) -> None:
        assert self.first is not None
        self.drawn, self.pending = now, None
        filled = self.WIDTH * min(done, total) // total
        line = f"{self.label} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total}"
        since, start = self.first
        rate = (done - start) / max(now - since, 1e-9)
        if done < total and rate > 0:
            left = int((total - done) / rate)
            line += f"  {rate:.1f}/s, {left // 60:02d}:{left % 60:02d} left"
        if failed:
            line += f", {failed} failed"
        # back to the line's start and clear it: a shorter line leaves nothing behind
        self.stream.write(f"\r\x1b[K{line}")
        self.open = done < total
        if not self.open:
            self.stream.write("\n")
        self.stream.flush()

    def close(self) -> None:
        """Draw the last state if it was skipped, and end the line."""
        if self.pending is not None:
            self._draw(*self.pending, time.monotonic())
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False
