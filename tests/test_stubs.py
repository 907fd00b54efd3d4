"""The type stubs of the compiled modules (kingsolve/_core.pyi, _domino.pyi) name what
the built modules hold: every public class, function, method and property, with the
parameters the compiled functions take."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import kingsolve

PACKAGE = Path(kingsolve.__file__).parent


def _stub(module: str) -> dict[str, ast.AST]:
    tree = ast.parse((PACKAGE / f"{module}.pyi").read_text())
    return {node.name: node for node in tree.body
            if isinstance(node, (ast.ClassDef, ast.FunctionDef))}


def _public(obj) -> set[str]:
    return {name for name in vars(obj) if not name.startswith("_")}


def _parameters(func: ast.FunctionDef) -> list[str]:
    args = func.args
    return [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg != "self"]


@pytest.mark.parametrize("module", ["_core", "_domino"])
def test_a_stub_names_every_public_name_of_its_module(module):
    compiled = __import__(f"kingsolve.{module}", fromlist=["_"])
    stub = _stub(module)
    assert set(stub) == _public(compiled)
    for name, node in stub.items():
        if isinstance(node, ast.ClassDef):
            members = {n.name for n in node.body if isinstance(n, ast.FunctionDef)
                       and not n.name.startswith("_")}
            assert members == _public(getattr(compiled, name)), name


def test_the_stubs_take_the_parameters_the_compiled_functions_take():
    # Cython keeps the signatures of def functions (binding=True, Cython 3's default).
    from kingsolve import _core, _domino

    pairs = [(_domino.solve, _stub("_domino")["solve"])]
    for name in ("Core", "ContractTable", "ValueModel"):
        node = _stub("_core")[name]
        for member in node.body:
            if isinstance(member, ast.FunctionDef) and not member.decorator_list \
                    and member.name != "__init__":
                pairs.append((getattr(getattr(_core, name), member.name), member))
    for func, node in pairs:
        expected = [p for p in inspect.signature(func).parameters if p != "self"]
        assert _parameters(node) == expected, node.name


def _init(cls_name: str) -> ast.FunctionDef:
    return next(n for n in _stub("_core")[cls_name].body
                if isinstance(n, ast.FunctionDef) and n.name == "__init__")


def test_the_constructors_take_the_stubs_keywords_and_defaults():
    # A cdef class keeps no signature of its constructor: call it with the stub's names.
    from kingsolve._core import ContractTable, Core, ValueModel

    init = _init("ContractTable")
    defaults = {a.arg: ast.literal_eval(d) for a, d in zip(init.args.kwonlyargs,
                                                           init.args.kw_defaults)}
    assert _parameters(init)[:2] == ["card_points", "trick_points"]
    ContractTable(card_points=[0] * 64, trick_points=[1] * 13, **defaults)
    assert _parameters(_init("ValueModel")) == ["nf", "h1", "h2", "weights"]
    weights = bytes(4 * (514 * 1 + 1 + 1 * 1 + 1 + 1 + 1))
    assert ValueModel(nf=514, h1=1, h2=1, weights=weights).evaluate([0.0] * 514) == 0.0
    assert _parameters(_init("Core")) == ["tt_mb"]
    assert Core(tt_mb=1).table_bytes <= 1 << 20
