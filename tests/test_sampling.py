"""What a seat can infer from the play (docs/rules.md 2), and uniform sampling of the rest."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from kingsolve import Card, Deal, Position, Seat
from kingsolve.game.cards import SUIT_MASK, deck_mask, format_cards, iter_bits, mask_of_cards
from kingsolve.errors import IllegalPlayError, KingsolveError
from kingsolve.game.rules import VARIANTS
from kingsolve.hands.sampling import DealSampler, SeatView, exclusion_mask
from kingsolve.game.trick_rules import higher_in_suit, legality_filters
import kingsolve.hands.sampling as sampling

H, C_ = (SUIT_MASK[s] & deck_mask(52) for s in (1, 3))
QUEENS = mask_of_cards(["SQ", "HQ", "DQ", "CQ"])

# Hand-made deals (hands N E S W).
DEAL_V = Deal("N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9876. 765.765.5432.JT9 432.432..8765432")
DEAL_T = Deal("N:AKQJ.AKQ.AKQ.AKQ T98765..JT98765. 432.JT98.432.JT9 .765432..8765432")
DEAL_R = Deal("N:5432..5432.AKQJT AKQJ.765432.T98. T9.AKQJT98.AKQJ. 876..76.98765432")
DEAL_P = Deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")


def view_of(variant, contract, deal, seat, play, leader="N", trump=None, options=()):
    seat = Seat.parse(seat)
    Position(variant, contract, deal, leader=leader, trump=trump, options=options, play=play)
    return SeatView.build(variant, contract, seat, deal.hands[seat], play, leader=leader,
                          trump=trump, options=options)


def samples_of(view, n=40, seed=0):
    deals, _ = DealSampler(view).sample(n, seed)
    return deals


def replay_ok(view, deal, leader="N", trump=None, options=()):
    Position(view.variant, view.contract, deal, leader=leader, trump=trump, options=options,
             play=[Card.from_bit(b) for b in view.play])


# --- the legality filters are the play engine's rules --------------------------------------
def _random_states(n_games=60):
    rng = random.Random(7)
    for g in range(n_games):
        variant = rng.choice(sorted(VARIANTS))
        rs = VARIANTS[variant]
        name = rng.choice([c for c, k in rs.contracts.items() if k.kind == "tricks"])
        c = rs.contracts[name]
        trump = rng.choice("SHDC") if c.takes_trump else None
        deal = Deal.random(seed=g, deck=rs.deck)
        options = ("forced-king",) if "forced-king" in c.options and g % 2 else ()
        p = Position(variant, name, deal, leader=rng.choice("NESW"), trump=trump, options=options)
        while not p.complete:
            yield p, rng
            p.play(rng.choice(p.legal_cards()))


def test_filters_give_exactly_the_engines_legal_cards():
    """docs/rules.md 2: a card is legal iff the hand holds none of its exclusion mask."""
    checked = 0
    for p, rng in _random_states():
        t = p.tables
        trick = [b for _, b in p.trick]
        unplayed = p.deal.mask & ~p.played
        hands = [p.hands[p.to_move]]
        size = p.hands[p.to_move].bit_count()
        bits = list(iter_bits(unplayed))
        for _ in range(3):   # other hands the seat might have held, to reach every branch
            hands.append(sum(1 << b for b in rng.sample(bits, size)))
        for hand in hands:
            expected, _ = p._legal_with_reason(hand)
            got = 0
            for b in iter_bits(hand):
                z, _ = exclusion_mask(legality_filters(t, trick, p.played, not p.tricks, b), b)
                if not hand & z:
                    got |= 1 << b
            assert got == expected, (p, format_cards(hand))
            checked += 1
    assert checked > 2000


# --- each inference of docs/rules.md 2 ---------------------------------------------------------------
def test_not_following_means_void():
    """docs/rules.md 2.2-2.3: E discarded on a club lead, so E holds no club."""
    v = view_of("italian", "no-queens", DEAL_V, "S", ["CA", "S8"])
    assert v.excluded[Seat.E] == C_
    assert any(x.rule == "follow" and x.seat == Seat.E for x in v.inferences)
    for d in samples_of(v):
        assert not d.hands[Seat.E] & C_
        replay_ok(v, d)


def test_forced_discard_outside_the_set_means_none_of_the_set():
    """docs/rules.md 2.3 forced discard (Turkish no-queens, 7): E discarded S8, so E holds no Q."""
    v = view_of("turkish", "no-queens", DEAL_V, "S", ["CA", "C2", "C9", "S8"])
    assert v.excluded[Seat.E] == C_ | QUEENS
    for d in samples_of(v):
        assert not d.hands[Seat.E] & (C_ | QUEENS)


def test_first_trick_protection_overrides_the_forced_set():
    """docs/rules.md 2.3: on trick 1 protection overrides the forced discard (Portuguese no-king-of-hearts):
    E's discard tells nothing about HK; the same discard on trick 2 says E has no HK."""
    hk = Card("HK").mask
    v1 = view_of("portuguese", "no-king-of-hearts", DEAL_V, "S", ["CA", "S8", "C9", "C2"])
    assert v1.excluded[Seat.E] == C_
    v2 = view_of("portuguese", "no-king-of-hearts", DEAL_V, "S",
                 ["CA", "S8", "C9", "C2", "CK", "S9"])
    assert v2.excluded[Seat.E] == C_ | hk
    for d in samples_of(v2):
        assert d.holder("HK") != Seat.E


