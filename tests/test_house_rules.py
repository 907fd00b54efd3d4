"""The house rules of docs/house-rules/ (docs/rules.md 13): legal play equal to the
plain-Python reference reading the same files, exact values equal to brute force."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from kingsolve import Deal, InvalidRulesError, Position, rules_from_dict, rules_from_json, solve
from kingsolve._core import ContractTable
from kingsolve.game.cards import cards_of_mask, deck_mask
from kingsolve.search import engine

import bruteforce
from reference import RefHand, load_house_rules, text

HOUSE = Path(__file__).resolve().parent.parent / "docs" / "house-rules"
FILES = sorted(p.name for p in HOUSE.glob("*.json"))


def house(name: str):
    """The rule set of a house-rule file and the reference's key for it."""
    text_ = (HOUSE / name).read_text(encoding="utf-8")
    return rules_from_json(text_), load_house_rules(f"house:{name}", json.loads(text_))


def cases():
    out = []
    for name in FILES:
        rs, _ = house(name)
        for cname, c in rs.contracts.items():
            if c.kind == "tricks":
                out += [(name, cname, t) for t in (["H", "S"] if c.takes_trump else [None])]
    return out


def skewed_deal(rng: random.Random, deck: int) -> Deal:
    """A deal from a lightly shuffled sorted deck: voids and long suits come up often."""
    cards = cards_of_mask(deck_mask(deck))
    for _ in range(rng.choice([0, 4, 12, 30])):
        i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
        cards[i], cards[j] = cards[j], cards[i]
    per = len(cards) // 4
    return Deal.from_hands({seat: cards[k * per:(k + 1) * per] for k, seat in enumerate("NESW")})


def test_every_house_rule_file_is_read():
    assert FILES == ["italian-game.json", "portuguese-engine.json", "russian-program.json"]


@pytest.mark.parametrize("name, contract, trump", cases())
def test_legal_play_equals_the_reference(name, contract, trump):
    rs, key = house(name)
    rng = random.Random(f"{name} {contract} {trump}")
    for i in range(16):
        deal = Deal.random(seed=rng.randrange(10**9), deck=rs.deck) if i % 2 else \
            skewed_deal(rng, rs.deck)
        leader = rng.choice("NESW")
        pos = Position(rs, contract, deal, leader=leader, trump=trump)
        ref = RefHand(key, contract, {s.name: [str(c) for c in cards_of_mask(deal.hands[s])]
                                      for s in deal.seats}, leader=leader, trump=trump)
        while True:
            where = f"{name} {contract} {deal.pbn()} {[str(c) for c in pos.record]}"
            assert [str(c) for c in pos.legal_cards()] == [text(c) for c in ref.legal()], where
            assert pos.complete == ref.complete, where
            assert {s.name: v for s, v in pos.scores().items()} == ref.scores(), where
            if pos.complete:
                break
            card = rng.choice(pos.legal_cards())
            pos.play(card)
            ref.play(str(card))


@pytest.mark.parametrize("name, contract, trump", cases())
def test_exact_values_equal_brute_force(name, contract, trump):
    rs, _ = house(name)
    rng = random.Random(f"values {name} {contract} {trump}")
    for _ in range(3):
        pos = Position(rs, contract, skewed_deal(rng, rs.deck), leader=rng.choice("NESW"),
                       trump=trump)
        while not pos.complete and pos.n_tricks - len(pos.tricks) > 3:
            pos.play(rng.choice(pos.legal_cards()))
        if pos.complete:
            continue
        result = solve(pos)
        for seat in pos.seats:
            assert result.values[seat] == bruteforce.value(pos, seat), (name, contract, seat)
        assert result.cards == bruteforce.card_values(pos)


def test_the_russian_program_never_forces_the_king():
    rs, _ = house("russian-program.json")
    deal = Deal("N:AKQJ..AKQJ. T987..T987. .AK..AKQJT9 .QJT987..87")
    # S, void in spades, holds HK: forced in the built-in rule set, free in the program's
    pos = Position("russian", "no-king", deal, leader="N", play=["SA", "S9"])
    assert [str(c) for c in pos.legal_cards()] == ["HK"]
    pos = Position(rs, "no-king", deal, leader="N", play=["SA", "S9"])
    assert len(pos.legal_cards()) == 8


def test_the_portuguese_engine_leads_hearts_and_discards_them():
    rs, _ = house("portuguese-engine.json")
    deal = Deal("N:AKQJT98765..543. 432.AKQJT9876..2 .5432.AKQJT9876. ..2.AKQJT9876543")
    engine = Position(rs, "no-hearts", deal, leader="E")
    base = Position("portuguese", "no-hearts", deal, leader="E")
    assert "HA" in [str(c) for c in engine.legal_cards()]
    assert not any(c.suit.letter == "H" for c in base.legal_cards())
    engine.play("S2")
    base.play("S2")
    # S is void in spades on trick 1: the engine forces a heart, the base protects them
    assert [str(c) for c in engine.legal_cards()] == ["H5", "H4", "H3", "H2"]
    assert [str(c) for c in base.legal_cards()] == ["DA", "DK", "DQ", "DJ", "DT", "D9", "D8",
                                                    "D7", "D6"]


