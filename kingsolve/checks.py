"""Checks of the numbers and JSON objects the library's functions and the request layer take.

Every integer check refuses a ``bool``: JSON ``true`` arrives as Python ``True``,
which is an ``int``, and ``"samples": true`` must be an error, not one sample. The
messages say what was expected and quote the value cut short (``errors.excerpt``).
"""

from __future__ import annotations

from typing import Any, Collection, Mapping

from .errors import InvalidRequestError, KingsolveError, excerpt

__all__ = ["MAX_THREADS", "is_int", "is_number", "check_int", "check_positive", "check_threads",
           "check_fields"]

#: The most search threads one call may ask for.
MAX_THREADS = 64


def is_int(value: Any, lo: int | None = None, hi: int | None = None) -> bool:
    """Whether ``value`` is an integer (a bool is not) from ``lo`` to ``hi``, an end
    left open when None.

    >>> is_int(3, 1, 64), is_int(True), is_int(0, lo=1), is_int(2.0)
    (True, False, False, False)
    """
    return (isinstance(value, int) and not isinstance(value, bool)
            and (lo is None or value >= lo) and (hi is None or value <= hi))


def is_number(value: Any) -> bool:
    """Whether ``value`` is an integer or a float (a bool is not).

    >>> is_number(2.5), is_number(7), is_number(False), is_number("3")
    (True, True, False, False)
    """
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _span(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"{lo} to {hi}"
    if lo is not None:
        return f"at least {lo}"
    return "an integer" if hi is None else f"at most {hi}"


def check_int(value: Any, what: str, lo: int | None = None, hi: int | None = None,
              expected: str | None = None,
              error: type[KingsolveError] = InvalidRequestError) -> int:
    """``value`` when it is an integer from ``lo`` to ``hi``; else ``error``
    ("invalid WHAT VALUE: expected ...", the range unless ``expected`` says more).

    >>> check_int(7, "seed")
    7
    >>> check_int(0, "samples", 1, 2000)
    Traceback (most recent call last):
    kingsolve.errors.InvalidRequestError: invalid samples 0: expected 1 to 2000
    """
    if not is_int(value, lo, hi):
        raise error(f"invalid {what} {excerpt(value)}: expected {expected or _span(lo, hi)}")
    return value


def check_positive(value: Any, what: str, expected: str = "a positive number",
                   error: type[KingsolveError] = InvalidRequestError) -> float:
    """``value`` as a float when it is a number above 0; else ``error``.

    >>> check_positive(250, "ms")
    250.0
    """
    if not is_number(value) or not value > 0:
        raise error(f"invalid {what} {excerpt(value)}: expected {expected}")
    return float(value)


def check_threads(threads: Any) -> int:
    """``threads`` when it is a thread count from 1 to ``MAX_THREADS``."""
    return check_int(threads, "threads", 1, MAX_THREADS)


def check_fields(data: Any, fields: Collection[str], noun: str, kind: str = "request",
                 error: type[KingsolveError] = InvalidRequestError) -> Mapping[str, Any]:
    """``data`` if it is a mapping with ``fields`` only, else ``error``: a JSON object
    read as a ``kind`` (request, record), named ``noun`` in the message."""
    if not isinstance(data, Mapping):
        raise error(f"invalid {kind}: expected a JSON object, got {type(data).__name__}")
    unknown = sorted(k for k in data if k not in fields)
    if unknown:
        raise error(f"unknown field {excerpt(unknown[0])} in {noun}: expected "
                    f"{', '.join(sorted(fields))}")
    return data
