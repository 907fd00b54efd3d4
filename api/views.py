"""The ``/api/v1`` blueprint: each view parses the body, calls the library, returns its dict."""

from __future__ import annotations

import secrets
import time
from typing import Any

from flask import Blueprint, current_app, request

from kingsolve.deal import Deal
from kingsolve.errors import KingsolveError, SolveTimeout
from kingsolve.record import Record
from kingsolve.request import legal_request
from kingsolve.result import Budget
from kingsolve.rules import VARIANTS

from .limits import admit_search, waited_ms
from .wire import read_body, respond

__all__ = ["bp"]

bp = Blueprint("api_v1", __name__, url_prefix="/api/v1")


def _state():
    return current_app.extensions["kingsolve"]


def _body(schema: str) -> Any:
    return _state().schemas.validate(schema, read_body())


def _budget(req: dict, ms_left: float | None = None) -> dict:
    """The request with its node and time budgets clamped to the server's maxima."""
    cfg = current_app.config
    nodes = min(req.get("nodes") or cfg["KINGSOLVE_MAX_NODES"], cfg["KINGSOLVE_MAX_NODES"])
    ms = min(req.get("ms") or cfg["KINGSOLVE_MAX_MS"], cfg["KINGSOLVE_MAX_MS"])
    if ms_left is not None:
        ms = min(ms, ms_left)
    ms = admit_search(ms)       # waits for a search slot; the wait comes out of ms
    return {**req, "nodes": int(nodes), "ms": float(ms)}


def _solve_request():
    # Imported on first use: the search core is compiled and heavy, /legal does not need it.
    from kingsolve.solver import solve_request
    return solve_request


@bp.post("/legal")
def legal():
    return respond(legal_request(_body("LegalRequest")))


@bp.post("/solve")
def solve():
    body = read_body()
    if not isinstance(body, list):
        req = _state().schemas.validate("SolveRequest", body)
        return respond(_solve_request()(_budget(req)))
    return respond(_solve_batch(_state().schemas.validate("SolveBatch", body)))


def _solve_batch(reqs: list) -> list[dict]:
    """One answer per request, an error object where it failed; the batch shares a time budget."""
    solve_request = _solve_request()
    deadline = time.monotonic() + current_app.config["KINGSOLVE_BATCH_MS"] / 1000
    out = []
    for item in reqs:
        ms_left = (deadline - time.monotonic()) * 1000
        try:
            if ms_left <= 0:
                raise SolveTimeout("batch time budget spent before this request")
            req = _state().schemas.validate("SolveRequest", item)
            out.append(solve_request(_budget(req, ms_left)))
        except KingsolveError as exc:
            out.append(exc.to_dict())
    return out


@bp.post("/table")
def table():
    from kingsolve.solver import dd_table
    req = _budget(_body("TableRequest"))
    cfg = current_app.config
    budget = Budget(nodes=req["nodes"], ms=req["ms"], tt_mb=cfg["KINGSOLVE_TT_MB"])
    return respond(dd_table(req["variant"], req["deal"], req.get("leader") or "N",
                            contracts=req.get("contracts"), trump=req.get("trump"),
                            doubles=req.get("doubles") or False, budget=budget,
                            threads=cfg["KINGSOLVE_TABLE_THREADS"],
                            partial=req.get("partial", False)))


def _deadline_solver(ms: float):
    """The library's solver with every search cut to the time left of ``ms`` in all.

    Review and choices run one search per card or option: each search keeps its own
    budget, and together they stay within the time one request may take.
    """
    from kingsolve.review import solve_position
    deadline = time.monotonic() + ms / 1000

    def solver(position, seats=None, budget=None):
        left = (deadline - time.monotonic()) * 1000
        if left <= 0:
            raise SolveTimeout(f"the request's time budget of {ms:g} ms is spent")
        budget = budget or Budget()
        return solve_position(position, seats, Budget(nodes=budget.nodes, ms=min(budget.ms, left),
                                                      tt_mb=budget.tt_mb))
    return solver


def _analysis_budget(req: dict) -> tuple[Budget, Any]:
    """The clamped budget of each search, and a solver that keeps the request's total time."""
    req = _budget(req)
    cfg = current_app.config
    budget = Budget(nodes=req["nodes"], ms=req["ms"], tt_mb=cfg["KINGSOLVE_TT_MB"])
    return budget, _deadline_solver(cfg["KINGSOLVE_BATCH_MS"] - waited_ms())


@bp.post("/review")
def review():
    from kingsolve.review import review as review_record
    req = _body("ReviewRequest")
    text = req["record"]
    record = Record.parse(text) if isinstance(text, str) else Record.from_dict(text)
    budget, solver = _analysis_budget(req)
    return respond(review_record(record, budget=budget, from_trick=req.get("from_trick", 1),
                                 from_card=req.get("from_card"), solver=solver,
                                 skip_unsolved=req.get("skip_unsolved", False)).to_dict())


@bp.post("/choices")
def choices():
    from kingsolve import choices as ch
    req = _body("ChoicesRequest")
    budget, solver = _analysis_budget(req)
    searched = {"budget": budget, "solver": solver}
    kind = req["kind"]
    if kind == "trump":
        result = ch.trump_choice(req["variant"], req["deal"], leader=req.get("leader"),
                                 dealer=req.get("dealer"), contract=req.get("contract"), **searched)
    elif kind == "sale":
        result = ch.sale_choice(req["variant"], req["deal"], req["dealer"], **searched)
    elif kind == "festa":
        result = ch.festa_choice(req["deal"], req["host"], **searched)
    elif kind == "contract":
        result = ch.contract_choice(req["deal"], req["chooser"], req.get("chosen") or (), **searched)
    else:
        result = ch.redeal_choice(req["deal"], req.get("threshold", 4))
    return respond(result.to_dict())


@bp.post("/hint")
def hint():
    from kingsolve.hint import hint_request
    req = _budget(_body("HintRequest"))
    cfg = current_app.config
    # A hint's ms bounds the whole hint (its searches share it), so the cap is the
    # request's time budget; its threads are the server's, not the client's, to spend.
    req["ms"] = min(req["ms"], float(cfg["KINGSOLVE_BATCH_MS"]))
    req["threads"] = max(1, min(req.get("threads") or 1, int(cfg["KINGSOLVE_TABLE_THREADS"])))
    return respond(hint_request(req))


@bp.get("/variants")
def variants():
    return respond({name: rules.to_dict() for name, rules in VARIANTS.items()})


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
