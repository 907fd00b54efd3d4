"""Bodies in and answers out: JSON or msgpack, chosen by Content-Type and Accept."""

from __future__ import annotations

import json
import math
from typing import Any

import msgpack
from flask import Response, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge, RequestTimeout, UnsupportedMediaType

from kingsolve.errors import ParseError

__all__ = ["read_body", "respond", "JSON", "MSGPACK"]

JSON = "application/json"
MSGPACK = "application/msgpack"
BODY_KINDS = {JSON: "json", MSGPACK: "msgpack", "application/x-msgpack": "msgpack"}
MAX_DEPTH = 32          # levels of arrays and maps: deeper bodies are never a valid request
CHUNK = 64 * 1024       # bytes read from the body at a time
MAX_DIGITS = 20         # digits of a JSON integer: every field's limit is far below


def _no_constant(name: str) -> Any:
    raise ParseError(f"invalid JSON body: {name} is not a JSON number")


def _int(text: str) -> int:
    # Python refuses integers past 4300 digits with advice for its own programmers; a
    # client is told the limit instead, and longer numbers are never read at all.
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ParseError(f"invalid JSON body: number too long: {digits} digits; at most {MAX_DIGITS}")
    return int(text)


def _too_deep(what: str) -> ParseError:
    return ParseError(f"invalid {what} body: nested deeper than {MAX_DEPTH} levels")


def _as_json_data(value: Any, what: str, depth: int = 0) -> Any:
    """A decoded body as plain JSON data: str keys, finite numbers, no bytes or extensions.

    ``depth`` counts the arrays and maps around ``value``; ``what`` names the body's
    format in errors.
    """
    if isinstance(value, (list, tuple, dict)) and depth >= MAX_DEPTH:
        raise _too_deep(what)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ParseError(f"invalid {what} body: {value!r} is not a finite number")
        return value
    if isinstance(value, (list, tuple)):
        return [_as_json_data(v, what, depth + 1) for v in value]
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise ParseError(f"invalid {what} body: map key {key!r} is not a string")
        return {k: _as_json_data(v, what, depth + 1) for k, v in value.items()}
    raise ParseError(f"invalid {what} body: a value of type {type(value).__name__} has no JSON form")


def _read_limited() -> bytes:
    """The raw body, 413 past MAX_CONTENT_LENGTH whatever its framing, 408 if it stalls.

    Werkzeug checks a Content-Length against the limit, but a chunked body is only
    cut at the limit and handed on as if it were whole (its JSON then fails, or worse
    parses). The body is read here to one byte past the limit instead. A client that
    stops sending would hold this thread for good: the socket gets a read timeout.
    """
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    length = request.content_length
    if length is not None and limit is not None and length > limit:
        raise RequestEntityTooLarge()
    if length is None and not request.environ.get("wsgi.input_terminated"):
        return b""                             # no framing: reading could wait for ever
    # With a length, the body is that many bytes; chunked, one byte past the limit
    # is enough to know it is over.
    want = length if length is not None else None if limit is None else limit + 1
    stream = request.environ["wsgi.input"]
    timeout = current_app.config["KINGSOLVE_READ_TIMEOUT"]
    sock = request.environ.get("gunicorn.socket")
    if sock is not None:
        sock.settimeout(timeout)
    chunks, size = [], 0
    try:
        while want is None or size < want:
            chunk = stream.read(CHUNK if want is None else min(CHUNK, want - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError:                            # the socket's read timeout, or a reset
        raise RequestTimeout(f"request body not received within {timeout:g} s") from None
    finally:
        if sock is not None:
            sock.settimeout(None)
    if limit is not None and size > limit:
        raise RequestEntityTooLarge()
    return b"".join(chunks)


def read_body() -> Any:
    """The request's body decoded from JSON or msgpack; 415 for any other content type."""
    kind = BODY_KINDS.get(request.mimetype)
    if kind is None:
        got = request.mimetype or "none"
        raise UnsupportedMediaType(f"unsupported content type {got!r}: send {JSON} or {MSGPACK}")
    data = _read_limited()
    if not data.strip():
        raise ParseError("empty body: expected a request object")
    what = "JSON" if kind == "json" else "msgpack"
    try:
        if kind == "json":
            value = json.loads(data, parse_constant=_no_constant, parse_int=_int)
        else:
            value = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except ParseError:
        raise
    # The decoders give up on deep nesting in their own terms (Python's recursion
    # limit, msgpack's stack), far past the limit that the decoded body is held to.
    except (RecursionError, msgpack.StackError):
        raise _too_deep(what) from None
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise ParseError(f"invalid {what} body: {str(exc) or type(exc).__name__}") from None
    return _as_json_data(value, what)


def _wants_msgpack() -> bool:
    best = request.accept_mimetypes.best_match([JSON, MSGPACK, "application/x-msgpack"], default=JSON)
    return best != JSON


def respond(obj: Any, status: int = 200, headers: dict | None = None) -> Response:
    """``obj`` as JSON, or as msgpack when the client's Accept prefers it."""
    if _wants_msgpack():
        resp = Response(msgpack.packb(obj, use_bin_type=True), status, mimetype=MSGPACK)
    else:
        resp = Response(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n",
                        status, mimetype=JSON)
    resp.headers["Vary"] = "Accept"
    if headers:
        resp.headers.update(headers)
    return resp
