"""The compiled domino search against the plain-Python brute force (docs/rules.md 9 and 11).

Endgames are reached by random play from seeded full deals; every test compares the
paranoid values of all four seats and the per-card values of the seat on move, the
brute force's read from tests/data/golden/.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from kingsolve.game.cards import Card, Seat
from kingsolve.game.deal import Deal
from kingsolve.game.domino import DominoPosition
from kingsolve.search.domino_solver import solve_domino
from kingsolve.errors import SolveTimeout
from kingsolve.search.budget import Budget

import golden
from domino_bruteforce import paranoid_values

VARIANTS = ("italian", "italian-wikipedia")
GOLDEN = golden.Values("test_domino_solver")


def endgame(variant: str, seed: int, cards_left: int) -> DominoPosition | None:
    """Random play from a seeded full deal until ``cards_left`` cards remain in hands."""
    rng = random.Random(seed * 7919 + len(variant))
    p = DominoPosition(variant, Deal.random(seed=seed), leader=Seat(seed % 4))
    while not p.complete and sum(h.bit_count() for h in p.hands) > cards_left:
        p.play(rng.choice(p.legal_cards()))
    return None if p.complete else p


def compare(p: DominoPosition) -> list[str]:
    """The differences between the core and the brute force on one position."""
    ref_values, ref_cards = GOLDEN.domino_values_and_cards(p)
    got = solve_domino(p)
    problems = []
    if got.values != ref_values:
        problems.append(f"values {got.values} != {ref_values}")
    if got.cards != ref_cards:
        problems.append(f"cards {got.cards} != {ref_cards}")
    top = max(ref_cards.values())
    if set(got.best) != {c for c, v in ref_cards.items() if v == top}:
        problems.append(f"best {got.best}")
    if got.to_move != p.to_move or got.complete:
        problems.append("to_move/complete")
    return [f"{p!r}: {x}" for x in problems]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("chunk", range(4))
def test_endgames_match_brute_force(variant, chunk):
    # docs/rules.md 11: paranoid values; docs/rules.md 9 for the play. 40 seeds a chunk, endgames of
    # 6 to 17 cards left in the four hands.
    problems = []
    checked = 0
    for seed in range(chunk * 40, chunk * 40 + 40):
        p = endgame(variant, seed, 6 + seed % 12)
        if p is None:
            continue
        problems += compare(p)
        checked += 1
    assert checked >= 30
    assert not problems, "\n".join(problems[:5])


@pytest.mark.parametrize("variant", VARIANTS)
def test_round_completion_positions_match(variant):
    # docs/rules.md 9: the positions just after the first seat went out, while the round is
    # completed (shared win), and the moves just before (both endings).
    problems = []
    completing = 0
    rng = random.Random(99)
    for seed in range(300, 500):
        p = DominoPosition(variant, Deal.random(seed=seed))
        while not p.complete and not p.out:
            p.play(rng.choice(p.legal_cards()))
        if not p.complete:
            problems += compare(p)
            completing += 1
        p.undo()
        if sum(h.bit_count() for h in p.hands) <= 16:
            problems += compare(p)
    if variant == "italian-wikipedia":
        assert completing >= 50
    assert not problems, "\n".join(problems[:5])


def short_deck_deal(low: int, high: int, seed: int) -> Deal:
    """A random deal of the ranks ``low..high`` of each suit, dealt to four seats."""
    from kingsolve.game.cards import Rank, Suit
    deck = [Card(s, Rank(r)) for s in Suit for r in range(low, high + 1)]
    random.Random(seed).shuffle(deck)
    per = len(deck) // 4
    return Deal.from_hands({seat: deck[i * per:(i + 1) * per] for i, seat in enumerate(Seat)})


@pytest.mark.parametrize("variant", VARIANTS)
def test_short_decks_from_the_start(variant):
    # A short deck (each suit a run around the seven) played from the first card.
    problems = []
    for seed in range(20):
        p = DominoPosition(variant, short_deck_deal(6, 8, seed), leader=Seat(seed % 4),
                           full_deck=False)
        problems += compare(p)
    assert not problems, "\n".join(problems[:5])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("low,high,played", [(5, 9, 4), (4, 10, 12)])
def test_short_decks_after_a_few_cards(variant, low, high, played):
    # Short decks of 20 and 28 cards, from a few random cards in.
    problems = []
    for seed in range(10):
        rng = random.Random(seed)
        p = DominoPosition(variant, short_deck_deal(low, high, seed), leader=Seat(seed % 4),
                           full_deck=False)
        for _ in range(played):
            if not p.complete:
                p.play(rng.choice(p.legal_cards()))
        if not p.complete:
            problems += compare(p)
    assert not problems, "\n".join(problems[:5])


def test_complete_position_gives_final_scores():
    p = DominoPosition("italian-wikipedia", Deal.random(seed=4))
    rng = random.Random(1)
    while not p.complete:
        p.play(rng.choice(p.legal_cards()))
    r = solve_domino(p)
    assert r.complete and r.to_move is None and r.cards == {} and r.best == []
    assert r.values == p.scores() == r.taken
    assert sum(r.values.values()) == 0


def test_fractions_exact_and_json():
    # docs/rules.md 9: shared wins divide equally; values are exact fractions in Python and
    # JSON numbers in the response.
    found = None
    for seed in range(200):
        p = endgame("italian-wikipedia", seed, 8)
        if p is None:
            continue
        r = solve_domino(p)
        if any(isinstance(v, Fraction) for v in list(r.values.values()) + list(r.cards.values())):
            found = (p, r)
            break
    assert found, "no fractional value among the endgames"
    p, r = found
    assert r.values == paranoid_values(p)
    out = json.loads(json.dumps(r.to_dict()))
    for seat, v in r.values.items():
        assert out["values"][seat.name] == (int(v) if Fraction(v).denominator == 1 else float(v))
    assert out["taken"] == {"N": 0, "E": 0, "S": 0, "W": 0}


def test_requested_seats_only():
    p = endgame("italian", 3, 12)
    r = solve_domino(p, seats=["N", Seat.S])
    assert set(r.values) == {Seat.N, Seat.S}
    ref = paranoid_values(p)
    assert r.values == {Seat.N: ref[Seat.N], Seat.S: ref[Seat.S]}


def test_mover_value_is_its_best_card():
    p = endgame("italian", 8, 14)
    r = solve_domino(p)
    assert r.values[p.to_move] == max(r.cards.values())
    assert all(r.cards[c] == r.values[p.to_move] for c in r.best)


def test_budget_stops_with_solve_timeout():
    p = DominoPosition("italian", Deal.random(seed=1000))
    with pytest.raises(SolveTimeout, match="over the budget of 1000 nodes"):
        solve_domino(p, budget=Budget(nodes=1000))
    with pytest.raises(SolveTimeout):
        solve_domino(p, budget=Budget(ms=1))


def test_full_deal_values_are_consistent():
    # A full deal, all four seats: each value lies between minus a hand and the other hands,
    # and the mover's value is its best card's.
    for variant in VARIANTS:
        p = DominoPosition(variant, Deal.random(seed=1001), leader="E")
        r = solve_domino(p)
        assert set(r.values) == set(Seat)
        for seat, v in r.values.items():
            assert -13 <= v <= 39
        assert r.values[p.to_move] == max(r.cards.values())
        assert r.nodes > 0
