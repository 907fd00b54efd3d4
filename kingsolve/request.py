"""The request layer: the JSON requests that the CLI, batch files and the API share,
checked and turned into value types (``Position``, ``Seat``, ``Budget``) for the
library, and the answers to ``legal``, ``solve`` and ``hint`` requests.

A request names the rule set, contract, trump, options, doubles flag, deal, first
leader and the cards played so far::

    {"variant": "italian", "contract": "no-queens", "trump": null, "options": [],
     "doubles": false, "deal": "N:AKQ.JT9.876.5432 ...", "leader": "N",
     "play": ["SA", "S2"]}

``position_from_request`` checks every field and builds the position, raising a
``KingsolveError`` that names the bad field.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Collection, Iterator, Mapping

from .cards import Seat
from .checks import check_fields, check_threads, is_int, is_number
from .deal import Deal
from .errors import InvalidRequestError, SolveTimeout, excerpt
from .play import new_position
from .result import JSON_SAFE_INT, Budget, json_int  # noqa: F401 (the JSON limits, re-exported)
from .rules import get_variant

__all__ = ["position_from_request", "legal_request", "solve_request", "solve_stream",
           "hint_request", "budget_from_request", "check_request", "REQUEST_FIELDS",
           "HINT_FIELDS", "MAX_TEXT", "MAX_NODES", "MAX_MS", "JSON_SAFE_INT", "json_int"]

#: Fields a request may carry (others are refused, to catch typos).
REQUEST_FIELDS = {"variant", "contract", "trump", "options", "doubles", "deal", "leader", "play",
                  "seats", "id", "budget", "nodes", "ms", "samples", "seed", "exact", "threads"}
#: Fields a hint request may carry (``hint_request``).
HINT_FIELDS = {"variant", "contract", "trump", "options", "doubles", "leader", "play", "seat",
               "hand", "known", "samples", "ms", "seed", "nodes", "id", "choice", "role",
               "contracts", "players", "threads", "horizon"}
MAX_TEXT = 400          # longest deal text accepted
MAX_PLAY = 52           # longest play record accepted
#: The largest budgets a request may ask for.
MAX_NODES = 2_000_000_000
MAX_MS = 600_000.0


def _invalid_field(name: str, expected: str, value: Any) -> InvalidRequestError:
    return InvalidRequestError(f"invalid field {excerpt(name)}: expected {expected}, "
                               f"got {excerpt(value)}")


def _field(req: Mapping[str, Any], name: str, kind: type | tuple, default: Any = None,
           required: bool = False) -> Any:
    """Field ``name`` of ``req`` when of type ``kind`` (an ``int`` is never a bool);
    ``default`` when absent or null, unless ``required``."""
    if req.get(name) is None:
        if required:
            raise InvalidRequestError(f"missing field {excerpt(name)}")
        return default
    value = req[name]
    if kind is int and not is_int(value) or not isinstance(value, kind):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise _invalid_field(name, expected, value)
    return value


def _checked_field(req: Mapping[str, Any], name: str, valid: Callable[[Any], bool],
                   expected: str) -> Any:
    """Field ``name`` of ``req`` (None when absent) when ``valid`` holds for it."""
    value = req.get(name)
    if value is not None and not valid(value):
        raise _invalid_field(name, expected, value)
    return value


def check_request(req: Any, fields: Collection[str] = REQUEST_FIELDS,
                  noun: str = "request") -> Mapping[str, Any]:
    """Check a request's outer shape: a mapping with ``fields`` only (the ``noun``
    request's, named in the error)."""
    return check_fields(req, fields, noun)


