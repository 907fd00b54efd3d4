"""The request layer: the JSON requests that the CLI, batch files and the API share,
each read once into a typed request of value types, then run.

A request names the rule set (or gives it as a rule document, docs/rules.md 13),
contract, trump, options, doubles flag, deal, first leader and the cards played so far::

    {"variant": "italian", "contract": "no-queens", "trump": null, "options": [],
     "doubles": false, "deal": "N:AKQ.JT9.876.5432 ...", "leader": "N",
     "play": ["SA", "S2"]}

Every operation has its typed request: ``LegalRequest``, ``SolveRequest``,
``HintRequest``, ``TableRequest``, ``ReviewRequest``, ``ChoicesRequest`` and
``SheetRequest``. Each
``from_request(data, limits)`` reads a request one way: its shape is checked once
against its JSON Schema (``kingsolve.io.schema``, the same schemas the API's OpenAPI
document gives), its fields become value types (a ``Position``, ``Seat`` values, a
``RuleSet``), whose own checks name what makes no sense, and the surface's ``Limits``
cut its budget and threads, once. ``run()`` answers it with a JSON-ready dict.
``REQUESTS`` finds the typed request of an operation by name.
"""

from __future__ import annotations

import threading
from dataclasses import Field, dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterator, Mapping, Protocol, TypeVar

from ..errors import InvalidRequestError, SolveTimeout, excerpt
from ..game.cards import Seat
from ..game.deal import Deal
from ..game.play import new_position
from ..game.numbers import JSON_SAFE_INT, json_int  # noqa: F401 (JSON limits, re-exported)
from ..search.budget import Budget
from ..game.rule_documents import resolve_variant
from ..game.rules import RuleSet, get_variant
from .limits import LIMITS, MAX_MS, MAX_NODES, MAX_PLAY, MAX_TEXT, Limits
from .schema import CHOICE_KINDS, CHOICE_SAMPLES, request_schemas

if TYPE_CHECKING:
    from ..game.domino import DominoPosition
    from ..game.position import Position
    from ..hands.choices import Choices
    from ..hands.hints import ChoiceHint, HintResult
    from ..hands.reviews import Review
    from ..search.table import Table

_Field = TypeVar("_Field")

__all__ = ["Request", "LegalRequest", "SolveRequest", "HintRequest", "TableRequest", "ReviewRequest",
           "ChoicesRequest", "SheetRequest", "REQUESTS", "legal_request", "solve_request", "solve_stream",
           "hint_request", "position_from_request", "Limits", "LIMITS", "CHOICE_KINDS",
           "choice_variant", "MAX_TEXT", "MAX_PLAY", "MAX_NODES", "MAX_MS", "JSON_SAFE_INT",
           "json_int"]


def _checked(schema: str, data: Any, limits: Limits) -> dict[str, Any]:
    """``data`` checked against the request schema ``schema``, nulls dropped. A rule
    set named by a name it does not know is refused first: it gives the rest its sense."""
    if isinstance(data, Mapping) and isinstance(data.get("variant"), str):
        get_variant(data["variant"])
    return request_schemas(limits).check(schema, data)


def _position(req: Mapping[str, Any]) -> Position | DominoPosition:
    """The position of a checked request, play applied."""
    variant = resolve_variant(req["variant"])
    contract = variant.contract(req["contract"], req.get("options", []))
    return new_position(variant, contract, Deal(req["deal"]),
                        leader=Seat.parse(req.get("leader", "N")), trump=req.get("trump"),
                        doubles=req.get("doubles", False), play=req.get("play", []))


def _with_id(request_id: Any, out: dict) -> dict:
    """An answer with the request's ``id`` first, when it had one."""
    return out if request_id is None else {"id": request_id, **out}


def position_from_request(req: Any, limits: Limits = LIMITS) -> Position | DominoPosition:
    """The ``Position`` (or ``DominoPosition``) a request describes, play applied."""
    return LegalRequest.from_request(req, limits).position


_TimedRequest = TypeVar("_TimedRequest", bound="_Timed")


class _Timed:
    """A request that searches within its ``budget``."""

    budget: Budget
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]      # each request is a dataclass

    def within(self: _TimedRequest, ms: float) -> _TimedRequest:
        """The request with at most ``ms`` of time (a share of a deadline, or what is left
        after waiting for a search slot)."""
        return replace(self, budget=replace(self.budget, ms=min(self.budget.ms, ms)))


@dataclass(frozen=True)
class LegalRequest:
    """A position: the seat on move, its legal cards, the trick and the points taken."""

    position: Any                   # a ``Position`` or ``DominoPosition``
    id: Any = None

    @classmethod
    def from_request(cls, data: Any, limits: Limits = LIMITS) -> "LegalRequest":
        req = _checked("LegalRequest", data, limits)
        return cls(_position(req), req.get("id"))

    def within(self, ms: float) -> "LegalRequest":
        """The same request: a position takes no time."""
        return self

    def run(self, cancel: threading.Event | None = None) -> dict:
        """The position's answer (``Position.to_dict``)."""
        return self.position.to_dict()


