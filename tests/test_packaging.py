"""What an install copies: every package, the board's static files, no setuptools warning."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_board_is_packaged_without_warnings(tmp_path):
    # build_py copies what a wheel holds, without compiling the core (KINGSOLVE_EXT
    # names no module), so it takes a second.
    env = {**os.environ, "KINGSOLVE_EXT": "none"}
    build = subprocess.run([sys.executable, "setup.py", "build_py", "--build-lib", str(tmp_path)],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    assert "absent from the `packages` configuration" not in build.stdout + build.stderr
    static = sorted(p.name for p in (ROOT / "api" / "static").iterdir() if p.is_file())
    assert static and sorted(p.name for p in (tmp_path / "kingsolve_api" / "static").iterdir()) \
        == static
    assert (tmp_path / "kingsolve" / "py.typed").exists()
