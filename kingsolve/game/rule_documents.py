"""Rule sets as JSON documents: a client's own house rules (docs/rules.md section 13).

A *rule document* is what ``RuleSet.to_dict()`` writes: the deck, the players, the
play direction, the match schedule and every contract's points and play rules.
``rules_from_dict`` reads one back, checking every field, so a rule set that cannot
be played never reaches the engines. A document may instead name a built-in rule
set as its ``base`` and give only what differs::

    {"base": "portuguese", "contracts": {"no-hearts": {"lead": "any"}}}

Top-level fields replace the base's; each entry of ``contracts`` changes the named
contract field by field, adds a contract the base lacks, or (``null``) drops one.

``resolve_variant`` is the one place a variant given by a caller (a name, a document
or a ``RuleSet``) becomes a ``RuleSet``.

>>> rs = rules_from_dict({"base": "russian", "contracts": {"no-king": {"forced": []}}})
>>> rs.contract("no-king").forced, get_variant("russian").contract("no-king").forced != 0
(0, True)
"""

from __future__ import annotations

import json
import re
from typing import Any, Collection, Mapping, Sequence

from .cards import CARD_PATTERN, END_PATTERN, MAX_CARD_TEXT, Card, Seat, Suit, deck_mask, mask_of_cards
from ..checks import is_int
from ..errors import InvalidRulesError, KingsolveError, excerpt
from .rules import (TRUMP_NAMED, TRUMP_NAMED_OR_NONE, TRUMP_NONE, VARIANTS, Contract, LeadMode,
                    RuleSet, TrumpObligation, get_variant)

__all__ = ["rules_from_dict", "rules_from_json", "resolve_variant", "rule_differences",
           "checked_rules", "rule_document_schema", "RULES_FIELDS",
           "CONTRACT_FIELDS", "NAME_PATTERN", "OPTION_NAMES", "MAX_CONTRACTS", "MAX_NAME", "MAX_POINTS", "MAX_DOCUMENT"]

#: Fields of a rule document and of each of its contracts (others are refused).
RULES_FIELDS = ("name", "base", "description", "deck", "players", "direction", "doubles",
                "first_dealer", "schedule", "doubles_schedule", "festa_hands", "quotas",
                "contracts")
CONTRACT_FIELDS = ("name", "kind", "description", "card_points", "each_trick", "last_two",
                   "last_count", "seat_constant", "trump", "lead", "trump_lead_restricted",
                   "overtake", "overtrump_on_trump_lead", "first_trick_protection", "forced",
                   "trump_obligation", "early_end", "broken_by", "options", "opening",
                   "ending")
_DOMINO_FIELDS = {"name", "kind", "description", "options", "opening", "ending"}

#: Size limits of a rule document.
MAX_CONTRACTS = 32
MAX_NAME = 40                # a rule set's or contract's name
MAX_DESCRIPTION = 200
MAX_POINT_ROWS = 16          # card_points rows of one contract
MAX_SCHEDULE = 64            # hands of a schedule
MAX_POINTS = 10_000          # the most points a hand may move (the core keeps 16-bit bounds)
MAX_DOCUMENT = 65_536        # characters of a rule document's JSON text

# The vocabulary of a rule document: its words and bounds, read by ``rules_from_dict``
# and written into its JSON Schema (``rule_document_schema``), here only.
_NAME = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
_DIRECTIONS = {"clockwise": 1, "counterclockwise": -1}
_KINDS = ("tricks", "domino")
_TRUMPS = (TRUMP_NONE, TRUMP_NAMED, TRUMP_NAMED_OR_NONE)
_OPENINGS = ("any-seven", "seven-of-diamonds")
_ENDINGS = ("single", "shared")
_OPTIONS = ("forced-king",)
OPTION_NAMES = _OPTIONS
#: A name as a JSON Schema pattern (``$`` alone would take a final newline in Python).
NAME_PATTERN = "^" + _NAME.pattern.removesuffix("\\Z") + END_PATTERN
_QUOTAS = ("each_penalty_contract", "penalty_per_seat", "trumps_per_seat")
_BROKEN_BY = ("play", "discard")
_DECKS = (32, 52)
_PLAYERS = (2, 3, 4)
_SEATS = tuple(s.name for s in Seat)
_SUITS = tuple(s.letter for s in Suit)