@dataclass(frozen=True)
class SolveRequest(_Timed):
    """The analysis of a position within its budget (``kingsolve.search.analysis``):
    exact values where proved, estimates and proved ranges elsewhere; with ``exact``,
    exact values or a ``SolveTimeout`` carrying the ranges proved."""

    position: Any                   # a ``Position`` or ``DominoPosition``
    seats: tuple[Seat, ...] | None  # the seats to value (None: every seat in play)
    budget: Budget
    exact: bool = False
    threads: int = 1
    id: Any = None
    line: "bool | Seat" = False     # the optimal line: of the seat on move (True) or a seat
    all_equal: bool = False         # the line names every equal card, not only the alike

    @classmethod
    def from_request(cls, data: Any, limits: Limits = LIMITS) -> "SolveRequest":
        req = _checked("SolveRequest", data, limits)
        seats = req.get("seats")
        line = req.get("line", False)
        return cls(_position(req), None if seats is None else tuple(map(Seat.parse, seats)),
                   limits.budget(req.get("nodes"), req.get("ms")), exact=req.get("exact", False),
                   threads=min(req.get("threads", 1), limits.threads), id=req.get("id"),
                   line=line if isinstance(line, bool) else Seat.parse(line),
                   all_equal=req.get("all_equal", False))

    def analyses(self, cancel: threading.Event | None = None) -> Iterator[Any]:
        """The analyses that answer the request as they improve (started lazily)."""
        from ..search.dispatch import position_analyses
        return position_analyses(self.position, self.seats, self.budget, self.exact,
                                 self.threads, cancel, self.line, self.all_equal)

    def run(self, cancel: threading.Event | None = None,
            on_update: Callable[[Any], Any] | None = None) -> dict:
        """The best answer within the budget; ``on_update`` sees each improvement."""
        result = None
        for result in self.analyses(cancel):
            if on_update is not None:
                on_update(result)
        return self.answer(result)

    def stream(self, cancel: threading.Event | None = None) -> Iterator[dict]:
        """The answers as the analysis improves, the last the best (the search is
        imported now: a server without it answers at once)."""
        results = self.analyses(cancel)

        def answers() -> Iterator[dict]:
            result = None
            for result in results:
                if result.estimated:
                    yield self.answer(result)
            self.answer(result)        # raises when not even an estimate was made
        return answers()

    def answer(self, result: Any) -> dict:
        """An analysis as the answer's dict; a ``SolveTimeout`` with the ranges when the
        budget ended before the first estimates."""
        if not result.estimated:
            raise SolveTimeout.proved(f"the budget ({self.budget.nodes} nodes, "
                                      f"{self.budget.ms:g} ms) ended before a first estimate",
                                      result.bounds)
        return _with_id(self.id, result.to_dict())


@dataclass(frozen=True)
class HintRequest(_Timed):
    """A seat's hint from its own hand (``kingsolve.hands.hints``): a card, or a choice
    (``trump``, ``sale``, ``contract``, ``festa``).

    ``level`` (``kingsolve.hands.hints.LEVELS``; None: the default level) sets the
    samples, horizon and inference; ``samples`` given wins over the level's. A choice
    that names neither takes no level and draws ``CHOICE_SAMPLES`` deals.
    """

    choice: str
    variant: RuleSet
    seat: str
    hand: Any
    budget: Budget
    samples: int | None             # None: the level's
    fields: Mapping[str, Any]       # the checked request, for the choice's own fields
    threads: int = 1
    id: Any = None
    level: int | None = None

    @classmethod
    def from_request(cls, data: Any, limits: Limits = LIMITS) -> "HintRequest":
        req = _checked("HintRequest", data, limits)
        choice = req.get("choice", "card")
        if choice == "card" and "contract" not in req:
            raise InvalidRequestError("missing field 'contract'")
        from ..hands.hints import level_number
        level, samples = level_number(req.get("level")), req.get("samples")
        if choice != "card" and level is None and samples is None:
            samples = CHOICE_SAMPLES
        return cls(choice, resolve_variant(req["variant"]), req["seat"], req["hand"],
                   limits.budget(req.get("nodes"), req.get("ms")), samples, req,
                   threads=min(req.get("threads", 1), limits.threads), id=req.get("id"),
                   level=level)

    def run(self, cancel: threading.Event | None = None) -> dict:
        """The hint's answer: the ranked cards or options."""
        from ..hands.hints import contract_hint, festa_hint, hint, sale_hint, trump_hint
        req = self.fields
        # the hint's time is its budget's: each search is cut to what is left of it
        common = dict(samples=self.samples, ms=self.budget.ms, seed=req.get("seed", 0),
                      budget=self.budget, threads=self.threads, horizon=req.get("horizon"),
                      level=self.level)
        result: HintResult | ChoiceHint
        if self.choice == "card":
            # from_request refused a card hint without its contract
            result = hint(self.variant, req["contract"], self.seat, self.hand,
                          play=req.get("play", []), leader=req.get("leader", "N"),
                          trump=req.get("trump"), doubles=req.get("doubles", False),
                          options=req.get("options", []), known=req.get("known", {}),
                          players=req.get("players", 4), **common)
        elif self.choice == "trump":
            result = trump_hint(self.variant, self.seat, self.hand, contract=req.get("contract"),
                                leader=req.get("leader"), **common)
        elif self.choice == "sale":
            result = sale_hint(self.variant, self.seat, self.hand, **common)
        elif self.choice == "contract":
            result = contract_hint(self.variant, self.seat, self.hand,
                                   contracts=req.get("contracts"), **common)
        else:
            result = festa_hint(self.seat, self.hand, role=req.get("role", "host"),
                                variant=self.variant, **common)
        return _with_id(self.id, result.to_dict())


