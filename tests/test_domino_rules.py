"""The domino hand's rules (docs/rules.md 9) as the play engine ``DominoPosition`` applies them."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction

import pytest

from kingsolve.game.cards import Card, Rank, Seat, Suit
from kingsolve.game.deal import Deal
from kingsolve.game.domino import DominoPosition, redeal_property
from kingsolve.errors import IllegalPlayError, InvalidDealError, InvalidRequestError, KingsolveError, ParseError
from kingsolve.io.request import legal_request, position_from_request
from kingsolve.game.rules import get_variant

# Each seat holds one whole suit: N spades, E hearts, S diamonds, W clubs.
SUITS = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"

# Seeded full deals whose random play-outs end in the cases the tests need (the play
# records are spelled out so that the tests do not depend on a random generator).
SHARED_TWO = ("N:7.AJ65.Q43.AJT32 Q42.3.KJ82.KQ985 AJ63.KT74.A976.4 KT985.Q982.T5.76",
              "D7 C7 S7 C8 H7 S8 H6 D8 S6 C6 H5 C9 H4 H8 CT C5 D9 S9 CJ H3 D6 D5 D4 CQ C4 S5 "
              "C3 CK H2 HA S4 S3 DT D3 S2 SA H9 C2 DJ HT ST DQ D2 SJ CA DK DA HJ SQ")
SHARED_THREE = ("N:Q953.85.J532.T42 2.Q7642.A8.AK763 AKJ4.KT9.K76.J98 T876.AJ3.QT94.Q5",
                "D7 S7 D8 D6 S6 D5 C7 C8 S8 S9 C6 C9 C5 CT H7 CJ D4 H8 H6 H9 ST S5 SJ D9 C4 C3 "
                "HT CQ SQ CK S4 DT C2 CA SK HJ H5 H4 H3 S3 HQ HK DJ H2 HA D3 S2 SA DQ D2 DA")
SHARED_LAST_OUT = ("N:53.92.K42.KT5432 QT2.KT876.AQ986. A9876.A43.T53.J8 KJ4.QJ5.J7.AQ976",
                   "D7 D6 D5 C7 D4 H7 C8 C9 CT H8 D3 C6 H9 H6 S7 H5 D2 D8 S6 C5 DA S8 C4 HT S9 "
                   "HJ C3 ST H4 SJ S5 SQ H3 SK H2 D9 DT S4 S3 S2 CJ HQ C2 HK SA CA HA")
SINGLE = ("N:A643.KJT8.92.AK3 2.653.QJT7.T9842 KQ97.Q9.AK54.J75 JT85.A742.863.Q6",
          "D7 S7 D6 S6 D5 S8 D4 S5 S4 S9 ST S3 S2 C7 H7 SA C8 SJ H8 H6 SQ C6 C9 SK D8 D9 CT "
          "H9 D3 D2 H5 C5 H4 HT C4 DA HJ H3 CJ H2 C3 DT HQ CQ CK C2 HA")


def italian(deal=SUITS, play=(), leader="N"):
    return DominoPosition("italian", Deal(deal), leader=leader, play=play)


def wiki(deal=SUITS, play=(), leader="N"):
    return DominoPosition("italian-wikipedia", Deal(deal), leader=leader, play=play)


def cards(text):
    return [Card(t) for t in text.split()]


def hand_size(position, seat):
    return position.hands[seat].bit_count()


# --- openings ---------------------------------------------------------------------------

def test_any_seven_first_card_is_a_seven():
    # docs/rules.md 9: `any-seven`: the first card of the hand must be a seven (any suit).
    p = italian(Deal.random(seed=3).pbn(), leader="E")
    assert p.legal_cards() and all(c.rank == Rank.SEVEN for c in p.legal_cards())
    held = [c for c in p.deal.hand(p.to_move) if c.rank != Rank.SEVEN]
    with pytest.raises(IllegalPlayError, match=r"the first card must be a seven"):
        p.play(held[0])


def test_any_seven_leader_moves_first():
    # docs/rules.md 9: the seat after the dealer (the leader) moves first.
    for leader in Seat:
        p = italian(leader=leader)
        assert p.to_move == leader
        assert p.legal_cards() == [Card(Suit(int(leader)), Rank.SEVEN)]


def test_any_seven_seat_without_seven_passes():
    # docs/rules.md 9: a seat holding no seven passes (N holds none in this deal).
    deal, _ = SINGLE
    p = italian(deal, leader="N")
    assert not [c for c in p.deal.hand(Seat.N) if c.rank == Rank.SEVEN]
    assert p.to_move == Seat.E
    assert p.passes == [(0, Seat.N)]
    assert p.to_dict()["passes"] == [{"seat": "N", "before": 0}]


def test_seven_of_diamonds_opens():
    # docs/rules.md 9: `seven-of-diamonds`: the holder of D7 opens by playing it.
    for leader in Seat:
        p = wiki(leader=leader)       # the leader is ignored
        assert p.to_move == Seat.S
        assert p.legal_cards() == [Card("D7")]
    p = DominoPosition("italian-wikipedia", Deal.random(seed=11))
    holder = p.deal.holder("D7")
    assert p.to_move == holder and p.legal_cards() == [Card("D7")]


def test_seven_of_diamonds_other_first_card_refused():
    # docs/rules.md 9: play[0] must be D7, even another seven of its holder.
    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9765432.7 ..8.AKQJT9865432"
    p = wiki(deal)
    with pytest.raises(IllegalPlayError, match=r"'C7' at play\[0\]: the seven of diamonds \(D7\)"):
        p.play("C7")
    with pytest.raises(IllegalPlayError, match=r"'H7' at play\[0\]: S is on move and E holds it"):
        p.play("H7")


def test_seven_of_diamonds_next_seat_moves_next():
    # docs/rules.md 9: after D7, the next seat (in play direction) moves.
    p = wiki(play=["D7"])
    assert p.to_move == Seat.W
    assert p.opener == Seat.S
    assert set(p.legal_cards()) == {Card("C7")}


# --- the layout -------------------------------------------------------------------------

def test_suit_opened_by_seven_then_neighbours():
    # docs/rules.md 9: a suit is opened by its 7; then the next card up or down is added.
    p = italian(play=["S7", "H7", "D7", "C7"])
    assert p.to_move == Seat.N
    assert set(p.legal_cards()) == {Card("S6"), Card("S8")}
    p.play("S8")
    assert p.layout[Suit.S] == (Rank.SEVEN, Rank.EIGHT)


def test_not_opened_suit_refused():
    # docs/rules.md 9: only the 7 opens a suit.
    p = italian(play=["S7"])
    with pytest.raises(IllegalPlayError, match=r"illegal card 'H8' at play\[1\]: hearts are not opened"):
        p.play("H8")


def test_card_not_next_to_the_run_refused():
    # docs/rules.md 9: only the card next to the cards down may be added.
    p = italian(play=["S7", "H7", "D7", "C7", "S6", "H8"])
    with pytest.raises(IllegalPlayError,
                       match=r"illegal card 'DT' at play\[6\]: diamonds are down from D7 to D7: "
                             r"only D6 or D8 may be added"):
        p.play("DT")
    p.play("D8")
    with pytest.raises(IllegalPlayError, match=r"'C5' at play\[7\]: clubs are down from C7 to C7"):
        p.play("C5")


def test_ace_is_the_low_end_and_king_the_high_end():
    # docs/rules.md 9: upward 8 9 T J Q K, downward 6 5 4 3 2 A.
    rec = ["S7", "H7", "D7", "C7"]
    for low, high in zip("65432", "89TJQ"):
        rec += ["S" + low, "H" + high, "D" + low, "C" + high]
    p = italian(play=rec)
    assert p.layout[Suit.S] == (Rank.TWO, Rank.SEVEN)
    assert p.layout[Suit.H] == (Rank.SEVEN, Rank.QUEEN)
    assert set(p.legal_cards()) == {Card("SA"), Card("S8")}
    p.play("SA")
    assert p.layout[Suit.S] == (Rank.ACE, Rank.SEVEN)
    assert p.to_dict()["layout"]["S"] == ["A", "7"]
    assert set(p.legal_cards()) == {Card("HK"), Card("H6")}
    p.play("HK")
    assert p.to_dict()["layout"]["H"] == ["7", "K"]


def test_layout_in_the_shared_shape():
    # docs/rules.md 9; the JSON shape of `kingsolve legal`.
    p = italian(play=["S7", "H7", "D7"])
    d = p.to_dict()
    assert d == {"to_move": "W", "legal": ["C7"], "trick": [],
                 "taken": {"N": 0, "E": 0, "S": 0, "W": 0}, "complete": False,
                 "layout": {"S": ["7", "7"], "H": ["7", "7"], "D": ["7", "7"], "C": None},
                 "passes": []}
    json.dumps(d)


# --- turns and passes -------------------------------------------------------------------

def test_must_play_when_able_and_passes_are_implied():
    # docs/rules.md 9: a seat must play a legal card if it has one, otherwise it passes.
    rng = random.Random(5)
    for seed in range(6):
        for variant in ("italian", "italian-wikipedia"):
            p = DominoPosition(variant, Deal.random(seed=seed), leader=Seat(seed % 4))
            while not p.complete:
                seat = p.to_move
                assert p.legal_cards(), "the seat on move always has a legal card"
                before = len(p.passes)
                p.play(rng.choice(p.legal_cards()))
                # every seat skipped between two plays had no legal card
                for idx, passer in p.passes[before:]:
                    assert idx == len(p.record)
                nxt = p.to_move
                if nxt is None:
                    continue
                skipped = [s for _, s in p.passes[before:]]
                walk = [seat.next(k) for k in range(1, 5)]
                assert walk[:len(skipped)] == skipped and walk[len(skipped)] == nxt
                for s in skipped:
                    assert not p.hands[s] & p.playable_mask()


def test_turns_go_clockwise():
    # docs/rules.md 9 and 1: turns go in play direction, clockwise N E S W.
    p = italian(leader="W")
    order = []
    for card in ["C7", "S7", "H7", "D7", "C8", "S8"]:
        order.append(p.to_move)
        p.play(card)
    assert order == [Seat.W, Seat.N, Seat.E, Seat.S, Seat.W, Seat.N]


def test_undo_restores_passes_layout_and_turn():
    deal, rec = SINGLE
    p = italian(deal, play=rec.split()[:20])
    snapshot = (p.to_dict(), list(p.hands), p.played)
    p.play(p.legal_cards()[0])
    p.undo()
    assert (p.to_dict(), list(p.hands), p.played) == snapshot
    while p.record:
        p.undo()
    assert p.to_dict() == italian(deal).to_dict()
    with pytest.raises(IllegalPlayError, match="nothing to undo"):
        p.undo()


# --- single winner ----------------------------------------------------------------------

def test_single_winner_scores():
    # docs/rules.md 9: the first seat out ends the hand; it scores the cards left in the other
    # hands, each other seat minus the cards it holds.
    rec = ["S7", "H7", "D7", "C7"] + ["S6", "H6", "D6", "C6", "S5", "H5", "D5", "C5", "S4", "H4",
                                      "D4", "C4", "S3", "H3", "D3", "C3", "S2", "H2", "D2", "C2",
                                      "SA", "HA", "DA", "CA"]
    for rank in "89TJQ":
        rec += ["S" + rank, "H" + rank, "D" + rank, "C" + rank]
    p = italian(play=rec)
    assert not p.complete and p.to_move == Seat.N
    p.play("SK")
    assert p.complete and p.to_move is None
    assert p.scores() == {Seat.N: 3, Seat.E: -1, Seat.S: -1, Seat.W: -1}
    assert p.legal_cards() == []
    with pytest.raises(IllegalPlayError, match=r"'HK' at play\[49\]: the hand is already complete"):
        p.play("HK")


def test_single_winner_from_a_seeded_deal():
    # docs/rules.md 9, single winner: W goes out; the hand ends at once.
    deal, rec = SINGLE
    p = italian(deal, play=rec.split())
    assert p.complete and p.out == [Seat.W]
    assert p.scores() == {Seat.N: -2, Seat.E: -2, Seat.S: -1, Seat.W: 5}
    assert all(isinstance(v, int) for v in p.scores().values())


def test_scores_are_zero_before_completion():
    deal, rec = SINGLE
    p = italian(deal, play=rec.split()[:-1])
    assert not p.complete
    assert p.scores() == {s: 0 for s in Seat}


# --- shared win -------------------------------------------------------------------------

def test_shared_round_is_completed_after_a_seat_goes_out():
    # docs/rules.md 9, shared win: after a seat plays its last card the turns of the current
    # round are completed, up to the seat before the opener.
    deal, rec = SHARED_TWO
    rec = rec.split()
    p = wiki(deal, play=rec[:-1])
    assert p.opener == Seat.S and p.last_of_round == Seat.E
    assert p.out == [Seat.N] and not p.complete
    assert p.to_move == Seat.E
    p.play(rec[-1])
    assert p.complete and p.out == [Seat.N, Seat.E]
    # S holds 1 card and W 2: the winners share 3
    assert p.scores() == {Seat.N: Fraction(3, 2), Seat.E: Fraction(3, 2), Seat.S: -1, Seat.W: -2}
    assert p.to_dict()["taken"] == {"N": 1.5, "E": 1.5, "S": -1, "W": -2}


def test_same_play_under_a_single_winner_ends_at_once():
    # docs/rules.md 9: with a single winner the seat out ends the hand (no round completion).
    deal, rec = SHARED_TWO
    rec = rec.split()
    single = replace(get_variant("italian-wikipedia").contract("domino"), domino_ending="single")
    p = DominoPosition("italian-wikipedia", Deal(deal), play=rec[:-1], contract=single)
    assert p.complete and p.out == [Seat.N]
    assert p.scores() == {Seat.N: 4, Seat.E: -1, Seat.S: -1, Seat.W: -2}


def test_shared_three_winners_thirds():
    # docs/rules.md 9: every seat out at the end of the round wins; the losers' total is shared.
    deal, rec = SHARED_THREE
    p = wiki(deal, play=rec.split())
    assert p.complete and p.out == [Seat.W, Seat.N, Seat.E]
    assert p.scores() == {Seat.N: Fraction(1, 3), Seat.E: Fraction(1, 3), Seat.S: -1,
                          Seat.W: Fraction(1, 3)}
    assert sum(p.scores().values()) == 0


def test_shared_first_out_is_the_seat_before_the_opener():
    # docs/rules.md 9: the round ends with the seat before the opener: if that seat goes out,
    # the hand ends at once.
    deal, rec = SHARED_LAST_OUT
    p = wiki(deal, play=rec.split())
    assert p.opener == Seat.W and p.last_of_round == Seat.S
    assert p.complete and p.out == [Seat.S]
    assert p.scores() == {Seat.N: -2, Seat.E: -1, Seat.S: 5, Seat.W: -2}


def test_shared_all_four_out():
    # docs/rules.md 9: S opens (holds D7) and goes out first; W, N and E then play their last
    # cards in the same round: four winners share nothing.
    rec = ["D7", "C7", "S7", "H7"]
    for low, high in zip("65432A", "89TJQK"):
        rec += ["D" + low, "C" + low, "S" + low, "H" + low]
        rec += ["D" + high, "C" + high, "S" + high, "H" + high]
    p = wiki(play=rec[:-3])
    assert p.out == [Seat.S] and not p.complete and p.to_move == Seat.W
    p.play(rec[-3])
    p.play(rec[-2])
    assert not p.complete and p.to_move == Seat.E
    p.play(rec[-1])
    assert p.complete and p.out == [Seat.S, Seat.W, Seat.N, Seat.E]
    assert p.scores() == {s: 0 for s in Seat}


def test_shared_turns_after_the_first_seat_out():
    # docs/rules.md 9: after the first seat goes out, each seat from the next one to the seat
    # before the opener takes exactly one turn (a card, or a pass); the seat out none.
    rng = random.Random(2)
    for seed in range(40):
        p = DominoPosition("italian-wikipedia", Deal.random(seed=seed))
        while not p.complete:
            p.play(rng.choice(p.legal_cards()))
            if p.out and not p.complete:
                assert p.to_move not in p.out
        first = p.out[0]
        k = len(p.movers) - 1 - p.movers[::-1].index(first)      # its last card
        turns = []
        for i in range(k + 1, len(p.record) + 1):
            turns += [s for idx, s in p.passes if idx == i]
            if i < len(p.record):
                turns.append(p.movers[i])
        expected = []
        seat = first
        while seat != p.last_of_round:
            seat = seat.next()
            expected.append(seat)
        assert turns == expected, (seed, first, turns, expected)
        assert set(p.out) - {first} <= set(expected)


# --- errors -----------------------------------------------------------------------------

def test_card_not_held_by_the_seat_on_move():
    p = italian(play=["S7"])
    with pytest.raises(IllegalPlayError, match=r"illegal card 'S8' at play\[1\]: E is on move "
                                               r"and N holds it"):
        p.play("S8")
    with pytest.raises(IllegalPlayError, match=r"'S7' at play\[1\]: it has already been played"):
        p.play("S7")
    with pytest.raises(ParseError, match=r"invalid card at play\[1\]"):
        p.play("X9")


def test_errors_through_the_play_list_name_the_index():
    with pytest.raises(IllegalPlayError, match=r"illegal card 'S9' at play\[4\]: spades are down "
                                               r"from S7 to S7: only S6 or S8 may be added"):
        italian(play=["S7", "H7", "D7", "C7", "S9"])


def test_deal_must_be_the_full_deck_of_four():
    with pytest.raises(InvalidDealError, match="every card of the 52-card deck"):
        DominoPosition("italian", Deal("N:AKQ... .AKQ.. ..AKQ. ...AKQ"))
    with pytest.raises(InvalidDealError, match="expected 4"):
        DominoPosition("italian", Deal.random(seed=1, players=2))
    with pytest.raises(InvalidRequestError, match="not the domino"):
        DominoPosition("italian", Deal.random(seed=1),
                       contract=DominoPosition("italian", Deal.random(seed=1))
                       .variant.contract("no-queens"))


def test_short_deck_for_study():
    # A short deck: each suit a run around its seven (not a rule; for tests and study).
    p = DominoPosition("italian", Deal("N:876... .876.. ..876. ...876"), full_deck=False)
    assert p.to_move == Seat.N and p.legal_cards() == [Card("S7")]
    with pytest.raises(InvalidDealError, match="run of cards around the seven"):
        DominoPosition("italian", Deal("N:986... .986.. ..986. ...986"), full_deck=False)


# --- the request path -------------------------------------------------------------------

def test_legal_request_domino():
    deal, rec = SINGLE
    req = {"variant": "italian", "contract": "domino", "deal": deal, "leader": "N",
           "play": rec.split()[:3]}
    out = legal_request(req)
    p = italian(deal, play=rec.split()[:3])
    assert out == p.to_dict()
    assert out["to_move"] == p.to_move.name and out["trick"] == []
    assert out["passes"][0] == {"seat": "N", "before": 0}


def test_legal_request_errors():
    deal, rec = SINGLE
    base = {"variant": "italian", "contract": "domino", "deal": deal, "leader": "E"}
    with pytest.raises(IllegalPlayError, match=r"'S7' at play\[0\]: E is on move and S holds it"):
        legal_request({**base, "play": ["S7"]})
    with pytest.raises(KingsolveError, match="takes no trump"):
        legal_request({**base, "trump": "S"})
    with pytest.raises(KingsolveError, match="singles only"):
        legal_request({**base, "doubles": True})
    p = position_from_request({**base, "variant": "italian-wikipedia", "play": ["D7"]})
    assert isinstance(p, DominoPosition) and p.opener == Seat.E and p.to_move == Seat.S


def test_complete_request_and_fraction_json():
    deal, rec = SHARED_TWO
    out = legal_request({"variant": "italian-wikipedia", "contract": "domino", "deal": deal,
                         "play": rec.split()})
    assert out["complete"] and out["to_move"] is None and out["legal"] == []
    assert out["taken"] == {"N": 1.5, "E": 1.5, "S": -1, "W": -2}


# --- redeal property ----------------------------------------------------------------------

def test_redeal_property():
    # docs/rules.md 4: the booklet's home rule: four or more aces and kings may ask a redeal.
    deal = Deal("N:AK32.AK2.432.432 QJT9.QJT.QJT.QJT 8765.9876.876.98 4.543.AK95.AK765")
    r = redeal_property(deal)
    assert r["N"] == {"aces": 2, "kings": 2, "total": 4, "may_redeal": True}
    assert r["E"]["total"] == 0 and not r["E"]["may_redeal"]
    assert r["W"] == {"aces": 2, "kings": 2, "total": 4, "may_redeal": True}
    assert not redeal_property(deal, threshold=5)["N"]["may_redeal"]
    assert sum(v["aces"] for v in r.values()) == 4 and sum(v["kings"] for v in r.values()) == 4


def test_copy_is_independent():
    deal, rec = SINGLE
    p = italian(deal, play=rec.split()[:10])
    q = p.copy()
    q.play(q.legal_cards()[0])
    assert len(p.record) == 10 and len(q.record) == 11
    assert repr(p).startswith("DominoPosition('italian'")
