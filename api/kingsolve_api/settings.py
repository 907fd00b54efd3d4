"""The server's settings (``DEFAULTS``), checked when the app is made.

``create_app(config)``, ``kingsolve_api.serve.serve`` and ``kingsolve serve`` check each
setting they are given here, so that a wrong one is refused at once, in one line naming
it, instead of answering every request with an error later; each value comes back in
the one form the app reads (``"none"`` as the rate limit is None, no limit).
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable, Mapping

from kingsolve.checks import MAX_THREADS, check_int, is_number
from kingsolve.errors import KingsolveError, excerpt
from kingsolve.io.limits import MAX_MS, MAX_NODES

__all__ = ["InvalidSettingError", "SETTINGS", "check_settings", "check_rate", "check_origin"]

#: The longest a request body may stall, in seconds.
MAX_READ_TIMEOUT = 3600
#: The most search slots, and searches of one client, a server may have.
MAX_SLOTS = 1024
#: The smallest and largest request body a server may be given (in bytes: below the
#: smallest, even a short request would be refused), and its largest table.
MIN_BODY_BYTES, MAX_BODY_BYTES = 512, 1 << 30
MAX_TT_MB = 16 * 1024
#: Rate limits that mean no limit.
NO_LIMIT = ("none", "off", "0")


class InvalidSettingError(KingsolveError):
    """A setting of the server (``create_app``'s config, a flag of ``kingsolve serve``)
    that it cannot run with."""

    code = "invalid-setting"


def _count(lo: int, hi: int) -> Callable[[Any, str], int]:
    def check(value: Any, name: str) -> int:
        return check_int(value, name, lo, hi, error=InvalidSettingError)
    return check


def _amount(hi: float, unit: str) -> Callable[[Any, str], float]:
    """A check of a number above 0 and at most ``hi`` (``unit`` names what it counts)."""
    def check(value: Any, name: str) -> float:
        if not is_number(value) or not 0 < value <= hi or not math.isfinite(value):
            raise InvalidSettingError(f"invalid {name} {excerpt(value)}: expected {unit} "
                                      f"above 0, at most {hi:g}")
        return value
    return check


def _or_none(check: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    return lambda value, name: None if value is None else check(value, name)


def check_rate(value: Any, name: str = "KINGSOLVE_RATE_LIMIT") -> str | None:
    """A rate limit as Flask-Limiter reads it (``"600 per minute"``), or None for no
    limit (None, ``"none"``, ``"off"``)."""
    if value is None or isinstance(value, str) and value.strip().lower() in NO_LIMIT:
        return None
    expected = "a rate such as '600 per minute', or 'none'"
    if not isinstance(value, str):
        raise InvalidSettingError(f"invalid {name} {excerpt(value)}: expected {expected}")
    from limits import parse_many
    try:
        rates = parse_many(value)
    except ValueError:
        rates = []
    if not rates or any(rate.amount < 1 for rate in rates):
        raise InvalidSettingError(f"invalid {name} {excerpt(value)}: expected {expected}")
    return value


def check_origin(value: Any, name: str = "KINGSOLVE_CORS_ORIGINS") -> str:
    """A CORS origin as browsers send it, ``scheme://host[:port]`` in lower case, or ``*``."""
    from urllib.parse import urlsplit

    if value == "*":
        return value
    parts = urlsplit(value) if isinstance(value, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname \
            or parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise InvalidSettingError(f"invalid {name} {excerpt(value)}: expected an origin such as "
                                  f"https://club.example (scheme, host and port only) or '*'")
    return f"{parts.scheme}://{parts.netloc}".lower()


def _origins(value: Any, name: str) -> list[str]:
    """Origins: one as text, or a list of them; none when None or empty."""
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple, set, frozenset)):
        raise InvalidSettingError(f"invalid {name} {excerpt(value)}: expected a list of origins")
    return [check_origin(origin, name) for origin in value]


def _lock_dir(value: Any, name: str) -> str:
    """A folder that exists and this process may write its lock files in."""
    if not isinstance(value, (str, os.PathLike)) or not os.path.isdir(value) \
            or not os.access(value, os.W_OK | os.X_OK):
        raise InvalidSettingError(f"invalid {name} {excerpt(str(value))}: expected a folder "
                                  f"that exists and can be written")
    return os.fspath(value)


#: Each setting's check: its value in the form the app reads, or InvalidSettingError.
SETTINGS: dict[str, Callable[[Any, str], Any]] = {
    "MAX_CONTENT_LENGTH": _count(MIN_BODY_BYTES, MAX_BODY_BYTES),
    "KINGSOLVE_BATCH_MAX": _count(1, 10_000),
    "KINGSOLVE_MAX_NODES": _count(1, MAX_NODES),
    "KINGSOLVE_MAX_MS": _amount(MAX_MS, "milliseconds"),
    "KINGSOLVE_SOLVE_MS": _amount(MAX_MS, "milliseconds"),
    "KINGSOLVE_STREAM_MS": _amount(MAX_MS, "milliseconds"),
    "KINGSOLVE_BATCH_MS": _amount(MAX_MS, "milliseconds"),
    "KINGSOLVE_TT_MB": _count(1, MAX_TT_MB),
    "KINGSOLVE_TABLE_THREADS": _count(1, MAX_THREADS),
    "KINGSOLVE_READ_TIMEOUT": _amount(MAX_READ_TIMEOUT, "seconds"),
    "KINGSOLVE_SEARCH_SLOTS": _or_none(_count(1, MAX_SLOTS)),
    "KINGSOLVE_CLIENT_SEARCHES": _count(1, MAX_SLOTS),
    "KINGSOLVE_RATE_LIMIT": check_rate,
    "KINGSOLVE_CORS_ORIGINS": _origins,
    "KINGSOLVE_LOCK_DIR": _or_none(_lock_dir),
}


def check_settings(config: Mapping[str, Any],
                   names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``config`` with each server setting in it checked and in its one form; other keys
    (Flask's own) as they are. An unknown ``KINGSOLVE_`` key is refused as a misspelling.
    ``names`` gives the name an error uses for a setting (a flag of ``kingsolve serve``).

    >>> check_settings({"KINGSOLVE_RATE_LIMIT": "none", "TESTING": True})
    {'KINGSOLVE_RATE_LIMIT': None, 'TESTING': True}
    """
    unknown = sorted(key for key in config if key.startswith("KINGSOLVE_") and key not in SETTINGS)
    if unknown:
        raise InvalidSettingError(f"unknown setting {excerpt(unknown[0])}: expected one of "
                                  f"kingsolve_api.DEFAULTS")
    names = names or {}
    return {key: SETTINGS[key](value, names.get(key, key)) if key in SETTINGS else value
            for key, value in config.items()}
