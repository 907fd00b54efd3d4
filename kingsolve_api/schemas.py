"""The JSON schemas of the API: they validate the requests and make the OpenAPI document.

The schemas are plain JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), built
for an app's limits: the batch size and the budgets a client may ask for are the ones
the server enforces, so the document never promises more than the server accepts.
Request schemas check the shape (types, sizes); the library checks the sense (a deal's
cards, a contract's name) and names the problem in its own error.
"""

from __future__ import annotations

from typing import Any, Mapping

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from kingsolve import __version__
from kingsolve.errors import InvalidRequestError, excerpt
from kingsolve.hands.hints import CHOICES as HINT_CHOICES
from kingsolve.hands.hints import DEFAULT_HORIZON, MAX_SAMPLES
from kingsolve.checks import MAX_THREADS
from kingsolve.io.request import CHOICE_KINDS, JSON_SAFE_INT, MAX_PLAY, MAX_TEXT
from kingsolve.game.rule_documents import (MAX_CONTRACTS, MAX_DESCRIPTION, MAX_POINT_ROWS,
                                           MAX_POINTS, MAX_SCHEDULE)
from kingsolve.game.rules import VARIANTS, LeadMode, TrumpObligation

__all__ = ["Schemas"]

NAME = {"type": "string", "minLength": 1, "maxLength": 40}
CARD = {"type": "string", "minLength": 2, "maxLength": 3, "description": "a card: suit then rank, e.g. 'SQ'"}
SCORE = {"type": "number"}
SCORES = {"type": "object", "additionalProperties": SCORE, "description": "a score per seat"}
TEXT_OR_NULL = {"type": ["string", "null"]}

ERROR = {
    "type": "object",
    "required": ["error", "message"],
    "properties": {
        "error": {"type": "string", "description": "a short code: parse, invalid-deal, budget..."},
        "message": {"type": "string", "description": "what was wrong, quoting the input"},
        "bounds": {"type": "object", "description": "on a budget stop: for each seat asked, "
                   "the lowest and highest value proved so far",
                   "additionalProperties": {"type": "array", "items": {"type": "integer"},
                                            "minItems": 2, "maxItems": 2}},
    },
}


def rule_document() -> dict:
    """A rule set as a JSON document (``kingsolve.rule_documents``, docs/rules.md 13):
    the shape; the library checks that it can be played and names the field if not."""
    flag = {"type": "boolean"}
    points = {"type": "integer", "minimum": -MAX_POINTS, "maximum": MAX_POINTS}
    cards = {"type": "array", "items": CARD, "maxItems": 52,
             "description": "a set of cards, e.g. ['HK', 'D8']"}
    names = {"type": "array", "items": NAME, "maxItems": MAX_SCHEDULE,
             "description": "contract names, hand by hand"}
    contract = {
        "type": "object", "additionalProperties": False,
        "description": "one contract: its points and play rules (docs/rules.md 2, 3 and 13); "
                       "with base, only the fields that change",
        "properties": {
            "name": NAME, "kind": {"enum": ["tricks", "domino"]},
            "description": {"type": "string", "maxLength": MAX_DESCRIPTION},
            "card_points": {"type": "array", "maxItems": MAX_POINT_ROWS, "items": {
                "type": "object", "additionalProperties": False, "required": ["cards", "points"],
                "properties": {"cards": cards, "points": points}},
                "description": "points of each card in cards (a card may be in several rows)"},
            "each_trick": {**points, "description": "points of every trick"},
            "last_two": {**points, "description": "points of each of the last last_count tricks, "
                                                  "on top of each_trick"},
            "last_count": {"type": "integer", "minimum": 0, "maximum": 26,
                           "description": "how many tricks at the end score last_two (default 2)"},
            "seat_constant": {**points, "description": "added to every seat's score at the end"},
            "trump": {"enum": ["none", "named", "named-or-none"]},
            "lead": {"anyOf": [{"const": "any"}, {"type": "null"}, {
                "type": "object", "additionalProperties": False, "required": ["suit", "mode"],
                "properties": {"suit": {"enum": ["S", "H", "D", "C"]},
                               "mode": {"enum": list(LeadMode)}}}],
                "description": "lead restriction: 'any', or a suit and its mode"},
            "trump_lead_restricted": {**flag, "description": "trumps not led before a trump "
                                                              "was played"},
            "overtake": flag, "overtrump_on_trump_lead": flag,
            "first_trick_protection": {**cards, "description": "not discarded on trick 1"},
            "forced": {**cards, "description": "must be discarded when void in the suit led"},
            "trump_obligation": {"enum": [*TrumpObligation, None]},
            "early_end": {**flag, "description": "the hand stops once no points remain "
                                                 "(default true)"},
            "broken_by": {"enum": ["play", "discard"],
                          "description": "what breaks a suit for the lead restrictions: any "
                                         "card of it played (default), or a discard only"},
            "options": {"type": "array", "items": {"enum": ["forced-king"]}, "maxItems": 1},
            "opening": {"enum": ["any-seven", "seven-of-diamonds", None]},
            "ending": {"enum": ["single", "shared", None]},
        },
    }
    return {
        "type": "object", "additionalProperties": False,
        "description": "a rule set: a built-in's document (GET /api/v1/variants/{name}), "
                       "or a base with overrides",
        "properties": {
            "name": NAME, "base": {"enum": list(VARIANTS)},
            "description": {"type": "string", "maxLength": MAX_DESCRIPTION},
            "deck": {"enum": [32, 52]},
            "players": {"type": "array", "items": {"enum": [2, 3, 4]}, "minItems": 1,
                        "maxItems": 3, "uniqueItems": True},
            "direction": {"enum": ["clockwise", "counterclockwise"]},
            "doubles": flag, "first_dealer": {"enum": ["N", "E", "S", "W", None]},
            "schedule": names, "doubles_schedule": names,
            "festa_hands": {"type": "array", "items": {"type": "integer"}, "maxItems": MAX_SCHEDULE},
            "quotas": {"type": "object", "maxProperties": 3,
                       "additionalProperties": {"type": "integer"}},
            "contracts": {"type": "object", "maxProperties": MAX_CONTRACTS,
                          "additionalProperties": {"anyOf": [contract, {"type": "null"}]}},
        },
    }


