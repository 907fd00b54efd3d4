"""The hint engine: sampled deals of one seat's view, each solved."""

from __future__ import annotations

import itertools
import json
import random

import pytest

import kingsolve
from kingsolve import Deal, Position
from kingsolve.game.cards import SUIT_MASK, cards_of_mask
from kingsolve.errors import InvalidRequestError, KingsolveError, SolveTimeout
from kingsolve.hands.hints import (DEFAULT_HORIZON, contract_hint, festa_hint, hint,
                                   play_preference, sale_hint, trump_hint)
from kingsolve.io.request import hint_request
from kingsolve.search.budget import Budget
from kingsolve.search.result import SolveResult
from kingsolve.hands.sampling import DealSampler, SeatView


def brute_solve(position, seats=None, budget=None, cards=True):
    """Paranoid values by plain minimax (docs/rules.md 11): the seat maximises, the rest minimise."""
    me = list(seats)[0]

    def value(pos):
        if pos.complete:
            return pos.scores()[me]
        mover = pos.to_move
        out = []
        for c in pos.legal_cards():
            pos.play(c)
            out.append(value(pos))
            pos.undo()
        return max(out) if mover == me else min(out)

    if position.complete:
        return SolveResult(None, dict(position.taken), {me: position.scores()[me]}, {}, [], True)
    cards = {}
    for c in position.legal_cards():
        position.play(c)
        cards[c] = value(position)
        position.undo()
    top = max(cards.values())
    return SolveResult(position.to_move, dict(position.taken), {me: top}, cards,
                       [c for c, v in cards.items() if v == top], False)


def endgame(variant, contract, seed, cards_left, trump=None, leader="N", min_legal=2):
    """A seeded random game played on until ``cards_left`` tricks remain (sometimes a card or
    two more), with the seat on move holding at least ``min_legal`` legal cards."""
    rs_deck = 32 if variant == "russian" else 52
    for attempt in range(seed, seed + 1000, 97):
        deal = Deal.random(seed=attempt, deck=rs_deck)
        rng = random.Random(attempt)
        p = Position(variant, contract, deal, leader=leader, trump=trump)
        while len(p.tricks) < p.n_tricks - cards_left and not p.complete:
            p.play(rng.choice(p.legal_cards()))
        for _ in range(attempt % 3):   # sometimes mid-trick
            if not p.complete:
                p.play(rng.choice(p.legal_cards()))
        if not p.complete and len(p.legal_cards()) >= min_legal:
            return deal, p
    raise AssertionError("no such endgame")


@pytest.mark.parametrize("variant,contract,trump,seed", [
    ("italian", "no-queens", None, 1), ("turkish", "trumps", "H", 2),
    ("portuguese", "festa", "S", 3), ("russian", "nothing", None, 4)])
def test_exact_hint_is_the_expectation_over_every_consistent_deal(variant, contract, trump, seed):
    """With few consistent deals every one is solved: the means are exact expectations of
    plain minimax over a uniform deal, and the recommended card has the best one."""
    deal, p = endgame(variant, contract, seed, 3, trump)
    if DealSampler(SeatView.build(variant, contract, p.to_move, deal.hands[p.to_move],
                                  [str(c) for c in p.record], trump=trump)).count > 150:
        deal, p = endgame(variant, contract, seed, 2, trump)
    seat = p.to_move
    record = [str(c) for c in p.record]
    view = SeatView.build(variant, contract, seat, deal.hands[seat], record, trump=trump)
    sampler = DealSampler(view)
    assert sampler.count <= 150
    h = hint(variant, contract, seat, deal.hands[seat], record, trump=trump, samples=400)
    assert h.exact and h.samples == sampler.count and not h.forced   # min_legal=2
    expected = {}
    for i in range(sampler.count):
        pos = Position(variant, contract, sampler.deal(i), trump=trump, play=record)
        for c, v in brute_solve(pos, [seat]).cards.items():
            expected.setdefault(c, []).append(v)
    for line in h.cards:
        assert line.mean == pytest.approx(sum(expected[line.card]) / sampler.count)
    assert sum(expected[h.recommended]) == max(sum(v) for v in expected.values())


