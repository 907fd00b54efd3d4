"""The JSON request shape that the CLI, batch files and the API share.

A request names the rule set, contract, trump, options, doubles flag, deal, first
leader and the cards played so far::

    {"variant": "italian", "contract": "no-queens", "trump": null, "options": [],
     "doubles": false, "deal": "N:AKQ.JT9.876.5432 ...", "leader": "N",
     "play": ["SA", "S2"]}

``position_from_request`` checks every field and builds the position, raising a
``KingsolveError`` that names the bad field.
"""

from __future__ import annotations

from typing import Any, Mapping

from .cards import Seat
from .deal import Deal
from .errors import InvalidRequestError, excerpt
from .rules import get_variant

__all__ = ["position_from_request", "legal_request", "REQUEST_FIELDS", "MAX_TEXT", "JSON_SAFE_INT",
           "json_int"]

#: Fields a request may carry (others are refused, to catch typos).
REQUEST_FIELDS = {"variant", "contract", "trump", "options", "doubles", "deal", "leader", "play",
                  "seats", "id", "budget", "nodes", "ms", "samples", "seed"}
MAX_TEXT = 400          # longest deal text accepted
MAX_PLAY = 52           # longest play record accepted
#: The largest integer every JSON and msgpack peer holds exactly (2**53 - 1): a
#: JavaScript client reads a larger one rounded.
JSON_SAFE_INT = 2**53 - 1


def json_int(n: int) -> int | str:
    """``n`` as a JSON value a JavaScript client reads exactly: the integer, or its
    decimal text when it is larger than ``JSON_SAFE_INT``.

    >>> json_int(52), json_int(2**60)
    (52, '1152921504606846976')
    """
    return n if -JSON_SAFE_INT <= n <= JSON_SAFE_INT else str(n)


def _field(req: Mapping[str, Any], name: str, kind: type | tuple, default: Any = None,
           required: bool = False) -> Any:
    if name not in req or req[name] is None:
        if required:
            raise InvalidRequestError(f"missing field {excerpt(name)}")
        return default
    value = req[name]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise InvalidRequestError(f"invalid field {excerpt(name)}: expected {expected}, got {excerpt(value)}")
    return value


def check_request(req: Any) -> Mapping[str, Any]:
    """Check a request's outer shape: a mapping with known fields only."""
    if not isinstance(req, Mapping):
        raise InvalidRequestError(f"invalid request: expected a JSON object, got {type(req).__name__}")
    unknown = sorted(k for k in req if k not in REQUEST_FIELDS)
    if unknown:
        raise InvalidRequestError(f"unknown field {excerpt(unknown[0])} in request: expected "
                                  f"{', '.join(sorted(REQUEST_FIELDS))}")
    return req


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
    if contract.kind == "domino":
        from .domino import DominoPosition
        if trump is not None:
            raise InvalidRequestError("contract 'domino' takes no trump")
        if doubles:
            raise InvalidRequestError("contract 'domino' is played in singles only")
        return DominoPosition(variant, deal, leader=leader, play=play, contract=contract)
    from .position import Position
    return Position(variant, contract, deal, leader=leader, trump=trump, doubles=doubles,
                    play=play)


def legal_request(req: Any) -> dict:
    """Answer a ``legal`` request: seat on move, legal cards, trick, points taken."""
    return position_from_request(req).to_dict()
