"""The requests' JSON Schemas, and the one check of a request's shape.

Every surface (the API, the command line, batch files) reads a request through
``kingsolve.io.request``, which checks its shape here, once: the fields it may carry,
their types, sizes and ranges. The sense of what is in them (a deal's cards, a
contract's name, a rule document) is the value types' to check, with errors that name
the field. The same schemas make the API's OpenAPI document (``documented``), with
the limits of the surface that serves them (``Limits``): a document never promises
more than the server accepts.

The check is the document: each notation (a card, a hand, a deal, a seat, a trump) is
a pattern or an enum that takes exactly what its parser takes, and a value the schema
refuses is named by its parser's own error. A request's ``variant`` may be a rule
document: the document's schema, generated from the rule documents' vocabulary
(``kingsolve.game.rule_documents``), is checked too, and a document it refuses is named
by ``rules_from_dict``'s error. What no schema can say is left to the value types: a
deal's hands of equal size and distinct cards, a contract or option that the rule set
has, a card that the seat on move holds.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from ..checks import MAX_THREADS
from ..errors import InvalidRequestError, KingsolveError, UnknownContractError, excerpt
from ..game.cards import (CARD_PATTERN, END_PATTERN, MAX_CARD_TEXT, SEAT_LETTERS, SEAT_PATTERN,
                          SPACE_PATTERN, SUIT_BODY_PATTERN, SUIT_LETTERS, Card, Seat,
                          Suit)
from ..game.position import NO_TRUMP_WORDS
from ..game.deal import DEAL_PATTERN, HAND_PATTERN, Deal, parse_hand
from ..game.numbers import JSON_SAFE_INT
from ..game.rule_documents import (MAX_NAME, NAME_PATTERN, OPTION_NAMES, resolve_variant,
                                   rule_document_schema, rules_from_dict)
from ..game.rules import VARIANTS
from ..hands.sampling import CARDS_TEXT_PATTERN, parse_cards
from ..hands.hints import CHOICES as HINT_CHOICES
from ..hands.hints import DEFAULT_HORIZON, DEFAULT_LEVEL, LEVELS, MAX_SAMPLES
from .limits import MAX_PLAY, MAX_TEXT, Limits

__all__ = ["RequestSchemas", "request_schemas", "check_shape", "position_properties", "CHOICE_KINDS", "NAME", "CARD", "SEAT",
           "MAX_RECORD_TEXT", "MAX_MATCH_TEXT", "CHOICE_SAMPLES"]

NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": NAME_PATTERN}
CARD = {"type": "string", "minLength": 2, "maxLength": MAX_CARD_TEXT, "pattern": CARD_PATTERN,
        "description": "a card: suit then rank (or rank then suit), either case, a suit "
                       "letter or symbol, T or 10, e.g. 'SQ'"}
#: The built-in rule sets' contract names; a house rule set names its own (``NAME``).
BUILT_IN_CONTRACTS = sorted({name for rules in VARIANTS.values() for name in rules.contracts})
CONTRACT = {"type": "string", "minLength": 1, "maxLength": MAX_NAME,
            "anyOf": [{"enum": BUILT_IN_CONTRACTS}, {"pattern": NAME_PATTERN}],
            "description": "a contract of the rule set (GET /api/v1/variants): a built-in's "
                           "name, or one a rule document names"}
OPTION = {"enum": list(OPTION_NAMES), "description": "an option of the contract"}
SEAT = {"type": "string", "minLength": 1, "maxLength": 5,
        "anyOf": [{"enum": list(SEAT_LETTERS)}, {"pattern": SEAT_PATTERN}],
        "description": "a seat: N, E, S or W (either case, or its name)"}
#: What ``check_trump`` accepts: a suit as ``Suit.parse`` reads it, or a word for none.
TRUMP_PATTERN = (f"^(?:{SPACE_PATTERN}*{SUIT_BODY_PATTERN}{SPACE_PATTERN}*|"
                 f"{'|'.join(w for w in NO_TRUMP_WORDS if w)})?{END_PATTERN}")  # words of letters and '-'
#: What the table reads as its trump: a suit, or '' for a row per suit.
TABLE_TRUMP_PATTERN = f"^(?:{SPACE_PATTERN}*{SUIT_BODY_PATTERN}{SPACE_PATTERN}*)?{END_PATTERN}"
TRUMP = {"type": ["string", "null"], "maxLength": 5,
         "anyOf": [{"enum": [*SUIT_LETTERS, None]}, {"type": "string", "pattern": TRUMP_PATTERN}],
         "description": "trump suit S, H, D or C (either case, or a symbol) for trumps and "
                        "festa; null (or '', '-', 'none', 'NT') for none"}

#: The fields each kind of choice needs besides the deal (``kingsolve.hands.choices``).
CHOICE_KINDS = {"trump": ("variant",), "sale": ("variant", "dealer"), "festa": ("host",),
                "contract": ("chooser",), "redeal": ()}

#: Where a request names its rule set: a built-in's name or a rule document, described
#: whole in the OpenAPI document; the shape check takes any text or object there, and
#: ``get_variant`` or ``rules_from_dict`` checks it, once.
_DOCUMENT = "$rule-set"

def position_properties() -> dict:
    """The fields that describe a position (kingsolve.io.request, the shared request shape)."""
    return {
        "variant": {"$ref": _DOCUMENT, "description": "rule set: a built-in's name, or a "
                                                     "rule document"},
        "contract": CONTRACT,
        "trump": TRUMP,
        "options": {"type": "array", "items": OPTION, "maxItems": 4,
                    "description": "the contract's options"},
        "doubles": {"type": "boolean", "description": "Italian doubles: N+S against E+W"},
        "deal": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT, "pattern": DEAL_PATTERN,
                 "format": "pbn-deal",
                 "description": "PBN-style deal: an optional first seat and ':', then four "
                                "hands clockwise, '-' for a seat not in play, e.g. "
                                "'N:AKQ.JT9.876.5432 ...'; its hands hold equal numbers of "
                                "distinct cards, which the schema cannot say"},
        "leader": {**SEAT, "description": "seat that leads the first trick (default N)"},
        "play": {"type": "array", "items": CARD, "maxItems": MAX_PLAY,
                 "description": "cards played so far, in order"},
        "id": {"type": ["string", "integer", "null"], "maxLength": 100,
               "minimum": -JSON_SAFE_INT, "maximum": JSON_SAFE_INT,
               "description": "a client's label, ignored by the solver"},
    }


#: Longest record text accepted: a full 52-card hand with every tag takes about 600 bytes.
MAX_RECORD_TEXT = 4000
#: Longest match text accepted: 20 records (a Turkish match) with room to spare.
MAX_MATCH_TEXT = 20 * MAX_RECORD_TEXT
CARDS = {"type": "array", "items": CARD, "maxItems": MAX_PLAY}
HAND = {"anyOf": [{"type": "string", "minLength": 1, "maxLength": 60, "pattern": CARDS_TEXT_PATTERN},
                  {**CARDS, "maxItems": 26}],
        "description": "a hand: PBN text (AKQ.JT9.876.5432), cards separated by spaces or "
                       "commas, or a list of cards"}


def _record_twin() -> dict:
    """The JSON twin of a record (``kingsolve.game.record.Record.to_dict``)."""
    pos = position_properties()
    text = {"type": ["string", "integer", "null"], "maxLength": 200,
            "minimum": -JSON_SAFE_INT, "maximum": JSON_SAFE_INT}
    return {
        "type": "object", "required": ["variant", "contract", "deal"], "additionalProperties": False,
        "description": "a record's JSON twin: the position fields plus the record's tags",
        "properties": {
            **{k: pos[k] for k in ("variant", "contract", "trump", "options", "doubles", "deal",
                                   "play")},
            "leader": {**pos["leader"], "description": "the seat that leads the first trick "
                       "(default: the seat after the dealer, else N)"},
            "dealer": {"anyOf": [{"type": "null"}, SEAT]},
            **{k: text for k in ("event", "site", "date", "hand", "seed")},
            "sale": {"type": ["object", "null"], "description": "Italian sale: buyer and price",
                     "additionalProperties": False, "required": ["buyer", "price"],
                     "properties": {"buyer": SEAT, "price": {"type": "integer", "minimum": 0,
                                                             "maximum": 13}}},
            "bid": {"type": ["object", "null"], "description": "Portuguese festa: the accepted bid",
                    "additionalProperties": False, "required": ["bidder", "tricks"],
                    "properties": {"bidder": SEAT, "tricks": {"type": "integer", "minimum": 0,
                                                              "maximum": 13},
                                   "kind": {"enum": ["plus", "null"]}}},
            "festa": {"type": ["string", "null"], "enum": ["accepted", "refused", "host", "433", None],
                      "description": "Portuguese festa: how it was settled (433: no play)"},
            "score": {"type": ["object", "null"], "maxProperties": 4,
                      "propertyNames": SEAT,
                      "additionalProperties": {"type": "integer", "minimum": -10_000,
                                               "maximum": 10_000},
                      "description": "the final scores, seat to points"},
        },
    }


def _choices_requests(budget: dict) -> dict[str, dict]:
    """One request schema per kind of choice (``kingsolve.hands.choices``)."""
    deal = position_properties()["deal"]
    variant = position_properties()["variant"]
    own = {**variant, "description": "house rules with the kind's procedure (docs/rules.md "
                                     "13); default: the built-in it belongs to"}

    def kind(name: str, description: str, **props: Any) -> dict:
        return {"type": "object", "description": description, "additionalProperties": False,
                "required": ["kind", "deal", *CHOICE_KINDS[name]],
                "properties": {"kind": {"const": name}, "deal": deal, **props, **budget}}

    return {
        "trump": kind("trump", "each trump (and no trump where allowed), every seat's value",
                      variant=variant,
                      leader={**SEAT, "description": "the seat that leads"},
                      dealer={**SEAT, "description": "the dealer: the seat after it leads"},
                      contract={**CONTRACT, "description": "the trump contract (default "
                                                           "trumps, or festa)"}),
        "sale": kind("sale", "the Italian sale (docs/rules.md 10): each buyer and price",
                     variant=variant, dealer=SEAT),
        "festa": kind("festa", "the Portuguese festa (docs/rules.md 6): the host and each bidder",
                      variant=own, host={**SEAT, "description": "the festa's host (its dealer)"}),
        "contract": kind("contract", "the Turkish chooser's contracts under the quotas (docs/rules.md 7)",
                         variant=own, chooser={**SEAT, "description": "the chooser; it leads"},
                         chosen={"type": "array", "maxItems": 20, "description":
                                 "(seat, contract) choices already made in the match",
                                 "items": {"type": "array", "prefixItems": [SEAT, CONTRACT],
                                           "minItems": 2, "maxItems": 2}}),
        "redeal": kind("redeal", "the domino redeal property of a deal (docs/rules.md 4)",
                       threshold={"type": "integer", "minimum": 1, "maximum": 8,
                                  "description": "aces and kings that allow a redeal (default 4)"}),
    }


#: The samples of a choice hint whose request names neither ``level`` nor ``samples``
#: (a card hint's are then the default level's).
CHOICE_SAMPLES = 10


def _level_description() -> str:
    """What each strength level of the hints is, from ``LEVELS``."""
    def one(n: int) -> str:
        lv = LEVELS[n]
        who = "the policy model's" if lv.policy == "model" else "the simple player's"
        card = (f"{who} card, no samples" if lv.samples == 0 else
                f"{lv.samples} samples played out by {who} cards")
        return (f"{n} or '{lv.name}': {card} ({lv.choice_samples} for a choice), horizon "
                f"{lv.horizon}{', inference' if lv.inference else ''}")
    return (f"strength of the hint, by number or name (default {DEFAULT_LEVEL}): it sets "
            "the samples, the horizon, the inference and the play-out's policy together; "
            "those given win over the level's. " + "; ".join(one(n) for n in range(len(LEVELS))) +
            f". A choice hint with neither level nor samples draws {CHOICE_SAMPLES} samples")


def _hint_request(max_ms: float) -> dict:
    """The hint request (``kingsolve.io.request.hint_request``): the position without the deal."""
    pos = position_properties()
    return {
        "type": "object", "required": ["variant", "seat", "hand"], "additionalProperties": False,
        "description": "a card hint needs the contract; a choice hint names its choice",
        "if": {"properties": {"choice": {"const": "card"}}}, "then": {"required": ["contract"]},
        "properties": {
            **{k: v for k, v in pos.items() if k not in ("deal",)},
            "seat": {**SEAT, "description": "the seat asking"},
            "hand": {**HAND, "description": "the asking seat's hand, now or as dealt"},
            "known": {"type": "object", "maxProperties": 4, "additionalProperties": HAND,
                      "propertyNames": SEAT,
                      "description": "cards known to be in other hands, seat to cards"},
            "samples": {"type": "integer", "minimum": 1, "maximum": MAX_SAMPLES,
                        "description": f"sampled deals (default: the level's; "
                                       f"{CHOICE_SAMPLES} for a choice that names no level)"},
            "level": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": len(LEVELS) - 1},
                                {"type": "string", "enum": [lv.name for lv in LEVELS]}],
                      "description": _level_description()},
            "ms": {"type": "number", "exclusiveMinimum": 0,
                   "description": f"time limit of the whole hint; at most {max_ms:g} is used"},
            "nodes": {"type": "integer", "minimum": 1, "maximum": JSON_SAFE_INT,
                      "description": "node budget of each search"},
            "seed": {"type": "integer", "minimum": -JSON_SAFE_INT, "maximum": JSON_SAFE_INT},
            "choice": {"enum": list(HINT_CHOICES),
                       "description": "a choice hint instead of a card ('sale': the same choice "
                                      "as /choices kind 'sale')"},
            "role": {"enum": ["host", "bidder"], "description": "festa role (default host)"},
            "contracts": {"type": "array", "items": CONTRACT, "maxItems": 20},
            "players": {"type": "integer", "enum": [2, 3, 4]},
            "threads": {"type": "integer", "minimum": 1, "maximum": MAX_THREADS,
                        "description": "search threads; the server may use fewer"},
            "horizon": {"type": "integer", "minimum": 0, "maximum": 26,
                        "description": "tricks left from which each sample is searched double "
                                       "dummy; earlier, each card is played out by the simple "
                                       f"player to there (default: the level's; {DEFAULT_HORIZON} "
                                       "for a choice that names no level)"},
        },
    }



def _budget_properties(max_nodes: int, max_ms: float) -> dict:
    """The budget fields of a request, with the server's caps."""
    return {
        "nodes": {"type": "integer", "minimum": 1, "maximum": JSON_SAFE_INT,
                  "description": f"node budget; at most {max_nodes} is used"},
        "ms": {"type": "number", "exclusiveMinimum": 0,
               "description": f"time budget in milliseconds; at most {max_ms:g} is used"},
    }


