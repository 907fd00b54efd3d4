"""The numbers of scores as the answers write them: exact integers and fractions
(``Number``), as JSON numbers every client reads exactly."""

from __future__ import annotations

from fractions import Fraction
from typing import Union

__all__ = ["Number", "json_number", "json_int", "JSON_SAFE_INT"]

#: A score: an integer, or an exact fraction (domino shared wins).
Number = Union[int, Fraction]


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


def json_number(x: Number) -> int | float:
    """A score as a JSON number: an integer when whole, else a float."""
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    if isinstance(x, float) and x != int(x):
        return x
    return int(x)
