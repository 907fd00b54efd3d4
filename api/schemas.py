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
from kingsolve.errors import InvalidRequestError
from kingsolve.request import MAX_PLAY, MAX_TEXT
from kingsolve.rules import VARIANTS

__all__ = ["Schemas"]

SEATS = ["N", "E", "S", "W"]
NAME = {"type": "string", "minLength": 1, "maxLength": 40}
CARD = {"type": "string", "minLength": 2, "maxLength": 3, "description": "a card: suit then rank, e.g. 'SQ'"}
SCORE = {"type": "number"}
#: The largest integer every JSON and msgpack peer represents exactly (2**53 - 1).
JSON_SAFE_INT = 2**53 - 1
SCORES = {"type": "object", "additionalProperties": SCORE, "description": "a score per seat"}
TEXT_OR_NULL = {"type": ["string", "null"]}

ERROR = {
    "type": "object",
    "required": ["error", "message"],
    "properties": {
        "error": {"type": "string", "description": "a short code: parse, invalid-deal, budget..."},
        "message": {"type": "string", "description": "what was wrong, quoting the input"},
    },
}


def _position_properties() -> dict:
    """The fields that describe a position (kingsolve.request, the shared request shape)."""
    return {
        "variant": {"type": "string", "enum": list(VARIANTS), "description": "rule set"},
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


class Schemas:
    """The request and response schemas of one app, with its limits, and its OpenAPI text."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.batch_max = int(config["KINGSOLVE_BATCH_MAX"])
        self.max_nodes = int(config["KINGSOLVE_MAX_NODES"])
        self.max_ms = float(config["KINGSOLVE_MAX_MS"])
        budget = {
            "nodes": {"type": "integer", "minimum": 1, "maximum": JSON_SAFE_INT,
                      "description": f"node budget; at most {self.max_nodes} is used"},
            "ms": {"type": "number", "exclusiveMinimum": 0,
                   "description": f"time budget in milliseconds; at most {self.max_ms:g} is used"},
        }
        legal = {"type": "object", "required": ["variant", "contract", "deal"],
                 "properties": _position_properties(), "additionalProperties": False}
        seats = {"seats": {"type": "array", "items": {"type": "string", "maxLength": 5}, "minItems": 1,
                           "maxItems": 4, "description": "seats whose values to find (default: all)"}}
        solve = {**legal, "properties": {**legal["properties"], **budget, **seats}}
        table_props = {k: v for k, v in _position_properties().items()
                       if k in ("variant", "deal", "leader", "trump", "doubles")}
        table = {
            "type": "object", "required": ["variant", "deal"], "additionalProperties": False,
            "properties": {**table_props, **budget,
                           "contracts": {"type": "array", "items": NAME, "maxItems": 20,
                                         "description": "contracts to solve (default: all)"}},
        }
        solve_response = {
            "type": "object",
            "required": ["to_move", "taken", "values", "cards", "best", "complete", "nodes", "ms"],
            "properties": {
                "to_move": TEXT_OR_NULL, "taken": SCORES, "values": SCORES,
                "cards": {"type": "object", "additionalProperties": SCORE,
                          "description": "each legal card and the mover's value after it"},
                "best": {"type": "array", "items": CARD},
                "complete": {"type": "boolean"},
                "nodes": {"type": "integer", "minimum": 0},
                "ms": {"type": "number", "minimum": 0},
            },
        }
        legal_response = {
            "type": "object", "required": ["to_move", "legal", "complete"],
            "properties": {"to_move": TEXT_OR_NULL, "legal": {"type": "array", "items": {"type": "string"}},
                           "trick": {"type": "array", "items": CARD}, "taken": SCORES,
                           "complete": {"type": "boolean"}},
        }
        self.requests: dict[str, dict] = {
            "LegalRequest": legal,
            "SolveRequest": solve,
            "SolveBatch": {"type": "array", "items": solve, "minItems": 1, "maxItems": self.batch_max},
            "TableRequest": table,
            "DealQuery": {
                "type": "object", "additionalProperties": False,
                "properties": {"seed": {"type": "string", "minLength": 1, "maxLength": 64},
                               "deck": {"type": "integer", "enum": [52, 32]},
                               "players": {"type": "integer", "enum": [2, 3, 4]}},
            },
        }
        self.responses: dict[str, dict] = {
            "Error": ERROR,
            "LegalResponse": legal_response,
            "SolveResponse": solve_response,
            "SolveBatchResponse": {"type": "array", "items": {"anyOf": [solve_response, ERROR]}},
            "TableResponse": {
                "type": "object", "required": ["seats", "rows"],
                "description": "values of every contract (a row per trump suit) and seat",
                "properties": {
                    "seats": {"type": "array", "items": {"type": "string"}},
                    "rows": {"type": "array", "items": {
                        "type": "object", "required": ["contract", "values"],
                        "properties": {"contract": {"type": "string"}, "trump": TEXT_OR_NULL,
                                       "values": {"type": "object",
                                                  "additionalProperties": {"type": ["number", "null"]}}}}},
                    "nodes": {"type": "integer", "minimum": 0}, "ms": {"type": "number", "minimum": 0}}},
            "Variants": {"type": "object", "additionalProperties": {
                "type": "object", "required": ["name", "contracts", "deck", "players"]}},
            "DealResponse": {
                "type": "object", "required": ["deal", "seed", "deck", "players"],
                "properties": {"deal": {"type": "string"}, "seed": {"type": "string"},
                               "deck": {"type": "integer"}, "players": {"type": "integer"}}},
            "Health": {"type": "object", "required": ["status", "version"],
                       "properties": {"status": {"const": "ok"}, "version": {"type": "string"}}},
        }
        self.requests["SolveBody"] = {"anyOf": [solve, self.requests["SolveBatch"]]}
        self._validators = {name: Draft202012Validator(s) for name, s in self.requests.items()}
        # A batch's items are checked one by one, so that one bad item fails alone.
        self._validators["SolveBatch"] = Draft202012Validator(
            {k: v for k, v in self.requests["SolveBatch"].items() if k != "items"})

    def validate(self, name: str, data: Any, noun: str = "field") -> Any:
        """``data`` if it fits the request schema ``name``, else ``InvalidRequestError``."""
        error = best_match(self._validators[name].iter_errors(data))
        if error is None:
            return data
        field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        field = field.lstrip(".")
        if error.validator == "additionalProperties":
            unknown = sorted(set(error.instance) - set(error.schema.get("properties", {})))
            where = f" in {field!r}" if field else ""
            raise InvalidRequestError(f"unknown {noun} {unknown[0]!r}{where}: expected "
                                      f"{', '.join(sorted(error.schema['properties']))}")
        if error.validator == "required":
            missing = [r for r in error.validator_value if r not in error.instance]
            raise InvalidRequestError(f"missing {noun} {missing[0]!r}")
        if error.validator in ("maxItems", "minItems") and not field:
            raise InvalidRequestError(f"invalid batch of {len(error.instance)} requests: "
                                      f"expected 1 to {self.batch_max}")
        where = f"{noun} {field!r}" if field else "request"
        raise InvalidRequestError(f"invalid {where}: {error.message}")

    # --- the OpenAPI document ---------------------------------------------------------
    def openapi(self) -> dict:
        """The OpenAPI 3.1 document of the API, built from these schemas."""
        def ref(name: str) -> dict:
            return {"$ref": f"#/components/schemas/{name}"}

        def body(name: str) -> dict:
            return {"required": True, "content": {
                "application/json": {"schema": ref(name)},
                "application/msgpack": {"schema": ref(name)}}}

        def answer(name: str, description: str) -> dict:
            return {"description": description, "content": {
                "application/json": {"schema": ref(name)},
                "application/msgpack": {"schema": ref(name)}}}

        errors = {
            "400": answer("Error", "bad input: the message names the problem"),
            "413": answer("Error", "body larger than the server's limit"),
            "415": answer("Error", "body neither application/json nor application/msgpack"),
        }

        def post(summary: str, request: str, response: dict, busy: bool = False) -> dict:
            out = {"post": {"summary": summary, "requestBody": body(request),
                            "responses": {"200": response, **errors}}}
            if busy:
                out["post"]["responses"]["503"] = answer("Error", "the search went over its budget")
            return out

        solve_ok = {"description": "values of the position (a list for a batch)", "content": {
            media: {"schema": {"anyOf": [ref("SolveResponse"), ref("SolveBatchResponse")]}}
            for media in ("application/json", "application/msgpack")}}
        deal_params = [
            {"name": "seed", "in": "query", "required": False,
             "schema": self.requests["DealQuery"]["properties"]["seed"],
             "description": "the same seed gives the same deal (default: a random seed)"},
            {"name": "deck", "in": "query", "required": False,
             "schema": self.requests["DealQuery"]["properties"]["deck"]},
            {"name": "players", "in": "query", "required": False,
             "schema": self.requests["DealQuery"]["properties"]["players"]},
        ]
        return {
            "openapi": "3.1.0",
            "info": {"title": "kingsolve", "version": __version__,
                     "description": "Double-dummy analysis for the card game King. Bodies and "
                                    "answers in JSON or msgpack (ask with Accept)."},
            "paths": {
                "/api/v1/legal": post("the seat on move, its legal cards, the trick, points taken",
                                      "LegalRequest", answer("LegalResponse", "the position")),
                "/api/v1/solve": post("double-dummy values of a position, or of a batch of positions",
                                      "SolveBody", solve_ok, busy=True),
                "/api/v1/table": post("the double-dummy table of a deal: every contract, every seat",
                                      "TableRequest", answer("TableResponse", "the table"), busy=True),
                "/api/v1/variants": {"get": {"summary": "rule sets: contracts, options, schedules",
                                             "responses": {"200": answer("Variants", "rule sets by name")}}},
                "/api/v1/deal": {"get": {"summary": "a seeded random deal", "parameters": deal_params,
                                         "responses": {"200": answer("DealResponse", "the deal"),
                                                       "400": errors["400"]}}},
                "/api/v1/openapi.json": {"get": {"summary": "this document", "responses": {
                    "200": {"description": "OpenAPI 3.1", "content": {"application/json": {}}}}}},
                "/healthz": {"get": {"summary": "liveness", "responses": {
                    "200": answer("Health", "the server answers")}}},
            },
            "components": {"schemas": {**self.requests, **self.responses}},
        }