def _legal_request() -> dict:
    """The /legal request: a position."""
    return {"type": "object", "required": ["variant", "contract", "deal"],
            "properties": position_properties(), "additionalProperties": False}


def _solve_request(budget: dict, limits: Limits) -> dict:
    """The /solve request: a position, the seats to value and a budget."""
    legal = _legal_request()
    seats = {"seats": {"type": "array", "items": SEAT, "minItems": 1,
                       "maxItems": 4, "uniqueItems": True,
                       "description": "seats whose values to find, each once (default: all)"}}
    exact = {"exact": {"type": "boolean", "description": "true: exact values only, 503 "
                       "when the budget cannot prove them all (default false: the best "
                       "analysis within the budget)"}}
    line = {"line": {"anyOf": [{"type": "boolean"}, SEAT],
                     "description": "the optimal line from the position to the end of the "
                                    "hand (docs/rules.md 11): true for the seat on move's "
                                    "side (else the first seat asked), or a seat asked; in "
                                    "the last answer (default false)"},
            "all_equal": {"type": "boolean",
                          "description": "with line: each card of the line names every "
                                         "legal card equal to it, at about a quarter of a "
                                         "solve more (default false: the cards alike for "
                                         "the search; the cards played are the same)"}}
    return {**legal, "properties": {
        **legal["properties"], **budget, **seats, **exact, **line,
        "threads": {"type": "integer", "minimum": 1, "maximum": MAX_THREADS,
                    "description": f"threads of each search, sharing one table "
                                   f"(default 1); at most {limits.threads} are used"}}}


