"""The golden files still hold what the brute force answers under today's rules.

Every twentieth position of each file of tests/data/golden/ (tests/golden.py) is rebuilt
from its key and solved again by the plain-Python references: the trick contracts by
the alpha-beta of tests/bruteforce.py (the full minimax's values, see
test_the_pruned_reference_is_the_full_minimax), the domino by the full minimax of
tests/domino_bruteforce.py. A change of the rules that moves a value fails here until
``make golden`` writes the files anew.
"""

from __future__ import annotations

import json

import pytest

from kingsolve.game.cards import Seat
from kingsolve.game.domino import DominoPosition

import bruteforce
import domino_bruteforce
import golden

FILES = sorted(golden.FOLDER.glob("*.jsonl"))
SAMPLE = 20


def test_every_golden_file_belongs_to_a_test_module():
    assert FILES
    for path in FILES:
        assert (golden.FOLDER.parent.parent / f"{path.stem}.py").exists(), path


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_a_sample_of_the_golden_values_is_the_brute_force(path):
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    assert entries
    for entry in entries[::SAMPLE]:
        key = entry["position"]
        pos = golden.rebuild(key)
        assert golden.position_key(pos) == key
        if isinstance(pos, DominoPosition):
            values, cards = domino_bruteforce.values_and_cards(pos)
        else:
            values = {Seat[s]: bruteforce.value_pruned(pos, Seat[s]) for s in entry.get("values", {})}
            cards = bruteforce.card_values_pruned(pos) if "cards" in entry else {}
        assert {s.name: golden.to_json(v) for s, v in values.items()} == entry.get("values", {}), key
        assert {str(c): golden.to_json(v) for c, v in cards.items()} == entry.get("cards", {}), key
