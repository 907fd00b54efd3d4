"""The request layer: the JSON requests that the CLI, batch files and the API share,
checked and turned into value types (``Position``, ``Seat``, ``Budget``) for the
library: the answers to ``legal``, ``solve`` and ``hint`` requests, and the table,
review and choices requests (``TableRequest``, ``ReviewRequest``, ``ChoicesRequest``)
that each surface runs.

A request names the rule set (or gives it as a rule document, docs/rules.md 13), contract, trump, options, doubles flag, deal, first
leader and the cards played so far::

    {"variant": "italian", "contract": "no-queens", "trump": null, "options": [],
     "doubles": false, "deal": "N:AKQ.JT9.876.5432 ...", "leader": "N",
     "play": ["SA", "S2"]}

``position_from_request`` checks every field and builds the position, raising a
``KingsolveError`` that names the bad field. The API's JSON Schema checks a body's
shape before it comes here; the library reads each field with one function and
checks its sense (the deal, the contract, the budget) in one place, so that the CLI
and batch files, which have no schema, get the same answers. What a surface allows
(the largest budgets and thread counts, the default time) is a ``Limits`` value, applied
by ``budget_from_request`` and ``request_threads`` alone.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, Collection, Iterator, Mapping

from ..game.cards import Seat
from ..checks import MAX_THREADS, check_fields, check_threads, is_int, is_number
from ..game.deal import Deal
from ..errors import InvalidRequestError, SolveTimeout, excerpt
from ..game.play import new_position
from ..game.result import JSON_SAFE_INT, Budget, json_int  # noqa: F401 (JSON limits, re-exported)
from ..game.rule_documents import resolve_variant
from ..game.rules import RuleSet, get_variant

__all__ = ["position_from_request", "legal_request", "solve_request", "solve_stream",
           "hint_request", "budget_from_request", "request_threads", "limited",
           "variant_from_request", "check_request", "Limits", "LIMITS", "TableRequest",
           "ReviewRequest", "ChoicesRequest", "CHOICE_KINDS", "choice_variant",
           "REQUEST_FIELDS", "HINT_FIELDS", "MAX_TEXT", "MAX_NODES", "MAX_MS",
           "JSON_SAFE_INT", "json_int"]

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


@dataclass(frozen=True)
class Limits:
    """What a surface lets one request spend: the largest budgets and thread count,
    and what a request that names none gets. The library's own are ``LIMITS``; the
    API makes its own from the server's settings."""

    nodes: int = MAX_NODES               # the largest node budget
    ms: float = MAX_MS                   # the longest time budget, in ms
    default_nodes: int | None = None     # a request without nodes (None: ``Budget()``'s)
    default_ms: float | None = None      # a request without ms (None: ``Budget()``'s)
    threads: int = MAX_THREADS           # the most search threads of one request
    table_threads: int = 2               # the threads of a table that names none
    tt_mb: int = Budget.tt_mb            # the transposition table of each search


#: The library's limits: the CLI's and the batch files'.
LIMITS = Limits()


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


def variant_from_request(req: Mapping[str, Any], required: bool = True) -> RuleSet | None:
    """The rule set a request gives in ``variant`` (None when absent and not
    ``required``): a built-in's name, or a rule document (docs/rules.md 13), checked.
    The one place a request's variant is resolved."""
    value = _field(req, "variant", (str, Mapping), required=required)
    return None if value is None else resolve_variant(value)


def position_from_request(req: Any):
    """The ``Position`` (or ``DominoPosition``) a request describes, play applied."""
    return _position(check_request(req))