@dataclass(frozen=True)
class TableRequest(_Timed):
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
    def from_request(cls, data: Any, limits: Limits = LIMITS) -> "TableRequest":
        """The table a request asks for: ``variant``, ``deal``, ``leader``, ``contracts``,
        ``trump``, ``doubles``, ``exact``, ``threads`` and the budget."""
        req = _checked("TableRequest", data, limits)
        return cls(resolve_variant(req["variant"]), req["deal"],
                   limits.budget(req.get("nodes"), req.get("ms")),
                   leader=req.get("leader", "N"), contracts=req.get("contracts"),
                   trump=req.get("trump"), doubles=req.get("doubles", False),
                   threads=min(req.get("threads", limits.table_threads), limits.threads),
                   exact=req.get("exact", False))

    def result(self) -> Table:
        """The ``Table``."""
        from ..search.table import dd_table
        return dd_table(self.variant, self.deal, self.leader, contracts=self.contracts,
                        trump=self.trump, doubles=self.doubles, budget=self.budget,
                        threads=self.threads, exact=self.exact)

    def run(self, cancel: threading.Event | None = None) -> dict:
        """The table's answer."""
        return self.result().to_dict()


@dataclass(frozen=True)
class ReviewRequest(_Timed):
    """A played record's review (``kingsolve.hands.reviews.review``) within one budget."""

    record: Any                 # a ``kingsolve.game.record.Record``
    budget: Budget
    from_trick: int = 1
    from_card: int | None = None
    lines: bool = False         # the line best play would have followed at each mistake

    @classmethod
    def from_request(cls, data: Any, limits: Limits = LIMITS) -> "ReviewRequest":
        """The review a request asks for: ``record`` (its text or its JSON twin),
        ``from_trick``, ``from_card`` and the budget."""
        from ..game.record import Record
        req = _checked("ReviewRequest", data, limits)
        text = req["record"]
        record = Record.parse(text) if isinstance(text, str) else Record.from_dict(text)
        return cls(record, limits.budget(req.get("nodes"), req.get("ms")),
                   from_trick=req.get("from_trick", 1), from_card=req.get("from_card"),
                   lines=req.get("lines", False))

    def result(self) -> Review:
        """The ``Review``."""
        from ..hands.reviews import review
        return review(self.record, budget=self.budget, from_trick=self.from_trick,
                      from_card=self.from_card, lines=self.lines)

    def run(self, cancel: threading.Event | None = None) -> dict:
        """The review's answer."""
        return self.result().to_dict()


