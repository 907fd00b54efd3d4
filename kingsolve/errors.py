"""The package's error family: every error for bad input is a ``KingsolveError``.

``KingsolveError`` is also a ``ValueError``, so callers that only know the
standard library can still catch bad input the usual way.
"""

from __future__ import annotations

__all__ = [
    "KingsolveError",
    "ParseError",
    "InvalidDealError",
    "IllegalPlayError",
    "UnknownVariantError",
    "UnknownContractError",
    "InvalidRequestError",
    "InvalidRulesError",
    "SolveTimeout",
    "excerpt",
]

#: Characters of a client's input that an error message quotes at most.
EXCERPT = 40


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """``value`` quoted for an error message, cut to ``limit`` characters with an ellipsis.

    Messages quote the input, but an oversized input must not come back whole.

    >>> excerpt("N:AKQ")
    "'N:AKQ'"
    >>> excerpt("x" * 1000, 5)
    "'xxxxx…'"
    >>> excerpt(["SA"] * 1000, 12)
    "['SA', 'SA',…"
    """
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[:limit] + "…")
    if isinstance(value, int) and value.bit_length() > 4 * limit:
        return f"a number of {value.bit_length()} bits"    # no decimal text: it may be huge
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


class KingsolveError(ValueError):
    """Base of every error kingsolve raises for bad input or an exceeded budget.

    ``field``, when known, names the part of the input to blame (``"trump"``,
    ``"deal"``...): a record points at the tag that holds it.
    """

    code = "invalid"

    def __init__(self, message: str = "", field: "str | None" = None) -> None:
        super().__init__(message)
        self.field = field

    def to_dict(self) -> dict:
        """The error as the JSON surfaces (API, batches) send it."""
        return {"error": self.code, "message": str(self)}


class ParseError(KingsolveError):
    """Text that is not in the expected notation (a card, a seat, a deal)."""

    code = "parse"


class InvalidDealError(KingsolveError):
    """A deal that parses but makes no sense: duplicate cards, unequal hands..."""

    code = "invalid-deal"


class IllegalPlayError(KingsolveError):
    """A card in a play record that the rules do not allow at that point."""

    code = "illegal-play"


class UnknownVariantError(KingsolveError):
    """A rule-set name that is not in the registry."""

    code = "unknown-variant"


class UnknownContractError(KingsolveError):
    """A contract name that the rule set does not have, or options it does not take."""

    code = "unknown-contract"


class InvalidRequestError(KingsolveError):
    """A request dict with a missing, mistyped or oversized field."""

    code = "invalid-request"


class InvalidRulesError(InvalidRequestError):
    """A rule document (``kingsolve.game.rule_documents``) that cannot be played or is too
    large; the message names the field."""

    code = "invalid-rules"


class SolveTimeout(KingsolveError):
    """A search that went over its node or time budget before finishing.

    ``bounds`` (when the search got that far) maps each seat asked for to the
    (lowest, highest) value proved before the stop: the exact value lies between.
    """

    code = "budget"

    def __init__(self, message: str, bounds: "dict | None" = None) -> None:
        super().__init__(message)
        self.bounds = bounds

    @classmethod
    def proved(cls, message: str, bounds: dict) -> "SolveTimeout":
        """The stop with the ranges proved before it, also said in the message:
        ``...; proved so far: N -12 to 0, E -3``."""
        shown = ", ".join(f"{getattr(s, 'name', s)} {lo}" + ("" if lo == hi else f" to {hi}")
                          for s, (lo, hi) in bounds.items())
        return cls(f"{message}; proved so far: {shown}", bounds=bounds)

    def to_dict(self) -> dict:
        out = super().to_dict()
        if self.bounds:
            out["bounds"] = {getattr(s, "name", str(s)): [lo, hi]
                             for s, (lo, hi) in self.bounds.items()}
        return out