def test_discarding_a_protected_card_on_trick_one_means_only_protected_cards():
    """docs/rules.md 2.3 first-trick protection (italian-wikipedia no-hearts): E discarded a heart on
    trick 1, so every card E holds is a heart; the deal is then forced (exact)."""
    v = view_of("italian-wikipedia", "no-hearts", DEAL_P, "S", ["SA", "H2", "D2", "C2"])
    assert v.excluded[Seat.E] == deck_mask(52) & ~H
    sampler = DealSampler(v)
    assert sampler.count == 1
    deals, exact = sampler.sample(10)
    assert exact and deals == [DEAL_P]


def test_leading_the_restricted_suit_before_it_is_broken_means_only_that_suit():
    """docs/rules.md 2.1 until-broken (italian no-hearts): E led a heart unbroken: E holds only hearts."""
    v = view_of("italian", "no-hearts", DEAL_P, "S", ["H2"], leader="E")
    assert v.excluded[Seat.E] == deck_mask(52) & ~H
    assert [x.rule for x in v.inferences] == ["lead-restriction"]


def test_until_broken_says_nothing_once_broken():
    """docs/rules.md 2.1: once hearts are broken a heart lead is free, so no inference."""
    play = ["CA", "HJ", "C9", "C2", "HA"]
    v = view_of("italian", "no-hearts", DEAL_V, "S", play)
    assert v.excluded[Seat.N] == 0
    assert v.excluded[Seat.E] == C_


def test_while_other_suits_holds_even_when_broken():
    """docs/rules.md 2.1 while-other-suits (portuguese no-hearts): leading a heart, even broken,
    means holding nothing else; N holds spades in truth, so no deal explains that play
    from S's seat."""
    play = ["CA", "S8", "C9", "C2", "CK", "HJ", "CT", "C3", "HA"]
    with pytest.raises(IllegalPlayError):
        Position("portuguese", "no-hearts", DEAL_V, play=play)
    with pytest.raises(IllegalPlayError, match="no deal is consistent"):
        DealSampler(SeatView.build("portuguese", "no-hearts", "S", DEAL_V.hands[2], play))
    v = view_of("portuguese", "no-hearts", DEAL_P, "S", ["H2"], leader="E")
    assert v.excluded[Seat.E] == deck_mask(52) & ~H


