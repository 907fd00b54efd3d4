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

from kingsolve import __version__
from kingsolve.game.rule_documents import rule_document_schema
from kingsolve.game.rules import VARIANTS
from kingsolve.io.limits import Limits
from kingsolve.game.cards import SEAT_LETTERS, SUIT_LETTERS
from kingsolve.hands.hints import CHOICES as HINT_CHOICES
from kingsolve.hands.hints import DEFAULT_HORIZON, LEVELS
from kingsolve.io.schema import (CARD, CHOICE_KINDS, CHOICE_SAMPLES, RequestSchemas, check_shape,
                                 position_properties)

from .wire import MAX_DIGITS

__all__ = ["Schemas"]

SCORE = {"type": "number"}
SCORES = {"type": "object", "additionalProperties": SCORE, "description": "a score per seat"}
TEXT_OR_NULL = {"type": ["string", "null"]}
#: A seat and a suit as answers write them: the canonical letters.
SEAT_OUT = {"enum": list(SEAT_LETTERS)}
SEAT_OR_NULL = {"enum": [*SEAT_LETTERS, None]}
SUIT_OR_NULL = {"enum": [*SUIT_LETTERS, None]}

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


BUDGET_OUT = {"type": ["object", "null"], "properties": {
    "nodes": {"type": "integer"}, "ms": {"type": "number"}, "tt_mb": {"type": "integer"}}}


#: Values per seat, in the analysis answers.
VALUES = {"type": "object", "additionalProperties": {"type": "number"}}


#: A trick as the answers give it (``Trick.to_dict``).
TRICK = {"type": "object", "required": ["number", "leader", "cards", "winner", "points"],
         "properties": {"number": {"type": "integer", "minimum": 1},
                        "leader": {"type": "string"}, "cards": {"type": "array", "items": CARD},
                        "winner": {"type": "string"}, "points": SCORES}}

#: The optimal line (``kingsolve.search.line.Line.to_dict``): asked by ``"line"``.
LINE = {
    "type": ["object", "null"],
    "description": "the line from the position to the end of the hand (docs/rules.md 11): "
                   "each card optimal for its player once exact, else the one the estimate "
                   "rests on; null when the budget left none",
    "required": ["seat", "side", "value", "exact", "exact_from", "cards", "plays", "tricks",
                 "scores"],
    "properties": {
        "seat": {"type": "string"}, "side": {"type": "array", "items": {"type": "string"}},
        "value": SCORE, "exact": {"type": "boolean", "description": "every card proved optimal"},
        "exact_from": {"type": "integer", "minimum": 0,
                       "description": "the index of the first card proved optimal onwards"},
        "cards": {"type": "array", "items": CARD, "description": "the line's cards in play order"},
        "plays": {"type": "array", "items": {
            "type": "object", "required": ["card", "seat", "exact", "equal"],
            "properties": {"card": CARD, "seat": {"type": "string"}, "exact": {"type": "boolean"},
                           "equal": {"type": "array", "items": CARD,
                                     "description": "the other cards as good here"}}}},
        "tricks": {"type": "array", "items": TRICK},
        "scores": SCORES,
    },
}


def _card_review() -> dict:
    """One card of a review (``kingsolve.hands.reviews.CardReview``)."""
    return {
        "type": "object",
        "required": ["index", "trick", "seat", "card", "before", "after", "cost", "best", "forced"],
        "properties": {"index": {"type": "integer", "minimum": 0}, "trick": {"type": ["integer", "null"]},
                       "seat": SEAT_OUT, "card": CARD,
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
                       "best_exact": {"type": "boolean"},
                       "line": {**LINE, "description": "with lines: at a proved mistake, the "
                                "line best play would have followed instead"}}}


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
            "kind": {"enum": list(CHOICE_KINDS)}, "variant": {"type": "string"},
            "deal": {"type": "string"},
            "params": {"type": "object"},
            "options": {"type": "array", "items": {
                "type": "object", "required": ["label", "contract", "trump", "leader", "values"],
                "properties": {"label": {"type": "string"}, "contract": TEXT_OR_NULL,
                               "trump": TEXT_OR_NULL, "leader": TEXT_OR_NULL, "values": VALUES}}},
            "summary": {"type": "object", "description": "what the options mean for the choice"},
            "budget": BUDGET_OUT, "nodes": {"type": "integer", "minimum": 0},
            "ms": {"type": "number", "minimum": 0}}}


#: What a level's measured strength says (``kingsolve.hands.hints.levels_answer``).
LEVEL_STRENGTH = ("as measured: the gain per hand over three seats on the baseline level, "
                  "paired by deal, as a share of the contract's points (gain_share, with "
                  "its 95% interval, over deals; 0 for the baseline itself), and the median "
                  "time of a hint at 13 cards on 2 threads (ms_13_cards)")

#: The strength level a hint took (``kingsolve.hands.hints.LEVELS``).
LEVEL_OUT = {"type": "integer", "minimum": 0, "maximum": len(LEVELS) - 1}
#: The levels that weigh each deal by the other seats' play.
INFERRING = ", ".join(str(n) for n, lv in enumerate(LEVELS) if lv.inference)


