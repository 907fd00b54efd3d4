"""The wheel of ``make wheel``, installed in a fresh venv where no compiler can be found:
the command line solves, runs its bench and serves, and the README's library example runs.

The wheel in ``dist/`` is used when it is newer than every file it is built from
(``.ci/run`` builds it first); otherwise the test builds it (about a minute). It is one
test, so that parallel workers never build or install it twice at once.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEAL = "N:A643.KJT8.92.AK3 2.653.QJT7.T9842 KQ97.Q9.AK54.J75 JT85.A742.863.Q6"

pytestmark = pytest.mark.slow


def _built_from() -> list[Path]:
    files = [ROOT / name for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md")]
    for folder in ("ext", "kingsolve", "kingsolve_cli", "kingsolve_api", "api"):
        files += [p for p in (ROOT / folder).rglob("*")
                  if p.is_file() and p.suffix not in (".so", ".c", ".pyc")]
    return files


def _version() -> str:
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def built_wheel() -> Path:
    pattern = f"dist/kingsolve-{_version()}-*-manylinux*_x86_64.whl"
    newest_source = max(p.stat().st_mtime for p in _built_from())
    found = sorted(ROOT.glob(pattern))
    if not found or found[-1].stat().st_mtime < newest_source:
        if shutil.which("make") is None:
            pytest.skip("no wheel in dist/ and no make to build one")
        build = subprocess.run(["make", "wheel"], cwd=ROOT, capture_output=True, text=True,
                               timeout=900)
        assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
        found = sorted(ROOT.glob(pattern))
    assert len(found) == 1, found
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    if f"-{tag}-" not in found[0].name:
        pytest.skip(f"{found[0].name} is for another Python than this {tag}")
    return found[0]


def installed(wheel: Path, home: Path) -> tuple[Path, dict[str, str]]:
    """A fresh venv holding the wheel and its dependencies (binary wheels only), and an
    environment with only the venv on its PATH and ``CC=false``: nothing can compile."""
    subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True, timeout=120)
    bin_dir = home / "venv" / "bin"
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTHON", "VIRTUAL_ENV", "KINGSOLVE"))}
    env.update(PATH=str(bin_dir), CC="false", CXX="false", PIP_DISABLE_PIP_VERSION_CHECK="1")
    for compiler in ("gcc", "cc", "clang", "cython"):
        assert shutil.which(compiler, path=env["PATH"]) is None, compiler
    install = subprocess.run([str(bin_dir / "pip"), "install", "-q", "--only-binary=:all:",
                              str(wheel)], cwd=home, env=env, capture_output=True, text=True,
                             timeout=600)
    assert install.returncode == 0, install.stderr[-3000:]
    return home, env


def _run(venv, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    home, env = venv
    return subprocess.run(list(argv), cwd=home, env=env, capture_output=True, text=True,
                          timeout=timeout)


def check_the_installed_package_is_the_wheels_with_its_stubs(venv):
    probe = ("import pathlib, kingsolve, kingsolve._core, kingsolve._domino\n"
             "home = pathlib.Path(kingsolve.__file__).parent\n"
             "print(kingsolve.__version__, home)\n"
             "print(*sorted(p.name for p in home.glob('*.pyi')), (home / 'py.typed').exists())\n")
    run = _run(venv, "python", "-c", probe)
    assert run.returncode == 0, run.stderr
    version_line, stubs_line = run.stdout.splitlines()
    version, home = version_line.split()
    assert version == _version()
    assert Path(home).is_relative_to(venv[0] / "venv")    # not the checkout
    assert stubs_line.split() == ["_core.pyi", "_domino.pyi", "True"]


def check_kingsolve_solve_answers(venv):
    run = _run(venv, "kingsolve", "solve", "--variant", "italian", "--contract", "no-hearts",
               "--deal", DEAL, "--play", "SA", "--seats", "E", "--ms", "500")
    assert run.returncode == 0, run.stderr
    assert '"to_move": "E"' in run.stdout and '"bounds"' in run.stdout


def check_kingsolve_bench_quick_runs(venv):
    run = _run(venv, "kingsolve", "bench", "--quick", timeout=300)
    assert run.returncode == 0, run.stderr
    assert "| singles penalty, full deal |" in run.stdout and "\nsignature " in run.stdout
    assert not run.stderr     # no progress bar on a pipe


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_kingsolve_serve_answers_its_health_check(venv):
    home, env = venv
    port = _free_port()
    server = subprocess.Popen(["kingsolve", "serve", "--port", str(port), "--workers", "1",
                               "--threads", "2"], cwd=home, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        body, deadline = None, time.monotonic() + 60
        while body is None and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                    body = r.read().decode()
            except OSError:
                time.sleep(0.2)
        assert body is not None, f"no answer; exit {server.poll()}"
        assert '"status":"ok"' in body.replace(" ", "") and _version() in body
    finally:
        server.terminate()
        server.wait(timeout=30)


def check_the_readme_library_example_runs(venv):
    home, _ = venv
    shutil.copy(ROOT / "README.md", home / "README.md")
    run = _run(venv, "python", "-m", "doctest", "-v", "README.md")
    assert run.returncode == 0, run.stdout[-3000:]
    assert "0 failed" in run.stdout and "kingsolve.analyse" in run.stdout


def test_the_wheel_installs_and_answers_without_a_compiler(tmp_path):
    venv = installed(built_wheel(), tmp_path)
    check_the_installed_package_is_the_wheels_with_its_stubs(venv)
    check_kingsolve_solve_answers(venv)
    check_kingsolve_bench_quick_runs(venv)
    check_kingsolve_serve_answers_its_health_check(venv)
    check_the_readme_library_example_runs(venv)
