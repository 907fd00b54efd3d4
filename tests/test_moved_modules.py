"""The 0.2 module paths still import, until 0.4: each gives the module of its new path
and a DeprecationWarning that names it, pointing at the line that imported it."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import pytest

from kingsolve._moved import MOVED

OLD_PATHS = ["kingsolve.record", "kingsolve.rules", "kingsolve.result", "kingsolve.sampling",
             "kingsolve.solver", "kingsolve.match", "kingsolve.cards"]


def test_every_path_of_0_2_is_kept():
    assert sorted(MOVED) == sorted(OLD_PATHS)


@pytest.mark.parametrize("old", [p for p in OLD_PATHS if isinstance(MOVED[p], str)])
def test_an_old_path_is_its_new_module_with_a_warning_naming_it(old):
    new = MOVED[old]
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == module.__spec__.name == new   # its own spec, kept
    [warning] = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert str(warning.message) == f"{old} is deprecated and will be removed in 0.4: import {new}"
    assert warning.filename == __file__     # the importing line, not the import machinery


def test_a_path_split_in_several_holds_the_names_of_each():
    # 0.2's kingsolve.result held the budgets, the solve result and the score numbers
    from kingsolve.game.numbers import json_number
    from kingsolve.search.budget import Budget, Deadline
    from kingsolve.search.result import SolveResult
    sys.modules.pop("kingsolve.result", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module("kingsolve.result")
    assert (module.Budget, module.Deadline, module.SolveResult, module.json_number) == \
        (Budget, Deadline, SolveResult, json_number)
    [warning] = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert str(warning.message) == ("kingsolve.result is deprecated and will be removed in "
                                    "0.4: import " + " or ".join(MOVED["kingsolve.result"]))
    assert warning.filename == __file__


def test_names_from_an_old_path_are_the_new_ones():
    from kingsolve.game.record import Record
    from kingsolve.search.solver import solve

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from kingsolve.record import Record as OldRecord
        from kingsolve import solver as old_solver
    assert OldRecord is Record and old_solver.solve is solve


def test_a_plain_import_of_the_package_warns_of_nothing():
    # Only the old paths warn: the package and its new paths import quietly.
    code = ("import kingsolve, kingsolve.game.record, kingsolve.search.solver; "
            "print(kingsolve.Record, kingsolve.solve)")
    run = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", code],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def test_a_name_that_never_was_a_module_is_not_found():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("kingsolve.no_such_module")