def _card_hint() -> dict:
    """The answer of /hint for a card: the cards ranked over the samples."""
    return {
        "type": "object", "required": ["seat", "recommended", "cards", "samples", "exact", "level",
                                       "effective_samples"],
        "properties": {
            "seat": SEAT_OUT, "recommended": CARD,
            "cards": {"type": "array", "items": {
                "type": "object", "required": ["card", "mean", "std", "best"],
                "properties": {"card": CARD, "mean": SCORE, "std": SCORE, "best": SCORE,
                               "min": SCORE, "max": SCORE}}},
            "samples": {"type": "integer", "minimum": 0,
                        "description": "the sampled deals solved: the level's or the request's "
                                       "samples, fewer when every consistent deal is fewer or "
                                       "the time ran out; 0 at level 0 (the simple player's "
                                       "order, no card valued)"},
            "level": {**LEVEL_OUT, "description": "the level whose settings the hint took; "
                                                  "samples or horizon given won over its own"},
            "effective_samples": {"type": ["number", "null"], "minimum": 0,
                                  "description": f"with inference (levels {INFERRING}): the "
                                                 "equal samples the likelihood weights are worth "
                                                 "(Kish's effective size, at most samples); "
                                                 "null without inference"},
            "exact": {"type": "boolean"},
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
        "type": "object", "required": ["choice", "seat", "recommended", "options", "samples",
                                       "level"],
        "properties": {
            "choice": {"enum": [c for c in HINT_CHOICES if c != "card"]}, "seat": SEAT_OUT,
            "recommended": {"type": "string"},
            "options": {"type": "array", "items": {
                "type": "object", "required": ["option", "mean", "std"],
                "properties": {"option": {"type": "string"}, "mean": SCORE, "std": SCORE}}},
            "samples": {"type": "integer", "minimum": 1,
                        "description": "the sampled deals solved: the level's or the request's "
                                       "samples, fewer when the time ran out"},
            "level": {"anyOf": [LEVEL_OUT, {"type": "null"}],
                      "description": "the level whose samples and horizon the hint took; null "
                                     f"when the request named none (its samples, else "
                                     f"{CHOICE_SAMPLES}; its horizon, else {DEFAULT_HORIZON})"},
            "budget": BUDGET_OUT, "ms": {"type": "number"}}}


def _sheet_response() -> dict:
    """The answer of /sheet (``kingsolve.hands.match.ScoreSheet.to_dict``)."""
    seats = {"type": "object", "additionalProperties": SCORE}
    seat_or_null = {"anyOf": [SEAT_OUT, {"type": "null"}]}
    hand = {"type": "object", "required": ["number", "contract", "dealer", "leader", "trump",
                                           "played", "scores", "running"],
            "properties": {"number": {"type": "integer", "minimum": 1},
                           "contract": {"type": ["string", "null"]},
                           "dealer": seat_or_null, "leader": seat_or_null,
                           "trump": {"type": ["string", "null"]},
                           "played": seats, "scores": seats, "running": seats,
                           "sale": {"type": "object"}, "festa": {"type": "object"},
                           "sides": seats, "running_sides": seats}}
    upcoming = {"type": "object", "description": "the next hand of the schedule: its number, "
                "contract (null: the chooser's), dealer and first leader"}
    return {
        "type": "object", "required": ["variant", "players", "doubles", "seats", "hands",
                                       "totals", "complete", "next", "choices"],
        "properties": {
            "variant": {"type": "string"}, "players": {"type": "integer"},
            "doubles": {"type": "boolean"}, "seats": {"type": "array", "items": SEAT_OUT},
            "hands": {"type": "array", "items": hand}, "totals": seats,
            "side_totals": seats, "complete": {"type": "boolean"},
            "next": {"anyOf": [upcoming, {"type": "null"}]},
            "choices": {"type": "array", "items": {"type": "string"},
                        "description": "the contracts the next hand's chooser may still "
                                       "pick (docs/rules.md 7); empty when the schedule "
                                       "fixes it"}}}


def _analysis_responses() -> dict[str, dict]:
    """The answers of /review, /choices and /hint."""
    return {"ReviewResponse": _review_response(), "ChoicesResponse": _choices_response(),
            "HintResponse": {"anyOf": [_card_hint(), _choice_hint()]}}


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
            "id": position_properties()["id"],
            "to_move": SEAT_OR_NULL, "taken": SCORES,
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
            "line": LINE,
            "nodes": {"type": "integer", "minimum": 0},
            "ms": {"type": "number", "minimum": 0},
        },
    }


