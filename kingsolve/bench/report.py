"""What ``kingsolve bench`` shows of a run: the table, the signature, the run in
pytest-benchmark's JSON form and its change against an earlier run.

A run's JSON is pytest-benchmark's (``pytest --benchmark-json``): a benchmark per
group named ``test_group[GROUP]``, its one round the group's total time, and in
``extra_info`` the nodes, the problems solved and each problem's nodes, seconds and
whether it was solved; ``benchmarks/bench_core.py`` writes the same.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import statistics
from dataclasses import dataclass
from typing import Iterable

from ..errors import InvalidRequestError
from .runner import Outcome, signature

__all__ = ["Group", "by_group", "format_table", "group_info", "to_json", "read_run", "compare",
           "benchmark_name"]

#: The version of pytest-benchmark's JSON form written.
JSON_VERSION = "4.0.0"


@dataclass(frozen=True)
class Group:
    """The outcomes of one row of the table."""

    name: str
    outcomes: tuple[Outcome, ...]

    @property
    def nodes(self) -> int | None:
        counted = [o.nodes for o in self.outcomes if o.nodes is not None]
        return sum(counted) if counted else None

    @property
    def seconds(self) -> float:
        return sum(o.seconds for o in self.outcomes)

    @property
    def solved(self) -> int:
        return sum(o.solved for o in self.outcomes)

    def dds_ratio(self) -> float | None:
        """The median of the per-problem time ratios kingsolve/DDS, over the problems
        both solved; None without DDS."""
        ratios = [o.seconds / o.dds_seconds for o in self.outcomes
                  if o.dds_seconds and o.solved]
        return statistics.median(ratios) if ratios else None


def by_group(outcomes: Iterable[Outcome]) -> list[Group]:
    """The outcomes in groups, in the order the groups first ran."""
    groups: dict[str, list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(o.group, []).append(o)
    return [Group(name, tuple(os_)) for name, os_ in groups.items()]


def _seconds(x: float) -> str:
    if x < 0.01:
        return f"{x * 1000:.1f} ms"
    return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s"


def format_table(outcomes: list[Outcome], dds: bool = False) -> str:
    """The run as a Markdown table, a row per group, and the signature below it."""
    head = ["problems", "n", "solved", "nodes", "time", "median", "nodes/s"]
    if dds:
        head += ["DDS time", "time / DDS, median"]
    rows = [head, ["---"] * len(head)]
    for g in by_group(outcomes):
        nodes = g.nodes
        row = [g.name, str(len(g.outcomes)), f"{g.solved} of {len(g.outcomes)}",
               "-" if nodes is None else f"{nodes:,}", _seconds(g.seconds),
               _seconds(statistics.median(o.seconds for o in g.outcomes)),
               "-" if not nodes or not g.seconds else f"{nodes / g.seconds / 1e6:.2f} M"]
        if dds:
            ratio = g.dds_ratio()
            theirs = sum(o.dds_seconds or 0 for o in g.outcomes)
            row += ["-", "-"] if ratio is None else [_seconds(theirs), f"{ratio:.2f}"]
        rows.append(row)
    table = "\n".join("| " + " | ".join(r) + " |" for r in rows)
    budgets = sorted({o.nodes_budget for o in outcomes if o.exact and o.nodes_budget is not None})
    within = " or ".join(f"{n:,}" for n in budgets) or "-"
    return (f"{table}\n\nsignature {signature(outcomes)}: the nodes of the exact searches "
            f"solved within {within} nodes each, one thread")


def benchmark_name(group: str) -> str:
    """A group's benchmark name, as pytest names ``bench_core.py``'s test of it."""
    return f"test_group[{group}]"


def _stats(seconds: float) -> dict:
    """pytest-benchmark's statistics of one round of ``seconds``."""
    return {"min": seconds, "max": seconds, "mean": seconds, "stddev": 0, "rounds": 1,
            "median": seconds, "iqr": 0, "q1": seconds, "q3": seconds, "iqr_outliers": 0,
            "stddev_outliers": 0, "outliers": "0;0", "ld15iqr": seconds, "hd15iqr": seconds,
            "ops": 1 / seconds if seconds else 0, "total": seconds, "iterations": 1}


def group_info(group: Group) -> dict:
    """A group's ``extra_info``: its nodes, problems solved and each problem's figures."""
    return {"nodes": group.nodes, "solved": group.solved, "problems": {
        o.name: {"nodes": o.nodes, "seconds": round(o.seconds, 6), "solved": o.solved,
                 **({} if o.dds_seconds is None else {"dds_seconds": round(o.dds_seconds, 6)})}
        for o in group.outcomes}}


def to_json(outcomes: list[Outcome], quick: bool) -> dict:
    """The run in pytest-benchmark's JSON form, with the signature."""
    from .. import __version__
    benches = [{"group": g.name, "name": benchmark_name(g.name),
                "fullname": f"kingsolve bench::{benchmark_name(g.name)}",
                "params": {"group": g.name}, "param": g.name, "extra_info": group_info(g),
                "options": {"disable_gc": False, "timer": "perf_counter", "min_rounds": 1,
                            "max_time": 0, "min_time": 0, "warmup": False},
                "stats": _stats(g.seconds)} for g in by_group(outcomes)]
    return {"machine_info": {"node": platform.node(), "processor": platform.processor(),
                             "machine": platform.machine(), "python_implementation":
                             platform.python_implementation(), "python_version":
                             platform.python_version(), "release": platform.release(),
                             "system": platform.system(), "cpu": {"count": os.cpu_count()}},
            "commit_info": {}, "benchmarks": benches,
            "datetime": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "version": JSON_VERSION,
            "kingsolve": {"version": __version__, "quick": quick, "signature": signature(outcomes)}}


def read_run(path: str) -> dict[str, dict]:
    """An earlier run's JSON (``--json``, or pytest ``--benchmark-json`` of
    ``benchmarks/bench_core.py``): each group's time and ``extra_info`` by group name."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return {b["group"]: {"seconds": b["stats"]["median"], **b["extra_info"]}
                for b in data["benchmarks"]}
    except OSError as exc:
        raise InvalidRequestError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidRequestError(f"{path!r} is not a benchmark run's JSON ({type(exc).__name__}: "
                                  f"{exc})") from None


def _change(now: float, before: float) -> str:
    return f"{100 * (now / before - 1):+.0f}%" if before > 0 else "-"


def compare(outcomes: list[Outcome], earlier: dict[str, dict]) -> tuple[str, list[str]]:
    """A table of each group's time and nodes against an earlier run's (``read_run``),
    and the problems whose nodes changed (a change of the searched tree)."""
    rows = ["| problems | time | before | change | nodes | before | nodes changed |",
            "|---|---|---|---|---|---|---|"]
    changed: list[str] = []
    for g in by_group(outcomes):
        old = earlier.get(g.name)
        if old is None:
            rows.append(f"| {g.name} | {_seconds(g.seconds)} | - | new | {g.nodes} | - | - |")
            continue
        moved = [o.name for o in g.outcomes if o.exact and o.name in old["problems"]
                 and old["problems"][o.name]["nodes"] != o.nodes]
        changed += [f"{g.name}: {name}" for name in moved]
        rows.append(f"| {g.name} | {_seconds(g.seconds)} | {_seconds(old['seconds'])} | "
                    f"{_change(g.seconds, old['seconds'])} | {g.nodes} | "
                    f"{old.get('nodes')} | {len(moved) or '-'} |")
    return "\n".join(rows), changed
