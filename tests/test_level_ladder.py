"""The hint levels against the table of their measured strengths
(``benchmarks/level_strengths.json``, from ``benchmarks/hint_match.py``): the table is
the ladder's, and the ladder climbs in measured strength."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kingsolve.hands.hints import DEFAULT_LEVEL, LEVELS

TABLE = json.loads((Path(__file__).resolve().parent.parent / "benchmarks"
                    / "level_strengths.json").read_text(encoding="utf-8"))


def test_the_table_measures_the_ladder_as_it_is():
    assert TABLE["default"] == DEFAULT_LEVEL
    assert [r["level"] for r in TABLE["levels"]] == list(range(len(LEVELS)))
    for row, lv in zip(TABLE["levels"], LEVELS):
        assert (row["name"], row["samples"], row["horizon"], row["inference"], row["policy"]) \
            == (lv.name, lv.samples, lv.horizon, lv.inference, lv.policy)
    assert TABLE["levels"][DEFAULT_LEVEL]["gain_share"] == 0.0
    assert all(r["interval"] >= 0 and r["ms_13_cards"] > 0 for r in TABLE["levels"])


@pytest.mark.xfail(strict=True, reason="levels 1 to 5 are within their intervals of one another "
                                       "(benchmarks/RESULTS.md, 2026-12-04 and 2026-12-05): "
                                       "the ladder is not yet set from measured steps")
def test_each_level_is_measured_stronger_than_the_one_below():
    """Each step up gains, with the intervals of the two levels apart (no overlap), and
    takes no less time."""
    rows = TABLE["levels"]
    for low, high in zip(rows, rows[1:]):
        assert high["gain_share"] - high["interval"] > low["gain_share"] + low["interval"], \
            (low["level"], high["level"])
        assert high["ms_13_cards"] >= low["ms_13_cards"]
