"""Statistics over batch results: distributions of double-dummy values.

``collect`` pairs each request with its response (by position, checking ids) and
counts, per rule set, contract (with its trump) and seat, how often each value
occurs. Seats are also counted by their role: ``leader``, then ``2nd``, ``3rd``,
``4th`` in play direction, so that deals with different leaders add up.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any, Iterable

from .cards import Seat
from .errors import InvalidRequestError
from .rules import get_variant

__all__ = ["ValueStats", "collect", "format_stats", "plot_stats"]

ROLES = ("leader", "2nd", "3rd", "4th")

_MISSING = object()   # zip_longest's filler: a request or response the other file lacks


@dataclass
class ValueStats:
    """Counts of values per (variant, contract label, seat or role)."""

    counts: dict[tuple[str, str, str], Counter] = field(default_factory=lambda: defaultdict(Counter))
    skipped: int = 0

    def add(self, variant: str, label: str, who: str, value: float) -> None:
        self.counts[(variant, label, who)][value] += 1

    def rows(self) -> list[dict]:
        """One row per (variant, contract, seat/role): n, mean, and the distribution."""
        out = []
        for (variant, label, who), counter in sorted(self.counts.items()):
            n = sum(counter.values())
            mean = sum(v * c for v, c in counter.items()) / n
            out.append({"variant": variant, "contract": label, "seat": who, "n": n,
                        "mean": round(mean, 3),
                        "distribution": {_key(v): c for v, c in sorted(counter.items())}})
        return out

    def to_dict(self) -> dict:
        return {"rows": self.rows(), "skipped": self.skipped}


def _key(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)


def _label(req: dict) -> str:
    trump = req.get("trump")
    return f"{req['contract']} {trump}" if trump else str(req["contract"])


def collect(requests: Iterable[Any], responses: Iterable[Any]) -> ValueStats:
    """Count the values of solved full-deal requests; failed or partial ones are skipped.

    Raises ``InvalidRequestError`` unless there is exactly one response per request,
    with the same ids.
    """
    stats = ValueStats()
    pairs = zip_longest(requests, responses, fillvalue=_MISSING)
    for i, (req, resp) in enumerate(pairs):
        if req is _MISSING or resp is _MISSING:
            more = 1 + sum(1 for _ in pairs)
            n_req, n_resp = (i, i + more) if req is _MISSING else (i + more, i)
            raise InvalidRequestError(f"responses do not match requests: {n_req} requests but "
                                      f"{n_resp} responses (expected one response per request)")
        if not isinstance(req, dict) or not isinstance(resp, dict):
            stats.skipped += 1
            continue
        if req.get("id") != resp.get("id"):
            raise InvalidRequestError(f"responses do not match requests: response {i + 1} has id "
                                      f"{resp.get('id')!r}, request {i + 1} has {req.get('id')!r}")
        if "error" in resp or "values" not in resp or req.get("play"):
            stats.skipped += 1
            continue
        variant = get_variant(req.get("variant"))
        leader = Seat.parse(req.get("leader", "N"))
        order = [leader]
        while len(order) < 4:
            order.append(variant.next_seat(order[-1]))
        label = _label(req)
        for seat_name, value in resp["values"].items():
            seat = Seat.parse(seat_name)
            stats.add(variant.name, label, seat.name, value)
            if seat in order:
                stats.add(variant.name, label, ROLES[order.index(seat)], value)
    return stats


def format_stats(stats: ValueStats, by: str = "role") -> str:
    """A readable table: one line per contract and seat (or role), mean and distribution."""
    wanted = set(ROLES) if by == "role" else {s.name for s in Seat}
    lines = [f"{'variant':<18} {'contract':<22} {'seat':<6} {'n':>6} {'mean':>8}  distribution"]
    for row in stats.rows():
        if row["seat"] not in wanted:
            continue
        dist = " ".join(f"{v}:{c}" for v, c in row["distribution"].items())
        lines.append(f"{row['variant']:<18} {row['contract']:<22} {row['seat']:<6} "
                     f"{row['n']:>6} {row['mean']:>8.2f}  {dist}")
    if stats.skipped:
        lines.append(f"({stats.skipped} results skipped: failed, or not a full deal)")
    return "\n".join(lines)


def plot_stats(stats: ValueStats, path: str, by: str = "role") -> list[str]:
    """Bar charts of the value distributions, one panel per contract; returns files written."""
    try:
        import matplotlib
    except ImportError:
        raise InvalidRequestError("plots need matplotlib: pip install 'kingsolve[stats]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    wanted = ROLES if by == "role" else tuple(s.name for s in Seat)
    groups: dict[tuple[str, str], dict[str, dict]] = defaultdict(dict)
    for row in stats.rows():
        if row["seat"] in wanted:
            groups[(row["variant"], row["contract"])][row["seat"]] = row
    if not groups:
        raise InvalidRequestError("nothing to plot: no solved full-deal results")
    n = len(groups)
    fig, axes = plt.subplots(n, 1, figsize=(8, 2.6 * n), squeeze=False)
    for ax, ((variant, label), rows) in zip(axes[:, 0], sorted(groups.items())):
        values = sorted({float(v) for r in rows.values() for v in r["distribution"]})
        width = 0.8 / max(1, len(rows))
        for k, who in enumerate(w for w in wanted if w in rows):
            dist = rows[who]["distribution"]
            freq = [dist.get(_key(v), 0) / rows[who]["n"] for v in values]
            ax.bar([i + k * width for i in range(len(values))], freq, width, label=who)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(values))])
        ax.set_xticklabels([_key(v) for v in values])
        ax.set_title(f"{variant} {label}: double-dummy value")
        ax.set_ylabel("share of deals")
        ax.legend(fontsize="small", ncol=4)
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=90)
    except OSError as exc:
        raise InvalidRequestError(f"cannot write plot {path!r}: {exc.strerror or exc}") from None
    except ValueError as exc:   # matplotlib's answer to a file name ending it cannot write
        raise InvalidRequestError(f"cannot write plot {path!r}: {exc}") from None
    finally:
        plt.close(fig)
    return [path]