def position_from_request(req: Any):
    """The ``Position`` (or ``DominoPosition``) a request describes, play applied."""
    req = check_request(req)
    variant = get_variant(_field(req, "variant", str, required=True))
    contract_name = _field(req, "contract", str, required=True)
    options = _field(req, "options", list, default=[])
    if not all(isinstance(o, str) for o in options):
        raise InvalidRequestError(f"invalid field 'options': expected a list of names, got {excerpt(options)}")
    contract = variant.contract(contract_name, options)
    deal_text = _field(req, "deal", str, required=True)
    if len(deal_text) > MAX_TEXT:
        raise InvalidRequestError(f"invalid field 'deal': {len(deal_text)} characters, "
                                  f"at most {MAX_TEXT}")
    deal = Deal(deal_text)
    play = _field(req, "play", list, default=[])
    if len(play) > MAX_PLAY:
        raise InvalidRequestError(f"invalid field 'play': {len(play)} cards, at most {MAX_PLAY}")
    for i, card in enumerate(play):
        if not isinstance(card, str):
            raise InvalidRequestError(f"invalid field 'play': play[{i}] is {excerpt(card)}, expected a card "
                                      f"such as 'SQ'")
    leader = Seat.parse(_field(req, "leader", str, default="N"))
    doubles = _field(req, "doubles", bool, default=False)
    trump = _field(req, "trump", str)
    return new_position(variant, contract, deal, leader=leader, trump=trump, doubles=doubles,
                        play=play)


def legal_request(req: Any) -> dict:
    """Answer a ``legal`` request: seat on move, legal cards, trick, points taken."""
    return position_from_request(req).to_dict()


def hint_request(request: Any) -> dict:
    """Answer a hint request: the shared request fields (no deal) plus ``seat``, ``hand``,
    ``known``, ``samples``, ``ms``, ``seed``; ``choice`` picks a choice hint
    (``trump``, ``sale``, ``contract``, ``festa`` with ``role``) instead of a card hint
    (``kingsolve.hints``). Returns the JSON-ready result."""
    from .hints import CHOICES
    req = check_request(request, HINT_FIELDS, "hint request")
    budget = budget_from_request(req)
    choice = _field(req, "choice", str, "card")
    if choice not in CHOICES:
        raise InvalidRequestError(f"invalid field 'choice': expected one of {', '.join(CHOICES)}, "
                                  f"got {excerpt(choice)}")
    variant = _field(req, "variant", str, required=True)
    seat = _field(req, "seat", str, required=True)
    hand = _field(req, "hand", (str, list), required=True)
    # Each search is cut to what is left of the hint's time, so no search gets more than
    # the hint's ms: that is the per-search budget to report.
    common = dict(samples=_field(req, "samples", int, 50 if choice == "card" else 10),
                  ms=_field(req, "ms", (int, float)), seed=_field(req, "seed", int, 0),
                  budget=budget, threads=request_threads(req),
                  horizon=_field(req, "horizon", int))
    result = _choice_hint(req, choice, variant, seat, hand, common)
    out = result.to_dict()
    return {"id": req["id"], **out} if "id" in req else out


def _choice_hint(req: Mapping[str, Any], choice: str, variant: str, seat: str, hand: Any,
                 common: dict):
    """The hint a checked hint request asks for: a card, or one of the choices."""
    from .hints import contract_hint, festa_hint, hint, sale_hint, trump_hint
    if choice == "card":
        known = _field(req, "known", dict, {})
        play = _field(req, "play", list, [])
        options = _field(req, "options", list, [])
        return hint(variant, _field(req, "contract", str, required=True), seat, hand,
                    play=play, leader=_field(req, "leader", str, "N"),
                    trump=_field(req, "trump", str), doubles=_field(req, "doubles", bool, False),
                    options=options, known=known, players=_field(req, "players", int, 4),
                    **common)
    if choice == "trump":
        return trump_hint(variant, seat, hand, contract=_field(req, "contract", str),
                          leader=_field(req, "leader", str), **common)
    if choice == "sale":
        return sale_hint(variant, seat, hand, **common)
    if choice == "contract":
        return contract_hint(variant, seat, hand, contracts=_field(req, "contracts", list),
                             **common)
    if variant != "portuguese":
        raise InvalidRequestError(f"the festa is Portuguese (docs/rules.md 6), not {excerpt(variant)}")
    return festa_hint(seat, hand, role=_field(req, "role", str, "host"), **common)


