"""kingsolve: double-dummy analysis for the card game King.

The value types (``Card``, ``Seat``, ``Deal``...), the rule sets as data
(``VARIANTS``), the play engine (``Position``) and the solver surfaces.
"""

from .cards import Card, Rank, Seat, Suit
from .deal import Deal
from .errors import (IllegalPlayError, InvalidDealError, InvalidRequestError, KingsolveError,
                     ParseError, SolveTimeout, UnknownContractError, UnknownVariantError)
from .position import Position, Trick
from .request import legal_request, position_from_request
from .rules import VARIANTS, Contract, RuleSet, get_variant
from .solver import dd_table, solve, solve_request

__version__ = "0.1.0"

__all__ = [
    "Card", "Rank", "Seat", "Suit", "Deal", "Position", "Trick",
    "Contract", "RuleSet", "VARIANTS", "get_variant",
    "legal_request", "position_from_request", "solve", "dd_table", "solve_request",
    "KingsolveError", "ParseError", "InvalidDealError", "IllegalPlayError",
    "InvalidRequestError", "UnknownVariantError", "UnknownContractError", "SolveTimeout",
]
