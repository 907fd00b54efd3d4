"""Statistics over batch results: distributions of double-dummy values.

``collect`` pairs each request with its response (by position, checking ids) and
counts, per rule set, contract (with its trump, options and doubles) and seat, the
values found: exact ones, estimates inside their proved ranges, and proved ranges
alone (a search stopped at its budget). Seats are also counted by their role:
``leader``, then ``2nd``, ``3rd``, ``4th`` in play direction, so that deals with
different leaders add up. Every response is counted or skipped with its reason.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any, Iterable, NamedTuple

from ..search.analysis import LEGEND
from ..game.cards import Seat
from ..errors import InvalidRequestError, KingsolveError
from ..game.rule_documents import resolve_variant

__all__ = ["Found", "ValueStats", "collect", "format_stats", "plot_stats"]

ROLES = ("leader", "2nd", "3rd", "4th")

_MISSING = object()   # zip_longest's filler: a request or response the other file lacks


class Found(NamedTuple):
    """One seat's value in one response: its proved range, and its estimate (the
    value when exact; None when only the range is known)."""

    lo: float
    hi: float
    estimate: float | None

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


@dataclass
class ValueStats:
    """The values found per (variant, contract label, seat or role), and what the
    responses were: ``counted`` by kind (exact, estimated, ranges) and ``skipped``
    by reason."""

    found: dict[tuple[str, str, str], list[Found]] = field(default_factory=lambda: defaultdict(list))
    counted: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)

    @property
    def skipped(self) -> int:
        """How many responses were not counted."""
        return sum(self.reasons.values())

    def add(self, variant: str, label: str, who: str, value: "float | Found") -> None:
        if not isinstance(value, Found):
            value = Found(value, value, value)
        self.found[(variant, label, who)].append(value)

    def rows(self) -> list[dict]:
        """One row per (variant, contract, seat/role): ``n`` values, ``exact`` of them;
        ``mean`` (of the exact values and estimates; None when some value has only a
        range) and ``mean_bounds``, the proved range of the true mean; the
        ``distribution`` of the exact values, ``estimates`` and ``ranges`` the others'."""
        out = []
        for (variant, label, who), found in sorted(self.found.items()):
            n = len(found)
            ests = [f.estimate for f in found if f.estimate is not None]
            out.append({
                "variant": variant, "contract": label, "seat": who, "n": n,
                "exact": sum(f.exact for f in found),
                "mean": round(sum(ests) / n, 3) if len(ests) == n else None,
                "mean_bounds": [round(sum(f.lo for f in found) / n, 3),
                                round(sum(f.hi for f in found) / n, 3)],
                "distribution": _counts(f.lo for f in found if f.exact),
                "estimates": _counts(f.estimate for f in found
                                     if not f.exact and f.estimate is not None),
                "ranges": dict(sorted(Counter(f"{_key(f.lo)}..{_key(f.hi)}" for f in found
                                              if f.estimate is None).items()))})
        return out

    def to_dict(self) -> dict:
        return {"rows": self.rows(), "counted": dict(self.counted), "skipped": self.skipped,
                "skipped_by_reason": dict(self.reasons)}


def _counts(values: Iterable[float]) -> dict[str, int]:
    return {_key(v): c for v, c in sorted(Counter(values).items())}


def _key(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)


def _label(req: dict) -> str:
    trump = req.get("trump")
    label = f"{req['contract']} {trump}" if trump else str(req["contract"])
    # other rules, other values: doubles and contract options make their own rows
    extra = (["doubles"] if req.get("doubles") else []) + sorted(req.get("options") or [])
    return f"{label} ({', '.join(extra)})" if extra else label


def _values(resp: dict) -> dict[str, Found]:
    """Each seat's value in a response: from its proved ranges and estimates (an
    analysis, or a stop at the budget), else from its exact values."""
    bounds, estimates = resp.get("bounds") or {}, resp.get("estimates") or {}
    out = {name: Found(v, v, v) for name, v in (resp.get("values") or {}).items()}
    for name, (lo, hi) in bounds.items():
        out[name] = Found(lo, hi, lo if lo == hi else estimates.get(name))
    return out


def _skip_reason(req: Any, resp: Any) -> str | None:
    """Why a response is not counted (None when it is)."""
    if not isinstance(req, dict) or not isinstance(resp, dict):
        return "not a JSON object"
    if "error" in resp and not (resp.get("error") == "budget" and resp.get("bounds")):
        return f"failed ({resp.get('error')})"
    if req.get("play"):
        return "cards already played: not a whole deal"
    if not _values(resp):
        return "no values: not a solve response"
    return None