def budget_from_request(req: Mapping[str, Any]) -> Budget:
    """The budget a request asks for (``nodes``, ``ms``), checked and capped."""
    default = Budget()
    nodes = _checked_field(req, "nodes", lambda n: is_int(n, lo=1), "a positive integer")
    ms = _checked_field(req, "ms", lambda m: is_number(m) and m > 0, "a positive number")
    return Budget(nodes=default.nodes if nodes is None else min(nodes, MAX_NODES),
                  ms=default.ms if ms is None else min(float(ms), MAX_MS), tt_mb=default.tt_mb)


def _request_seats(req: Mapping[str, Any]) -> list[Seat] | None:
    """The seats a request asks values for (None: every seat in play)."""
    seats = _checked_field(req, "seats", lambda v: isinstance(v, list) and bool(v) and
                           all(isinstance(s, str) for s in v),
                           'a list of seats such as ["N", "E"]')
    return None if seats is None else [Seat.parse(s) for s in seats]


def solve_request(request: Any, on_update: "Callable[[Any], Any] | None" = None,
                  cancel: "threading.Event | None" = None) -> dict:
    """Answer a solve request (the shared request shape plus ``seats``, ``nodes``,
    ``ms`` and ``exact``): the analysis of ``kingsolve.analysis`` within the budget,
    exact values where proved, estimates and proved ranges elsewhere. With
    ``"exact": true`` the values must all be exact within the budget, or the answer
    is a ``SolveTimeout`` carrying the ranges proved. ``on_update`` is called with
    each improving ``Analysis``, the answer's last (once only for exact requests and
    the domino, which answer once). Setting ``cancel`` stops the analysis early, as
    for ``solve_stream``; the answer is then the best so far.
    """
    req, budget, results = _analyses_of(request, cancel)
    result = None
    for result in results:
        if on_update is not None:
            on_update(result)
    return _answer(req, budget, result)


def solve_stream(request: Any, cancel: "threading.Event | None" = None) -> Iterator[dict]:
    """The answers to a solve request as the analysis improves, each in the shape of
    ``solve_request``'s, the last the best; the analysis stops early when ``cancel``
    is set.

    The request is read at once, so bad input raises here, before any answer. A
    ``SolveTimeout`` (with the proved ranges) ends the answers when the budget ran
    out before even the first estimates: a budget too small for one play-out of each
    legal card (about a millisecond on a full deal). A domino position, or a request
    with ``"exact": true``, gives one answer.
    """
    req, budget, results = _analyses_of(request, cancel)

    def answers() -> Iterator[dict]:
        result = None
        for result in results:
            if result.estimated:
                yield _answer(req, budget, result)
        _answer(req, budget, result)        # raises when not even an estimate was made
    return answers()


def _analyses_of(request: Any, cancel: "threading.Event | None" = None):
    """The checked request, its budget and the analyses that answer it (a generator,
    started lazily: the request's errors raise here, at once)."""
    from .search import position_analyses
    req = check_request(request)
    seats = _request_seats(req)
    budget = budget_from_request(req)
    exact = _field(req, "exact", bool, default=False)
    threads = request_threads(req)
    position = position_from_request(req)
    return req, budget, position_analyses(position, seats, budget, exact, threads, cancel)


def request_threads(req: Mapping[str, Any]) -> int:
    """The request's ``threads`` (1 when not given), checked."""
    return check_threads(_field(req, "threads", int, 1))


def _answer(req: Mapping[str, Any], budget, result) -> dict:
    """An analysis as the answer's dict (the request's id first); a SolveTimeout with
    the ranges when the budget ended before the first play-outs."""
    if not result.estimated:
        raise SolveTimeout.proved(f"the budget ({budget.nodes} nodes, {budget.ms:g} ms) ended "
                                  f"before a first estimate", result.bounds)
    out = result.to_dict()
    return {"id": req["id"], **out} if "id" in req else out