@dataclass(frozen=True)
class SheetRequest:
    """A match's score sheet (``kingsolve.hands.match.sheet_of_records``): its rule set,
    doubles, players and the records of the hands played so far."""

    variant: RuleSet
    records: tuple[Any, ...]        # ``kingsolve.game.record.Record``, in schedule order
    doubles: bool = False
    players: int = 4

    @classmethod
    def from_request(cls, data: Any, limits: Limits = LIMITS) -> "SheetRequest":
        from ..game.record import parse_records
        req = _checked("SheetRequest", data, limits)
        text = req.get("records", "")
        records = tuple(parse_records(text)) if text.strip() else ()
        return cls(resolve_variant(req["variant"]), records, req.get("doubles", False),
                   req.get("players", 4))

    def within(self, ms: float) -> "SheetRequest":
        """The same request: a sheet takes no time."""
        return self

    def run(self, cancel: threading.Event | None = None) -> dict:
        """The sheet: every hand with its scores and running totals, the next hand of
        the schedule and, for a chooser, the contracts it may still pick."""
        from ..hands.match import next_choices, sheet_of_records
        sheet = sheet_of_records(self.records, self.variant, self.doubles, self.players)
        return {**sheet.to_dict(), "choices": next_choices(sheet)}


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
class ChoicesRequest(_Timed):
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
    def from_request(cls, data: Any, limits: Limits = LIMITS) -> "ChoicesRequest":
        """The choice a request asks for: ``kind``, ``deal``, the fields of that kind
        (``CHOICE_KINDS``) and the budget."""
        req = _checked("ChoicesRequest", data, limits)
        kind = req["kind"]
        variant = resolve_variant(req["variant"]) if "variant" in req else None
        return cls(kind, choice_variant(kind, variant), req["deal"],
                   limits.budget(req.get("nodes"), req.get("ms")),
                   **{name: req.get(name) for name in
                      ("leader", "dealer", "contract", "host", "chooser")},
                   chosen=tuple(req.get("chosen", [])), threshold=req.get("threshold", 4),
                   exact=req.get("exact", False))

    def result(self) -> Choices:
        """The ``Choices``: every option's values."""
        from ..hands.choices import (contract_choice, festa_choice, redeal_choice,
                                     sale_choice, trump_choice)
        if self.kind == "redeal":
            return redeal_choice(self.deal, self.threshold, seed=self.seed)
        variant = _required(self.variant, "variant")
        searched: dict[str, Any] = {"budget": self.budget, "seed": self.seed, "exact": self.exact}
        if self.kind == "trump":
            return trump_choice(variant, self.deal, leader=self.leader, dealer=self.dealer,
                                contract=self.contract, **searched)
        if self.kind == "sale":
            return sale_choice(variant, self.deal, _required(self.dealer, "dealer"), **searched)
        if self.kind == "festa":
            return festa_choice(self.deal, _required(self.host, "host"), variant=variant, **searched)
        return contract_choice(self.deal, _required(self.chooser, "chooser"), self.chosen,
                               variant=variant, **searched)

    def run(self, cancel: threading.Event | None = None) -> dict:
        """The choice's answer."""
        return self.result().to_dict()


def _required(value: _Field | None, name: str) -> _Field:
    """A field the request's schema asks of its kind of choice (a guard: the schema
    refused the request without it)."""
    if value is None:
        raise InvalidRequestError(f"missing field {name!r}")
    return value


class Request(Protocol):
    """What every typed request does: read from its JSON, cut to a share of time, run."""

    @classmethod
    def from_request(cls, data: Any, limits: Limits = LIMITS) -> "Request": ...

    def within(self, ms: float) -> "Request": ...

    def run(self, cancel: threading.Event | None = None) -> dict: ...


#: The typed request of each operation, by name.
REQUESTS: dict[str, type[Request]] = {"legal": LegalRequest, "solve": SolveRequest, "hint": HintRequest,
            "table": TableRequest, "review": ReviewRequest, "choices": ChoicesRequest,
            "sheet": SheetRequest}


def legal_request(req: Any) -> dict:
    """Answer a ``legal`` request: seat on move, legal cards, trick, points taken."""
    return LegalRequest.from_request(req).run()


def solve_request(request: Any, on_update: Callable[[Any], Any] | None = None,
                  cancel: threading.Event | None = None) -> dict:
    """Answer a solve request (the shared request shape plus ``seats``, ``nodes``,
    ``ms``, ``threads`` and ``exact``): ``SolveRequest.run``. ``on_update`` is called
    with each improving ``Analysis``, the answer's last (once only for exact requests
    and the domino, which answer once); setting ``cancel`` stops the analysis early,
    the answer then the best so far.
    """
    return SolveRequest.from_request(request).run(cancel, on_update)


def solve_stream(request: Any, cancel: threading.Event | None = None) -> Iterator[dict]:
    """The answers to a solve request as the analysis improves, each in the shape of
    ``solve_request``'s, the last the best; the analysis stops early when ``cancel``
    is set.

    The request is read at once, so bad input raises here, before any answer. A
    ``SolveTimeout`` (with the proved ranges) ends the answers when the budget ran
    out before even the first estimates: a budget too small for one play-out of each
    legal card (about a millisecond on a full deal). A domino position, or a request
    with ``"exact": true``, gives one answer.
    """
    return SolveRequest.from_request(request).stream(cancel)


def hint_request(request: Any) -> dict:
    """Answer a hint request: the shared request fields (no deal) plus ``seat``, ``hand``,
    ``known``, ``level``, ``samples``, ``ms``, ``seed``; ``choice`` picks a choice hint
    (``trump``, ``sale``, ``contract``, ``festa`` with ``role``) instead of a card hint
    (``kingsolve.hands.hints``). Returns the JSON-ready result."""
    return HintRequest.from_request(request).run()