def _table_request(budget: dict) -> dict:
    """The /table request: a deal, the contracts to solve and one budget for all."""
    table_props = {k: v for k, v in position_properties().items()
                   if k in ("variant", "deal", "leader", "doubles")}
    table_props["trump"] = {"type": ["string", "null"], "maxLength": 5,
                            "anyOf": [{"enum": [*SUIT_LETTERS, None]},
                                      {"type": "string", "pattern": TABLE_TRUMP_PATTERN}],
                            "description": "the one trump suit of the trump rows (default: "
                                           "a row per suit)"}
    return {
        "type": "object", "required": ["variant", "deal"], "additionalProperties": False,
        "description": "nodes and ms bound the whole table, never a row",
        "properties": {**table_props, **budget,
                       "contracts": {"type": "array", "items": CONTRACT, "maxItems": 20,
                                     "description": "contracts to solve (default: all)"},
                       "exact": {"type": "boolean", "description": "every value exact "
                                 "within the budget, or 503 naming the row that stopped "
                                 "(default: every cell answers, with an estimate inside "
                                 "its proved range where not exact)"}},
    }


def _review_request(budget: dict, shared: str) -> dict:
    """The /review request: a played record, text or JSON twin."""
    return {
        "type": "object", "required": ["record"], "additionalProperties": False,
        "description": f"a played record, as text or as its JSON twin; {shared}",
        "properties": {
            "record": {"anyOf": [{"type": "string", "minLength": 1, "maxLength": MAX_RECORD_TEXT,
                                  "description": "the record's PBN-style text"},
                                 _record_twin()]},
            "from_trick": {"type": "integer", "minimum": 1, "maximum": 26,
                           "description": "review from this trick on (default 1): later "
                                          "positions are smaller and solve faster"},
            "from_card": {"type": "integer", "minimum": 0, "maximum": MAX_PLAY,
                          "description": "review from this 0-based card index on (the domino)"},
            "lines": {"type": "boolean", "description": "at each proved mistake, the line "
                      "best play would have followed instead (default false)"},
            **budget,
        },
    }


