"""A user's script that calls ``kingsolve.analyse`` type-checks, and mypy sees the types
the package declares (``py.typed``): the analysis, its values by seat, and a misuse."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = textwrap.dedent("""\
    import kingsolve
    from kingsolve import Budget, Deal, Position, Seat

    position = Position("italian", "no-queens", Deal.random(seed=1), leader="N")
    analysis = kingsolve.analyse(position, budget=Budget(ms=50))
    reveal_type(analysis)
    reveal_type(analysis.values[Seat.N])
    reveal_type(kingsolve.solve(position).best)
    analysis.values["N"]
""")


def test_a_script_calling_analyse_type_checks(tmp_path):
    pytest.importorskip("mypy")
    (tmp_path / "script.py").write_text(SCRIPT)
    # in the script's own folder, with no settings of its own: mypy's defaults, as a
    # user runs it; kingsolve from this checkout (MYPYPATH), its own errors not reported,
    # as for an installed package
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                          "--follow-imports=silent", "script.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    notes = [(line, shown.replace("builtins.", "")) for line, shown in
             re.findall(r'script\.py:(\d+): note: Revealed type is "([^"]+)"', run.stdout)]
    assert notes == [("6", "kingsolve.search.analysis.Analysis"),
                     ("7", "int | fractions.Fraction"),
                     ("8", "list[kingsolve.game.cards.Card]")], run.stdout + run.stderr
    # a seat's name where the Seat goes is the one error found
    errors = re.findall(r"script\.py:(\d+): error: (.*)", run.stdout)
    assert [(line, "Invalid index type" in message) for line, message in errors] == [("9", True)], \
        run.stdout