def _position_properties() -> dict:
    """The fields that describe a position (kingsolve.io.request, the shared request shape)."""
    return {
        "variant": {"anyOf": [{"type": "string", "enum": list(VARIANTS)}, rule_document()],
                    "description": "rule set: a built-in's name, or a rule document"},
        "contract": {**NAME, "description": "contract name, as in GET /api/v1/variants"},
        "trump": {"type": ["string", "null"], "maxLength": 5,
                  "description": "trump suit S, H, D or C (trumps, festa)"},
        "options": {"type": "array", "items": NAME, "maxItems": 4},
        "doubles": {"type": "boolean", "description": "Italian doubles: N+S against E+W"},
        "deal": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT,
                 "description": "PBN-style deal, e.g. 'N:AKQ.JT9.876.5432 ...'"},
        "leader": {"type": "string", "minLength": 1, "maxLength": 5,
                   "description": "seat that leads the first trick (default N)"},
        "play": {"type": "array", "items": CARD, "maxItems": MAX_PLAY,
                 "description": "cards played so far, in order"},
        "id": {"type": ["string", "integer", "null"], "maxLength": 100,
               "minimum": -JSON_SAFE_INT, "maximum": JSON_SAFE_INT,
               "description": "a client's label, ignored by the solver"},
    }


#: Longest record text accepted: a full 52-card hand with every tag takes about 600 bytes.
MAX_RECORD_TEXT = 4000
SEAT = {"type": "string", "minLength": 1, "maxLength": 5, "description": "a seat: N, E, S or W"}
CARDS = {"type": "array", "items": CARD, "maxItems": MAX_PLAY}
HAND = {"anyOf": [{"type": "string", "minLength": 1, "maxLength": 60}, {**CARDS, "maxItems": 26}],
        "description": "a hand: PBN text (AKQ.JT9.876.5432) or a list of cards"}
BUDGET_OUT = {"type": ["object", "null"], "properties": {
    "nodes": {"type": "integer"}, "ms": {"type": "number"}, "tt_mb": {"type": "integer"}}}


def _record_twin() -> dict:
    """The JSON twin of a record (``kingsolve.game.record.Record.to_dict``)."""
    pos = _position_properties()
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
            "dealer": {"type": ["string", "null"], "maxLength": 5},
            **{k: text for k in ("event", "site", "date", "hand", "seed")},
            "sale": {"type": ["object", "null"], "description": "Italian sale: buyer and price",
                     "additionalProperties": False,
                     "properties": {"buyer": SEAT, "price": {"type": "integer", "minimum": 0,
                                                             "maximum": 13}}},
            "bid": {"type": ["object", "null"], "description": "Portuguese festa: the accepted bid",
                    "additionalProperties": False,
                    "properties": {"bidder": SEAT, "tricks": {"type": "integer", "minimum": 0,
                                                              "maximum": 13},
                                   "kind": {"enum": ["plus", "null"]}}},
            "festa": {"type": ["string", "null"], "enum": ["accepted", "refused", "host", "433", None],
                      "description": "Portuguese festa: how it was settled (433: no play)"},
            "score": {"type": ["object", "null"], "maxProperties": 4,
                      "additionalProperties": {"type": "integer", "minimum": -10_000,
                                               "maximum": 10_000},
                      "description": "the final scores, seat to points"},
        },
    }


