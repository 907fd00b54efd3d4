"""The module paths of 0.2 that moved in 0.3, importable until 0.4 with a warning.

``import kingsolve.record`` gives the module ``kingsolve.game.record`` itself (so its
classes and functions are the very same objects) and a ``DeprecationWarning`` naming the
new path, attributed to the line that imported it. One finder on ``sys.meta_path``
answers all of them, so no old module stands in the package's folders.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import sys
import warnings
from types import FrameType, ModuleType

#: Each 0.2 path and where its module is now (to be removed in 0.4); a path whose
#: names went to several modules gives a module holding the names of each.
MOVED: dict[str, "str | tuple[str, ...]"] = {
    "kingsolve.cards": "kingsolve.game.cards",
    "kingsolve.match": "kingsolve.hands.match",
    "kingsolve.record": "kingsolve.game.record",
    "kingsolve.result": ("kingsolve.search.budget", "kingsolve.search.result",
                         "kingsolve.game.numbers"),
    "kingsolve.rules": "kingsolve.game.rules",
    "kingsolve.sampling": "kingsolve.hands.sampling",
    "kingsolve.solver": "kingsolve.search.solver",
}


#: Where ``importlib.import_module`` is written, a frame between an importer and the loader.
IMPORT_MODULE_FILE = os.path.join("importlib", "__init__.py")


def _importer_stacklevel() -> int:
    """The ``stacklevel`` that points ``warnings.warn``, called by the loader, at the line
    that imported: past ``importlib.import_module`` and this file. ``warnings`` skips the
    frames of the import system's bootstrap by itself, so they are not counted."""
    frame: FrameType | None = sys._getframe(2)
    level = 1
    while frame is not None:
        name = frame.f_code.co_filename
        if not ("importlib" in name and "_bootstrap" in name):
            level += 1
            if name != __file__ and not name.endswith(IMPORT_MODULE_FILE):
                break
        frame = frame.f_back
    return level


class _MovedLoader(importlib.abc.Loader):
    """Loads an old path as the module of its new one."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        where = new if isinstance(new, str) else " or ".join(new)
        warnings.warn(f"{spec.name} is deprecated and will be removed in 0.4: import {where}",
                      DeprecationWarning, stacklevel=_importer_stacklevel())
        if isinstance(new, str):
            module = importlib.import_module(new)
            self._own_spec = module.__spec__
            return module
        module = ModuleType(spec.name, f"The names of {where}, moved there in 0.3.")
        for name in new:
            part = importlib.import_module(name)
            for attr in part.__all__:
                setattr(module, attr, getattr(part, attr))
        self._own_spec = spec
        return module

    def exec_module(self, module: ModuleType) -> None:
        # Nothing to run: the module ran under its new name. The import system has just
        # given it the old path's spec; it keeps its own, for pickle and reload.
        module.__spec__ = self._own_spec


class _MovedFinder(importlib.abc.MetaPathFinder):
    """Finds the old paths of ``MOVED``, and nothing else."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, _MovedLoader())


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