def _sheet_request() -> dict:
    """The /sheet request: a match's rule set and its records so far."""
    pos = position_properties()
    return {
        "type": "object", "required": ["variant"], "additionalProperties": False,
        "description": "a match's score sheet (kingsolve.hands.match): its records in "
                       "schedule order, each played to its end",
        "properties": {
            "variant": pos["variant"], "doubles": pos["doubles"],
            "players": {"type": "integer", "enum": [2, 3, 4],
                        "description": "players (default 4; 2 or 3 in Italian only)"},
            "records": {"type": "string", "maxLength": MAX_MATCH_TEXT,
                        "description": "the hands played so far as records separated by "
                                       "blank lines (docs/guide/records.md); default none"},
        },
    }


#: What each JSON type is called in an error message.
TYPE_NAMES = {"string": "text", "integer": "an integer", "number": "a number", "boolean": "true or false",
              "array": "a list", "object": "an object", "null": "null"}


def _problem(error: ValidationError) -> str:
    """What a schema error found, quoting at most an excerpt of the input and naming the limit.

    jsonschema's own messages start with the whole instance, however large it is.
    """
    value, limit, kind = error.instance, error.validator_value, error.validator
    if isinstance(value, str) and _too_long(error):
        return f"{len(value)} characters; at most {error.schema['maxLength']}"
    if kind == "anyOf" and {"pattern": NAME_PATTERN} in limit:
        return f"{excerpt(value)} is not a name: lower-case letters, digits and '-'"
    if kind == "maxLength":
        return f"{len(value)} characters; at most {limit}"
    if kind == "minLength":
        return f"{len(value)} characters; at least {limit}"
    if kind in ("maxItems", "minItems"):
        return f"{len(value)} items; at {'most' if kind == 'maxItems' else 'least'} {limit}"
    if kind == "maxProperties":
        return f"{len(value)} entries; at most {limit}"
    if kind == "uniqueItems":
        return f"{excerpt(value)} repeats an item: each may appear once"
    if kind == "type":
        types = [limit] if isinstance(limit, str) else limit
        span = (f" from {error.schema['minimum']} to {error.schema['maximum']}"
                if {"maximum", "minimum"} <= set(error.schema) else "")
        return f"expected {' or '.join(TYPE_NAMES.get(t, t) for t in types)}{span}, got {excerpt(value)}"
    if kind in ("maximum", "minimum") and {"maximum", "minimum"} <= set(error.schema):
        return (f"{excerpt(value)} is out of range: expected {error.schema['minimum']} to "
                f"{error.schema['maximum']}")
    if kind in ("maximum", "minimum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {"maximum": "at most", "minimum": "at least", "exclusiveMinimum": "more than",
                 "exclusiveMaximum": "less than"}[kind]
        return f"{excerpt(value)} is out of range: expected {words} {limit}"
    if kind == "enum":
        return f"{excerpt(value)} is not one of {', '.join(map(repr, limit))}"
    if kind == "const":
        return f"expected {limit!r}, got {excerpt(value)}"
    if kind == "anyOf" and all("enum" in f or {"minimum", "maximum"} <= set(f) for f in limit):
        return f"{excerpt(value)} is not accepted: expected " + " or ".join(
            f"one of {', '.join(map(repr, f['enum']))}" if "enum" in f else
            f"{f['minimum']} to {f['maximum']}" for f in limit)
    if kind in ("anyOf", "oneOf"):
        return f"{excerpt(value)} fits none of the accepted forms"
    return error.message.replace(repr(value), excerpt(value)) if _short_repr(value) else \
        f"{excerpt(value)} is not accepted here"