def test_hint_ranks_by_mean_and_reports_spread_and_best_share():
    deal, p = endgame("italian", "no-hearts", 7, 5)
    seat = p.to_move
    h = hint("italian", "no-hearts", seat, deal.hands[seat], [str(c) for c in p.record],
             samples=30, seed=3)
    means = [x.mean for x in h.cards]
    assert means == sorted(means, reverse=True)
    assert h.recommended == h.cards[0].card
    assert {x.card for x in h.cards} == set(p.legal_cards())
    for x in h.cards:
        assert 0 <= x.best <= 1 and x.std >= 0 and x.low <= x.mean <= x.high
    assert max(x.best for x in h.cards) > 0
    assert h.samples == 30 and not h.exact
    d = h.to_dict()
    assert d["seed"] == 3 and d["budget"]["nodes"] == Budget().nodes
    json.dumps(d)


def test_hint_is_deterministic_for_a_seed_and_independent_of_threads():
    deal, p = endgame("turkish", "no-hearts", 8, 5)
    seat = p.to_move
    args = ("turkish", "no-hearts", seat, deal.hands[seat], [str(c) for c in p.record])
    a = hint(*args, samples=12, seed=5).to_dict()
    b = hint(*args, samples=12, seed=5, threads=2).to_dict()
    for d in (a, b):
        d.pop("ms")
    assert a == b


@pytest.mark.slow
def test_a_seat_that_knows_the_hand_it_is_played_against():
    """Known cards pin the rest: with every card known the hint is one exact deal."""
    deal, p = endgame("italian", "no-last-two", 9, 4)
    seat = p.to_move
    known = {s.name: cards_of_mask(p.hands[s]) for s in p.seats if s != seat}
    known = {k: [str(c) for c in v] for k, v in known.items()}
    h = hint("italian", "no-last-two", seat, p.hands[seat], [str(c) for c in p.record],
             known=known, samples=10)
    assert h.exact and h.samples == 1 and h.consistent_deals == 1
    dd = brute_solve(p.copy(), [seat])
    assert {x.card: x.mean for x in h.cards} == {c: float(v) for c, v in dd.cards.items()}


# A forced card: S holds C4 CK DK and must follow diamonds; the one deal that fits
# gives DK -9 (no-queens, two players).
FORCED = {"variant": "italian", "contract": "no-queens", "doubles": False, "leader": "S",
          "play": ["D3", "DA", "D8", "DT", "D6", "D4", "CJ", "C6", "D7", "D9", "SJ", "ST", "S6",
                   "SA", "H2", "H5", "S7", "S5", "S9", "S2", "HT", "HJ", "H4", "H3", "C5", "C7",
                   "SK", "D5", "H8", "HK", "C8", "C9", "H7", "DJ", "H9", "C3", "HA", "CT", "S3",
                   "CQ", "S8", "CA", "H6", "C2", "S4", "D2", "DQ"],
          "seat": "S", "hand": ["C4", "CK", "DK"], "players": 2, "samples": 50, "seed": 7}


