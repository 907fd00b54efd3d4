"""Who may search now: a pool of search slots, a cap per client, a request rate.

Searches are CPU-bound and hold the GIL only between calls into the compiled core, so
a worker's threads answer ``/healthz`` and ``/legal`` while it searches; but only as
many searches as there are slots run at once, the others wait for one. The slots and
the per-client cap are lock files (``flock``) in one folder, so every worker process
of one server shares them and a killed worker frees its slots with its files. A
request waits for a slot no longer than its own time budget, counted from its
arrival, and the search gets what is left.

The request rate (Flask-Limiter, in memory) is counted by each worker process: with
several workers a client may make up to that many times the rate.
"""

from __future__ import annotations

import fcntl
import hashlib
import math
import os
import shutil
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any, Mapping

from flask import Flask, current_app, g, request

from kingsolve.errors import KingsolveError, SolveTimeout

__all__ = ["SearchGate", "TooManySearches", "ServerBusy", "install_limits", "admit_search",
           "waited_ms", "rate_retry_after"]

#: How often a waiting request looks for a free slot, in seconds: first soon (most
#: searches are short), then less and less often, up to the longest pause.
FIRST_POLL, POLL = 0.001, 0.005
#: Lock files the per-client caps are spread over: clients whose addresses share a
#: bucket share a cap, so a large number keeps that rare while the folder stays small.
CLIENT_BUCKETS = 4096


class TooManySearches(KingsolveError):
    """A client that already runs (or waits for) as many searches as it may: 429."""

    code = "too-many-requests"
    status = 429

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ServerBusy(SolveTimeout):
    """A request whose time budget ran out before a search slot was free: 503."""

    code = "busy"
    retry_after = 1


@dataclass
class _Held:
    """The lock files one request holds, closed (unlocked) when it ends."""

    files: list[int]
    changed: threading.Condition    # the gate's: told when a slot or the line changes
    queued: bool = False            # no slot was free at once

    def release(self) -> None:
        while self.files:
            os.close(self.files.pop())
        with self.changed:
            self.changed.notify_all()


def _try_lock(path: str) -> int | None:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


class SearchGate:
    """``slots`` searches at once over all the processes that share ``folder``; at most
    ``per_client`` of them (running or waiting) for one client address."""

    def __init__(self, folder: str, slots: int, per_client: int) -> None:
        if slots < 1 or per_client < 1:
            raise ValueError("a search gate needs at least one slot and one search per client")
        self.folder, self.slots, self.per_client = folder, slots, per_client
        # Waiters in this process wake as soon as one of its requests frees a slot;
        # a slot freed by another worker is seen at the next look.
        self._changed = threading.Condition()

    def _client_locks(self, client: str) -> list[str]:
        bucket = int.from_bytes(hashlib.sha256(client.encode()).digest()[:4], "big") % CLIENT_BUCKETS
        return [os.path.join(self.folder, f"client-{bucket}-{i}") for i in range(self.per_client)]

    def enter(self, client: str, deadline: float) -> _Held:
        """Hold one of the client's turns and a search slot; wait for the slot until ``deadline``.

        ``TooManySearches`` at once when the client has no turn left; ``ServerBusy``
        when no slot was free by the deadline (``time.monotonic()`` seconds).
        """
        held = _Held([], self._changed)
        turn = next((fd for fd in map(_try_lock, self._client_locks(client)) if fd is not None), None)
        if turn is None:
            raise TooManySearches(f"too many searches at once from this client: at most "
                                  f"{self.per_client}; retry when one has finished")
        held.files.append(turn)
        slots = [os.path.join(self.folder, f"slot-{i}") for i in range(self.slots)]
        ticket, ticket_fd = self._take_ticket()
        pause = FIRST_POLL
        try:
            while True:
                if self._first_in_line(ticket):
                    for path in slots:
                        fd = _try_lock(path)
                        if fd is not None:
                            held.files.append(fd)
                            return held
                held.queued = True
                if time.monotonic() >= deadline:
                    held.release()
                    raise ServerBusy(f"server busy: no search slot came free within the request's "
                                     f"time budget ({self.slots} searches run at once); retry later")
                with self._changed:
                    self._changed.wait(min(pause, max(0.0, deadline - time.monotonic())))
                pause = min(2 * pause, POLL)
        finally:
            os.unlink(os.path.join(self.queue, ticket))
            os.close(ticket_fd)
            with self._changed:
                self._changed.notify_all()      # the next in line may go

    # Waiting requests take slots in the order they came, whichever worker holds them:
    # each holds a locked ticket named by its arrival, and only the oldest live ticket
    # may take a free slot. Without the line a request just arrived could take every
    # slot that came free while older ones slept between two looks, and starve them.
    @property
    def queue(self) -> str:
        return os.path.join(self.folder, "queue")

    def _take_ticket(self) -> tuple[str, int]:
        os.makedirs(self.queue, exist_ok=True)
        name = f"{time.monotonic_ns():020d}-{os.getpid()}-{threading.get_ident()}"
        # Locked under another name first, so that no one takes it for a dead one's ticket.
        draft = os.path.join(self.queue, "." + name)
        fd = _try_lock(draft)
        assert fd is not None       # the draft's name is this thread's own: no one else locks it
        os.rename(draft, os.path.join(self.queue, name))
        return name, fd

    def _first_in_line(self, ticket: str) -> bool:
        for name in sorted(os.listdir(self.queue)):
            if name >= ticket:
                return True
            if name.startswith("."):
                continue
            fd = _try_lock(os.path.join(self.queue, name))
            if fd is None:
                return False                # an older request still waits
            try:                            # a ticket left by a worker that died
                os.unlink(os.path.join(self.queue, name))
            except FileNotFoundError:
                pass
            os.close(fd)
        return True


