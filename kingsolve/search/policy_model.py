"""The policy model: which card a seat plays, learned from the hints' own choices.

A small network over one seat's view (its hand, the cards gone, the trick in progress,
the suits the other seats have shown void in, the contract's points and rules, the
tricks left; never a hidden card) scores each card; the seat plays its legal card of
highest score. Its features and evaluation are compiled in the core
(``ext/core_policy.pxi``); the weights ship as ``kingsolve/data/policy_model.bin``, made
by ``python -m training.policy_fit`` from the games of ``python -m
training.policy_games`` (the header names the command, the data's digest and the
held-out agreement with the hints). Play-outs by it are the ``model`` policy of the
hints (``kingsolve.hands.playouts``).

The file is the value model's format (``kingsolve.search.value_model``) with the bytes
``KSPM``: the header's ``features`` and ``hidden``, then the weights as little-endian
float32 in the order ``_core.PolicyModel`` takes them.
"""

from __future__ import annotations

from pathlib import Path

from .._core import PolicyModel
from ..game.position import Position
from .value_model import read_file, read_once

__all__ = ["POLICY_PATH", "POLICY_MAGIC", "PolicyFile", "read_policy", "default_policy",
           "shown_voids", "card_slot"]

#: The policy the hints' ``model`` play-outs use.
POLICY_PATH = Path(__file__).resolve().parent.parent / "data" / "policy_model.bin"
POLICY_MAGIC = b"KSPM"


class PolicyFile:
    """A policy file's header and weights, and the core's copy of them (``core``)."""

    def __init__(self, header: dict, weights: bytes) -> None:
        self.header = header
        h1, h2 = header["hidden"]
        self.core = PolicyModel(header["features"], h1, h2, weights)

    @property
    def trained(self) -> dict:
        """How the policy was made: command, seed, data, held-out agreement."""
        return self.header.get("trained", {})


def read_policy(path: "str | Path") -> PolicyFile:
    """The policy in a file; ``ValueError`` naming what is wrong with it."""
    return PolicyFile(*read_file(path, POLICY_MAGIC, "policy model"))


_default_policy = read_once(POLICY_PATH, read_policy)


def default_policy() -> PolicyFile | None:
    """The package's policy (read once), None when the package has none."""
    return _default_policy()


def shown_voids(position: Position) -> int:
    """The suits each seat has shown void in, by the public play: a card not of the suit
    led shows its seat void in that suit (bit ``4 * seat + suit``, as ``Core.set_voids``)."""
    voids = 0
    tricks = [[(s, c.bit) for s, c in t.cards] for t in position.tricks]
    for trick in [*tricks, list(position.trick)]:
        if trick:
            led = trick[0][1] >> 4
            for seat, bit in trick[1:]:
                if bit >> 4 != led:
                    voids |= 1 << (4 * int(seat) + led)
    return voids


def card_slot(position: Position, bit: int) -> int:
    """The policy's output slot of a card: its suit's place (the trump first, then the
    others in order) times 13, plus the ranks above it (``card_slot`` in the core)."""
    trump = None if position.trump is None else int(position.trump)
    order = ([trump] if trump is not None else []) + [s for s in range(4) if s != trump]
    return order.index(bit >> 4) * 13 + 14 - (bit & 15)
