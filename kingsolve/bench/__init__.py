"""``kingsolve bench``: a fixed, seeded suite of problems that any install runs, with
its speed on this machine and a node-count signature of the build.

``suite`` holds the problems, ``runner`` runs them, ``report`` prints the table,
writes the run as pytest-benchmark's JSON and compares it with an earlier run, and
``plot`` draws it (with matplotlib, the optional extra ``stats``).

>>> from kingsolve.bench import problems, run_problems, signature
>>> nine = [p for p in problems(quick=True) if p.group == "doubles no-trumps, 9 tricks left"]
>>> outcomes = run_problems(nine)
>>> all(o.solved for o in outcomes) and signature(outcomes) > 0
True
"""

from __future__ import annotations

import os
import platform

from .report import by_group, compare, format_table, group_info, read_run, to_json
from .runner import Outcome, dds_solver, run_problems, signature
from .suite import NODES, Problem, groups, problems

__all__ = ["Problem", "problems", "groups", "select", "NODES", "Outcome", "run_problems",
           "signature", "dds_solver", "by_group", "group_info", "format_table", "to_json", "read_run",
           "compare", "machine"]


def select(all_problems: list[Problem], names: "list[str] | None") -> list[Problem]:
    """The problems whose group's name holds one of ``names`` (all when none given)."""
    if not names:
        return all_problems
    return [p for p in all_problems if any(n in p.group for n in names)]


def machine() -> str:
    """This machine in one line: its processor, cores, system and Python."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f
                        if line.startswith("model name")), cpu)
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()}, Python {platform.python_version()}"