def _settings(config: Mapping[str, Any]) -> tuple[int, int, str | None]:
    slots = int(config["KINGSOLVE_SEARCH_SLOTS"] or os.cpu_count() or 1)
    return slots, int(config["KINGSOLVE_CLIENT_SEARCHES"]), config["KINGSOLVE_RATE_LIMIT"]


def install_limits(app: Flask) -> None:
    """The gate and the rate limit on ``app``'s searching endpoints."""
    slots, per_client, rate = _settings(app.config)
    folder = app.config["KINGSOLVE_LOCK_DIR"]
    if folder is None:
        # One app alone (tests, an embedding server): its own folder, its own slots.
        folder = app.config["KINGSOLVE_LOCK_DIR"] = tempfile.mkdtemp(prefix="kingsolve-locks-")
        weakref.finalize(app, shutil.rmtree, folder, ignore_errors=True)
    gate = SearchGate(folder, slots, per_client)
    app.extensions["kingsolve_gate"] = gate

    @app.before_request
    def arrived() -> None:
        g.arrival = time.monotonic()

    @app.teardown_request
    def leave(exc: BaseException | None = None) -> None:
        held = g.pop("search_held", None)
        if held is not None:
            held.release()

    if rate:
        from flask_limiter import Limiter
        from flask_limiter.util import get_remote_address

        def outside_the_api() -> bool:
            return request.method == "OPTIONS" or not (request.endpoint or "").startswith("api_v1.")

        # The health check, the board and its files are never limited, nor a browser's
        # preflights: a probe or a page load must not spend a client's requests.
        # Its own headers would put a Retry-After on every answer; the 429 sets one.
        app.extensions["kingsolve_limiter"] = Limiter(
            get_remote_address, app=app, storage_uri="memory://", default_limits=[rate],
            default_limits_exempt_when=outside_the_api)


def admit_search(ms: float) -> float:
    """Hold a search slot for this request, waiting at most ``ms`` from its arrival, and
    return what is left of ``ms`` for its first search after a wait in the queue.

    A request holds one slot for all its searches: later calls return ``ms`` as it is.
    """
    if "search_held" in g:
        return ms
    arrival = g.get("arrival", time.monotonic())
    gate: SearchGate = current_app.extensions["kingsolve_gate"]
    g.search_held = held = gate.enter(request.remote_addr or "unknown", arrival + ms / 1000)
    if not held.queued:
        return ms               # what little it took to read the request is not counted
    g.search_waited_ms = (time.monotonic() - arrival) * 1000
    left = ms - g.search_waited_ms
    if left <= 0:
        raise ServerBusy(f"the request's time budget of {ms:g} ms ran out before its search began")
    return left


def waited_ms() -> float:
    """How long this request waited for its search slot since it arrived, in ms."""
    return g.get("search_waited_ms", 0.0)


def rate_retry_after(app: Flask) -> int:
    """Seconds until the request rate lets this client in again (at least 1)."""
    limiter = app.extensions.get("kingsolve_limiter")
    window = limiter.current_limit if limiter is not None else None
    return max(1, math.ceil(window.reset_at - time.time())) if window else 1
