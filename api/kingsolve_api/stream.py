"""Server-Sent Events: each answer of an analysis as it improves, then ``event: done``.

The analysis runs in a thread of its own and hands its answers over a queue, so that
the response can write a comment line while no answer comes. A client that went
away shows only as a failed write (neither werkzeug nor gunicorn's workers watch
the socket otherwise); the server then closes the response, and closing it sets the
analysis's cancel event and waits for the analysis to stop (within one search).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from typing import Iterator

from flask import Response, stream_with_context

from kingsolve.errors import KingsolveError

__all__ = ["Running", "event_response", "HEARTBEAT"]

#: Seconds between comment lines while no answer comes: a client gone is noticed at
#: the second failed write at the latest (the first can still fill the socket buffer).
HEARTBEAT = 0.5

log = logging.getLogger(__name__)


class Running:
    """The analyses of one kind running now (``count``) and how many a client stopped
    by going away (``cancelled``), safe across threads: tests read them to check that
    a client going away stops its analysis."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0
        self.cancelled = 0

    def __enter__(self) -> "Running":
        with self._lock:
            self.count += 1
        return self

    def __exit__(self, *exc) -> None:
        with self._lock:
            self.count -= 1

    def note_cancelled(self) -> None:
        with self._lock:
            self.cancelled += 1


def _event(data: dict, name: str | None = None) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (f"event: {name}\n" if name else "") + f"data: {text}\n\n"


def _events(answers: Iterator[dict], cancel: threading.Event, running: Running) -> Iterator[str]:
    handed: queue.Queue = queue.Queue()
    end = object()

    def analyse() -> None:
        with running:
            last: dict = {}
            try:
                for answer in answers:
                    handed.put(_event(answer))
                    last = answer
                if cancel.is_set():
                    running.note_cancelled()     # only a closed response sets it this early
                handed.put(_event({"solved": bool(last.get("solved"))}, "done"))
            # The response is already a 200 stream, so the app's error handlers cannot
            # answer here: an error becomes the stream's last event, in their shape.
            except KingsolveError as exc:
                handed.put(_event(exc.to_dict(), "error"))
            except Exception:
                log.exception("unhandled error in a stream")
                handed.put(_event({"error": "internal", "message": "internal server error"},
                                  "error"))
            finally:
                handed.put(end)

    worker = threading.Thread(target=analyse, name="kingsolve-stream", daemon=True)
    worker.start()
    try:
        while True:
            try:
                item = handed.get(timeout=HEARTBEAT)
            except queue.Empty:
                yield ": analysing\n\n"
                continue
            if item is end:
                return
            yield item
    finally:
        # Runs when the answers are all sent and when the server closes the response
        # early (the client went away): either way no analysis outlives the response.
        cancel.set()
        worker.join()


def event_response(answers: Iterator[dict], cancel: threading.Event, running: Running) -> Response:
    """A ``text/event-stream`` response sending each of ``answers`` as one event,
    then ``event: done`` (or ``event: error`` with an error object); closing it early
    sets ``cancel``, which the iterator of answers must heed."""
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    # the request's context (and the search slot it holds) lasts as long as the stream
    return Response(stream_with_context(_events(answers, cancel, running)),
                    mimetype="text/event-stream", headers=headers)
