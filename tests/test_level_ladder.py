"""The hint levels against the table of their measured strengths
(``benchmarks/level_strengths.json``, from ``research/hint_match.py``): the table is
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


@pytest.mark.xfail(strict=True, reason="levels 2 to 5 are within their intervals of one another "
                                       "(research/HISTORY.md, 2026-12-04 and 2026-12-05): "
                                       "the ladder is not yet set from measured steps")
def test_each_level_is_measured_stronger_than_the_one_below():
    """Each step up gains: its paired gain over the level below with its interval above
    zero where the step was measured paired, else the two levels' intervals against
    the default apart (no overlap); and it takes no less time."""
    rows = TABLE["levels"]
    for low, high in zip(rows, rows[1:]):
        step = high.get("over_below")
        if step is not None:
            assert step["gain_share"] - step["interval"] > 0, (low["level"], high["level"])
        else:
            assert high["gain_share"] - high["interval"] > low["gain_share"] + low["interval"], \
                (low["level"], high["level"])
        assert high["ms_13_cards"] >= low["ms_13_cards"]


def test_the_lowest_steps_are_measured():
    """Levels 0 to 2 climb in measured strength (the steps above are not yet told apart)."""
    rows = TABLE["levels"]
    assert rows[1]["over_below"]["gain_share"] - rows[1]["over_below"]["interval"] > 0
    assert rows[2]["gain_share"] - rows[2]["interval"] > rows[1]["gain_share"] + rows[1]["interval"]