def _choices_requests(budget: dict) -> dict[str, dict]:
    """One request schema per kind of choice (``kingsolve.hands.choices``)."""
    deal = _position_properties()["deal"]
    variant = _position_properties()["variant"]
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
                      contract={**NAME, "description": "the trump contract (default trumps, "
                                                       "or festa)"}),
        "sale": kind("sale", "the Italian sale (docs/rules.md 10): each buyer and price",
                     variant=variant, dealer=SEAT),
        "festa": kind("festa", "the Portuguese festa (docs/rules.md 6): the host and each bidder",
                      variant=own, host={**SEAT, "description": "the festa's host (its dealer)"}),
        "contract": kind("contract", "the Turkish chooser's contracts under the quotas (docs/rules.md 7)",
                         variant=own, chooser={**SEAT, "description": "the chooser; it leads"},
                         chosen={"type": "array", "maxItems": 20, "description":
                                 "(seat, contract) choices already made in the match",
                                 "items": {"type": "array", "prefixItems": [SEAT, NAME],
                                           "minItems": 2, "maxItems": 2}}),
        "redeal": kind("redeal", "the domino redeal property of a deal (docs/rules.md 4)",
                       threshold={"type": "integer", "minimum": 1, "maximum": 8,
                                  "description": "aces and kings that allow a redeal (default 4)"}),
    }


def _hint_request(max_ms: float) -> dict:
    """The hint request (``kingsolve.io.request.hint_request``): the position without the deal."""
    pos = _position_properties()
    return {
        "type": "object", "required": ["variant", "seat", "hand"], "additionalProperties": False,
        "properties": {
            **{k: v for k, v in pos.items() if k not in ("deal",)},
            "seat": {**SEAT, "description": "the seat asking"},
            "hand": {**HAND, "description": "the asking seat's hand, now or as dealt"},
            "known": {"type": "object", "maxProperties": 4, "additionalProperties": HAND,
                      "description": "cards known to be in other hands, seat to cards"},
            "samples": {"type": "integer", "minimum": 1, "maximum": MAX_SAMPLES,
                        "description": "sampled deals (default 50; 10 for a choice)"},
            "ms": {"type": "number", "exclusiveMinimum": 0,
                   "description": f"time limit of the whole hint; at most {max_ms:g} is used"},
            "nodes": {"type": "integer", "minimum": 1, "maximum": JSON_SAFE_INT,
                      "description": "node budget of each search"},
            "seed": {"type": "integer", "minimum": -JSON_SAFE_INT, "maximum": JSON_SAFE_INT},
            "choice": {"enum": list(HINT_CHOICES),
                       "description": "a choice hint instead of a card ('sale': the same choice "
                                      "as /choices kind 'sale')"},
            "role": {"enum": ["host", "bidder"], "description": "festa role (default host)"},
            "contracts": {"type": "array", "items": NAME, "maxItems": 20},
            "players": {"type": "integer", "enum": [2, 3, 4]},
            "threads": {"type": "integer", "minimum": 1, "maximum": MAX_THREADS,
                        "description": "search threads; the server may use fewer"},
            "horizon": {"type": "integer", "minimum": 0, "maximum": 26,
                        "description": "tricks left from which each sample is searched double "
                                       "dummy; earlier, each card is played out by the simple "
                                       f"player to there (default {DEFAULT_HORIZON})"},
        },
    }


#: Values per seat, in the analysis answers.
VALUES = {"type": "object", "additionalProperties": {"type": "number"}}


def _card_review() -> dict:
    """One card of a review (``kingsolve.hands.reviews.CardReview``)."""
    return {
        "type": "object",
        "required": ["index", "trick", "seat", "card", "before", "after", "cost", "best", "forced"],
        "properties": {"index": {"type": "integer", "minimum": 0}, "trick": {"type": ["integer", "null"]},
                       "seat": {"type": "string"}, "card": CARD,
                       "before": {"type": ["number", "null"]}, "after": {"type": ["number", "null"]},
                       "cost": {"type": ["number", "null"],
                                "description": "points the card gave away (0: a best card; null: "
                                               "not exact within the budget)"},
                       "best": {"type": "array", "items": CARD}, "forced": {"type": "boolean"},
                       "values": VALUES, "solved": {"type": "boolean"},
                       "bounds": {"type": ["array", "null"], "items": SCORE,
                                  "description": "the value range proved before the card"},
                       "after_bounds": {"type": ["array", "null"], "items": SCORE,
                                        "description": "the value range proved after the card"},
                       "estimate": {"type": ["number", "null"]},
                       "after_estimate": {"type": ["number", "null"]},
                       "cost_bounds": {"type": ["array", "null"], "items": SCORE},
                       "min_cost": {**SCORE, "description": "the points the card is proved "
                                    "to give away at least (its cost when exact)"},
                       "estimated_cost": {"type": ["number", "null"]},
                       "mistake": {"enum": ["proved", "estimated", None],
                                   "description": "proved: another card is proved better; "
                                                  "estimated: by the estimates only"},
                       "best_exact": {"type": "boolean"}}}


