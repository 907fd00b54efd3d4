"""kingsolve: double-dummy analysis for the card game King.

The value types (``Card``, ``Seat``, ``Deal``...), the rule sets as data
(``VARIANTS``), the play engine (``Position``), the solver surfaces, their typed
results (``SolveResult``, ``Analysis``, ``Table``...) and the budgets that bound
them (``Budget``, started as a ``Deadline``).
"""

from .cards import Card, Rank, Seat, Suit
from .deal import Deal
from .errors import (IllegalPlayError, InvalidDealError, InvalidRequestError, KingsolveError,
                     ParseError, SolveTimeout, UnknownContractError, UnknownVariantError)
from .position import Position, Trick
from .request import hint_request, legal_request, position_from_request, solve_request
from .result import Budget, Deadline, SolveResult
from .rules import VARIANTS, Contract, RuleSet, get_variant
from .solver import solve
from .analysis import Analysis, analyse, analyses
from .table import Table, dd_table
from .record import Record, RecordError, format_records, parse_records, read_records
from .review import Review, review
from .report import MatchReport, match_report
from .choices import (Choices, contract_choice, festa_choice, redeal_choice, sale_choice,
                      trump_choice)
from .hint import (ChoiceHint, HintResult, contract_hint, festa_hint, hint, sale_hint,
                   sell_hint, trump_hint)

__version__ = "0.1.0"

__all__ = [
    "Card", "Rank", "Seat", "Suit", "Deal", "Position", "Trick",
    "Contract", "RuleSet", "VARIANTS", "get_variant",
    "legal_request", "position_from_request", "solve", "dd_table", "solve_request",
    "Budget", "Deadline", "SolveResult", "Analysis", "analyse", "analyses", "Table",
    "Record", "RecordError", "parse_records", "read_records", "format_records",
    "review", "Review", "match_report", "MatchReport", "Choices", "trump_choice",
    "sale_choice", "festa_choice", "contract_choice", "redeal_choice",
    "hint", "HintResult", "ChoiceHint", "trump_hint", "sale_hint", "sell_hint", "contract_hint",
    "festa_hint", "hint_request",
    "KingsolveError", "ParseError", "InvalidDealError", "IllegalPlayError",
    "InvalidRequestError", "UnknownVariantError", "UnknownContractError", "SolveTimeout",
]