def test_the_italian_game_leads_no_trump_before_one_was_played():
    rs, _ = house("italian-game.json")
    deal = Deal.random(seed=11)
    pos = Position(rs, "trumps", deal, leader="N", trump="H")
    assert not any(c.suit.letter == "H" for c in pos.legal_cards())
    assert rs.schedule[2:4] == ("no-eight-of-diamonds", "no-king-of-hearts")


def test_the_italian_game_breaks_a_suit_only_by_a_discard():
    # N holds only hearts and leads one: hearts stay unbroken, so E, on lead next and
    # holding spades, may not lead its heart; under the built-in rules it may
    rs, key = house("italian-game.json")
    deal = Deal("N:.5432.. A2.A6.. K.K.32. Q.Q..32")
    play = ["H5", "HA", "HK", "HQ"]
    game = Position(rs, "no-hearts", deal, leader="N", play=play)
    booklet = Position("italian", "no-hearts", deal, leader="N", play=play)
    assert [str(c) for c in game.legal_cards()] == ["SA", "S2"]
    assert [str(c) for c in booklet.legal_cards()] == ["SA", "S2", "H6"]
    ref = RefHand(key, "no-hearts", {s.name: [str(c) for c in cards_of_mask(deal.hands[s])]
                                     for s in deal.seats}, leader="N")
    for card in play:
        ref.play(card)
    assert [text(c) for c in ref.legal()] == ["SA", "S2"]
    for pos in (Position(rs, "no-hearts", deal, leader="N"), game):
        core = engine.Core(1)
        engine.load(core, pos)
        assert core.legal() == pos.legal_mask()
        result = solve(pos)
        assert result.cards == bruteforce.card_values(pos)
        assert {s: result.values[s] for s in pos.seats} == \
            {s: bruteforce.value(pos, s) for s in pos.seats}
    # a heart discarded on a spade breaks them
    pos = Position(rs, "no-hearts", Deal("N:.5432.. A2.A6.. K.K.32. Q.Q..32"), leader="E",
                   play=["SA", "SK", "SQ", "H2"])
    assert "H6" in [str(c) for c in pos.legal_cards()]


def test_the_italian_game_leads_no_trump_until_one_was_discarded():
    rs, _ = house("italian-game.json")
    deal = Deal("N:.5432.. A2.A6.. K.K.32. Q.Q..32")
    pos = Position(rs, "trumps", deal, leader="N", trump="H", play=["H5", "HA", "HK", "HQ"])
    assert [str(c) for c in pos.legal_cards()] == ["SA", "S2"]
    result = solve(pos)
    assert result.cards == bruteforce.card_values(pos)


def test_a_suit_broken_by_a_discard_is_one_suit_for_the_search():
    with pytest.raises(InvalidRulesError, match="contracts.x.broken_by"):
        rules_from_dict({"contracts": {"x": {
            "lead": {"suit": "H", "mode": "until-broken"}, "trump": "named",
            "trump_obligation": "free", "trump_lead_restricted": True, "broken_by": "discard"}}})
    with pytest.raises(ValueError):
        ContractTable([0] * 64, [1] * 4, trump=0, lead_suit=1, lead_mode=1,
                            trump_lead_restricted=True, broken_by_discard=True)


def _one_suit_leader_deals(rng: random.Random):
    """Four-card deals in which N holds only hearts and has led one, a trick played at
    random: that lead breaks hearts under the built-in rules, not in the Italian game."""
    while True:
        hearts = [f"H{r}" for r in "AKQJT98765432"]
        others = [f"{s}{r}" for s in "SDC" for r in "AKQJT98765432"]
        rng.shuffle(hearts)
        rng.shuffle(others)
        rest = hearts[4:4 + rng.randint(2, 5)] + others[:12]
        rng.shuffle(rest)
        deal = Deal.from_hands({"N": hearts[:4], "E": rest[0:4], "S": rest[4:8], "W": rest[8:12]})
        yield deal, [rng.choice(hearts[:4])] + [rng.choice([c for c in rest[k:k + 4] if c[0] == "H"]
                                                           or rest[k:k + 4]) for k in (0, 4, 8)]


@pytest.mark.parametrize("contract, trump", [("no-hearts", None), ("trumps", "H")])
def test_a_suit_broken_by_a_discard_is_solved_exactly(contract, trump):
    # the core's values equal brute force where breaking by a discard changes them
    rs, _ = house("italian-game.json")
    by_play = rules_from_dict({"base": "italian", "contracts": {
        "trumps": {"trump_lead_restricted": True}}})
    rng = random.Random(f"broken by a discard {contract}")
    differing = 0
    for (deal, trick), _ in zip(_one_suit_leader_deals(rng), range(300)):
        game = Position(rs, contract, deal, leader="N", trump=trump, play=trick)
        played = Position(by_play, contract, deal, leader="N", trump=trump, play=trick)
        if game.complete:
            continue
        exact = {s: bruteforce.value_pruned(game, s) for s in game.seats}
        result = solve(game)
        assert result.values == exact, deal.pbn()
        assert result.cards == bruteforce.card_values_pruned(game), deal.pbn()
        differing += (exact, result.cards) != \
            ({s: bruteforce.value_pruned(played, s) for s in played.seats},
             bruteforce.card_values_pruned(played))
        if differing >= 5:
            break
    assert differing >= 5