def _review_response() -> dict:
    """The answer of /review: every card's review and each seat's sum."""
    card_review = _card_review()
    return {
        "type": "object",
        "required": ["record", "start", "start_trick", "start_values", "cards", "seats",
                     "final_scores", "budget", "nodes", "ms"],
        "properties": {
            "record": {"type": "object"}, "start": {"type": "integer", "minimum": 0},
            "start_trick": {"type": ["integer", "null"]}, "start_values": VALUES,
            "cards": {"type": "array", "items": card_review},
            "seats": {"type": "object", "additionalProperties": {
                "type": "object", "required": ["seat", "cards", "cost", "costly", "largest"],
                "properties": {"seat": {"type": "string"}, "cards": {"type": "integer"},
                               "unsolved": {"type": "integer"},
                               "cost": {**SCORE, "description": "points proved given away"},
                               "costly": {"type": "integer", "description": "proved mistakes"},
                               "estimated": {"type": "integer",
                                             "description": "mistakes by estimate only"},
                               "estimated_cost": SCORE,
                               "largest": {"anyOf": [{"type": "null"}, card_review]}}}},
            "final_scores": {"anyOf": [{"type": "null"}, VALUES]},
            "budget": BUDGET_OUT, "nodes": {"type": "integer", "minimum": 0},
            "ms": {"type": "number", "minimum": 0}}}


def _choices_response() -> dict:
    """The answer of /choices: every option's values."""
    return {
        "type": "object",
        "required": ["kind", "variant", "deal", "params", "options", "summary", "budget", "nodes", "ms"],
        "properties": {
            "kind": {"type": "string"}, "variant": {"type": "string"}, "deal": {"type": "string"},
            "params": {"type": "object"},
            "options": {"type": "array", "items": {
                "type": "object", "required": ["label", "contract", "trump", "leader", "values"],
                "properties": {"label": {"type": "string"}, "contract": TEXT_OR_NULL,
                               "trump": TEXT_OR_NULL, "leader": TEXT_OR_NULL, "values": VALUES}}},
            "summary": {"type": "object", "description": "what the options mean for the choice"},
            "budget": BUDGET_OUT, "nodes": {"type": "integer", "minimum": 0},
            "ms": {"type": "number", "minimum": 0}}}


def _card_hint() -> dict:
    """The answer of /hint for a card: the cards ranked over the samples."""
    return {
        "type": "object", "required": ["seat", "recommended", "cards", "samples", "exact"],
        "properties": {
            "seat": {"type": "string"}, "recommended": CARD,
            "cards": {"type": "array", "items": {
                "type": "object", "required": ["card", "mean", "std", "best"],
                "properties": {"card": CARD, "mean": SCORE, "std": SCORE, "best": SCORE,
                               "min": SCORE, "max": SCORE}}},
            "samples": {"type": "integer"}, "exact": {"type": "boolean"},
            "consistent_deals": {"type": ["integer", "string"],
                                 "description": "deals that fit what the seat knows; decimal "
                                                "text when larger than 2**53 - 1"},
            "timeouts": {"type": "integer"},
            "horizon": {"type": ["integer", "null"],
                        "description": "null: every sample searched whole; else the tricks left "
                                       "at which the rollouts handed over to the search"},
            "forced": {"type": "boolean",
                       "description": "one legal card: no choice, the card still valued over "
                                      "the samples"},
            "budget": BUDGET_OUT, "ms": {"type": "number"}}}


def _choice_hint() -> dict:
    """The answer of /hint for a choice: the options ranked over the samples."""
    return {
        "type": "object", "required": ["choice", "seat", "recommended", "options", "samples"],
        "properties": {
            "choice": {"type": "string"}, "seat": {"type": "string"},
            "recommended": {"type": "string"},
            "options": {"type": "array", "items": {
                "type": "object", "required": ["option", "mean", "std"],
                "properties": {"option": {"type": "string"}, "mean": SCORE, "std": SCORE}}},
            "samples": {"type": "integer"}, "budget": BUDGET_OUT, "ms": {"type": "number"}}}


def _analysis_responses() -> dict[str, dict]:
    """The answers of /review, /choices and /hint."""
    return {"ReviewResponse": _review_response(), "ChoicesResponse": _choices_response(),
            "HintResponse": {"anyOf": [_card_hint(), _choice_hint()]}}


#: What each JSON type is called in an error message.
TYPE_NAMES = {"string": "text", "integer": "an integer", "number": "a number", "boolean": "true or false",
              "array": "a list", "object": "an object", "null": "null"}


