"""The hint levels against the table of their measured strengths
(``kingsolve/data/level_strengths.json``, from ``research/hint_match.py``): the table is
the ladder's, and the ladder climbs in measured strength."""

from __future__ import annotations

import pytest

from kingsolve.hands.hints import (BASELINE_LEVEL, DEFAULT_LEVEL, LEVELS, levels_answer,
                                   measured_strengths)

TABLE = measured_strengths()


def test_the_table_measures_the_ladder_as_it_is():
    assert (TABLE["default"], TABLE["baseline"]) == (DEFAULT_LEVEL, BASELINE_LEVEL)
    assert DEFAULT_LEVEL == len(LEVELS) - 1                 # the strongest
    assert [r["level"] for r in TABLE["levels"]] == list(range(len(LEVELS)))
    for row, lv in zip(TABLE["levels"], LEVELS):
        assert {k: row[k] for k in lv.to_dict()} == lv.to_dict()
        assert row["interval"] >= 0 and row["ms_13_cards"] > 0 and row["measured"]
    assert TABLE["levels"][BASELINE_LEVEL]["gain_share"] == 0.0
    assert [lv["strength"]["gain_share"] for lv in levels_answer()["levels"]] == \
        [row["gain_share"] for row in TABLE["levels"]]


@pytest.mark.parametrize("n", range(1, len(LEVELS)), ids=[lv.name for lv in LEVELS[1:]])
def test_each_level_is_measured_stronger_than_the_one_below(n):
    """Each step up gains: its paired gain over the level below with its interval above
    zero where the step was measured paired, else the two levels' intervals against
    the default apart (no overlap); and it takes no less time."""
    low, high = TABLE["levels"][n - 1], TABLE["levels"][n]
    step = high.get("over_below")
    if step is not None:
        assert step["gain_share"] - step["interval"] > 0
    else:
        assert high["gain_share"] - high["interval"] > low["gain_share"] + low["interval"]
    assert high["ms_13_cards"] >= low["ms_13_cards"]


def test_what_was_merged_is_not_told_apart_from_the_baseline():
    """A configuration merged into the baseline was measured within its interval of it."""
    rows = TABLE["merged_into_the_baseline"]["rows"]
    assert rows
    for row in rows:
        assert abs(row["gain_share"]) <= row["interval"], row["config"]
