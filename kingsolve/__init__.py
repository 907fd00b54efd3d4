"""kingsolve: double-dummy analysis for the card game King.

The value types (``Card``, ``Seat``, ``Deal``...), the rule sets as data
(``VARIANTS``), the play engine (``Position``), the solver surfaces, their typed
results (``SolveResult``, ``Analysis``, ``Table``...) and the budgets that bound
them (``Budget``, started as a ``Deadline``).

Each name is imported from its module on first use, so that what enters through
one module (the command line, the API, ``kingsolve.game.cards``) loads only what it uses.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from . import _moved

__version__ = "0.3.0"

_moved.install()     # the 0.2 module paths, with a DeprecationWarning, until 0.4

#: Each module and the names the package hands on from it.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "game.cards": ("Card", "Rank", "Seat", "Suit"),
    "game.deal": ("Deal",),
    "errors": ("IllegalPlayError", "InvalidDealError", "InvalidRequestError", "KingsolveError",
               "ParseError", "SolveTimeout", "UnknownContractError", "UnknownVariantError",
               "InvalidRulesError"),
    "game.position": ("Position", "Trick"),
    "io.request": ("hint_request", "legal_request", "position_from_request", "solve_request"),
    "search.budget": ("Budget", "Deadline"),
    "search.result": ("SolveResult",),
    "game.rules": ("VARIANTS", "Contract", "RuleSet", "get_variant"),
    "game.rule_documents": ("resolve_variant", "rules_from_dict", "rules_from_json"),
    "search.solver": ("solve",),
    "search.analysis": ("Analysis", "analyse", "analyses"),
    "search.line": ("Line", "LinePlay"),
    "search.table": ("Table", "dd_table"),
    "game.record": ("Record", "RecordError", "format_records", "parse_records", "read_records"),
    "hands.reviews": ("Review", "review"),
    "hands.report": ("MatchReport", "match_report"),
    "hands.choices": ("Choices", "contract_choice", "festa_choice", "redeal_choice",
                      "sale_choice", "trump_choice"),
    "hands.hints": ("ChoiceHint", "HintResult", "contract_hint", "festa_hint", "hint",
                    "sale_hint", "trump_hint"),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = [
    "Card", "Rank", "Seat", "Suit", "Deal", "Position", "Trick",
    "Contract", "RuleSet", "VARIANTS", "get_variant", "rules_from_dict", "rules_from_json",
    "resolve_variant",
    "legal_request", "position_from_request", "solve", "dd_table", "solve_request",
    "Budget", "Deadline", "SolveResult", "Analysis", "analyse", "analyses", "Table",
    "Line", "LinePlay",
    "Record", "RecordError", "parse_records", "read_records", "format_records",
    "review", "Review", "match_report", "MatchReport", "Choices", "trump_choice",
    "sale_choice", "festa_choice", "contract_choice", "redeal_choice",
    "hint", "HintResult", "ChoiceHint", "trump_hint", "sale_hint", "contract_hint",
    "festa_hint", "hint_request",
    "KingsolveError", "ParseError", "InvalidDealError", "IllegalPlayError",
    "InvalidRequestError", "InvalidRulesError", "UnknownVariantError", "UnknownContractError",
    "SolveTimeout",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    setattr(sys.modules[__name__], name, value)
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


if TYPE_CHECKING:   # the names as type checkers and editors see them
    from .search.analysis import Analysis, analyse, analyses
    from .search.line import Line, LinePlay
    from .game.cards import Card, Rank, Seat, Suit
    from .hands.choices import (Choices, contract_choice, festa_choice, redeal_choice,
                                sale_choice, trump_choice)
    from .game.deal import Deal
    from .errors import (IllegalPlayError, InvalidDealError, InvalidRequestError,
                         InvalidRulesError, KingsolveError, ParseError, SolveTimeout,
                         UnknownContractError, UnknownVariantError)
    from .hands.hints import (ChoiceHint, HintResult, contract_hint, festa_hint, hint,
                              sale_hint, trump_hint)
    from .game.position import Position, Trick
    from .game.record import (Record, RecordError, format_records, parse_records, read_records)
    from .hands.report import MatchReport, match_report
    from .io.request import hint_request, legal_request, position_from_request, solve_request
    from .search.budget import Budget, Deadline
    from .search.result import SolveResult
    from .hands.reviews import Review, review
    from .game.rule_documents import resolve_variant, rules_from_dict, rules_from_json
    from .game.rules import VARIANTS, Contract, RuleSet, get_variant
    from .search.solver import solve
    from .search.table import Table, dd_table