def _problem(error) -> str:
    """What a schema error found, quoting at most an excerpt of the input and naming the limit.

    jsonschema's own messages start with the whole instance, however large it is.
    """
    value, limit, kind = error.instance, error.validator_value, error.validator
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
        return f"expected {' or '.join(TYPE_NAMES.get(t, t) for t in types)}, got {excerpt(value)}"
    if kind in ("maximum", "minimum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {"maximum": "at most", "minimum": "at least", "exclusiveMinimum": "more than",
                 "exclusiveMaximum": "less than"}[kind]
        return f"{excerpt(value)} is out of range: expected {words} {limit}"
    if kind == "enum":
        return f"{excerpt(value)} is not one of {', '.join(map(repr, limit))}"
    if kind == "const":
        return f"expected {limit!r}, got {excerpt(value)}"
    if kind in ("anyOf", "oneOf"):
        return f"{excerpt(value)} fits none of the accepted forms"
    return error.message.replace(repr(value), excerpt(value)) if _short_repr(value) else \
        f"{excerpt(value)} is not accepted here"


def _within_the_fitting_form(error):
    """The error inside the one form of an ``anyOf`` or ``oneOf`` that the input's type fits.

    A record may be text or an object: an object that misses fields is told which,
    not that it fits neither form.
    """
    while error.validator in ("anyOf", "oneOf") and error.context:
        fitting = [e for e in error.context if not (e.validator == "type" and not e.relative_path)]
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
            "properties": _position_properties(), "additionalProperties": False}


def _solve_request(budget: dict, config: Mapping[str, Any], max_ms: float) -> dict:
    """The /solve request: a position, the seats to value and a budget."""
    legal = _legal_request()
    seats = {"seats": {"type": "array", "items": {"type": "string", "maxLength": 5}, "minItems": 1,
                       "maxItems": 4, "uniqueItems": True,
                       "description": "seats whose values to find, each once (default: all)"}}
    solve_ms = float(config["KINGSOLVE_SOLVE_MS"])
    stream_ms = float(config["KINGSOLVE_STREAM_MS"])
    exact = {"exact": {"type": "boolean", "description": "true: exact values only, 503 "
                       "when the budget cannot prove them all (default false: the best "
                       "analysis within the budget)"}}
    threads = int(config["KINGSOLVE_TABLE_THREADS"])
    return {**legal, "properties": {
        **legal["properties"], **budget, **seats, **exact,
        "ms": {**budget["ms"], "description": f"time budget in milliseconds (default "
               f"{solve_ms:g} for /solve, {stream_ms:g} for /solve/stream); at most "
               f"{max_ms:g} is used"},
        "threads": {"type": "integer", "minimum": 1, "maximum": MAX_THREADS,
                    "description": f"threads of each search, sharing one table "
                                   f"(default 1); at most {threads} are used"}}}


