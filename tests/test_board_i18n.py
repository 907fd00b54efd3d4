"""The pages' catalogues (api/kingsolve_api/static/i18n/): one a language, each with
every text English has, the same {fields}, and every key the game page (/play) and
the analysis board (/) name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kingsolve.game.rules import VARIANTS
from kingsolve.hands.hints import LEVELS

STATIC = Path(__file__).parent.parent / "api" / "kingsolve_api" / "static"
LANGUAGES = ("en", "it", "pt", "tr", "ru")


def catalogue(code: str) -> dict[str, str]:
    """A catalogue's texts, its notes (keys starting with '_') left out."""
    data = json.loads((STATIC / "i18n" / f"{code}.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def fields(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def used_keys() -> set[str]:
    """The keys play.html and play.js name, and those the page builds from data."""
    js = (STATIC / "play.js").read_text(encoding="utf-8")
    keys = html_keys("play.html")
    keys |= set(re.findall(r'\bt\("([a-z0-9.-]+)"', js))
    keys |= {k for pair in re.findall(r'\bt\([^()]*\? "([a-z0-9.-]+)" : "([a-z0-9.-]+)"', js) for k in pair}
    for prefix, names in {"seat": "NESW", "seat.short": "NESW", "suit": "SHDC",
                          "side": ("NS", "EW"), "pace": ("slow", "normal", "instant"),
                          "variant": VARIANTS, "level": [lv.name for lv in LEVELS],
                          "contract": {c for v in VARIANTS.values() for c in v.to_dict()["contracts"]},
                          }.items():
        keys |= {f"{prefix}.{name}" for name in names}
    kinds = re.search(r"const CHOICES = \{(.*?)\n  \};", js, re.S).group(1)
    keys |= {f"choice.{k}" for k in re.findall(r'^    "?([a-z-]+)"?\(', kinds, re.M)}
    return keys


def html_keys(page: str) -> set[str]:
    html = (STATIC / page).read_text(encoding="utf-8")
    return set(re.findall(r'data-i18n(?:-aria|-title|-code)?="([^"]+)"', html))


def board_keys() -> set[str]:
    """The keys index.html and board.js name (every "board...." string), and those the
    board builds from data or from its state."""
    js = (STATIC / "board.js").read_text(encoding="utf-8")
    keys = html_keys("index.html") | set(re.findall(r'"(board\.[a-z0-9._-]+)"', js))
    keys |= set(re.findall(r'\bt\("([a-z0-9.-]+)"', js))
    keys -= set(re.findall(r'\bnamed\("([a-z.-]+)"', js))      # a prefix, its names below
    options = {o for v in VARIANTS.values() for c in v.to_dict()["contracts"].values() for o in c.get("options", [])}
    for prefix, names in {"seat": "NESW", "suit": "SHDC", "board.card-of": "SHDC", "board.rank": "AKQJT",
                          "board.chart": ("seat", "side", "seat-label", "side-label"),
                          "board.legend": ("seat", "side"), "board.option": options,
                          "board.house": ("title-with", "title-unchanged", "title-from-with", "title-from-unchanged"),
                          "board.review": ("title", "title-trick", "title-card"),
                          "board.tell": ("best", "best-unvalued", "no-estimate"),
                          "board.value": ("proved-title", "proved-title-side", "estimate-title", "estimate-title-side"),
                          "variant": VARIANTS,
                          "contract": {c for v in VARIANTS.values() for c in v.to_dict()["contracts"]},
                          }.items():
        keys |= {f"{prefix}.{name}" for name in names}
    return keys


@pytest.mark.parametrize("page_keys", [used_keys, board_keys], ids=["play", "board"])
def test_english_has_every_key_the_page_names(page_keys):
    missing = page_keys() - set(catalogue("en"))
    assert not missing, f"keys missing from en.json: {sorted(missing)}"


def test_the_keys_read_from_the_pages_include_those_built_from_state():
    assert {"choice.contract", "choice.host-plays", "festa.bid-null", "error.timeout"} <= used_keys()
    assert {"board.tell.solved-side", "board.review.played-forced", "board.rules.text", "board.undo-title",
            "board.option.forced-king", "error.network"} <= board_keys()


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_each_catalogue_has_every_text_with_its_fields(code):
    english, other = catalogue("en"), catalogue(code)
    assert sorted(set(english) - set(other)) == [], f"missing from {code}.json"
    assert sorted(set(other) - set(english)) == [], f"unknown keys in {code}.json"
    for key, text in other.items():
        assert isinstance(text, str) and text.strip(), (code, key)
        assert fields(text) == fields(english[key]), (code, key, text)


def test_contract_names_come_from_the_rule_texts_with_their_sources():
    # the names the issue quotes from the seeds, and a note on where each name is from
    assert catalogue("it")["contract.no-queens"] == "No Donne"
    assert catalogue("it")["contract.no-king-of-hearts"] == "Re di cuori"
    assert catalogue("ru")["contract.no-boys"] == "Без мальчиков"
    assert catalogue("ru")["contract.no-king"] == "Без Кинга"
    for code, own in (("it", "italian"), ("pt", "portuguese"), ("tr", "turkish"), ("ru", "russian")):
        notes = json.loads((STATIC / "i18n" / f"{code}.json").read_text(encoding="utf-8"))["_notes"]
        contracts = VARIANTS[own].to_dict()["contracts"]
        unnoted = [c for c in contracts if c != "domino" and f"contract.{c}" not in notes]
        assert not unnoted, (code, unnoted)