def _within_the_fitting_form(error: ValidationError) -> ValidationError:
    """The error inside the one form of an ``anyOf`` or ``oneOf`` that the input's type fits.

    A record may be text or an object: an object that misses fields is told which,
    not that it fits neither form.
    """
    while error.validator in ("anyOf", "oneOf") and error.context:
        unfit = {e.relative_schema_path[0] for e in error.context
                 if e.validator == "type" and not e.relative_path}
        fitting = [e for e in error.context if e.relative_schema_path[0] not in unfit]
        if not fitting or len({e.relative_schema_path[0] for e in fitting}) != 1:
            break
        error = best_match(fitting)
    return error


def _short_repr(value: Any) -> bool:
    """Whether jsonschema's message, which starts with the value's repr, is short enough."""
    try:
        return len(repr(value)) <= 200
    except ValueError:                          # an integer too long for its decimal text
        return False


class RequestSchemas:
    """The request schemas of a surface's ``Limits``, and the check of a request's shape."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        budget = _budget_properties(limits.nodes, limits.ms)
        self.choice_kinds = _choices_requests(budget)
        solve = _solve_request(budget, limits)
        shared = (f"nodes and ms bound all the searches of the request together, and ms is "
                  f"at most {limits.batch_ms:g}; every card or option answers within them, "
                  f"exact where proved, else estimated inside a proved range")
        # One bad item fails alone: it answers an Error in its place, the others answer.
        batch = {"type": "array", "minItems": 1, "maxItems": limits.batch,
                 "items": {"anyOf": [solve, {"description": "anything else: its answer is "
                                                           "an Error naming the problem"}]}}
        self.requests = {
            "LegalRequest": _legal_request(),
            "SolveRequest": solve,
            "SolveBatch": batch,
            "TableRequest": _table_request(budget),
            "ReviewRequest": _review_request(budget, shared),
            "ChoicesRequest": {"oneOf": list(self.choice_kinds.values()),
                               "description": f"one choice, named by kind; {shared}"},
            "HintRequest": _hint_request(limits.batch_ms),
            "SheetRequest": _sheet_request(),
            "SolveBody": {"anyOf": [solve, batch]},
        }
        self._validators = self._make_validators()

    def documented(self) -> dict[str, dict]:
        """The request schemas as the OpenAPI document gives them: a rule document
        described whole wherever a request may carry one."""
        return _substitute(self.requests, rule_document_schema())

    def _make_validators(self) -> dict[str, Draft202012Validator]:
        """A validator per request schema, and the two-step checks of batches and choices:
        the schemas the OpenAPI document gives, no looser."""
        checked = self.documented()
        validators = {name: Draft202012Validator(s) for name, s in checked.items()}
        self._rule_document = Draft202012Validator(rule_document_schema())
        # A batch's items are checked one by one, so that one bad item fails alone.
        validators["SolveBatch"] = Draft202012Validator(
            {k: v for k, v in checked["SolveBatch"].items() if k != "items"})
        # A choice is checked by its kind first, then by that kind's schema: the error
        # then names the field, where a failed oneOf would only say that no kind fits.
        validators["ChoicesRequest"] = Draft202012Validator(
            {"type": "object", "required": ["kind"], "properties": {"kind": {"enum": list(self.choice_kinds)}}})
        for name, schema in _substitute(self.choice_kinds, rule_document_schema()).items():
            validators[f"choices:{name}"] = Draft202012Validator(schema)
        return validators

    def check(self, name: str, data: Any, noun: str = "field") -> Any:
        """``data`` if it fits the request schema ``name``, else ``InvalidRequestError``
        naming the field and the limit. A field given as null counts as absent; a
        number with no fraction is an integer (``_integral``)."""
        data = _integral(data)
        if isinstance(data, Mapping):
            data = {k: v for k, v in data.items() if v is not None}
        self._check(name, data, noun)
        if name == "ChoicesRequest":
            self._check(f"choices:{data['kind']}", data, noun)
        return data

    def rule_document(self, data: Any) -> Any:
        """A rule document checked: ``rules_from_dict`` names what it refuses in its own
        words, and the document's schema refuses the rest, so that neither is looser."""
        data = _integral(data)
        rules_from_dict(data)
        check_shape(self._rule_document, data)
        return data

    def _check(self, name: str, data: Any, noun: str) -> None:
        check_shape(self._validators[name], data, noun, self.limits.batch)