def _position(req: Mapping[str, Any]):
    """The position of a request whose fields are checked (``check_request``)."""
    variant = variant_from_request(req)
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
    (``kingsolve.hands.hints``). Returns the JSON-ready result."""
    from ..hands.hints import CHOICES
    req = check_request(request, HINT_FIELDS, "hint request")
    budget = budget_from_request(req)
    choice = _field(req, "choice", str, "card")
    if choice not in CHOICES:
        raise InvalidRequestError(f"invalid field 'choice': expected one of {', '.join(CHOICES)}, "
                                  f"got {excerpt(choice)}")
    variant = variant_from_request(req)
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


def _choice_hint(req: Mapping[str, Any], choice: str, variant: RuleSet, seat: str, hand: Any,
                 common: dict):
    """The hint a checked hint request asks for: a card, or one of the choices."""
    from ..hands.hints import contract_hint, festa_hint, hint, sale_hint, trump_hint
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
    return festa_hint(seat, hand, role=_field(req, "role", str, "host"), variant=variant, **common)


def budget_from_request(req: Mapping[str, Any], limits: Limits = LIMITS) -> Budget:
    """The budget a request asks for (``nodes``, ``ms``), checked, then within ``limits``:
    their defaults where it names none, capped at their largest."""
    default = Budget()
    nodes = _checked_field(req, "nodes", lambda n: is_int(n, lo=1), "a positive integer")
    ms = _checked_field(req, "ms", lambda m: is_number(m) and m > 0, "a positive number")
    if nodes is None:
        nodes = default.nodes if limits.default_nodes is None else limits.default_nodes
    if ms is None:
        ms = default.ms if limits.default_ms is None else limits.default_ms
    return Budget(nodes=min(nodes, limits.nodes), ms=min(float(ms), limits.ms),
                  tt_mb=limits.tt_mb)


def request_threads(req: Mapping[str, Any], limits: Limits = LIMITS, default: int = 1) -> int:
    """The request's ``threads`` (``default`` when not given), checked, at most
    ``limits.threads``."""
    return min(check_threads(_field(req, "threads", int, default)), limits.threads)


def limited(req: Mapping[str, Any], limits: Limits) -> dict:
    """The request with its threads, then its budget, within ``limits``: what a
    surface with limits of its own (the API) passes on to ``solve_request`` and
    ``hint_request``."""
    threads = request_threads(req, limits)
    budget = budget_from_request(req, limits)
    return {**req, "threads": threads, "nodes": budget.nodes, "ms": budget.ms}


def _request_seats(req: Mapping[str, Any]) -> list[Seat] | None:
    """The seats a request asks values for (None: every seat in play)."""
    seats = _checked_field(req, "seats", lambda v: isinstance(v, list) and bool(v) and
                           all(isinstance(s, str) for s in v),
                           'a list of seats such as ["N", "E"]')
    return None if seats is None else [Seat.parse(s) for s in seats]


def solve_request(request: Any, on_update: "Callable[[Any], Any] | None" = None,
                  cancel: "threading.Event | None" = None) -> dict:
    """Answer a solve request (the shared request shape plus ``seats``, ``nodes``,
    ``ms`` and ``exact``): the analysis of ``kingsolve.search.analysis`` within the budget,
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
    from ..search.dispatch import position_analyses
    req = check_request(request)
    seats = _request_seats(req)
    budget = budget_from_request(req)
    exact = _field(req, "exact", bool, default=False)
    threads = request_threads(req)
    position = _position(req)
    return req, budget, position_analyses(position, seats, budget, exact, threads, cancel)


def _answer(req: Mapping[str, Any], budget, result) -> dict:
    """An analysis as the answer's dict (the request's id first); a SolveTimeout with
    the ranges when the budget ended before the first play-outs."""
    if not result.estimated:
        raise SolveTimeout.proved(f"the budget ({budget.nodes} nodes, {budget.ms:g} ms) ended "
                                  f"before a first estimate", result.bounds)
    out = result.to_dict()
    return {"id": req["id"], **out} if "id" in req else out


# --- table, review and choices --------------------------------------------------------
@dataclass(frozen=True)
class TableRequest:
    """A deal's table (``kingsolve.search.table.dd_table``): every trick contract (or
    ``contracts``) times every seat, within one budget for the whole table."""

    variant: "RuleSet | str"
    deal: "Deal | str"
    budget: Budget
    leader: str = "N"
    contracts: list[str] | None = None
    trump: str | None = None
    doubles: bool = False
    threads: int = 2
    exact: bool = False

    @classmethod
    def from_request(cls, req: Mapping[str, Any], limits: Limits = LIMITS) -> "TableRequest":
        """The table a request asks for: ``variant``, ``deal``, ``leader``, ``contracts``,
        ``trump``, ``doubles``, ``exact``, ``threads`` and the budget."""
        return cls(variant_from_request(req), _field(req, "deal", str, required=True),
                   budget_from_request(req, limits), leader=_field(req, "leader", str, "N"),
                   contracts=_field(req, "contracts", list), trump=_field(req, "trump", str),
                   doubles=_field(req, "doubles", bool, False),
                   threads=request_threads(req, limits, default=limits.table_threads),
                   exact=_field(req, "exact", bool, False))

    def run(self):
        """The ``Table``."""
        from ..search.table import dd_table
        return dd_table(self.variant, self.deal, self.leader, contracts=self.contracts,
                        trump=self.trump, doubles=self.doubles, budget=self.budget,
                        threads=self.threads, exact=self.exact)