def test_turkish_trump_lead_restriction():
    """docs/rules.md 2.1 trump lead restriction (Turkish trumps): E led a trump before any trump
    was played, so E holds only trumps."""
    v = view_of("turkish", "trumps", DEAL_P, "S", ["H2"], leader="E", trump="H")
    assert v.excluded[Seat.E] == deck_mask(52) & ~H
    assert [x.rule for x in v.inferences] == ["trump-lead-restriction"]


def test_not_trumping_when_void_means_no_trump():
    """docs/rules.md 2.3 ruff-overruff (portuguese festa) and strict (turkish): E discarded S5 on a
    club lead with no trump in the trick, so E holds no trump (hearts)."""
    v = view_of("portuguese", "festa", DEAL_T, "S", ["CA", "S5", "C9", "C2"], trump="H")
    assert v.excluded[Seat.E] == C_ | H
    # Turkish plays counterclockwise: N, W, S, E.
    v = view_of("turkish", "trumps", DEAL_T, "S", ["CA", "C2", "C9", "S5"], trump="H")
    assert v.excluded[Seat.E] == C_ | H
    for d in samples_of(v):
        assert not d.hands[Seat.E] & (C_ | H)


def test_not_overtrumping_under_ruff_overruff_means_no_higher_trump():
    """docs/rules.md 2.3 ruff-overruff: S could discard H8 over E's SJ only if it held no trump
    above SJ; it may still hold lower trumps."""
    v = view_of("portuguese", "festa", DEAL_R, "W", ["CA", "SJ", "H8", "C2"], trump="S")
    assert v.excluded[Seat.S] == C_ | mask_of_cards(["SQ", "SK", "SA"])
    lower = Counter()
    for d in samples_of(v, 60):
        assert not d.hands[Seat.S] & mask_of_cards(["SQ", "SK", "SA"])
        lower[bool(d.hands[Seat.S] & mask_of_cards(["ST", "S9"]))] += 1
        replay_ok(v, d, trump="S")
    assert lower[True] and lower[False]


def _find_inference(variant, contract, rule, trump=None, games=200, where=lambda card: True):
    """The first (position before the play, inference) of that rule in seeded random games."""
    for g in range(games):
        deal = Deal.random(seed=1000 + g, deck=VARIANTS[variant].deck)
        rng = random.Random(g)
        p = Position(variant, contract, deal, leader="N", trump=trump)
        record = []
        while not p.complete:
            card = rng.choice(p.legal_cards())
            mover = p.to_move
            viewer = mover.next(2)
            before = p.copy()
            p.play(card)
            record.append(str(card))
            v = SeatView.build(variant, contract, viewer, deal.hands[viewer], record,
                               trump=trump)
            hits = [x for x in v.inferences if x.rule == rule and x.index == len(record) - 1
                    and where(card)]
            if hits:
                return before, card, mover, hits[0], v, deal
    raise AssertionError(f"no {rule} inference found")


def test_overtake_inference():
    """docs/rules.md 2.2 overtake (Turkish trumps): following with a card no higher than the best
    card of the suit led already in the trick means holding no higher card of that suit."""
    before, card, mover, inf, v, deal = _find_inference("turkish", "trumps", "overtake", "S")
    led_top = max(b for _, b in before.trick if b >> 4 == before.trick[0][1] >> 4)
    assert card.bit < led_top
    assert inf.cards == higher_in_suit(led_top) & deck_mask(52)
    assert not deal.hands[mover] & ~before.played & higher_in_suit(led_top) & ~(1 << card.bit)
    for d in samples_of(v, 20):
        assert not d.hands[mover] & inf.cards
        replay_ok(v, d, trump="S")


def test_overtrump_on_a_trump_lead_inference():
    """docs/rules.md 2.2 overtrump on a trump lead (Portuguese festa): a lower trump on a trump
    lead means no trump above the highest in the trick."""
    before, card, mover, inf, v, deal = _find_inference("portuguese", "festa",
                                                        "overtrump-on-trump-lead", "D")
    top = max(b for _, b in before.trick if b >> 4 == 2)
    assert card.suit == 2 and card.bit < top
    assert inf.cards == higher_in_suit(top) & deck_mask(52)
    for d in samples_of(v, 20):
        assert not d.hands[mover] & inf.cards


