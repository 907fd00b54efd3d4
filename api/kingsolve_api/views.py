"""The ``/api/v1`` blueprint: each view reads the body into the library's typed request
(checked once, with the server's limits), runs it, and returns its dict."""

from __future__ import annotations

import secrets
import threading
from typing import Any

from flask import Blueprint, current_app, request
from werkzeug.routing import BaseConverter

from kingsolve.errors import UnknownVariantError
from kingsolve.game.deal import Deal
from kingsolve.search.budget import Budget
from kingsolve.game.rule_documents import checked_rules
from kingsolve.game.rules import VARIANTS, get_variant
from kingsolve.hands.hints import levels_answer
from kingsolve.io.batch import answers
from kingsolve.io.limits import Limits
from kingsolve.io.request import (ChoicesRequest, HintRequest, LegalRequest, ReviewRequest,
                                  SheetRequest, SolveRequest, TableRequest)
from kingsolve.io.schema import request_schemas

from .limits import admit_search
from .stream import event_response
from .watch import client_watch
from .wire import read_body, respond

__all__ = ["bp", "server_limits"]

bp = Blueprint("api_v1", __name__, url_prefix="/api/v1")


def _state():
    return current_app.extensions["kingsolve"]


def server_limits(cfg, default_ms: float | None = None, ms: float | None = None) -> Limits:
    """What the server lets one request spend: at most its largest budgets (and ``ms``),
    its threads (a request's threads are the server's, not the client's, to spend), and
    ``default_ms`` (the longest allowed when None) for a request without ``ms``."""
    longest = float(cfg["KINGSOLVE_MAX_MS"]) if ms is None else min(cfg["KINGSOLVE_MAX_MS"], ms)
    threads = int(cfg["KINGSOLVE_TABLE_THREADS"])
    return Limits(nodes=int(cfg["KINGSOLVE_MAX_NODES"]), ms=longest,
                  default_nodes=int(cfg["KINGSOLVE_MAX_NODES"]),
                  default_ms=longest if default_ms is None else default_ms,
                  threads=threads, table_threads=threads, tt_mb=cfg["KINGSOLVE_TT_MB"],
                  batch=int(cfg["KINGSOLVE_BATCH_MAX"]), batch_ms=float(cfg["KINGSOLVE_BATCH_MS"]))


def _limits(default_ms: float | None = None, ms: float | None = None) -> Limits:
    return server_limits(current_app.config, default_ms, ms)


def _analysis_limits() -> Limits:
    """The limits of a review, a choice or a hint: all of its searches share the
    budget, never past the time one request may take."""
    return _limits(ms=current_app.config["KINGSOLVE_BATCH_MS"])


def _admitted(req):
    """A typed request once it holds a search slot: the wait comes out of its time."""
    return req.within(admit_search(req.budget.ms))


@bp.post("/legal")
def legal():
    return respond(LegalRequest.from_request(read_body(), _limits()).run())


@bp.post("/solve")
def solve():
    body = read_body()
    limits = _limits(default_ms=current_app.config["KINGSOLVE_SOLVE_MS"])
    if isinstance(body, list):
        # one deadline for the list: each request gets at most a fair share of what is left
        request_schemas(limits).check("SolveBatch", body)
        with client_watch(_state().searches) as cancel:
            return respond(list(answers(body, "solve", limits,
                                        Budget(ms=current_app.config["KINGSOLVE_BATCH_MS"]),
                                        cancel, admit_search)))
    req = _admitted(SolveRequest.from_request(body, limits))
    with client_watch(_state().searches) as cancel:
        return respond(req.run(cancel))


@bp.post("/solve/stream")
def solve_events():
    limits = _limits(default_ms=current_app.config["KINGSOLVE_STREAM_MS"])
    req = _admitted(SolveRequest.from_request(read_body(), limits))
    cancel = threading.Event()
    return event_response(req.stream(cancel), cancel, _state().streams)


@bp.post("/table")
def table():
    # ms bounds the whole table; a row always answers unless the client asks for exact
    return respond(_admitted(TableRequest.from_request(read_body(), _limits())).run())


@bp.post("/review")
def review():
    return respond(_admitted(ReviewRequest.from_request(read_body(), _analysis_limits())).run())


@bp.post("/choices")
def choices():
    return respond(_admitted(ChoicesRequest.from_request(read_body(), _analysis_limits())).run())


@bp.post("/hint")
def hint():
    # A hint's ms bounds the whole hint (its searches share it), so the cap is the
    # request's time budget.
    return respond(_admitted(HintRequest.from_request(read_body(), _analysis_limits())).run())


@bp.post("/sheet")
def sheet():
    return respond(SheetRequest.from_request(read_body(), _limits()).run())


@bp.get("/levels")
def levels():
    return respond(levels_answer())


@bp.get("/variants")
def variants():
    return respond({name: rules.to_dict() for name, rules in VARIANTS.items()})


@bp.post("/variants/check")
def check_variant():
    return respond(checked_rules(request_schemas(_limits()).rule_document(read_body())))


class RuleSetName(BaseConverter):
    """A rule set's name in a path: any but ``check``, whose path takes POST only, so
    that its ``Allow`` header names only what the OpenAPI document describes."""

    regex = "(?!check/?$)[^/]+"


def _add_converter(state: Any) -> None:
    state.app.url_map.converters.setdefault("rule_set", RuleSetName)


bp.record_once(_add_converter)


@bp.get("/variants/<rule_set:name>")
def variant(name: str):
    try:
        return respond(get_variant(name).to_dict())
    except UnknownVariantError as exc:
        return respond(exc.to_dict(), 404)


@bp.get("/deal")
def deal():
    query: dict[str, Any] = dict(request.args.items())
    for name in ("deck", "players"):
        if name in query:
            try:
                query[name] = int(query[name])
            except ValueError:
                pass            # the schema names the problem
    query = _state().schemas.deal_query(query)
    seed = query.get("seed") or str(secrets.randbelow(10**9))
    deck, players = query.get("deck", 52), query.get("players", 4)
    pbn = Deal.random(int(seed) if seed.isascii() and seed.isdigit() else seed, deck=deck, players=players).pbn()
    return respond({"deal": pbn, "seed": seed, "deck": deck, "players": players})


@bp.get("/openapi.json")
def openapi():
    return respond(_state().schemas.openapi())