def check_shape(validator: Draft202012Validator, data: Any, noun: str = "field",
                batch: int | None = None) -> None:
    """``InvalidRequestError`` naming the first field of ``data`` that ``validator``'s
    schema refuses (a ``noun``: field, query parameter) and the limit; a list of more
    than ``batch`` requests is named as such."""
    error = best_match(validator.iter_errors(data))
    if error is None:
        return
    error = _within_the_fitting_form(error)
    _raise_the_readers_error(error, data)
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    field = field.lstrip(".")
    where = f" in {field!r}" if field else ""
    if error.validator == "additionalProperties":
        unknown = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        raise InvalidRequestError(f"unknown {noun} {excerpt(unknown[0])}{where}: expected "
                                  f"{', '.join(sorted(error.schema['properties']))}")
    if error.validator == "required":
        missing = [r for r in error.validator_value if r not in error.instance]
        names = ", ".join(map(repr, missing))
        raise InvalidRequestError(f"missing {noun}{'s' if len(missing) > 1 else ''} {names}{where}")
    if error.validator in ("maxItems", "minItems") and not field and batch is not None:
        raise InvalidRequestError(f"invalid batch of {len(error.instance)} requests: "
                                  f"expected 1 to {batch}")
    where = f"{noun} {field!r}" if field else "request"
    raise InvalidRequestError(f"invalid {where}: {_problem(error)}")