def test_strict_overruff_inference():
    """docs/rules.md 2.3 ruff-overruff-strict (Turkish): a seat that cannot overtrump must still
    trump; a lower trump after a trump means no higher trump."""
    before, card, mover, inf, v, deal = _find_inference("turkish", "trumps", "overruff", "H",
                                                        where=lambda c: c.suit == 1)
    top = max(b for _, b in before.trick if b >> 4 == 1)
    assert inf.cards == higher_in_suit(top) & deck_mask(52)
    assert card.bit < top
    # a discard with a trump in the trick: strict, so no trump at all
    before, card, mover, inf, v, deal = _find_inference("turkish", "trumps", "ruff", "H",
                                                        where=lambda c: c.suit != 1)
    assert v.excluded[mover] & H == H


# --- every sample agrees with the play ------------------------------------------------------
CASES = [("italian", "no-hearts", None), ("italian-wikipedia", "no-king-of-hearts", None),
         ("portuguese", "festa", "S"), ("portuguese", "no-king-of-hearts", None),
         ("turkish", "trumps", "C"), ("turkish", "no-kings-jacks", None),
         ("russian", "nothing", None), ("italian", "trumps", "D")]


@pytest.mark.parametrize("variant,contract,trump", CASES)
def test_every_sample_replays_the_play_legally(variant, contract, trump):
    rs = VARIANTS[variant]
    deal = Deal.random(seed=11, deck=rs.deck)
    rng = random.Random(3)
    p = Position(variant, contract, deal, leader="W", trump=trump)
    for _ in range(4 * (deal.tricks // 2) + 1):
        p.play(rng.choice(p.legal_cards()))
    seat = p.to_move
    v = SeatView.build(variant, contract, seat, deal.hands[seat], [str(c) for c in p.record],
                       leader="W", trump=trump)
    deals, _ = DealSampler(v).sample(25, seed=5)
    for d in deals:
        replay_ok(v, d, leader="W", trump=trump)
        assert d.hands[seat] == deal.hands[seat]


@pytest.mark.parametrize("variant,contract,trump,tricks_done", [
    ("turkish", "trumps", "S", 10), ("portuguese", "festa", "H", 10),
    ("turkish", "no-queens", None, 10), ("russian", "nothing", None, 5)])
def test_sampler_deals_are_exactly_the_deals_that_replay_legally(variant, contract, trump,
                                                                 tricks_done):
    """Brute force: every way to give the unseen cards to the hidden seats, kept when the
    play replays legally (the engine judges), is exactly the sampler's set of deals."""
    rs = VARIANTS[variant]
    deal = Deal.random(seed=21, deck=rs.deck)
    rng = random.Random(9)
    p = Position(variant, contract, deal, leader="N", trump=trump)
    while len(p.tricks) < tricks_done and not p.complete:
        p.play(rng.choice(p.legal_cards()))
    p.play(rng.choice(p.legal_cards()))
    seat = p.to_move
    record = [str(c) for c in p.record]
    v = SeatView.build(variant, contract, seat, deal.hands[seat], record, trump=trump)
    sampler = DealSampler(v)
    hidden = v.hidden_seats
    unseen = list(iter_bits(v.unseen))
    need = [v.remaining[s] for s in hidden]
    brute = set()
    for first in itertools.combinations(unseen, need[0]):
        rest = [b for b in unseen if b not in first]
        for second in itertools.combinations(rest, need[1]):
            third = [b for b in rest if b not in second]
            hands = [None] * 4
            hands[seat] = deal.hands[seat]
            for s, cards in zip(hidden, (first, second, third)):
                hands[s] = sum(1 << b for b in cards) | v.played_by[s]
            d = Deal(hands)
            try:
                Position(variant, contract, d, leader="N", trump=trump, play=record)
            except IllegalPlayError:
                continue
            brute.add(d)
    by_index = [sampler.deal(i) for i in range(sampler.count)]
    assert len(set(by_index)) == sampler.count        # unranking is one-to-one
    assert set(by_index) == brute
    assert deal in brute


def test_uniform_draws_chi_square(monkeypatch):
    """Draws by random index are uniform over the consistent deals (chi-square, p ~ 0.001)."""
    monkeypatch.setattr(sampling, "MAX_EXACT", 0)
    deal = Deal.random(seed=5)
    rng = random.Random(5)
    p = Position("italian", "no-queens", deal, leader="N")
    while True:         # play on until between 10 and 200 deals remain for S
        p.play(rng.choice(p.legal_cards()))
        if p.to_move == Seat.S:
            v = SeatView.build("italian", "no-queens", "S", deal.hands[2],
                               [str(c) for c in p.record])
            sampler = DealSampler(v)
            if sampler.count <= 200:
                break
    k = sampler.count
    assert 10 <= k <= 200, k
    index = {sampler.deal(i): i for i in range(k)}
    draws = 60 * k
    counts = Counter()
    rng = random.Random(123)
    for _ in range(draws):
        counts[index[next(sampler.iter_sample(rng))]] += 1
    expected = draws / k
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(k))
    # mean k-1, sd sqrt(2(k-1)); 4.5 sd is far beyond chance, a per-seat bias would exceed it
    assert chi2 < (k - 1) + 4.5 * (2 * (k - 1)) ** 0.5, chi2
    assert deal in index


def test_same_seed_same_deals_and_different_seed_different_deals():
    v = view_of("italian", "no-queens", DEAL_V, "S", ["CA", "S8"])
    a, _ = DealSampler(v).sample(10, seed=42)
    b, _ = DealSampler(v).sample(10, seed=42)
    c, _ = DealSampler(v).sample(10, seed=43)
    assert [x.pbn() for x in a] == [x.pbn() for x in b]
    assert a != c
    assert len(set(a)) == 10
    # pinned: the same on every machine (random.Random is Mersenne Twister, index unranking)
    assert a[0].pbn() == PINNED_FIRST


PINNED_FIRST = "N:T3.A32.K9.A86532 AQJ9842.KJT98.8. 765.765.5432.JT9 K.Q4.AQJT76.KQ74"


def test_known_cards_and_hand_given_at_the_start():
    v = SeatView.build("italian", "no-queens", "S", DEAL_V.hands[2] & ~Card("C9").mask,
                       ["CA", "S8", "C9"], known={"N": ["SA", "HA"]})
    v2 = SeatView.build("italian", "no-queens", "S", DEAL_V.hands[2], ["CA", "S8", "C9"],
                        known={"N": "A.A.."})
    assert v.hand == v2.hand and v.known == v2.known
    for d in samples_of(v, 20):
        assert d.holder("SA") == Seat.N and d.holder("HA") == Seat.N


@pytest.mark.parametrize("kwargs,match", [
    (dict(hand="AKQJ.JT9.876.543"), "cards, expected"),
    (dict(hand=["SX"]), "invalid hand of S"),
    (dict(play=["CA", "CA"]), "already been played"),
    (dict(play=["CA", "S8", "ZZ"]), r"play\[2\]"),
    (dict(known={"E": ["C5"]}), "contradict"),
    (dict(known={"E": ["CJ"]}), "already seen"),
    (dict(known={"E": ["DQ"]}), "contradict"),
    (dict(seat="X"), "invalid seat"),
])
def test_bad_input_raises_clear_errors(kwargs, match):
    args = dict(variant="turkish", contract="no-queens", seat="S", hand=DEAL_V.hands[2],
                play=["CA", "C2", "C9", "S8"])
    args.update(kwargs)
    with pytest.raises(KingsolveError, match=match):
        DealSampler(SeatView.build(**args))
