"""The anytime analysis (``kingsolve.search.analysis``) against exact values.

docs/rules.md section 11: every range the analysis proves holds the exact value (the
brute force's on small positions of every trick contract, read from
tests/data/golden/; the exact search's on 8-9 tricks left of full deals); every
estimate lies inside its range; a card proved worse than another is worse by the exact
values; once everything is exact the estimates are the exact values and the best cards
are the exact best cards.
"""

from __future__ import annotations

import random
import threading
import time

import pytest

from kingsolve import Deal, Position, Seat
from kingsolve.search.analysis import Analysis, analyse, analyses
from kingsolve.errors import InvalidRequestError
from kingsolve.search.budget import Budget
from kingsolve.game.rules import TRUMP_NAMED, TRUMP_NAMED_OR_NONE, VARIANTS
from kingsolve.search.solver import solve

import golden
from contracts import CONFIGS, config_id, random_position

GOLDEN = golden.Values("test_analysis")

PENALTIES = ["no-tricks", "no-hearts", "no-queens", "no-kings-jacks", "no-king-of-hearts",
             "no-last-two"]


def check_consistent(a: Analysis) -> None:
    """What every analysis promises, whatever it has proved."""
    for seat, (lo, hi) in a.bounds.items():
        assert lo <= hi
        if seat in a.estimates:
            assert lo <= a.estimates[seat] <= hi
    for card, (lo, hi) in a.card_bounds.items():
        assert lo <= hi
        if card in a.card_estimates:
            assert lo <= a.card_estimates[card] <= hi
    assert set(a.values) == {s for s, (lo, hi) in a.bounds.items() if lo == hi}
    assert set(a.cards) == {c for c, (lo, hi) in a.card_bounds.items() if lo == hi}
    assert set(a.best) <= set(a.card_bounds)
    assert not any(a.worse(c) for c in a.best)
    if a.solved:
        assert a.estimates == a.values and a.card_estimates == a.cards
        top = max(a.cards.values(), default=None)
        assert a.best == [c for c, v in a.cards.items() if v == top]


def check_against(a: Analysis, values: dict, cards: dict) -> None:
    """The proved ranges hold the exact values; a proved mistake is a mistake."""
    check_consistent(a)
    for seat, (lo, hi) in a.bounds.items():
        assert lo <= values[seat] <= hi, (seat, lo, hi, values[seat])
    assert set(a.card_bounds) == set(cards)
    for card, (lo, hi) in a.card_bounds.items():
        assert lo <= cards[card] <= hi, (card, lo, hi, cards[card])
    top = max(cards.values())
    for card in a.card_bounds:
        if a.worse(card):
            assert cards[card] < top, card
    if a.solved:
        assert a.values == values and a.cards == cards


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_every_range_holds_the_bruteforce_value(cfg):
    # docs/rules.md 11, small positions of every kind of trick contract: every step of
    # the analysis, from its first estimates to the end, agrees with the brute force.
    for seed in range(8):
        pos = random_position(cfg, seed)
        if pos.complete:
            continue
        values = {s: GOLDEN.value(pos, s) for s in pos.seats}
        cards = GOLDEN.card_values(pos)
        steps = list(analyses(pos, budget=Budget(ms=5_000), threads=1 + seed % 2))
        for a in steps:
            check_against(a, values, cards)
        assert steps[-1].solved, pos
        assert steps[-1].horizon == pos.n_tricks - len(pos.tricks)


def _mid_hand(contract: str, seed: int, left: int, variant: str = "italian") -> Position:
    rng = random.Random(seed)
    deck = 32 if variant == "russian" else 52
    pos = Position(variant, contract, Deal.random(seed, deck=deck), leader=Seat(seed % 4))
    while not pos.complete and (pos.n_tricks - len(pos.tricks) > left or pos.trick):
        pos.play(rng.choice(pos.legal_cards()))
    return pos


def _deep_configs():
    out = []
    for vname, rs in VARIANTS.items():
        for cname, c in rs.contracts.items():
            if c.kind == "tricks" and c.trump not in (TRUMP_NAMED, TRUMP_NAMED_OR_NONE):
                out.append((vname, cname))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("variant, contract", _deep_configs())
def test_budget_stopped_ranges_hold_the_exact_values(variant, contract):
    # docs/rules.md 11, singles with 8 tricks left: node budgets that stop the exact
    # searches at different points; whatever is proved holds the exact values.
    for seed in range(2):
        pos = _mid_hand(contract, seed, 8, variant)
        if pos.complete:
            continue
        exact = solve(pos)
        for nodes, threads in ((4_096, 1), (40_000, 2), (300_000, 1), (300_000, 2)):
            a = analyse(pos, budget=Budget(nodes=nodes), threads=threads)
            check_against(a, exact.values, exact.cards)
            assert a.horizon is not None and len(a.card_estimates) == len(a.card_bounds)