def _legal_response() -> dict:
    """The answer of /legal."""
    return {
        "type": "object", "required": ["to_move", "legal", "complete"],
        "properties": {"to_move": SEAT_OR_NULL, "legal": {"type": "array", "items": CARD},
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
    """The answers of /levels, /variants, /deal and /healthz."""
    return {
        "Variants": {"type": "object", "additionalProperties": rule_document_schema()},
        "RuleDocument": rule_document_schema(),
        "RulesCheck": {
            "type": "object", "required": ["rules", "base", "differences"],
            "properties": {
                "rules": {**rule_document_schema(), "description": "the whole rule document"},
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
        "Levels": {
            "type": "object", "required": ["default", "baseline", "levels"],
            "properties": {
                "default": {"type": "integer", "minimum": 0, "maximum": len(LEVELS) - 1},
                "baseline": {"type": "integer", "minimum": 0, "maximum": len(LEVELS) - 1,
                             "description": "the level each strength is measured over"},
                "levels": {"type": "array", "minItems": len(LEVELS), "maxItems": len(LEVELS),
                           "items": {"type": "object", "required": [
                               "level", "name", "samples", "choice_samples", "horizon",
                               "inference", "policy"], "properties": {
                               "level": {"type": "integer", "minimum": 0},
                               "name": {"type": "string"},
                               "samples": {"type": "integer", "minimum": 0},
                               "choice_samples": {"type": "integer", "minimum": 0},
                               "horizon": {"type": "integer", "minimum": 0},
                               "inference": {"type": "boolean"},
                               "policy": {"type": "string"},
                               "strength": {
                                   "type": "object", "description": LEVEL_STRENGTH,
                                   "required": ["gain_share", "interval", "deals",
                                                "ms_13_cards"],
                                   "properties": {"gain_share": {"type": "number"},
                                                  "interval": {"type": "number",
                                                               "minimum": 0},
                                                  "deals": {"type": "integer",
                                                            "minimum": 0},
                                                  "ms_13_cards": {"type": "number",
                                                                  "exclusiveMinimum": 0}}}}}}}},
        "SheetResponse": _sheet_response(),
        "Health": {"type": "object", "required": ["status", "version"],
                   "properties": {"status": {"const": "ok"}, "version": {"type": "string"}}},
    }


class Schemas:
    """The request and response schemas of one app, with its limits, and its OpenAPI text.

    The request schemas are the library's (``kingsolve.io.schema``), which checks every
    request with them where it is read; here they are described with this app's limits.
    """

    def __init__(self, config: Mapping[str, Any], limits: Limits) -> None:
        library = RequestSchemas(limits)
        solve_ms = float(config["KINGSOLVE_SOLVE_MS"])
        stream_ms = float(config["KINGSOLVE_STREAM_MS"])
        self.requests = {
            **library.documented(),
            "DealQuery": _deal_query(),
            "RuleDocument": rule_document_schema(),
        }
        self.requests["SolveRequest"]["properties"]["ms"] = {
            **self.requests["SolveRequest"]["properties"]["ms"],
            "description": f"time budget in milliseconds (default {solve_ms:g} for /solve, "
                           f"{stream_ms:g} for /solve/stream); at most {limits.ms:g} is used"}
        self.responses = self._responses()
        self._deal_query = Draft202012Validator(self.requests["DealQuery"])

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

    def deal_query(self, query: Mapping[str, Any]) -> Mapping[str, Any]:
        """The query parameters of GET /deal, checked."""
        check_shape(self._deal_query, query, "query parameter")
        return query

    # --- the OpenAPI document ---------------------------------------------------------
    def openapi(self) -> dict:
        """The OpenAPI 3.1 document of the API, built from these schemas."""
        return {
            "openapi": "3.1.0",
            "info": {"title": "kingsolve", "version": __version__,
                     "description": "Double-dummy analysis for the card game King. Bodies and "
                                    "answers in JSON or msgpack (ask with Accept). A body's "
                                    f"integers have at most {MAX_DIGITS} digits, wherever "
                                    "they are."},
            "paths": {**_analysis_paths(), **self._get_paths()},
            "components": {"schemas": {**self.requests, **self.responses}},
        }

    def _get_paths(self) -> dict:
        """The GET paths: levels, rule sets, deals, this document and liveness."""
        query = self.requests["DealQuery"]["properties"]
        deal_params = [
            {"name": "seed", "in": "query", "required": False, "schema": query["seed"],
             "description": "the same seed gives the same deal (default: a random seed)"},
            {"name": "deck", "in": "query", "required": False, "schema": query["deck"]},
            {"name": "players", "in": "query", "required": False, "schema": query["players"]},
        ]
        return {
            "/api/v1/levels": {"get": {"summary": "the hints' strength levels, weakest first, "
                                                  "with their names and the default",
                                       "responses": {"200": _answer("Levels", "the levels")}}},
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
    "400": _answer("Error", f"bad input: the message names the problem (an integer of more "
                            f"than {MAX_DIGITS} digits anywhere in the body included)"),
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
    out: dict[str, Any] = {"post": {"summary": summary, "requestBody": body,
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
        "/api/v1/sheet": _post("a match's score sheet from its records: each hand's scores, "
                               "running totals, the next hand of the schedule",
                               "SheetRequest", _answer("SheetResponse", "the score sheet")),
        "/api/v1/hint": _post("a seat's hint from its own hand: sampled deals, each solved",
                              "HintRequest", _answer("HintResponse", "the ranked cards or "
                                                     "options"), busy=True),
    }
