"""Batch analysis: one request per record in, one response per record out.

Input is JSON Lines or a msgpack stream of requests; output is the same format
(or the one asked for), one response per request, **in input order**, each with
the request's ``"id"`` echoed when it has one. Results are appended as soon as
they and every earlier result are done, so a run that is killed loses at most
the work in flight: started again on the same output file, it checks that the
responses already written belong to the first requests (by id) and goes on from
there, ending with exactly one response per request.

A request that fails gives ``{"id": ..., "error": code, "message": ...}`` and the
batch goes on; the run's summary counts the failures.
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
import threading
from typing import Any, BinaryIO, Callable, Iterator, Mapping, Sequence

from ..errors import InvalidRequestError, KingsolveError, ParseError, SolveTimeout
from ..search.budget import Budget
from .limits import LIMITS, Limits
from .request import REQUESTS, Request

__all__ = ["BatchSummary", "run_batch", "read_requests", "answer", "answers", "OPERATIONS"]

#: What a batch can do with each request: the operations of the request layer.
OPERATIONS = tuple(REQUESTS)


def _typed(operation: str) -> type[Request]:
    if operation not in REQUESTS:
        raise InvalidRequestError(f"unknown batch operation {operation!r}: expected "
                                  f"{', '.join(OPERATIONS)}")
    return REQUESTS[operation]


def answer(request: Any, operation: str = "solve", limits: Limits = LIMITS,
           ms: float | None = None, cancel: threading.Event | None = None,
           admit: Callable[[float], float] | None = None) -> dict:
    """The response to one request, or its error as a response with the request's
    ``id``; never raises for bad input. ``ms`` caps the request's time (a share of a
    list's deadline); ``admit`` (a server's wait for a search slot) takes the time the
    request has and returns what is left of it once it may search."""
    rid = request.get("id") if isinstance(request, Mapping) else None
    try:
        if isinstance(request, Mapping) and "_error" in request:
            raise ParseError(request["_error"])
        req = _typed(operation).from_request(request, limits)
        if ms is not None:
            req = req.within(ms)
        if admit is not None and isinstance(budget := getattr(req, "budget", None), Budget):
            # a search waits for its slot; a request without a budget searches nothing
            req = req.within(admit(budget.ms))
        body = req.run(cancel)
    except KingsolveError as exc:
        body = exc.to_dict()
    return body if rid is None else {"id": rid, **body}


def answers(requests: Sequence[Any], operation: str = "solve", limits: Limits = LIMITS,
            budget: Budget | None = None, cancel: threading.Event | None = None,
            admit: Callable[[float], float] | None = None) -> Iterator[dict]:
    """One response per request, in order, an error object where one fails: the one
    runner of a list of requests (the API's ``/solve`` lists, ``kingsolve batch``).

    With ``budget``, the whole list runs within its one deadline: each request gets at
    most an equal share of the time left, so every request is answered. ``admit`` as
    for ``answer``. No response comes after ``cancel`` is set (its client has gone).
    """
    deadline = None if budget is None else budget.start()
    for i, item in enumerate(requests):
        if cancel is not None and cancel.is_set():
            return
        if deadline is not None and deadline.expired():
            yield _spent(item)
            continue
        ms = None if deadline is None else deadline.share(parts=len(requests) - i).ms
        yield answer(item, operation, limits, ms, cancel, admit)


def _spent(item: Any) -> dict:
    rid = item.get("id") if isinstance(item, Mapping) else None
    body = SolveTimeout("batch time budget spent before this request").to_dict()
    return body if rid is None else {"id": rid, **body}


# --- formats ------------------------------------------------------------------------
def _format_of(path: str, given: str | None) -> str:
    if given:
        if given not in ("jsonl", "msgpack"):
            raise InvalidRequestError(f"unknown format {given!r}: expected jsonl or msgpack")
        return given
    return "msgpack" if path.endswith((".msgpack", ".mpk")) else "jsonl"


def read_requests(path: str, fmt: str | None = None) -> Iterator[Any]:
    """The requests of a JSONL file (``-`` for stdin) or a msgpack stream, in order.

    A line that is not JSON yields an ``_error`` marker so that the batch answers it
    with an error instead of stopping. A file that cannot be read, or bytes that are
    not a msgpack stream, raise ``InvalidRequestError``.
    """
    fmt = _format_of(path, fmt)
    if fmt == "msgpack":
        import msgpack
        fh: BinaryIO = sys.stdin.buffer if path == "-" else _open(path)
        try:
            yield from msgpack.Unpacker(fh, raw=False, strict_map_key=False)
        except ValueError as exc:   # msgpack's errors for bytes that are not a stream
            raise InvalidRequestError(f"{path!r} is not a msgpack stream: {exc}") from None
        finally:
            if fh is not sys.stdin.buffer:
                fh.close()
        return
    # Read as bytes so that a line that is not UTF-8 is one failed request, not the end.
    lines: BinaryIO = sys.stdin.buffer if path == "-" else _open(path)
    try:
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            try:
                yield json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                yield {"_error": f"line {number} is not UTF-8 text"}
            except json.JSONDecodeError as exc:
                yield {"_error": f"line {number} is not JSON: {exc.msg} at column {exc.colno}"}
    finally:
        if lines is not sys.stdin.buffer:
            lines.close()


def _open(path: str) -> BinaryIO:
    try:
        return open(path, "rb")
    except OSError as exc:
        raise InvalidRequestError(f"cannot read {path!r}: {exc.strerror or exc}") from None


def _read_done(path: str, fmt: str) -> list[Any]:
    """The complete responses already in an output file (a torn last record is cut off)."""
    if not os.path.exists(path):
        return []
    with open(path, "rb") as fh:
        data = fh.read()
    done: list[Any] = []
    if fmt == "msgpack":
        import msgpack
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        unpacker.feed(data)
        good = 0
        try:
            for obj in unpacker:
                done.append(obj)
                good = unpacker.tell()
        except (ValueError, msgpack.exceptions.ExtraData):
            pass
        if good != len(data):
            with open(path, "r+b") as fh:
                fh.truncate(good)
        return done
    good = 0
    for line in data.splitlines(keepends=True):
        if not line.endswith(b"\n"):
            break
        try:
            done.append(json.loads(line))
        except json.JSONDecodeError:
            break
        good += len(line)
    if good != len(data):
        with open(path, "r+b") as fh:
            fh.truncate(good)
    return done


class _Writer:
    def __init__(self, path: str, fmt: str) -> None:
        self.fmt = fmt
        self.fh = sys.stdout.buffer if path == "-" else open(path, "ab")
        if fmt == "msgpack":
            import msgpack
            self._packer = msgpack.Packer()

    def write(self, obj: dict) -> None:
        if self.fmt == "msgpack":
            self.fh.write(self._packer.pack(obj))
        else:
            self.fh.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
        self.fh.flush()

    def close(self) -> None:
        if self.fh is not sys.stdout.buffer:
            self.fh.close()


@dataclass
class BatchSummary:
    """What a batch run did."""

    total: int
    skipped: int
    solved: int
    failed: int
    seconds: float
    failed_before: int = 0    # failures among the responses an earlier run wrote

    @property
    def rate(self) -> float:
        """Requests answered per second in this run."""
        return (self.solved + self.failed) / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict:
        return {"total": self.total, "skipped": self.skipped, "solved": self.solved,
                "failed": self.failed, "failed_before": self.failed_before,
                "seconds": round(self.seconds, 3),
                "per_second": round(self.rate, 2)}

    def text(self) -> str:
        before = f" ({self.failed_before} failed)" if self.failed_before else ""
        return (f"{self.solved} solved, {self.failed} failed, {self.skipped} already done{before}, "
                f"{self.seconds:.1f} s, {self.rate:.2f} per second")


def _check_resume(requests: list[Any], done: list[Any], out: str) -> None:
    if len(done) > len(requests):
        raise InvalidRequestError(f"output {out!r} holds {len(done)} responses but the input has "
                                  f"only {len(requests)} requests: not the output of this input")
    for i, (req, resp) in enumerate(zip(requests, done)):
        rid = req.get("id") if isinstance(req, dict) else None
        got = resp.get("id") if isinstance(resp, dict) else None
        if rid != got:
            raise InvalidRequestError(f"output {out!r} does not match the input: response {i + 1} "
                                      f"has id {got!r}, request {i + 1} has id {rid!r}")


def run_batch(inp: str, out: str, *, operation: str = "solve", workers: int = 1,
              in_format: str | None = None, out_format: str | None = None,
              scheduler: str | None = None,
              progress: Callable[[int, int, int], Any] | None = None,
              executor_factory: Callable[[int], Any] | None = None) -> BatchSummary:
    """Answer every request of ``inp`` into ``out``; resumable (see the module doc).

    ``workers`` local processes (1: in this process), or a Dask cluster at
    ``scheduler`` (``dask[distributed]`` needed). ``progress(done, total, failed)``
    is called once with the responses already written, then after each response
    (None or False: nothing to call).
    """
    _typed(operation)
    if workers < 1:
        raise InvalidRequestError(f"invalid number of workers {workers!r}: expected 1 or more")
    fin = _format_of(inp, in_format)
    fout = _format_of(out, out_format) if out_format or out != "-" else fin
    if inp != "-" and out != "-" and os.path.exists(out) and os.path.exists(inp) \
            and os.path.samefile(inp, out):
        # its requests would read as responses already written, and answers go after them
        raise InvalidRequestError(f"output {out!r} is the input file: expected another file")
    requests = list(read_requests(inp, fin))
    done = _read_done(out, fout) if out != "-" else []
    _check_resume(requests, done, out)
    skipped = len(done)
    todo = requests[skipped:]
    start = time.monotonic()
    writer = _Writer(out, fout)
    counts = {"solved": 0, "failed": 0}

    def report() -> None:
        if progress:
            progress(skipped + counts["solved"] + counts["failed"], len(requests),
                     counts["failed"])

    def emit(resp: dict) -> None:
        writer.write(resp)
        counts["failed" if "error" in resp else "solved"] += 1
        report()

    report()

    try:
        if scheduler:
            _run_dask(todo, operation, scheduler, emit)
        elif workers == 1 and executor_factory is None:
            for resp in answers(todo, operation):
                emit(resp)
        else:
            factory = executor_factory or (lambda n: ProcessPoolExecutor(max_workers=n))
            with factory(workers) as pool:
                _run_ordered(pool, todo, operation, workers, emit)
    finally:
        writer.close()
    failed_before = sum(1 for resp in done if isinstance(resp, dict) and "error" in resp)
    return BatchSummary(len(requests), skipped, counts["solved"], counts["failed"],
                        time.monotonic() - start, failed_before)


def _run_ordered(pool: Executor, todo: list[Any], operation: str, workers: int,
                 emit: Callable[[dict], None]) -> None:
    """Submit with a bounded window and emit results strictly in input order."""
    window = max(4, workers * 4)
    pending: dict[int, Future] = {}
    ready: dict[int, dict] = {}
    next_submit = next_emit = 0
    while next_emit < len(todo):
        while next_submit < len(todo) and len(pending) + len(ready) < window:
            pending[next_submit] = pool.submit(answer, todo[next_submit], operation)
            next_submit += 1
        finished, _ = wait(list(pending.values()), return_when=FIRST_COMPLETED)
        for idx in [i for i, f in pending.items() if f in finished]:
            fut = pending.pop(idx)
            try:
                ready[idx] = fut.result()
            except Exception as exc:  # a worker that died: report, go on
                rid = todo[idx].get("id") if isinstance(todo[idx], dict) else None
                resp = {"error": "worker", "message": f"worker failed: {exc!r}"}
                ready[idx] = {"id": rid, **resp} if rid is not None else resp
        while next_emit in ready:
            emit(ready.pop(next_emit))
            next_emit += 1


def _run_dask(todo: list[Any], operation: str, scheduler: str,
              emit: Callable[[dict], None]) -> None:
    try:
        from distributed import Client
    except ImportError:
        raise InvalidRequestError("--scheduler needs dask[distributed]: "
                                  "pip install 'kingsolve[dask]'") from None
    with Client(scheduler) as client:
        workers = max(1, sum(w.get("nthreads", 1) for w in
                             client.scheduler_info().get("workers", {}).values()))
        with client.get_executor(pure=False) as pool:
            _run_ordered(pool, todo, operation, workers, emit)