#: The reader of each notation a schema gives as a pattern or an enum: a value that the
#: schema refuses is named by its reader's own error (ParseError "invalid card 'XX'").
def _read_trump(text: str) -> None:
    raise InvalidRequestError(f"invalid trump {excerpt(text)}: expected S, H, D or C",
                              field="trump")


def _read_option(text: str) -> None:
    raise UnknownContractError(f"unknown option {excerpt(text)}: expected one of: "
                               f"{', '.join(OPTION_NAMES)}")


_READERS = {CARD_PATTERN: ("card", Card.parse), DEAL_PATTERN: ("deal", Deal),
            HAND_PATTERN: ("hand", parse_hand),
            CARDS_TEXT_PATTERN: ("hand", lambda text: parse_cards(text, "hand")),
            SEAT_PATTERN: ("seat", Seat.parse), TRUMP_PATTERN: ("trump", _read_trump),
            TABLE_TRUMP_PATTERN: ("trump", Suit.parse),
            tuple(OPTION_NAMES): ("option", _read_option)}


def _raise_the_readers_error(error: ValidationError, data: Any) -> None:
    """The reader's own error for the value ``error`` is about, where it has one: a
    notation's parser, or for anything inside a rule set, ``resolve_variant``. A reader
    that takes the value leaves the schema's error to be raised."""
    path = list(error.absolute_path)
    if "variant" in path:
        variant = _at(data, path[:path.index("variant") + 1])
        if isinstance(variant, Mapping):
            resolve_variant(variant)
    if not isinstance(error.instance, str) or _too_long(error):
        return
    for form in [error, *(error.context or ())]:
        key = form.validator_value
        label, reader = _READERS.get(tuple(key) if isinstance(key, list) else key, (None, None)) \
            if form.validator in ("pattern", "enum") else (None, None)
        if reader is None:
            continue
        try:
            reader(error.instance)
        except KingsolveError as exc:
            if path and isinstance(path[-1], int):      # an item of a list: say which
                field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
                raise type(exc)(f"invalid {label} at {field.lstrip('.')}: {exc}",
                                field=exc.field) from None
            raise


