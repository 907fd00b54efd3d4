"""The ``/api/v1`` blueprint: each view parses the body, calls the library, returns its dict."""

from __future__ import annotations

import secrets
import threading
from typing import Any

from flask import Blueprint, current_app, request

from kingsolve.deal import Deal
from kingsolve.errors import KingsolveError, SolveTimeout, UnknownVariantError
from kingsolve.record import Record
from kingsolve.request import hint_request, legal_request, solve_request, solve_stream
from kingsolve.result import Budget
from kingsolve.rules import VARIANTS, get_variant

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


def _budget(req: dict, ms_left: float | None = None, default_ms: float | None = None) -> dict:
    """The request with its node and time budgets clamped to the server's maxima; a
    request without ``ms`` gets ``default_ms`` (the longest allowed when None)."""
    cfg = current_app.config
    nodes = min(req.get("nodes") or cfg["KINGSOLVE_MAX_NODES"], cfg["KINGSOLVE_MAX_NODES"])
    ms = min(req.get("ms") or default_ms or cfg["KINGSOLVE_MAX_MS"], cfg["KINGSOLVE_MAX_MS"])
    if ms_left is not None:
        ms = min(ms, ms_left)
    ms = admit_search(ms)       # waits for a search slot; the wait comes out of ms
    return {**req, "nodes": int(nodes), "ms": float(ms)}


@bp.post("/legal")
def legal():
    return respond(legal_request(_body("LegalRequest")))


def _solve_ms() -> float:
    return current_app.config["KINGSOLVE_SOLVE_MS"]


def _threads(req: dict) -> dict:
    # a request's threads are the server's, not the client's, to spend
    req["threads"] = max(1, min(req.get("threads") or 1,
                                int(current_app.config["KINGSOLVE_TABLE_THREADS"])))
    return req


@bp.post("/solve")
def solve():
    body = read_body()
    if not isinstance(body, list):
        req = _budget(_threads(_state().schemas.validate("SolveRequest", body)),
                      default_ms=_solve_ms())
        with client_watch(_state().searches) as cancel:
            answer = solve_request(req, cancel=cancel)
        return respond(answer)
    reqs = _state().schemas.validate("SolveBatch", body)
    with client_watch(_state().searches) as cancel:
        answers = _solve_batch(reqs, cancel)
    return respond(answers)


@bp.post("/solve/stream")
def solve_events():
    req = _threads(_budget(_body("SolveRequest"),
                           default_ms=current_app.config["KINGSOLVE_STREAM_MS"]))
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
            out.append(solve_request(_budget(_threads(req), share.ms, default_ms=_solve_ms()),
                                     cancel=cancel))
        except KingsolveError as exc:
            out.append(exc.to_dict())
    return out


@bp.post("/table")
def table():
    from kingsolve.table import dd_table
    req = _budget(_body("TableRequest"))
    cfg = current_app.config
    # ms bounds the whole table; a row always answers unless the client asks for exact
    budget = Budget(nodes=req["nodes"], ms=req["ms"], tt_mb=cfg["KINGSOLVE_TT_MB"])
    return respond(dd_table(req["variant"], req["deal"], req.get("leader") or "N",
                            contracts=req.get("contracts"), trump=req.get("trump"),
                            doubles=req.get("doubles") or False, budget=budget,
                            threads=cfg["KINGSOLVE_TABLE_THREADS"],
                            exact=req.get("exact", False)).to_dict())


def _analysis_budget(req: dict) -> Budget:
    """The clamped budget of a review or a choice, which all of its searches share,
    never past the time one request may take."""
    cfg = current_app.config
    req = _budget(req, cfg["KINGSOLVE_BATCH_MS"])
    return Budget(nodes=req["nodes"], ms=req["ms"], tt_mb=cfg["KINGSOLVE_TT_MB"])


@bp.post("/review")
def review():
    from kingsolve.reviews import review as review_record
    req = _body("ReviewRequest")
    text = req["record"]
    record = Record.parse(text) if isinstance(text, str) else Record.from_dict(text)
    return respond(review_record(record, budget=_analysis_budget(req),
                                 from_trick=req.get("from_trick", 1),
                                 from_card=req.get("from_card")).to_dict())


@bp.post("/choices")
def choices():
    from kingsolve.choices import (contract_choice, festa_choice, redeal_choice, sale_choice,
                                   trump_choice)
    req = _body("ChoicesRequest")
    searched = {"budget": _analysis_budget(req)}
    kind = req["kind"]
    if kind == "trump":
        result = trump_choice(req["variant"], req["deal"], leader=req.get("leader"),
                              dealer=req.get("dealer"), contract=req.get("contract"), **searched)
    elif kind == "sale":
        result = sale_choice(req["variant"], req["deal"], req["dealer"], **searched)
    elif kind == "festa":
        result = festa_choice(req["deal"], req["host"], **searched)
    elif kind == "contract":
        result = contract_choice(req["deal"], req["chooser"], req.get("chosen") or (), **searched)
    else:
        result = redeal_choice(req["deal"], req.get("threshold", 4))
    return respond(result.to_dict())


@bp.post("/hint")
def hint():
    req = _budget(_body("HintRequest"))
    cfg = current_app.config
    # A hint's ms bounds the whole hint (its searches share it), so the cap is the
    # request's time budget; its threads are the server's, not the client's, to spend.
    req["ms"] = min(req["ms"], float(cfg["KINGSOLVE_BATCH_MS"]))
    return respond(hint_request(_threads(req)))


@bp.get("/variants")
def variants():
    return respond({name: rules.to_dict() for name, rules in VARIANTS.items()})


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
