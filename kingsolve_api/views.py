"""The ``/api/v1`` blueprint: each view parses the body, calls the library, returns its dict."""

from __future__ import annotations

import secrets
import threading
from dataclasses import replace
from typing import Any

from flask import Blueprint, current_app, request

from kingsolve.game.deal import Deal
from kingsolve.errors import KingsolveError, SolveTimeout, UnknownVariantError
from kingsolve.io.request import (ChoicesRequest, Limits, ReviewRequest, TableRequest, hint_request,
                               legal_request, limited, solve_request, solve_stream)
from kingsolve.game.result import Budget
from kingsolve.game.rule_documents import checked_rules
from kingsolve.game.rules import VARIANTS, get_variant

from .limits import admit_search
from .stream import event_response
from .watch import client_watch
from .wire import read_body, respond

__all__ = ["bp"]

bp = Blueprint("api_v1", __name__, url_prefix="/api/v1")


def _state():
    return current_app.extensions["kingsolve"]


def _body(schema: str) -> Any:
    return _state().schemas.validate(schema, read_body())


def _limits(default_ms: float | None = None, ms: float | None = None) -> Limits:
    """What the server lets one request spend: at most its largest budgets (and ``ms``),
    its threads (a request's threads are the server's, not the client's, to spend), and
    ``default_ms`` (the longest allowed when None) for a request without ``ms``."""
    cfg = current_app.config
    longest = float(cfg["KINGSOLVE_MAX_MS"]) if ms is None else min(cfg["KINGSOLVE_MAX_MS"], ms)
    threads = int(cfg["KINGSOLVE_TABLE_THREADS"])
    return Limits(nodes=int(cfg["KINGSOLVE_MAX_NODES"]), ms=longest,
                  default_nodes=int(cfg["KINGSOLVE_MAX_NODES"]),
                  default_ms=longest if default_ms is None else default_ms,
                  threads=threads, table_threads=threads, tt_mb=cfg["KINGSOLVE_TT_MB"])


def _analysis_limits() -> Limits:
    """The limits of a review, a choice or a hint: all of its searches share the
    budget, never past the time one request may take."""
    return _limits(ms=current_app.config["KINGSOLVE_BATCH_MS"])


def _admitted(req: dict) -> dict:
    """A request with its budget limited, once it holds a search slot: the wait for
    the slot comes out of its time."""
    return {**req, "ms": admit_search(req["ms"])}


def _admit(req):
    """``_admitted`` for a request value (``TableRequest``...), whose ``budget`` it is."""
    return replace(req, budget=replace(req.budget, ms=admit_search(req.budget.ms)))


@bp.post("/legal")
def legal():
    return respond(legal_request(_body("LegalRequest")))


@bp.post("/solve")
def solve():
    body = read_body()
    if isinstance(body, list):
        reqs = _state().schemas.validate("SolveBatch", body)
        with client_watch(_state().searches) as cancel:
            answers = _solve_batch(reqs, cancel)
        return respond(answers)
    limits = _limits(default_ms=current_app.config["KINGSOLVE_SOLVE_MS"])
    req = _admitted(limited(_state().schemas.validate("SolveRequest", body), limits))
    with client_watch(_state().searches) as cancel:
        answer = solve_request(req, cancel=cancel)
    return respond(answer)


@bp.post("/solve/stream")
def solve_events():
    limits = _limits(default_ms=current_app.config["KINGSOLVE_STREAM_MS"])
    req = _admitted(limited(_body("SolveRequest"), limits))
    cancel = threading.Event()
    return event_response(solve_stream(req, cancel), cancel, _state().streams)


def _solve_batch(reqs: list, cancel: threading.Event) -> list[dict]:
    """One answer per request, an error object where it failed; none past the request
    that ``cancel`` stopped (its client has gone).

    The batch shares one deadline: each request gets its own budget but at most an
    equal share of the time left, so every request is answered (with estimates at
    least) and the whole batch within ``KINGSOLVE_BATCH_MS``.
    """
    deadline = Budget(ms=current_app.config["KINGSOLVE_BATCH_MS"]).start()
    out = []
    for i, item in enumerate(reqs):
        if cancel.is_set():
            break
        share = deadline.share(parts=len(reqs) - i)
        try:
            if deadline.expired():
                raise SolveTimeout("batch time budget spent before this request")
            req = _state().schemas.validate("SolveRequest", item)
            limits = _limits(default_ms=current_app.config["KINGSOLVE_SOLVE_MS"], ms=share.ms)
            out.append(solve_request(_admitted(limited(req, limits)), cancel=cancel))
        except KingsolveError as exc:
            out.append(exc.to_dict())
    return out


@bp.post("/table")
def table():
    # ms bounds the whole table; a row always answers unless the client asks for exact
    req = TableRequest.from_request(_body("TableRequest"), _limits())
    return respond(_admit(req).run().to_dict())


@bp.post("/review")
def review():
    req = ReviewRequest.from_request(_body("ReviewRequest"), _analysis_limits())
    return respond(_admit(req).run().to_dict())


@bp.post("/choices")
def choices():
    req = ChoicesRequest.from_request(_body("ChoicesRequest"), _analysis_limits())
    return respond(_admit(req).run().to_dict())


@bp.post("/hint")
def hint():
    # A hint's ms bounds the whole hint (its searches share it), so the cap is the
    # request's time budget.
    return respond(hint_request(_admitted(limited(_body("HintRequest"), _analysis_limits()))))


@bp.get("/variants")
def variants():
    return respond({name: rules.to_dict() for name, rules in VARIANTS.items()})


@bp.post("/variants/check")
def check_variant():
    return respond(checked_rules(_body("RuleDocument")))


@bp.get("/variants/<name>")
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
    query = _state().schemas.validate("DealQuery", query, noun="query parameter")
    seed = query.get("seed") or str(secrets.randbelow(10**9))
    deck, players = query.get("deck", 52), query.get("players", 4)
    pbn = Deal.random(int(seed) if seed.isascii() and seed.isdigit() else seed, deck=deck, players=players).pbn()
    return respond({"deal": pbn, "seed": seed, "deck": deck, "players": players})


@bp.get("/openapi.json")
def openapi():
    return respond(_state().schemas.openapi())
