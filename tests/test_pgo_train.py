"""The training run of the profile-guided build (``ext/pgo_train.py``, setup.py) still
drives the compiled core: the build falls back to a plain one when it fails, so a
change of the core's interface would otherwise only show as a slower build."""

import subprocess
import sys
from pathlib import Path

import kingsolve._core as core

ROOT = Path(__file__).resolve().parent.parent


def test_the_training_run_searches_with_the_built_core():
    out = subprocess.run([sys.executable, str(ROOT / "ext" / "pgo_train.py"), core.__file__,
                          "--seconds", "0.5"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "pgo training: " in out.stderr
    assert int(out.stderr.split("pgo training: ")[1].split()[0]) >= 1