def test_a_full_singles_deal_gets_an_estimate_for_every_card():
    # The point of the analysis: a 13-card no-tricks deal, far from exact in a
    # fraction of a second, still answers every value with an estimate.
    pos = Position("italian", "no-tricks", Deal.random(3), leader="W")
    a = analyse(pos, budget=Budget(ms=300))
    check_consistent(a)
    assert not a.solved
    assert set(a.card_estimates) == set(pos.legal_cards())
    assert set(a.estimates) == set(pos.seats)
    assert a.horizon is not None and 3 <= a.horizon < 13
    assert a.best


def test_updates_improve_and_the_first_comes_at_once():
    pos = Position("italian", "no-hearts", Deal.random(5), leader="N")
    seen = []
    last = analyse(pos, budget=Budget(ms=400), on_update=seen.append)
    assert seen[-1] is last
    assert seen[0].card_estimates and seen[0].horizon is not None
    assert seen[0].ms < 200
    for before, after in zip(seen, seen[1:]):
        for seat, (lo, hi) in after.bounds.items():
            assert before.bounds[seat][0] <= lo and hi <= before.bounds[seat][1]
        for card, (lo, hi) in after.card_bounds.items():
            assert before.card_bounds[card][0] <= lo and hi <= before.card_bounds[card][1]
        assert (after.horizon or 0) >= (before.horizon or 0)


@pytest.mark.parametrize("threads", [1, 2])
def test_cancel_stops_the_analysis(threads):
    pos = Position("italian", "no-tricks", Deal.random(3), leader="W")
    cancel = threading.Event()
    start = time.perf_counter()
    out = []
    for a in analyses(pos, budget=Budget(ms=60_000), cancel=cancel, threads=threads):
        out.append(a)
        cancel.set()
    assert time.perf_counter() - start < 5
    assert len(out) <= 3 and not out[-1].solved


def test_closing_the_generator_halts_every_searcher():
    pos = Position("italian", "no-tricks", Deal.random(3), leader="W")
    before = threading.active_count()
    steps = analyses(pos, budget=Budget(ms=60_000), threads=2)
    first = next(steps)
    assert first.card_estimates
    start = time.perf_counter()
    steps.close()
    assert time.perf_counter() - start < 3
    assert threading.active_count() == before


def test_two_threads_give_what_one_gives():
    pos = _mid_hand("no-hearts", 6, 7)
    one = analyse(pos, budget=Budget(ms=20_000))
    two = analyse(pos, budget=Budget(ms=20_000), threads=2)
    assert one.solved and two.solved
    assert one.to_dict()["card_bounds"] == two.to_dict()["card_bounds"]
    assert one.values == two.values and one.best == two.best


def test_doubles_sides_and_an_easy_position_is_exact():
    pos = Position("italian", "no-trumps", Deal.random(2), leader="E", doubles=True)
    a = analyse(pos, budget=Budget(ms=20_000))
    exact = solve(pos)
    check_against(a, exact.values, exact.cards)
    assert a.solved and a.to_dict()["sides"] == exact.extra["sides"]


def test_shape_of_the_answer():
    pos = _mid_hand("no-tricks", 4, 6)
    d = analyse(pos, seats=["E", "N"], budget=Budget(ms=10_000)).to_dict()
    assert d["solved"] is True and d["complete"] is False
    assert set(d["values"]) == set(d["bounds"]) == set(d["estimates"]) == {"E", "N"}
    assert set(d["cards"]) == set(d["card_bounds"]) == set(d["card_estimates"]) \
        == {str(c) for c in pos.legal_cards()}
    assert d["horizon"] == 6 and d["best"]
    assert all(lo == hi for lo, hi in d["bounds"].values())


@pytest.mark.parametrize("threads", [1, 2])
def test_seats_alone_without_the_cards(threads):
    # cards=False: the mover's side is searched whole, like the others.
    pos = _mid_hand("no-queens", 8, 8)
    exact = solve(pos, cards=False)
    for nodes in (4_096, 100_000, 50_000_000):
        a = analyse(pos, budget=Budget(nodes=nodes), cards=False, threads=threads)
        check_consistent(a)
        assert a.card_bounds == {} and a.card_estimates == {} and a.best == []
        assert set(a.estimates) == set(pos.seats)
        for seat, (lo, hi) in a.bounds.items():
            assert lo <= exact.values[seat] <= hi
    assert a.solved and a.values == exact.values


def test_a_complete_hand_and_bad_input():
    pos = Position("italian", "no-queens", Deal.random(1), leader="N")
    while not pos.complete:
        pos.play(pos.legal_cards()[0])
    a = analyse(pos)
    assert a.solved and a.complete and a.card_bounds == {} and a.horizon == 0
    assert a.values == {s: v for s, v in pos.scores().items()}
    with pytest.raises(InvalidRequestError, match="trick-contract Position"):
        analyse("not a position")
    with pytest.raises(InvalidRequestError, match="invalid threads"):
        analyse(pos, threads=0)
