"""Bodies in and answers out: JSON or msgpack, chosen by Content-Type and Accept."""

from __future__ import annotations

import json
import math
from typing import Any

import msgpack
from flask import Response, request
from werkzeug.exceptions import UnsupportedMediaType

from kingsolve.errors import ParseError

__all__ = ["read_body", "respond", "JSON", "MSGPACK"]

JSON = "application/json"
MSGPACK = "application/msgpack"
BODY_KINDS = {JSON: "json", MSGPACK: "msgpack", "application/x-msgpack": "msgpack"}
MAX_DEPTH = 32          # deeper bodies are never a valid request


def _no_constant(name: str) -> Any:
    raise ParseError(f"invalid JSON body: {name} is not a JSON number")


def _plain(value: Any, depth: int = 0) -> Any:
    """A decoded body as plain JSON data: str keys, finite numbers, no bytes or extensions."""
    if depth > MAX_DEPTH:
        raise ParseError(f"invalid body: nested deeper than {MAX_DEPTH} levels")
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ParseError(f"invalid body: {value!r} is not a finite number")
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise ParseError(f"invalid body: map key {key!r} is not a string")
        return {k: _plain(v, depth + 1) for k, v in value.items()}
    raise ParseError(f"invalid body: a value of type {type(value).__name__} has no JSON form")


def read_body() -> Any:
    """The request's body decoded from JSON or msgpack; 415 for any other content type."""
    kind = BODY_KINDS.get(request.mimetype)
    if kind is None:
        got = request.mimetype or "none"
        raise UnsupportedMediaType(f"unsupported content type {got!r}: send {JSON} or {MSGPACK}")
    data = request.get_data(cache=False)     # 413 past MAX_CONTENT_LENGTH
    if not data.strip():
        raise ParseError("empty body: expected a request object")
    try:
        if kind == "json":
            value = json.loads(data, parse_constant=_no_constant)
        else:
            value = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except ParseError:
        raise
    except (ValueError, TypeError, RecursionError, msgpack.UnpackException) as exc:
        what = "JSON" if kind == "json" else "msgpack"
        raise ParseError(f"invalid {what} body: {str(exc) or type(exc).__name__}") from None
    return _plain(value)


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