def _fail(where: str, message: str) -> InvalidRulesError:
    return InvalidRulesError(f"invalid rules: {where}: {message}")


def _expected(where: str, expected: str, value: Any) -> InvalidRulesError:
    return _fail(where, f"expected {expected}, got {excerpt(value)}")


def _name(where: str, value: Any) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME or not _NAME.match(value):
        raise _expected(where, f"a name of lower-case letters, digits and '-', at most "
                               f"{MAX_NAME} characters", value)
    return value


def _text(where: str, value: Any) -> str:
    if not isinstance(value, str) or len(value) > MAX_DESCRIPTION:
        raise _expected(where, f"a text of at most {MAX_DESCRIPTION} characters", value)
    return value


def _bool(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _expected(where, "true or false", value)
    return value


def _int(where: str, value: Any, lo: int = -MAX_POINTS, hi: int = MAX_POINTS) -> int:
    if not is_int(value, lo, hi):
        raise _expected(where, f"an integer from {lo} to {hi}", value)
    return value


def _choice(where: str, value: Any, choices: Collection[str]) -> Any:
    if not isinstance(value, str) or value not in choices:
        raise _expected(where, f"one of {', '.join(choices)}", value)
    return value


def _object(where: str, value: Any, fields: Collection[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _expected(where, "a JSON object", value)
    unknown = sorted(str(k) for k in value if k not in fields)
    if unknown:
        raise _fail(where, f"unknown field {excerpt(unknown[0])}: expected {', '.join(fields)}")
    return value


def _list(where: str, value: Any, most: int) -> list:
    if not isinstance(value, list):
        raise _expected(where, "a list", value)
    if len(value) > most:
        raise _fail(where, f"{len(value)} entries, at most {most}")
    return value


def _cards(where: str, value: Any, deck: int) -> int:
    """A card set: a list of cards (``["HK", "D8"]``), all in the deck."""
    cards = _list(where, value, 52)
    if not all(isinstance(c, str) for c in cards):
        raise _expected(where, 'a list of cards such as ["HK", "D8"]', value)
    try:
        mask = mask_of_cards(cards)
    except KingsolveError as exc:
        raise _fail(where, str(exc)) from None
    stray = mask & ~deck_mask(deck)
    if stray:
        raise _fail(where, f"{Card.from_bit(stray.bit_length() - 1)} is not in the {deck}-card deck")
    return mask


def _lead(where: str, value: Any) -> tuple[Suit | None, int]:
    if value == "any" or value is None:
        return None, 0
    lead = _object(where, value, ("suit", "mode"))
    if "suit" not in lead or "mode" not in lead:
        raise _expected(where, '"any" or {"suit": "H", "mode": "until-broken"}', value)
    suit = _choice(f"{where}.suit", lead["suit"], _SUITS)
    mode = _choice(f"{where}.mode", lead["mode"], list(LeadMode))
    return Suit.parse(suit), LeadMode[mode]


def _contract(where: str, name: str, doc: Any, deck: int, players: Sequence[int]) -> Contract:
    """One contract entry, every field checked against the rule set's deck."""
    doc = _object(where, doc, CONTRACT_FIELDS)
    if "name" in doc and doc["name"] != name:
        raise _fail(f"{where}.name", f"{excerpt(doc['name'])} differs from its key {excerpt(name)}")
    kind = _choice(f"{where}.kind", doc.get("kind", "tricks"), _KINDS)
    description = _text(f"{where}.description", doc.get("description", ""))
    options = _list(f"{where}.options", doc.get("options", []), len(_OPTIONS))
    for i, opt in enumerate(options):
        _choice(f"{where}.options[{i}]", opt, _OPTIONS)
    if kind == "domino":
        extra = sorted(k for k in doc if k not in _DOMINO_FIELDS)
        if extra:
            raise _fail(f"{where}.{extra[0]}", "a domino contract takes no trick rules")
        if deck != 52 or 4 not in players:
            raise _fail(where, "the domino is played by 4 players with the 52-card deck")
        if options:
            raise _fail(f"{where}.options", "the domino takes no options")
        return Contract(name, kind="domino", description=description,
                        domino_opening=_choice(f"{where}.opening", doc.get("opening"), _OPENINGS),
                        domino_ending=_choice(f"{where}.ending", doc.get("ending"), _ENDINGS))
    contract = _trick_contract(where, name, doc, deck, description, tuple(options))
    _check_total(where, contract, deck, min(players))
    return contract


def _trick_contract(where: str, name: str, doc: Mapping[str, Any], deck: int,
                    description: str, options: tuple) -> Contract:
    """A trick contract's entry: its points and play rules."""
    for field in ("opening", "ending"):
        if doc.get(field) is not None:
            raise _fail(f"{where}.{field}", "only a domino contract has one")
    rows = _list(f"{where}.card_points", doc.get("card_points", []), MAX_POINT_ROWS)
    card_points = []
    for i, row in enumerate(rows):
        row = _object(f"{where}.card_points[{i}]", row, ("cards", "points"))
        mask = _cards(f"{where}.card_points[{i}].cards", row.get("cards"), deck)
        points = _int(f"{where}.card_points[{i}].points", row.get("points"))
        if not mask:
            raise _fail(f"{where}.card_points[{i}].cards", "no cards")
        card_points.append((mask, points))
    trump = _choice(f"{where}.trump", doc.get("trump", TRUMP_NONE), _TRUMPS)
    lead_suit, lead_mode = _lead(f"{where}.lead", doc.get("lead", "any"))
    obligation = doc.get("trump_obligation")
    if trump == TRUMP_NONE:
        for field in ("trump_obligation", "trump_lead_restricted", "overtrump_on_trump_lead"):
            if doc.get(field) not in (None, False):
                raise _fail(f"{where}.{field}", "a contract without trump has no trump rules")
        obligation_value = 0
    else:
        if obligation is None:
            raise _fail(f"{where}.trump_obligation", f"missing: a trump contract names its trump "
                                                      f"obligation ({', '.join(TrumpObligation)})")
        obligation_value = TrumpObligation[_choice(f"{where}.trump_obligation", obligation,
                                                   list(TrumpObligation))]
    contract = Contract(
        name, card_points=tuple(card_points),
        each_trick=_int(f"{where}.each_trick", doc.get("each_trick", 0)),
        last_two=_int(f"{where}.last_two", doc.get("last_two", 0)),
        last_count=_int(f"{where}.last_count", doc.get("last_count", 2), 0, 26),
        seat_constant=_int(f"{where}.seat_constant", doc.get("seat_constant", 0)),
        trump=trump, lead_suit=lead_suit, lead_mode=lead_mode,
        trump_lead_restricted=_bool(f"{where}.trump_lead_restricted",
                                    doc.get("trump_lead_restricted", False)),
        overtake=_bool(f"{where}.overtake", doc.get("overtake", False)),
        overtrump_on_trump_lead=_bool(f"{where}.overtrump_on_trump_lead",
                                      doc.get("overtrump_on_trump_lead", False)),
        protected=_cards(f"{where}.first_trick_protection", doc.get("first_trick_protection", []),
                         deck),
        forced=_cards(f"{where}.forced", doc.get("forced", []), deck),
        trump_obligation=obligation_value, options=options,
        early_end=_bool(f"{where}.early_end", doc.get("early_end", True)),
        broken_by=_choice(f"{where}.broken_by", doc.get("broken_by", "play"), _BROKEN_BY),
        description=description)
    if contract.broken_by == "discard" and contract.trump_lead_restricted \
            and contract.lead_mode == LeadMode["until-broken"]:
        # the search keeps one suit's state of being broken by a discard
        raise _fail(f"{where}.broken_by", "'discard' takes one suit under a restriction until "
                                          "broken: the lead's or the trumps', not both")
    return contract


def _check_total(where: str, contract: Contract, deck: int, fewest_players: int) -> None:
    """Refuse a contract whose points in one hand exceed ``MAX_POINTS`` in all."""
    full = deck_mask(deck)
    tricks = deck // fewest_players
    total = sum(abs(p) * (m & full).bit_count() for m, p in contract.card_points)
    total += sum(abs(p) for p in contract.trick_points(tricks)) + abs(contract.seat_constant)
    if total > MAX_POINTS:
        raise _fail(where, f"up to {total} points in one hand, at most {MAX_POINTS}")


def _schedule(where: str, value: Any, contracts: Mapping[str, Contract]) -> tuple[str, ...]:
    names = _list(where, value, MAX_SCHEDULE)
    for i, name in enumerate(names):
        if name not in contracts:
            raise _fail(f"{where}[{i}]", f"contract {excerpt(name)} is not in contracts")
    return tuple(names)


def _extra(doc: Mapping[str, Any], schedule: tuple[str, ...]) -> dict:
    """The match-level data some rule sets keep (Portuguese festa hands, Turkish quotas)."""
    out: dict = {}
    if doc.get("festa_hands") is not None:
        hands = _list("festa_hands", doc["festa_hands"], MAX_SCHEDULE)
        for i, n in enumerate(hands):
            _int(f"festa_hands[{i}]", n, 1, max(1, len(schedule)))
        out["festa_hands"] = list(hands)
    if doc.get("quotas") is not None:
        quotas = _object("quotas", doc["quotas"], _QUOTAS)
        out["quotas"] = {k: _int(f"quotas.{k}", quotas[k], 0, MAX_SCHEDULE) for k in quotas}
    return out


def _merged(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    """A document with a ``base``: the base's document with the overrides applied."""
    base_name = doc["base"]
    if not isinstance(base_name, str) or base_name not in VARIANTS:
        raise _expected("base", f"one of {', '.join(VARIANTS)}", base_name)
    out = dict(VARIANTS[base_name].document)
    contracts = dict(out["contracts"])
    overrides = doc.get("contracts", {})
    if not isinstance(overrides, Mapping):
        raise _expected("contracts", "a JSON object of contracts by name", overrides)
    if len(overrides) > MAX_CONTRACTS:
        raise _fail("contracts", f"{len(overrides)} contracts, at most {MAX_CONTRACTS}")
    for name, change in overrides.items():
        if change is None:
            contracts.pop(name, None)
            continue
        change = _object(f"contracts.{_name('contracts', name)}", change, CONTRACT_FIELDS)
        contracts[name] = {**contracts.get(name, {"name": name}), **change}
    out.update({k: v for k, v in doc.items() if k not in ("base", "contracts")})
    out["contracts"] = contracts
    return out


def rules_from_dict(document: Any) -> RuleSet:
    """The ``RuleSet`` a rule document describes; ``InvalidRulesError`` naming the
    first field that makes it unplayable or too large.

    A document with ``base`` starts from that built-in rule set (module docstring);
    its ``name`` defaults to the base's, whose match procedures (the Italian sale,
    the Portuguese festa, the Turkish chooser) then apply.
    """
    doc = _object("rules", document, RULES_FIELDS)
    base = None
    if doc.get("base") is not None:
        merged = _merged(doc)             # checks the base's name
        base, doc = VARIANTS[doc["base"]], merged
    name = _name("name", doc.get("name", "custom"))
    deck = doc.get("deck", 52)
    if deck not in _DECKS or isinstance(deck, bool):
        raise _expected("deck", " or ".join(map(str, _DECKS)), deck)
    players = _list("players", doc.get("players", [4]), 3)
    if not players or not all(is_int(n) and n in _PLAYERS for n in players) \
            or len(set(players)) != len(players):
        raise _expected("players", "a list of player counts from 2, 3, 4", players)
    if deck == 32 and 3 in players:
        raise _fail("players", "3 players need the 52-card deck (docs/rules.md 1)")
    direction = _DIRECTIONS[_choice("direction", doc.get("direction", "clockwise"), list(_DIRECTIONS))]
    doubles = _bool("doubles", doc.get("doubles", False))
    if doubles and 4 not in players:
        raise _fail("doubles", "doubles need 4 players")
    first_dealer = doc.get("first_dealer", "W")
    if first_dealer is not None:
        first_dealer = Seat.parse(_choice("first_dealer", first_dealer, _SEATS))
    entries = doc.get("contracts")
    if not isinstance(entries, Mapping) or not entries:
        raise _expected("contracts", "a JSON object of at least one contract by name", entries)
    if len(entries) > MAX_CONTRACTS:
        raise _fail("contracts", f"{len(entries)} contracts, at most {MAX_CONTRACTS}")
    contracts = {}
    # the base's contracts a document leaves alone are the base's own, read when it
    # was made, as long as they are played with the same deck and players
    same = base if base is not None and base.deck == deck and list(base.players) == list(players) else None
    for key, entry in entries.items():
        if same is not None and key in same.contracts and entry is same.document["contracts"].get(key):
            contracts[key] = same.contracts[key]
            continue
        where = f"contracts.{_name('contracts', key)}"
        contracts[key] = _contract(where, key, entry, deck, players)
    schedule = _schedule("schedule", doc.get("schedule", []), contracts)
    doubles_schedule = _schedule("doubles_schedule", doc.get("doubles_schedule", []), contracts)
    if doubles_schedule and not doubles:
        raise _fail("doubles_schedule", "a rule set without doubles has no doubles schedule")
    return RuleSet(name, contracts, direction=direction, deck=deck, players=tuple(players),
                   doubles=doubles, schedule=schedule, doubles_schedule=doubles_schedule,
                   first_dealer=first_dealer,
                   description=_text("description", doc.get("description", "")),
                   extra=_extra(doc, schedule))


def rules_from_json(text: str) -> RuleSet:
    """The ``RuleSet`` of a rule document's JSON text (``rules_from_dict``)."""
    if not isinstance(text, str):
        raise _expected("rules", "JSON text", text)
    if len(text) > MAX_DOCUMENT:
        raise _fail("rules", f"{len(text)} characters, at most {MAX_DOCUMENT}")
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise _fail("rules", f"not JSON ({str(exc).splitlines()[0][:80]})") from None
    return rules_from_dict(document)


def resolve_variant(variant: Any) -> RuleSet:
    """The rule set a caller gives: a ``RuleSet`` as is, a built-in name
    (``get_variant``) or a rule document (``rules_from_dict``)."""
    if isinstance(variant, RuleSet):
        return variant
    if isinstance(variant, Mapping):
        return rules_from_dict(variant)
    return get_variant(variant)


#: Fields that are words about the rules, not rules: no difference is reported for them.
_WORDS = ("name", "description")


def rule_differences(rules: RuleSet, base: RuleSet) -> list[dict]:
    """What ``rules`` changes from ``base``, a field a line, in the documents' order.

    Each difference is ``{"contract": name or None, "field": name or None, "base":
    value, "rules": value}`` in the rule document's terms: ``contract`` None for a
    field of the rule set, ``field`` None for a contract added (``base`` None) or
    dropped (``rules`` None). Names and descriptions are left out.

    >>> own = rules_from_dict({"base": "russian", "contracts": {"no-king": {"forced": []}}})
    >>> rule_differences(own, get_variant("russian"))
    [{'contract': 'no-king', 'field': 'forced', 'base': ['HK'], 'rules': []}]
    """
    mine, theirs = rules.to_dict(), base.to_dict()
    out = [{"contract": None, "field": k, "base": theirs.get(k), "rules": mine.get(k)}
           for k in dict.fromkeys([*theirs, *mine])
           if k not in (*_WORDS, "contracts") and theirs.get(k) != mine.get(k)]
    ours, base_contracts = mine["contracts"], theirs["contracts"]
    for name in dict.fromkeys([*base_contracts, *ours]):
        if name not in ours or name not in base_contracts:
            out.append({"contract": name, "field": None, "base": base_contracts.get(name),
                        "rules": ours.get(name)})
            continue
        a, b = base_contracts[name], ours[name]
        out.extend({"contract": name, "field": k, "base": a.get(k), "rules": b.get(k)}
                   for k in dict.fromkeys([*a, *b]) if k not in _WORDS and a.get(k) != b.get(k))
    return out


def checked_rules(document: Any) -> dict:
    """A rule document checked (``rules_from_dict``): ``{"rules": the whole document,
    "base": a built-in's name, "differences": rule_differences from it}``.

    The base is the document's own ``base``, else the built-in of its name, else the
    built-in of its deck it differs from least: a client shows its house rules as
    "portuguese, with ..." whichever way they were written.
    """
    rules = rules_from_dict(document)
    named = document.get("base") or rules.name
    if named in VARIANTS:
        base = VARIANTS[named]
    else:
        same_deck = [v for v in VARIANTS.values() if v.deck == rules.deck] or list(VARIANTS.values())
        base = min(same_deck, key=lambda v: len(rule_differences(rules, v)))
    return {"rules": rules.to_dict(), "base": base.name,
            "differences": rule_differences(rules, base)}


# --- the document's JSON Schema --------------------------------------------------------
_NAME_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_NAME,
                "pattern": NAME_PATTERN}
_CARD_SCHEMA = {"type": "string", "minLength": 2, "maxLength": MAX_CARD_TEXT, "pattern": CARD_PATTERN,
                "description": "a card: suit then rank, e.g. 'SQ'"}


def _contract_schema() -> dict:
    """One contract entry of a rule document, as ``_contract`` reads it."""
    flag = {"type": "boolean"}
    points = {"type": "integer", "minimum": -MAX_POINTS, "maximum": MAX_POINTS}
    cards = {"type": "array", "items": _CARD_SCHEMA, "maxItems": 52,
             "description": "a set of cards, e.g. ['HK', 'D8']"}
    lead = {"type": "object", "additionalProperties": False, "required": ["suit", "mode"],
            "properties": {"suit": {"enum": list(_SUITS)}, "mode": {"enum": list(LeadMode)}}}
    return {
        "type": "object", "additionalProperties": False,
        "description": "one contract: its points and play rules (docs/rules.md 2, 3 and 13); "
                       "with base, only the fields that change",
        "properties": {
            "name": _NAME_SCHEMA, "kind": {"enum": list(_KINDS)},
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
            "trump": {"enum": list(_TRUMPS)},
            "lead": {"anyOf": [{"const": "any"}, {"type": "null"}, lead],
                     "description": "lead restriction: 'any', or a suit and its mode"},
            "trump_lead_restricted": {**flag, "description": "trumps not led before a trump "
                                                              "was played"},
            "overtake": flag, "overtrump_on_trump_lead": flag,
            "first_trick_protection": {**cards, "description": "not discarded on trick 1"},
            "forced": {**cards, "description": "must be discarded when void in the suit led"},
            "trump_obligation": {"enum": [*TrumpObligation, None]},
            "early_end": {**flag, "description": "the hand stops once no points remain "
                                                 "(default true)"},
            "broken_by": {"enum": list(_BROKEN_BY),
                          "description": "what breaks a suit for the lead restrictions: any "
                                         "card of it played (default), or a discard only"},
            "options": {"type": "array", "items": {"enum": list(_OPTIONS)},
                        "maxItems": len(_OPTIONS)},
            "opening": {"enum": [*_OPENINGS, None]},
            "ending": {"enum": [*_ENDINGS, None]},
        },
    }


def rule_document_schema() -> dict:
    """A rule document's JSON Schema (draft 2020-12), from the vocabulary that
    ``rules_from_dict`` reads: the document's shape. ``rules_from_dict`` checks that it
    can be played, and names the field if not."""
    names = {"type": "array", "items": _NAME_SCHEMA, "maxItems": MAX_SCHEDULE,
             "description": "contract names, hand by hand"}
    return {
        "type": "object", "additionalProperties": False,
        "description": "a rule set: a built-in's document (GET /api/v1/variants/{name}), "
                       "or a base with overrides",
        "properties": {
            "name": _NAME_SCHEMA, "base": {"enum": list(VARIANTS)},
            "description": {"type": "string", "maxLength": MAX_DESCRIPTION},
            "deck": {"enum": list(_DECKS)},
            "players": {"type": "array", "items": {"enum": list(_PLAYERS)}, "minItems": 1,
                        "maxItems": len(_PLAYERS), "uniqueItems": True},
            "direction": {"enum": list(_DIRECTIONS)},
            "doubles": {"type": "boolean"}, "first_dealer": {"enum": [*_SEATS, None]},
            "schedule": names, "doubles_schedule": names,
            "festa_hands": {"type": "array", "items": {"type": "integer", "minimum": 1,
                                                       "maximum": MAX_SCHEDULE},
                            "maxItems": MAX_SCHEDULE},
            "quotas": {"type": "object", "maxProperties": len(_QUOTAS),
                       "propertyNames": {"enum": list(_QUOTAS)},
                       "additionalProperties": {"type": "integer", "minimum": 0,
                                                "maximum": MAX_SCHEDULE}},
            "contracts": {"type": "object", "maxProperties": MAX_CONTRACTS,
                          "propertyNames": _NAME_SCHEMA,
                          "additionalProperties": {"anyOf": [_contract_schema(), {"type": "null"}]}},
        },
    }