@dataclass(frozen=True)
class ReviewRequest:
    """A played record's review (``kingsolve.hands.reviews.review``) within one budget."""

    record: Any                 # a ``kingsolve.game.record.Record``
    budget: Budget
    from_trick: int = 1
    from_card: int | None = None

    @classmethod
    def from_request(cls, req: Mapping[str, Any], limits: Limits = LIMITS) -> "ReviewRequest":
        """The review a request asks for: ``record`` (its text or its JSON twin),
        ``from_trick``, ``from_card`` and the budget."""
        from ..game.record import Record
        text = _field(req, "record", (str, dict), required=True)
        record = Record.parse(text) if isinstance(text, str) else Record.from_dict(text)
        return cls(record, budget_from_request(req, limits),
                   from_trick=_field(req, "from_trick", int, 1),
                   from_card=_field(req, "from_card", int))

    def run(self):
        """The ``Review``."""
        from ..hands.reviews import review
        return review(self.record, budget=self.budget, from_trick=self.from_trick,
                      from_card=self.from_card)


#: The fields each kind of choice needs besides the deal (``kingsolve.hands.choices``).
CHOICE_KINDS = {"trump": ("variant",), "sale": ("variant", "dealer"), "festa": ("host",),
                "contract": ("chooser",), "redeal": ()}
#: The built-in rule set of the kinds of choice that belong to one (docs/rules.md 4, 6,
#: 7), for a request that names none.
CHOICE_VARIANTS = {"festa": "portuguese", "contract": "turkish", "redeal": "italian"}
#: The match procedure (``RuleSet.lacks``) a kind of choice needs of its rule set.
CHOICE_PROCEDURES = {"sale": "sale", "festa": "festa", "contract": "chooser"}


def choice_variant(kind: str, variant: RuleSet | None) -> RuleSet | None:
    """The rule set of a ``kind`` of choice: ``variant`` when it has the procedure the
    kind needs (house rules keep their base's), else an error naming what it lacks;
    with none given, the built-in the kind belongs to (``CHOICE_VARIANTS``)."""
    if variant is None:
        own = CHOICE_VARIANTS.get(kind)
        return None if own is None else get_variant(own)
    if kind == "redeal" and variant.name != "italian":
        raise InvalidRequestError(f"choices redeal is the Italian booklet's (docs/rules.md 4), "
                                  f"got {excerpt(variant.name)}")
    missing = variant.lacks(CHOICE_PROCEDURES[kind]) if kind in CHOICE_PROCEDURES else None
    if missing is not None:
        raise InvalidRequestError(f"choices {kind}: {missing}")
    return variant


@dataclass(frozen=True)
class ChoicesRequest:
    """One choice before the play (``kingsolve.hands.choices``), named by ``kind``: the
    options of a trump, a sale, a festa, a Turkish contract or a domino redeal."""

    kind: str
    variant: RuleSet | None
    deal: "Deal | str"
    budget: Budget
    leader: str | None = None
    dealer: str | None = None
    contract: str | None = None
    host: str | None = None
    chooser: str | None = None
    chosen: tuple = ()
    threshold: int = 4
    seed: Any = None
    exact: bool = False

    @classmethod
    def from_request(cls, req: Mapping[str, Any], limits: Limits = LIMITS) -> "ChoicesRequest":
        """The choice a request asks for: ``kind``, ``deal``, the fields of that kind
        (``CHOICE_KINDS``) and the budget."""
        kind = _field(req, "kind", str, required=True)
        if kind not in CHOICE_KINDS:
            raise _invalid_field("kind", f"one of {', '.join(CHOICE_KINDS)}", kind)
        for name in CHOICE_KINDS[kind]:
            _field(req, name, str, required=True)
        return cls(kind, choice_variant(kind, variant_from_request(req, required=False)),
                   _field(req, "deal", str, required=True), budget_from_request(req, limits),
                   **{name: _field(req, name, str) for name in
                      ("leader", "dealer", "contract", "host", "chooser")},
                   chosen=tuple(_field(req, "chosen", list, [])),
                   threshold=_field(req, "threshold", int, 4),
                   exact=_field(req, "exact", bool, False))

    def run(self):
        """The ``Choices``: every option's values."""
        from ..hands.choices import (contract_choice, festa_choice, redeal_choice,
                                     sale_choice, trump_choice)
        searched = {"budget": self.budget, "seed": self.seed, "exact": self.exact}
        if self.kind == "trump":
            return trump_choice(self.variant, self.deal, leader=self.leader, dealer=self.dealer,
                                contract=self.contract, **searched)
        if self.kind == "sale":
            return sale_choice(self.variant, self.deal, self.dealer, **searched)
        if self.kind == "festa":
            return festa_choice(self.deal, self.host, variant=self.variant, **searched)
        if self.kind == "contract":
            return contract_choice(self.deal, self.chooser, self.chosen, variant=self.variant,
                                   **searched)
        return redeal_choice(self.deal, self.threshold, seed=self.seed)
