"""The pytest-benchmark suite: the problems of ``kingsolve bench``, a test per group.

    .venv/bin/python -m pytest -p no:xdist benchmarks/bench_core.py --benchmark-enable \
        [--quick] [--benchmark-json FILE]

Each test runs one group of the library's seeded suite (``kingsolve.bench``) once and
times it whole; its ``extra_info`` holds the group's nodes, the problems solved and
each problem's figures, as ``kingsolve bench --json`` writes them, so either file
serves ``kingsolve bench --compare``. At the end the run is printed as ``kingsolve
bench`` prints it, with the same signature. DDS beside each doubles problem:
``kingsolve bench --dds``. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import pytest

from kingsolve import bench

#: The outcomes of the run so far, for the table at its end (conftest.py).
OUTCOMES = pytest.StashKey[list]()
#: Every group of the suite, in the order ``kingsolve bench`` runs them.
GROUPS = bench.groups()


def group_problems(group: str, quick: bool) -> list[bench.Problem]:
    """The problems of one group, as ``kingsolve bench`` runs them."""
    return [p for p in bench.problems(quick) if p.group == group]


@pytest.mark.parametrize("group", GROUPS)
def test_group(benchmark, group, request):
    quick = request.config.getoption("--quick")
    benchmark.group = group      # as kingsolve bench --json names it, for --compare
    outcomes = benchmark.pedantic(bench.run_problems, args=(group_problems(group, quick),),
                                  rounds=1, iterations=1)
    for g in bench.by_group(outcomes):
        benchmark.extra_info.update(bench.group_info(g))
    request.config.stash.setdefault(OUTCOMES, []).extend(outcomes)
