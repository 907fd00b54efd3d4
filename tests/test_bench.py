"""``kingsolve bench``: its suite is fixed, its signature pinned, its run written as
pytest-benchmark's JSON and compared with an earlier one, its bad flags refused."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kingsolve import bench
from kingsolve.bench.plot import plot_run
from kingsolve_cli import ExitCode, main

ROOT = Path(__file__).resolve().parent.parent

#: The groups of the pinned part of the suite: a few seconds of exact searches.
PINNED = ["9 tricks left", "domino"]
#: The nodes of the pinned part's exact searches, one thread, from empty tables.
#: A change of the search's tree moves it: the command below prints the new one.
SIGNATURE = 8278329
SIGNATURE_COMMAND = "kingsolve bench --quick --group '9 tricks left' --group domino"


@pytest.fixture(scope="module")
def pinned() -> list[bench.Outcome]:
    return bench.run_problems(bench.select(bench.problems(quick=True), PINNED))


def test_signature_is_pinned(pinned):
    assert all(o.exact for o in pinned)
    assert bench.signature(pinned) == SIGNATURE, (
        f"the search's tree changed: `{SIGNATURE_COMMAND}` prints the new signature "
        f"for SIGNATURE in tests/test_bench.py")


def test_the_suite_is_generated_the_same_twice():
    one, two = bench.problems(quick=True), bench.problems(quick=True)
    assert [(p.name, repr(p.position)) for p in one] == [(p.name, repr(p.position)) for p in two]
    names = [(p.group, p.name) for p in bench.problems()]
    assert len(names) == len(set(names))
    # --quick has every group of the full suite
    assert bench.groups(quick=True) == bench.groups()


def test_the_suite_covers_every_rule_set_and_size():
    suite = bench.problems()
    singles = [p for p in suite if p.group.startswith("singles")]
    for what in ("penalty", "positive"):
        variants = {p.position.variant.name for p in singles if what in p.group}
        assert variants == {"italian", "italian-wikipedia", "portuguese", "turkish", "russian"}
    assert {p.tricks_left for p in singles} == {8, 9, 10, 11, 12, 13}
    doubles = [p for p in suite if p.doubles]
    assert {p.position.contract.name for p in doubles} == {"no-trumps", "trumps"}
    assert {p.kind for p in suite} == {"solve", "domino", "first-answer", "anytime", "hint"}


def test_bench_core_runs_the_same_groups_and_nodes(pinned):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_core
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    assert bench_core.GROUPS == bench.groups()
    group = "doubles trumps, 9 tricks left"
    again = bench.run_problems(bench_core.group_problems(group, quick=True))
    assert [(o.name, o.nodes) for o in again] == \
        [(o.name, o.nodes) for o in pinned if o.group == group]


def _outside_pytest() -> dict[str, str]:
    """This environment without the variables pytest and xdist set for their workers,
    which a pytest run started from a worker would take for its own."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}


def test_make_bench_json_compares_with_kingsolve_bench(tmp_path, capsys):
    # make bench's pytest-benchmark run of a group, read back by kingsolve bench --compare:
    # the same problems, the same nodes
    group = "doubles trumps, 9 tricks left"
    run = tmp_path / "make-bench.json"
    pytest_run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
         f"benchmarks/bench_core.py::test_group[{group}]", "--quick",
         "--benchmark-enable", f"--benchmark-json={run}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, env=_outside_pytest())
    assert pytest_run.returncode == 0, pytest_run.stdout[-2000:]
    assert f"| {group} | 1 | 1 of 1 |" in pytest_run.stdout
    code, out, err = _run(["bench", "--quick", "--group", group, "--compare", str(run)], capsys)
    assert code == ExitCode.OK, err
    rows = [line for line in out.splitlines() if line.startswith(f"| {group} |")]
    assert len(rows) == 2                  # the table's row, and the comparison's
    *_, nodes, nodes_before, changed = [c.strip() for c in rows[1].strip("|").split("|")]
    assert nodes == nodes_before != "None" and changed == "-"


def _run(argv, capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


ONE_GROUP = ["bench", "--quick", "--group", "doubles no-trumps, 9 tricks left"]


def test_json_is_pytest_benchmarks_form_and_compare_flags_changed_nodes(tmp_path, capsys):
    run = tmp_path / "run.json"
    code, out, _ = _run(ONE_GROUP + ["--json", str(run)], capsys)
    assert code == ExitCode.OK and "| doubles no-trumps, 9 tricks left | 1 | 1 of 1 |" in out
    data = json.loads(run.read_text())
    (entry,) = data["benchmarks"]
    assert entry["name"] == "test_group[doubles no-trumps, 9 tricks left]"
    assert {"median", "mean", "min", "max", "rounds"} <= set(entry["stats"])
    assert data["kingsolve"]["signature"] == entry["extra_info"]["nodes"] > 0
    # the same tree: no change flagged
    code, out, _ = _run(ONE_GROUP + ["--compare", str(run)], capsys)
    assert code == ExitCode.OK and "nodes changed:" not in out
    # one problem's nodes moved: flagged, and the exit code says so
    (problem,) = entry["extra_info"]["problems"].values()
    problem["nodes"] += 1
    run.write_text(json.dumps(data))
    code, out, err = _run(ONE_GROUP + ["--compare", str(run)], capsys)
    assert code == ExitCode.FAILED_ITEMS
    assert "nodes changed: doubles no-trumps, 9 tricks left: italian no-trumps" in out
    assert "1 problems searched a different number of nodes" in err


@pytest.mark.parametrize("argv,message", [
    (["--plot", "run.pdf"], "must end in .png or .svg"),
    (["--plot", "no/such/folder/run.svg"], "no folder 'no/such/folder'"),
    (["--json", "no/such/folder/run.json"], "no folder 'no/such/folder'"),
    (["--group", "klondike"], "no group's name holds 'klondike'"),
    (["--quick", "7"], "unrecognized arguments: 7"),
])
def test_bad_flags_exit_2_with_one_line(argv, message, capsys):
    try:
        code = main(["bench", *argv])
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code == ExitCode.USAGE
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_compare_with_a_file_that_is_no_run_exits_3(tmp_path, capsys):
    other = tmp_path / "other.json"
    other.write_text('{"rows": []}')
    code, _, err = _run(ONE_GROUP + ["--compare", str(other)], capsys)
    assert code == ExitCode.BAD_INPUT and "is not a benchmark run's JSON" in err


@pytest.mark.parametrize("name,start", [("run.svg", b"<?xml"), ("run.png", b"\x89PNG")])
def test_plot_writes_svg_or_png(pinned, tmp_path, name, start):
    pytest.importorskip("matplotlib")
    path = tmp_path / name
    plot_run(pinned, str(path))
    assert path.read_bytes().startswith(start)


IMPORTS_RESEARCH = re.compile(r"^\s*(from\s+research[.\s]|import\s+research\b)|^.*sys\.path.*research",
                              re.M)


def test_nothing_imports_the_research():
    # research/ holds the measurements that decided a design; the package, the suite a
    # user runs and the tests stand without it
    assert IMPORTS_RESEARCH.search("from research.core_speed import forget")
    for folder in ("kingsolve", "kingsolve_cli", "api", "benchmarks", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            found = IMPORTS_RESEARCH.search(path.read_text(encoding="utf-8"))
            assert found is None, f"{path}: {found and found.group(0)}"