def _table_request(budget: dict) -> dict:
    """The /table request: a deal, the contracts to solve and one budget for all."""
    table_props = {k: v for k, v in _position_properties().items()
                   if k in ("variant", "deal", "leader", "trump", "doubles")}
    return {
        "type": "object", "required": ["variant", "deal"], "additionalProperties": False,
        "description": "nodes and ms bound the whole table, never a row",
        "properties": {**table_props, **budget,
                       "contracts": {"type": "array", "items": NAME, "maxItems": 20,
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
            **budget,
        },
    }


def _deal_query() -> dict:
    """The query parameters of GET /deal."""
    return {
        "type": "object", "additionalProperties": False,
        "properties": {"seed": {"type": "string", "minLength": 1, "maxLength": 64},
                       "deck": {"type": "integer", "enum": [52, 32]},
                       "players": {"type": "integer", "enum": [2, 3, 4]}},
    }


def _solve_response() -> dict:
    """The answer of /solve (``kingsolve.search.analysis``)."""
    pair = {"type": "array", "items": SCORE, "minItems": 2, "maxItems": 2,
            "description": "[lo, hi]: the range proved (lo == hi once exact)"}
    ranges = {"type": "object", "additionalProperties": pair}
    return {
        "type": "object",
        "description": "the analysis of a position (kingsolve.search.analysis): exact values "
                       "where proved, else estimates inside proved ranges",
        "required": ["to_move", "taken", "solved", "values", "cards", "bounds", "card_bounds",
                     "estimates", "card_estimates", "best", "horizon", "complete", "nodes",
                     "ms"],
        "properties": {
            "id": _position_properties()["id"],
            "to_move": TEXT_OR_NULL, "taken": SCORES,
            "solved": {"type": "boolean",
                       "description": "every seat's and every legal card's value is exact"},
            "values": {**SCORES, "description": "the seats' values proved exact"},
            "cards": {"type": "object", "additionalProperties": SCORE,
                      "description": "the legal cards' values proved exact (the mover's "
                                     "value after each)"},
            "bounds": {**ranges, "description": "each seat asked: its value's proved range"},
            "card_bounds": {**ranges, "description": "each legal card: the proved range of "
                                                     "the mover's value after it"},
            "estimates": {**SCORES, "description": "each seat asked: an estimate inside its "
                                                   "range, the value once exact"},
            "card_estimates": {"type": "object", "additionalProperties": SCORE,
                               "description": "each legal card: an estimate inside its "
                                              "range, the value once exact"},
            "best": {"type": "array", "items": CARD,
                     "description": "the best cards when exact, else the best estimated "
                                    "among those not proved worse"},
            "horizon": {"type": ["integer", "null"],
                        "description": "tricks left at which the estimates were searched "
                                       "exactly (docs/rules.md 12)"},
            "estimator": {"type": ["string", "null"], "enum": ["model", "playout", None],
                          "description": "what the estimates are: 'model', the value "
                                         "model's search beside the play-out it guides; "
                                         "'playout', the simple player's play-outs; null "
                                         "once every value is exact (docs/rules.md 12)"},
            "equal": {"type": "array", "items": {"type": "array", "items": CARD},
                      "description": "groups of legal cards proved equal before any search "
                                     "(one suit of the hand, one kind, no card still out "
                                     "between them)"},
            "complete": {"type": "boolean", "description": "the hand is over"},
            "sides": SCORES,
            "nodes": {"type": "integer", "minimum": 0},
            "ms": {"type": "number", "minimum": 0},
        },
    }


def _legal_response() -> dict:
    """The answer of /legal."""
    return {
        "type": "object", "required": ["to_move", "legal", "complete"],
        "properties": {"to_move": TEXT_OR_NULL, "legal": {"type": "array", "items": {"type": "string"}},
                       "trick": {"type": "array", "items": CARD}, "taken": SCORES,
                       "complete": {"type": "boolean"}},
    }


def _table_response() -> dict:
    """The answer of /table (``kingsolve.search.table``)."""
    return {
        "type": "object", "required": ["seats", "rows", "solved"],
        "description": "values of every contract (a row per trump suit) and seat",
        "properties": {
            "seats": {"type": "array", "items": {"type": "string"}},
            "solved": {"type": "boolean", "description": "every cell exact"},
            "rows": {"type": "array", "items": {
                "type": "object",
                "required": ["contract", "values", "bounds", "estimates", "solved"],
                "properties": {"contract": {"type": "string"}, "trump": TEXT_OR_NULL,
                               "values": {"type": "object", "additionalProperties": SCORE,
                                          "description": "the exact values only"},
                               "solved": {"type": "boolean"},
                               "bounds": {"type": "object", "additionalProperties": {
                                   "type": "array", "items": SCORE},
                                   "description": "each seat's proved range"},
                               "estimates": {"type": "object", "additionalProperties": SCORE,
                                             "description": "inside the bounds; the "
                                                            "value where exact"},
                               "horizon": {"type": ["integer", "null"]}}}},
            "nodes": {"type": "integer", "minimum": 0}, "ms": {"type": "number", "minimum": 0}},
    }


def _other_responses() -> dict[str, dict]:
    """The answers of /variants, /deal and /healthz."""
    return {
        "Variants": {"type": "object", "additionalProperties": rule_document()},
        "RuleDocument": rule_document(),
        "RulesCheck": {
            "type": "object", "required": ["rules", "base", "differences"],
            "properties": {
                "rules": {**rule_document(), "description": "the whole rule document"},
                "base": {"enum": list(VARIANTS), "description": "the built-in it is read "
                         "against: its own base, else the one of its name, else the nearest"},
                "differences": {"type": "array", "items": {
                    "type": "object", "required": ["contract", "field", "base", "rules"],
                    "description": "a field changed from the base; field null for a "
                                   "contract added (base null) or dropped (rules null)",
                    "properties": {"contract": {"type": ["string", "null"]},
                                   "field": {"type": ["string", "null"]},
                                   "base": {}, "rules": {}}}}}},
        "DealResponse": {
            "type": "object", "required": ["deal", "seed", "deck", "players"],
            "properties": {"deal": {"type": "string"}, "seed": {"type": "string"},
                           "deck": {"type": "integer"}, "players": {"type": "integer"}}},
        "Health": {"type": "object", "required": ["status", "version"],
                   "properties": {"status": {"const": "ok"}, "version": {"type": "string"}}},
    }


class Schemas:
    """The request and response schemas of one app, with its limits, and its OpenAPI text."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.batch_max = int(config["KINGSOLVE_BATCH_MAX"])
        self.max_nodes = int(config["KINGSOLVE_MAX_NODES"])
        self.max_ms = float(config["KINGSOLVE_MAX_MS"])
        self.choice_kinds = _choices_requests(_budget_properties(self.max_nodes, self.max_ms))
        self.requests = self._requests(config)
        self.responses = self._responses()
        self._validators = self._make_validators()

    def _requests(self, config: Mapping[str, Any]) -> dict[str, dict]:
        """The request schemas by name, with this app's caps."""
        budget = _budget_properties(self.max_nodes, self.max_ms)
        solve = _solve_request(budget, config, self.max_ms)
        shared = (f"nodes and ms bound all the searches of the request together, and ms is "
                  f"at most {float(config['KINGSOLVE_BATCH_MS']):g}; every card or option "
                  f"answers within them, exact where proved, else estimated inside a proved "
                  f"range")
        batch = {"type": "array", "items": solve, "minItems": 1, "maxItems": self.batch_max}
        return {
            "LegalRequest": _legal_request(),
            "SolveRequest": solve,
            "SolveBatch": batch,
            "TableRequest": _table_request(budget),
            "DealQuery": _deal_query(),
            "ReviewRequest": _review_request(budget, shared),
            "ChoicesRequest": {"oneOf": list(self.choice_kinds.values()),
                               "description": f"one choice, named by kind; {shared}"},
            "HintRequest": _hint_request(float(config["KINGSOLVE_BATCH_MS"])),
            "RuleDocument": rule_document(),
            "SolveBody": {"anyOf": [solve, batch]},
        }

    @staticmethod
    def _responses() -> dict[str, dict]:
        """The response schemas by name."""
        solve_response = _solve_response()
        return {
            "Error": ERROR,
            "LegalResponse": _legal_response(),
            "SolveResponse": solve_response,
            "SolveBatchResponse": {"type": "array", "items": {"anyOf": [solve_response, ERROR]}},
            "TableResponse": _table_response(),
            **_other_responses(),
            **_analysis_responses(),
        }

    def _make_validators(self) -> dict[str, Draft202012Validator]:
        """A validator per request schema, and the two-step checks of batches and choices."""
        validators = {name: Draft202012Validator(s) for name, s in self.requests.items()}
        # A batch's items are checked one by one, so that one bad item fails alone.
        validators["SolveBatch"] = Draft202012Validator(
            {k: v for k, v in self.requests["SolveBatch"].items() if k != "items"})
        # A choice is checked by its kind first, then by that kind's schema: the error
        # then names the field, where a failed oneOf would only say that no kind fits.
        validators["ChoicesRequest"] = Draft202012Validator(
            {"type": "object", "required": ["kind"], "properties": {"kind": {"enum": list(self.choice_kinds)}}})
        for name, schema in self.choice_kinds.items():
            validators[f"choices:{name}"] = Draft202012Validator(schema)
        return validators

    def validate(self, name: str, data: Any, noun: str = "field") -> Any:
        """``data`` if it fits the request schema ``name``, else ``InvalidRequestError``."""
        self._check(name, data, noun)
        if name == "ChoicesRequest":
            self._check(f"choices:{data['kind']}", data, noun)
        return data

    def _check(self, name: str, data: Any, noun: str) -> None:
        error = best_match(self._validators[name].iter_errors(data))
        if error is None:
            return
        error = _within_the_fitting_form(error)
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
        if error.validator in ("maxItems", "minItems") and not field:
            raise InvalidRequestError(f"invalid batch of {len(error.instance)} requests: "
                                      f"expected 1 to {self.batch_max}")
        where = f"{noun} {field!r}" if field else "request"
        raise InvalidRequestError(f"invalid {where}: {_problem(error)}")

    # --- the OpenAPI document ---------------------------------------------------------
    def openapi(self) -> dict:
        """The OpenAPI 3.1 document of the API, built from these schemas."""
        return {
            "openapi": "3.1.0",
            "info": {"title": "kingsolve", "version": __version__,
                     "description": "Double-dummy analysis for the card game King. Bodies and "
                                    "answers in JSON or msgpack (ask with Accept)."},
            "paths": {**_analysis_paths(), **self._get_paths()},
            "components": {"schemas": {**self.requests, **self.responses}},
        }

    def _get_paths(self) -> dict:
        """The GET paths: rule sets, deals, this document and liveness."""
        query = self.requests["DealQuery"]["properties"]
        deal_params = [
            {"name": "seed", "in": "query", "required": False, "schema": query["seed"],
             "description": "the same seed gives the same deal (default: a random seed)"},
            {"name": "deck", "in": "query", "required": False, "schema": query["deck"]},
            {"name": "players", "in": "query", "required": False, "schema": query["players"]},
        ]
        return {
            "/api/v1/variants": {"get": {"summary": "rule sets: contracts, options, schedules",
                                         "responses": {"200": _answer("Variants", "rule sets by name")}}},
            "/api/v1/variants/{name}": {"get": {
                "summary": "a built-in rule set as a rule document, to start a client's own from",
                "parameters": [{"name": "name", "in": "path", "required": True,
                                "schema": {"enum": list(VARIANTS)}}],
                "responses": {"200": _answer("RuleDocument", "the rule document"),
                              "404": _answer("Error", "no rule set of that name")}}},
            "/api/v1/deal": {"get": {"summary": "a seeded random deal", "parameters": deal_params,
                                     "responses": {"200": _answer("DealResponse", "the deal"),
                                                   "400": _ERRORS["400"]}}},
            "/api/v1/openapi.json": {"get": {"summary": "this document", "responses": {
                "200": {"description": "OpenAPI 3.1", "content": {"application/json": {}}}}}},
            "/healthz": {"get": {"summary": "liveness", "responses": {
                "200": _answer("Health", "the server answers")}}},
            "/api/v1/healthz": {"get": {"summary": "liveness (the same as /healthz)", "responses": {
                "200": _answer("Health", "the server answers")}}},
        }


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _answer(name: str, description: str) -> dict:
    """A response whose body is the schema ``name``, in either media type."""
    return {"description": description, "content": {
        "application/json": {"schema": _ref(name)},
        "application/msgpack": {"schema": _ref(name)}}}


_ERRORS = {
    "400": _answer("Error", "bad input: the message names the problem"),
    "413": _answer("Error", "body larger than the server's limit"),
    "415": _answer("Error", "body neither application/json nor application/msgpack"),
    "429": _answer("Error", "too many requests, or searches at once, from this client "
                            "(see Retry-After)"),
}


def _post(summary: str, request: str, response: dict, busy: bool = False) -> dict:
    """A POST path taking the request schema ``request``, with the shared error answers."""
    body = {"required": True, "content": {
        "application/json": {"schema": _ref(request)},
        "application/msgpack": {"schema": _ref(request)}}}
    out = {"post": {"summary": summary, "requestBody": body,
                    "responses": {"200": response, **_ERRORS}}}
    if busy:
        out["post"]["responses"]["503"] = _answer("Error", "the search went over its budget, "
                                                  "or no search slot came free within it")
    return out


def _solve_paths() -> dict:
    """/solve and /solve/stream, each with its own meaning of 503."""
    solve_ok = {"description": "the analysis of the position (a list for a batch)", "content": {
        media: {"schema": {"anyOf": [_ref("SolveResponse"), _ref("SolveBatchResponse")]}}
        for media in ("application/json", "application/msgpack")}}
    no_estimate = _answer("Error", "not even an estimate within the budget: a budget too "
                                   "small for one play-out of each legal card (about 1 ms "
                                   "on a full deal), or with exact, values not all proved; "
                                   "bounds holds the ranges proved")
    events = {"description": "Server-Sent Events: one `data:` event per improvement "
                             "(a SolveResponse), then `event: done` (data: {\"solved\": "
                             "bool}), or `event: error` (data: an Error). Comment lines keep "
                             "the connection alive; closing it stops the analysis.",
              "content": {"text/event-stream": {"schema": {"type": "string"}}}}
    stream = _post("the analysis of a position as it improves, until exact or the deadline",
                   "SolveRequest", events)
    stream["post"]["responses"]["503"] = _answer("Error", "the search is not installed")
    solve = _post("the analysis of a position within its time budget: exact values, proved "
                  "ranges, estimates; or of a batch of positions sharing one deadline",
                  "SolveBody", solve_ok)
    solve["post"]["responses"]["503"] = no_estimate
    return {"/api/v1/solve": solve, "/api/v1/solve/stream": stream}


def _analysis_paths() -> dict:
    """The POST paths, in the order the document lists them."""
    return {
        "/api/v1/legal": _post("the seat on move, its legal cards, the trick, points taken",
                               "LegalRequest", _answer("LegalResponse", "the position")),
        **_solve_paths(),
        "/api/v1/table": _post("the double-dummy table of a deal: every contract, every seat",
                               "TableRequest", _answer("TableResponse", "the table"), busy=True),
        "/api/v1/review": _post("what each card of a played record cost its player, "
                                "double dummy", "ReviewRequest",
                                _answer("ReviewResponse", "the review"), busy=True),
        "/api/v1/choices": _post("choices before the play (trump, sale, festa, Turkish "
                                 "contract, domino redeal), double dummy", "ChoicesRequest",
                                 _answer("ChoicesResponse", "every option's values"), busy=True),
        "/api/v1/variants/check": _post("a rule document checked: the whole rule set and "
                                        "what it changes from its base", "RuleDocument",
                                        _answer("RulesCheck", "the rule set and its "
                                                "differences")),
        "/api/v1/hint": _post("a seat's hint from its own hand: sampled deals, each solved",
                              "HintRequest", _answer("HintResponse", "the ranked cards or "
                                                     "options"), busy=True),
    }