def test_a_forced_card_gets_its_value_and_says_it_is_forced(tmp_path, capsys, client):
    """One legal card: its value over the samples (not a placeholder 0), and ``forced``."""
    out = hint_request(FORCED)
    assert out["forced"] is True and out["exact"] and out["samples"] == 1
    assert out["cards"] == [{"card": "DK", "mean": -9.0, "std": 0.0, "best": 1.0,
                             "min": -9.0, "max": -9.0}]
    path = tmp_path / "forced.json"
    path.write_text(json.dumps(FORCED))
    from kingsolve_cli import main
    assert main(["hint", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) | {"ms": 0} == out | {"ms": 0}
    resp = client.post("/api/v1/hint", json=FORCED)
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["forced"] is True and body["cards"] == out["cards"]


def forced_position(tricks_left: int) -> tuple[Deal, Position]:
    """A seeded random no-last-two game stopped where the seat on move has one legal card,
    ``tricks_left`` tricks before the end."""
    for seed in range(500):
        deal = Deal.random(seed=seed)
        rng = random.Random(seed)
        p = Position("italian", "no-last-two", deal, leader="N")
        while p.n_tricks - len(p.tricks) >= tricks_left:
            if p.n_tricks - len(p.tricks) == tricks_left and len(p.legal_cards()) == 1:
                return deal, p
            p.play(rng.choice(p.legal_cards()))
    raise AssertionError("no forced position")


@pytest.mark.parametrize("tricks_left,horizon", [(2, None), (5, 2)])
def test_a_forced_card_is_valued_over_the_samples(tricks_left, horizon):
    """Searched, or played out when more tricks are left than the horizon, as any card is:
    its mean is the mean of the samples' values."""
    deal, p = forced_position(tricks_left)
    seat = p.to_move
    seen = []

    def recording(position, seats=None, budget=None, cards=True):
        result = brute_solve(position, seats, budget, cards)
        seen.append(result.values[seat])
        return result

    h = hint("italian", "no-last-two", seat, deal.hands[seat], [str(c) for c in p.record],
             samples=6, seed=2, horizon=horizon, solver=recording)
    only, = h.cards
    assert h.forced and h.horizon == horizon and only.card == h.recommended == p.legal_cards()[0]
    assert h.samples == len(seen) == min(6, h.consistent_deals) and only.best == 1.0
    assert only.mean == pytest.approx(sum(seen) / len(seen))
    assert (only.low, only.high) == (min(seen), max(seen))


def test_time_budget_stops_sampling():
    deal = Deal.random(seed=1)
    slow_calls = []

    def slow(position, seats=None, budget=None, cards=True):
        slow_calls.append(budget.ms)
        raise SolveTimeout("search stopped at its time budget")

    with pytest.raises(SolveTimeout, match="no sampled deal"):
        hint("italian", "no-queens", "N", deal.hands[0], samples=5, ms=50, solver=slow)
    assert slow_calls and all(ms <= 50 for ms in slow_calls)


@pytest.mark.parametrize("kwargs,match", [
    (dict(seat="E"), "not on move"),
    (dict(samples=0), "invalid samples"),
    (dict(samples=True), "invalid samples"),
    (dict(ms=-1), "invalid ms"),
    (dict(seed="x"), "invalid seed"),
    (dict(contract="domino"), "not a trick contract"),
    (dict(hand="AKQ"), "invalid hand"),
    (dict(horizon=-1), "invalid horizon"),
    (dict(horizon=27), "invalid horizon"),
    (dict(horizon="7"), "invalid horizon"),
    (dict(horizon=True), "invalid horizon"),
])
def test_bad_hint_input(kwargs, match):
    deal = Deal.random(seed=2)
    args = dict(variant="italian", contract="no-queens", seat="N", hand=deal.hands[0])
    args.update(kwargs)
    with pytest.raises(KingsolveError, match=match):
        hint(**args, solver=brute_solve)


# --- choice hints (a stand-in solver makes the 13-card solves instant) -----------------------

def suit_length_solver(position, seats=None, budget=None):
    """Each seat's value: its number of trumps (0 without a trump), plus 1 when it leads."""
    values = {}
    for s in seats:
        hand = position.deal.hands[s]
        t = position.trump
        values[s] = (hand & SUIT_MASK[t]).bit_count() if t is not None else 0
        values[s] += 1 if position.leader == s else 0
    return SolveResult(position.to_move, {}, values, {}, [], False)


HAND = "AKQJT.AK3.72.843"


def test_trump_hint_names_the_suit_of_best_mean():
    h = trump_hint("italian", "W", HAND, samples=4, solver=suit_length_solver)
    assert h.recommended == "S"
    assert h.option("S").mean == 5 and h.option("C").mean == 3
    assert h.detail["leader"] == "N"          # the seat after the dealer leads (docs/rules.md 4)
    w = trump_hint("italian-wikipedia", "W", HAND, samples=2, solver=suit_length_solver)
    assert {o.option for o in w.options} == {"S", "H", "D", "C", "NT"}
    t = trump_hint("turkish", "N", HAND, samples=2, solver=suit_length_solver)
    assert t.detail["leader"] == "N" and t.option("S").mean == 6   # the chooser leads (7)


def test_sale_hint_follows_the_auction_model():
    """docs/rules.md 10: the dealer's score when sold at k is its tricks with the buyer's trump + k."""
    h = sale_hint("italian", "W", HAND, samples=3, solver=suit_length_solver)
    assert h.detail["declare_trump"] == "S"
    assert h.option("declare").mean == 5
    for o in h.options:
        assert o.option == "declare" or 0 <= o.detail["sold"] <= 1
    # a price above every gain sells nothing: the dealer simply declares
    assert h.option("sell 13").mean == h.option("declare").mean
    with pytest.raises(InvalidRequestError, match="variant .turkish. has no sale"):
        sale_hint("turkish", "W", HAND, samples=1, solver=suit_length_solver)
    # its name before 0.2.0 (CHANGELOG.md, 0.2.0) is gone from the package
    assert not hasattr(kingsolve, "sell_hint") and "sell_hint" not in kingsolve.__all__


def test_contract_hint_scores_against_par():
    h = contract_hint("turkish", "N", HAND, contracts=["trumps", "no-tricks"], samples=2,
                      solver=suit_length_solver)
    s = h.option("trumps S")
    assert s.detail["par"] == 13 * 50 / 4 and s.mean == pytest.approx(6 - 162.5)
    assert h.option("no-tricks").detail["par"] == -13 * 50 / 4
    assert h.recommended == "no-tricks"


def test_festa_hint_host_and_bidder():
    host = festa_hint("W", HAND, role="host", samples=2, solver=suit_length_solver)
    assert host.option("433").mean == 100 and host.recommended == "433"
    assert host.option("S host leads").mean == 6
    bid = festa_hint("W", HAND, role="bidder", samples=2, solver=suit_length_solver)
    assert bid.option("1 plus").mean == 6 - 25
    assert bid.detail["max_bid"] is None          # nothing here beats an even share
    with pytest.raises(InvalidRequestError, match="role"):
        festa_hint("W", HAND, role="guest", solver=suit_length_solver)


def test_choice_hints_need_the_whole_hand():
    with pytest.raises(KingsolveError, match="cards, expected 13"):
        trump_hint("italian", "W", "AKQ.AK3.72.843", samples=1, solver=suit_length_solver)


# --- request and command line --------------------------------------------------------------

def test_hint_request_shape_and_errors():
    deal, p = endgame("italian", "no-queens", 1, 3)
    seat = p.to_move
    req = {"variant": "italian", "contract": "no-queens", "seat": seat.name,
           "hand": [str(c) for c in cards_of_mask(deal.hands[seat])],
           "play": [str(c) for c in p.record], "samples": 20, "seed": 1, "id": 7}
    out = hint_request(req)
    assert out["id"] == 7 and out["recommended"] in [x["card"] for x in out["cards"]]
    json.dumps(out)
    with pytest.raises(InvalidRequestError, match="unknown field 'deal'"):
        hint_request({**req, "deal": "x"})
    with pytest.raises(InvalidRequestError, match="missing field 'hand'"):
        hint_request({k: v for k, v in req.items() if k != "hand"})
    with pytest.raises(InvalidRequestError, match="invalid field 'samples'"):
        hint_request({**req, "samples": "many"})
    with pytest.raises(InvalidRequestError, match="choice"):
        hint_request({**req, "choice": "dance"})
    with pytest.raises(InvalidRequestError):
        hint_request([1, 2])


def test_cli_hint(tmp_path, capsys):
    from kingsolve_cli import main
    deal, p = endgame("italian", "no-queens", 1, 3)
    seat = p.to_move
    path = tmp_path / "req.json"
    path.write_text(json.dumps({"variant": "italian", "contract": "no-queens", "seat": seat.name,
                                "hand": [str(c) for c in cards_of_mask(deal.hands[seat])],
                                "play": [str(c) for c in p.record]}))
    assert main(["hint", str(path), "--samples", "10"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["samples"] == 10 or out["exact"]
    assert out["horizon"] is None
    assert main(["hint", str(path), "--samples", "4", "--horizon", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["horizon"] == 1
    assert main(["hint", "--variant", "italian", "--contract", "no-queens", "--seat", "E",
                 "--hand", "AKQ.AK3.72.85432"]) == 3
    assert "not on move" in capsys.readouterr().err


# --- ties ---------------------------------------------------------------------------------

def test_play_preference_sheds_danger_under_a_penalty_and_wins_cheaply_otherwise():
    # Trick 1 is all clubs (N wins it), so trick 2's rules are the plain ones.
    first = ["CA", "C3", "C4", "C5"]
    deal = Deal("N:K2.3..A A4.9..3 Q5.7..4 J6.8..5")
    # docs/rules.md 2: E must follow spades. Under no-hearts (docs/rules.md 4) the card that does
    # not win comes first.
    p = Position("italian", "no-hearts", deal, leader="N", play=first + ["SK"])
    assert [str(c) for c in play_preference(p)] == ["S4", "SA"]
    # Void in the suit led, the highest heart (a penalty card) is shed first.
    void = Position("italian", "no-hearts", Deal("N:K2.3..A .94.2.3 Q5.7..4 J6.8..5"),
                    leader="N", play=first + ["SK"])
    assert [str(c) for c in play_preference(void)] == ["H9", "H4", "D2"]
    # A positive contract (docs/rules.md 4, trumps): the cheapest card that wins; the
    # highest lead.
    t = Position("italian", "trumps", deal, leader="N", trump="H", play=first + ["SK"])
    assert [str(c) for c in play_preference(t)] == ["SA", "S4"]
    lead = Position("italian", "trumps", deal, leader="E", trump="H")
    assert str(play_preference(lead)[0]) == "SA"


def test_hint_breaks_ties_by_the_play_preference():
    # docs/rules.md 11: when every card has the same paranoid value, the hint follows the
    # simple player's order instead of keeping the high cards.
    def flat(position, seats=None, budget=None):
        me = list(seats)[0]
        cards = {c: -2 for c in position.legal_cards()}
        return SolveResult(position.to_move, dict(position.taken), {me: -2}, cards,
                           list(cards), False)
    deal, p = endgame("italian", "no-tricks", 5, 4)
    seat = p.to_move
    h = hint("italian", "no-tricks", seat, deal.hands[seat], [str(c) for c in p.record],
             samples=3, solver=flat, horizon=13)
    assert [c.card for c in h.cards] == play_preference(p)
    assert h.recommended == play_preference(p)[0]


# --- rollouts before the horizon -----------------------------------------------------------

def rollout_by_hand(position, seat, card, horizon):
    """The reading of the rollout of kingsolve.hands.hints, written out: the card, then every seat
    plays the simple player's first card until a trick starts with ``horizon`` tricks
    left, then plain minimax (docs/rules.md 11) for the seat."""
    p = position.copy()
    p.play(card)
    while not p.complete and (p.current_trick() or p.n_tricks - len(p.tricks) > horizon):
        p.play(play_preference(p)[0])
    if p.complete:
        return p.scores()[seat]
    return brute_solve(p, [seat]).values[seat]


@pytest.mark.parametrize("variant,contract,trump,seed", [
    ("italian", "no-queens", None, 21), ("italian", "no-tricks", None, 22),
    ("turkish", "trumps", "S", 23), ("russian", "take-hearts", None, 24),
    ("portuguese", "no-last-two", None, 25)])
def test_rollout_hint_is_the_mean_of_played_out_values(variant, contract, trump, seed):
    """More tricks left than the horizon: each card of each sample is played out by the
    simple player to the horizon, then solved; the hint ranks the means of those values."""
    deal, p = endgame(variant, contract, seed, 5, trump)
    seat = p.to_move
    record = [str(c) for c in p.record]
    h = hint(variant, contract, seat, deal.hands[seat], record, trump=trump, samples=4,
             seed=seed, horizon=2, solver=brute_solve)
    assert h.horizon == 2 and h.to_dict()["horizon"] == 2
    view = SeatView.build(variant, contract, seat, deal.hands[seat], record, trump=trump)
    deals = list(itertools.islice(DealSampler(view).iter_sample(seed), 4))
    assert len(deals) == h.samples == 4
    for line in h.cards:
        vals = [rollout_by_hand(Position(variant, contract, d, trump=trump, play=record),
                                seat, line.card, 2) for d in deals]
        assert line.mean == pytest.approx(sum(vals) / len(vals))
        assert (line.low, line.high) == (min(vals), max(vals))
    assert h.recommended == h.cards[0].card


def test_the_horizon_chooses_between_rollout_and_whole_search():
    deal, p = endgame("italian", "no-hearts", 31, 3)
    seat = p.to_move
    args = ("italian", "no-hearts", seat, deal.hands[seat], [str(c) for c in p.record])
    left = p.n_tricks - len(p.tricks)
    whole = hint(*args, samples=6, seed=2, horizon=left)
    assert whole.horizon is None
    assert hint(*args, samples=6, seed=2).horizon is None           # default horizon: 3
    rolled = hint(*args, samples=6, seed=2, horizon=left - 1)
    assert rolled.horizon == left - 1
    assert {c.card for c in whole.cards} == {c.card for c in rolled.cards}
    full = hint("italian", "no-hearts", "N", Deal.random(seed=3).hands[0], samples=2,
                solver=brute_solve_or_fail(DEFAULT_HORIZON))
    assert full.horizon == DEFAULT_HORIZON


def brute_solve_or_fail(horizon):
    """A solver that checks it is called only at the horizon, at a trick start."""
    def solve(position, seats=None, budget=None, cards=True):
        assert not cards and not position.current_trick()
        assert position.complete or position.n_tricks - len(position.tricks) == horizon
        me = list(seats)[0]
        return SolveResult(position.to_move, {}, {me: -len(position.tricks)}, {}, [], False)
    return solve
