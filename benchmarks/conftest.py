"""The suite's options (``--quick``) and its table at the end of the run."""

from __future__ import annotations

from bench_core import OUTCOMES

from kingsolve import bench


def pytest_addoption(parser):
    parser.addoption("--quick", action="store_true",
                     help="one problem a group, as kingsolve bench --quick")


def pytest_terminal_summary(terminalreporter, config):
    outcomes = config.stash.get(OUTCOMES, [])
    if outcomes:
        terminalreporter.write_line(f"\n{bench.format_table(outcomes)}")
