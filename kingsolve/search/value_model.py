"""The value model: an estimate of a trick start's double-dummy value, learned from
exact values (docs/rules.md section 12).

The model maps a trick start, seen from the seat (or doubles side) whose value is
estimated, to the share of the points still to fall that it gets under best play: a
small network over features a player would name (who holds each card still in play,
ranked within its suit, the points on it, suit lengths, the leader, the lead rules
in force, the points of the tricks left). Its features and its evaluation are
compiled in the core (``ext/core_eval.pxi``); the weights ship in the package as
``kingsolve/data/value_model.bin``, made by ``python -m training.fit`` from the
labelled positions of ``python -m training.generate`` (the file's header names the
command, the seed and the data). Using it needs nothing beyond the package.

The file: the bytes ``KSVM``, the header's length (4 bytes, little-endian), the
header (JSON: ``format``, ``features``, ``hidden``, ``trained``), then the weights
as little-endian float32 in the order ``_core.ValueModel`` takes them.
"""

from __future__ import annotations

import json
import struct
import threading
from pathlib import Path
from typing import Any, Callable, TypeVar

from .._core import ValueModel

__all__ = ["MODEL_PATH", "ModelFile", "read_model", "write_model", "default_model"]

#: The model the analysis uses.
MODEL_PATH = Path(__file__).resolve().parent.parent / "data" / "value_model.bin"
MAGIC = b"KSVM"
FORMAT = 1


class ModelFile:
    """A model file's header and weights, and the core's copy of them (``core``)."""

    def __init__(self, header: dict, weights: bytes) -> None:
        self.header = header
        self.weights = weights
        h1, h2 = header["hidden"]
        self.core = ValueModel(header["features"], h1, h2, weights)

    @property
    def trained(self) -> dict:
        """How the model was made: command, seed, data, measured errors."""
        return self.header.get("trained", {})


def read_file(path: "str | Path", magic: bytes = MAGIC,
              kind: str = "value model") -> tuple[dict, bytes]:
    """A model file's header and weights; ``ValueError`` naming what is wrong with it."""
    data = Path(path).read_bytes()
    if len(data) < 8 or data[:4] != magic:
        raise ValueError(f"{path}: not a kingsolve {kind} file")
    (n,) = struct.unpack_from("<I", data, 4)
    try:
        header = json.loads(data[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ValueError(f"{path}: the model file's header is not JSON") from None
    if header.get("format") != FORMAT:
        raise ValueError(f"{path}: model format {header.get('format')!r}, expected {FORMAT}")
    return header, data[8 + n:]


def read_model(path: "str | Path") -> ModelFile:
    """The model in a file; ``ValueError`` naming what is wrong with it."""
    return ModelFile(*read_file(path))


def write_model(path: "str | Path", features: int, hidden: tuple[int, int], weights: bytes,
                trained: dict[str, Any], magic: bytes = MAGIC) -> None:
    """Write a model file (``weights`` as ``_core.ValueModel`` takes them; with the
    policy's ``magic``, as ``_core.PolicyModel`` does)."""
    header = json.dumps({"format": FORMAT, "features": features, "hidden": list(hidden),
                         "trained": trained}, sort_keys=True).encode("utf-8")
    Path(path).write_bytes(magic + struct.pack("<I", len(header)) + header + weights)


T = TypeVar("T")


def read_once(path: Path, read: Callable[[Path], T]) -> Callable[[], T | None]:
    """A function giving the file read by ``read`` (read once, by the first caller of
    any thread), None while the package has no such file."""
    found: list[T] = []
    lock = threading.Lock()

    def get() -> T | None:
        with lock:
            if not found and path.exists():
                found.append(read(path))
            return found[0] if found else None
    return get


_default_model = read_once(MODEL_PATH, read_model)


def default_model() -> ModelFile | None:
    """The package's model (read once), None when the package has no model file."""
    return _default_model()