def _too_long(error: ValidationError) -> bool:
    """Whether the value is longer than its schema allows: then the limit is the problem."""
    limit = error.schema.get("maxLength") if isinstance(error.schema, Mapping) else None
    return limit is not None and len(error.instance) > limit


def _integral(data: Any) -> Any:
    """``data`` with every float that has no fraction made an int: JSON has one kind of
    number, and JSON Schema's integer takes 5.0, so the readers (``is_int``) get 5."""
    kind = type(data)
    if kind is str or kind is int or kind is bool or data is None:     # most values: fast
        return data
    if isinstance(data, float):
        return int(data) if data.is_integer() else data
    if kind is dict or isinstance(data, Mapping):
        return {k: _integral(v) for k, v in data.items()}
    if kind is list:
        return [_integral(v) for v in data]
    return data


def _at(data: Any, path: list) -> Any:
    """The value at ``path`` inside ``data``."""
    for step in path:
        data = data[step]
    return data


@lru_cache(maxsize=16)
def request_schemas(limits: Limits) -> RequestSchemas:
    """The request schemas of ``limits``, made once."""
    return RequestSchemas(limits)


def _substitute(schema: Any, document: dict) -> Any:
    """``schema`` with every place of a rule set described: a built-in's name or
    ``document``."""
    if isinstance(schema, dict):
        if schema.get("$ref") == _DOCUMENT:
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            return {"anyOf": [{"type": "string", "enum": list(VARIANTS)}, document], **rest}
        return {k: _substitute(v, document) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_substitute(v, document) for v in schema]
    return schema