def collect(requests: Iterable[Any], responses: Iterable[Any]) -> ValueStats:
    """The values of the whole-deal solve responses, with every other response's
    reason for being skipped.

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
        if isinstance(req, dict) and isinstance(resp, dict) and req.get("id") != resp.get("id"):
            raise InvalidRequestError(f"responses do not match requests: response {i + 1} has id "
                                      f"{resp.get('id')!r}, request {i + 1} has {req.get('id')!r}")
        reason = _skip_reason(req, resp)
        if reason is None and isinstance(req, dict) and isinstance(resp, dict):
            try:
                reason = _count(stats, req, resp)
            except (KingsolveError, KeyError, TypeError, ValueError) as exc:
                reason = f"request not understood: {exc}"
        if reason is not None:
            stats.reasons[reason] += 1
    return stats


def _count(stats: ValueStats, req: dict, resp: dict) -> str | None:
    variant = resolve_variant(req.get("variant"))
    leader = Seat.parse(req.get("leader", "N"))
    order = [leader]
    while len(order) < 4:
        order.append(variant.next_seat(order[-1]))
    label = _label(req)
    found = {Seat.parse(name): f for name, f in _values(resp).items()}
    for seat, f in found.items():
        stats.add(variant.name, label, seat.name, f)
        if seat in order:
            stats.add(variant.name, label, ROLES[order.index(seat)], f)
    kind = "exact" if all(f.exact for f in found.values()) else \
        "estimated" if all(f.estimate is not None for f in found.values()) else "ranges"
    stats.counted[kind] += 1
    return None


def _mean_text(row: dict) -> str:
    lo, hi = row["mean_bounds"]
    if lo == hi:
        return f"{lo:.2f}"
    if row["mean"] is None:
        return f"{lo:.2f}..{hi:.2f}"
    return f"≈{row['mean']:.2f} ({lo:.2f}..{hi:.2f})"


def format_stats(stats: ValueStats, by: str = "role") -> str:
    """A readable table: one line per contract and seat (or role), with its count,
    mean and distribution marked as exact, estimated or proved ranges, then how
    many responses were counted and why the others were skipped."""
    wanted = set(ROLES) if by == "role" else {s.name for s in Seat}
    rows = [r for r in stats.rows() if r["seat"] in wanted]
    cells = [["variant", "contract", "seat", "n", "exact", "mean", "distribution"]]
    for row in rows:
        dist = [f"{v}:{c}" for v, c in row["distribution"].items()]
        dist += [f"≈{v}:{c}" for v, c in row["estimates"].items()]
        dist += [f"{v}:{c}" for v, c in row["ranges"].items()]
        cells.append([row["variant"], row["contract"], row["seat"], str(row["n"]),
                      str(row["exact"]), _mean_text(row), " ".join(dist)])
    widths = [max(len(r[i]) for r in cells) for i in range(len(cells[0]) - 1)]
    right = {3, 4, 5}
    lines = ["  ".join(c.rjust(w) if i in right else c.ljust(w)
                       for i, (c, w) in enumerate(zip(r, widths))) + "  " + r[-1]
             for r in cells]
    lines = [line.rstrip() for line in lines]
    if any(r["exact"] < r["n"] for r in rows):
        lines.append(LEGEND + "; a mean's range holds the mean of the exact values")
    total = sum(stats.counted.values()) + stats.skipped
    kinds = [f"{stats.counted[k]} {what}" for k, what in
             (("exact", "exact"), ("estimated", "with estimates"),
              ("ranges", "with proved ranges only")) if stats.counted[k]]
    lines.append(f"counted {sum(stats.counted.values())} of {total} responses"
                 + (f": {', '.join(kinds)}" if kinds else ""))
    if stats.skipped:
        lines.append(f"skipped {stats.skipped}: " + ", ".join(
            f"{c} {reason}" for reason, c in sorted(stats.reasons.items(), key=lambda x: -x[1])))
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
        raise InvalidRequestError("nothing to plot: no whole-deal solve results")
    n = len(groups)
    fig, axes = plt.subplots(n, 1, figsize=(8, 2.6 * n), squeeze=False)
    for ax, ((variant, label), rows) in zip(axes[:, 0], sorted(groups.items())):
        values = sorted({float(v) for r in rows.values()
                         for v in [*r["distribution"], *r["estimates"]]})
        width = 0.8 / max(1, len(rows))
        for k, who in enumerate(w for w in wanted if w in rows):
            row = rows[who]
            at = [i + k * width for i in range(len(values))]
            exact = [row["distribution"].get(_key(v), 0) / row["n"] for v in values]
            est = [row["estimates"].get(_key(v), 0) / row["n"] for v in values]
            bars = ax.bar(at, exact, width, label=who)
            # an estimate stacked on the exact values, in the seat's colour, hatched
            ax.bar(at, est, width, bottom=exact, color=bars.patches[0].get_facecolor()
                   if bars.patches else None, alpha=0.45, hatch="//")
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(values))])
        ax.set_xticklabels([_key(v) for v in values])
        ranged = max(sum(r["ranges"].values()) for r in rows.values())
        notes = (["hatched: estimates"] if any(r["estimates"] for r in rows.values()) else []) \
            + ([f"{ranged} only a range, not drawn"] if ranged else [])
        ax.set_title(f"{variant} {label}: double-dummy value"
                     + (f" ({'; '.join(notes)})" if notes else ""))
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
