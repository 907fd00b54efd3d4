"""The rules of a trick (docs/rules.md sections 2 and 3), at their edges, on hand-built positions.

Each test cites the docs/rules.md section it checks. Hands are short (a partly played
position, docs/rules.md 1): the first trick of such a position is its trick 1 and its
last two tricks are the last two of its hands.
"""

from __future__ import annotations

import pytest

from kingsolve import Card, Deal, IllegalPlayError, InvalidDealError, Position, Seat
from kingsolve.errors import InvalidRequestError
from kingsolve.game.rules import VARIANTS, compile_contract


def pos(variant, contract, hands, leader="N", trump=None, play=(), **kw) -> Position:
    """A position from ``{"N": "SA S2", ...}`` (cards separated by spaces)."""
    deal = Deal.from_hands({s: cards.split() for s, cards in hands.items()})
    return Position(variant, contract, deal, leader=leader, trump=trump, play=list(play), **kw)


def legal(p: Position) -> list[str]:
    return [str(c) for c in p.legal_cards()]


# --- 2: the trick and its winner ----------------------------------------------------------
def test_trick_won_by_highest_of_suit_led():
    # docs/rules.md 2: no trump -> the highest card of the suit led; a higher discard does not win.
    p = pos("italian", "no-queens", {"N": "S5 SQ", "E": "S9 H2", "S": "HA D2", "W": "S7 C3"},
            play=["S5", "S9", "HA", "S7"])
    assert p.tricks[0].winner == Seat.E and p.to_move == Seat.E


def test_trick_won_by_highest_trump():
    # docs/rules.md 2: the highest trump in the trick wins, whatever was led.
    p = pos("italian", "trumps", {"N": "SA SQ", "E": "D2 H2", "S": "D3 D4", "W": "S7 C3"},
            trump="D", play=["SA", "D2", "D3", "S7"])
    assert p.tricks[0].winner == Seat.S
    assert p.taken[Seat.S] == 1  # docs/rules.md 4: trumps, each trick +1


# --- 2.1 leading ---------------------------------------------------------------------------
def test_until_broken_hearts_not_led_while_other_suits():
    # docs/rules.md 2.1 until-broken (Italian no-hearts, docs/rules.md 4).
    p = pos("italian", "no-hearts", {"N": "HA S2", "E": "H2 S3", "S": "H3 S4", "W": "H4 S5"})
    assert legal(p) == ["S2"]
    with pytest.raises(IllegalPlayError, match=r"'HA' at play\[0\].*hearts are not broken"):
        p.play("HA")


def test_until_broken_hand_of_only_the_restricted_suit():
    # docs/rules.md 2.1: "unless the leader holds only X".
    p = pos("italian", "no-hearts", {"N": "HA H9", "E": "H2 S3", "S": "H3 S4", "W": "H4 S5"})
    assert legal(p) == ["HA", "H9"]


def test_until_broken_by_a_discard():
    # docs/rules.md 2.1: X is broken once any card of X has been played to any trick, a
    # discard included.
    p = pos("italian", "no-hearts",
            {"N": "SA H9 C2", "E": "H2 C3 C4", "S": "S3 H3 C5", "W": "S4 H4 C6"},
            play=["SA", "H2", "S3", "S4"])
    assert p.to_move == Seat.N
    assert legal(p) == ["H9", "C2"]


def test_until_broken_by_a_card_of_the_current_hand_only_after_the_trick():
    # Italian no-eight-of-diamonds, docs/rules.md 4: D until-broken; a diamond discarded
    # to trick 1 breaks diamonds for trick 2.
    p = pos("italian", "no-eight-of-diamonds",
            {"N": "SA D8 C2", "E": "D2 C3 C4", "S": "S3 D3 C5", "W": "S4 D4 C6"})
    assert legal(p) == ["SA", "C2"]
    p.play("SA")
    p.play("D2")
    p.play("S3")
    p.play("S4")
    assert legal(p) == ["D8", "C2"]


def test_portuguese_no_hearts_lead_and_first_trick():
    # docs/rules.md 6: Portuguese no-hearts, lead H while-other-suits and first-trick
    # protection on every heart.
    p = pos("portuguese", "no-hearts",
            {"N": "SA H9 C2", "E": "SK C3 C4", "S": "H3 D5 C5", "W": "S4 H4 C6"})
    assert legal(p) == ["SA", "C2"]
    p.play("SA")
    p.play("SK")
    assert legal(p) == ["D5", "C5"]     # S is void: H3 protected on trick 1
    p.play("D5")
    p.play("S4")
    assert legal(p) == ["C2"]


def test_while_other_suits_leader_holding_both():
    # docs/rules.md 2.1: while-other-suits forbids the heart lead even after hearts appeared.
    p = pos("russian", "no-hearts",
            {"N": "SA HA C7", "E": "SK C8 CA", "S": "HK D8 C9", "W": "S8 H7 CT"},
            play=["SA", "SK", "HK", "S8"])  # S discards HK: hearts broken
    assert p.to_move == Seat.N
    assert legal(p) == ["C7"]


def test_turkish_trump_lead_restriction():
    # docs/rules.md 2.1 trump lead restriction (Turkish trumps, docs/rules.md 7).
    p = pos("turkish", "trumps", {"N": "HA S2", "W": "H2 S3", "S": "H3 S4", "E": "H4 S5"},
            trump="H")
    assert legal(p) == ["S2"]
    with pytest.raises(IllegalPlayError, match="trumps may not be led"):
        p.play("HA")


def test_turkish_trump_lead_only_trumps():
    p = pos("turkish", "trumps", {"N": "HA H5", "W": "H2 S3", "S": "H3 S4", "E": "H4 S5"},
            trump="H")
    assert legal(p) == ["HA", "H5"]


def test_turkish_trump_lead_allowed_after_a_ruff():
    # docs/rules.md 2.1: "until a trump has been played to an earlier trick": a ruff counts.
    p = pos("turkish", "trumps",
            {"N": "SA HA C2 D2", "W": "H2 C3 C4 D3", "S": "S3 H3 C5 D4", "E": "S4 H4 C6 D5"},
            trump="H")
    p.play("SA")
    assert p.to_move == Seat.W          # docs/rules.md 1: counterclockwise N -> W -> S -> E
    assert legal(p) == ["H2"]           # 2.3 ruff-overruff-strict: void, must trump
    for c in ["H2", "S3", "S4"]:
        p.play(c)
    assert p.tricks[0].winner == Seat.W
    for c in ["C3", "C5", "C6", "C2"]:  # S and E overtake (2.2)
        p.play(c)
    assert p.tricks[1].winner == Seat.E
    assert legal(p) == ["H4", "D5"]     # a trump was played to trick 1


def test_turkish_trump_lead_not_released_by_the_trick_in_progress():
    # A trump played to the trick in progress is not "an earlier trick"; the leader
    # of the next trick is free only once that trick is complete (checked above).
    p = pos("turkish", "trumps",
            {"N": "SA HA C2", "W": "H2 C3 C4", "S": "S3 H3 C5", "E": "S4 H4 C6"}, trump="H")
    assert legal(p) == ["SA", "C2"]


# --- 2.2 following, holding the suit led ----------------------------------------------------
def test_must_follow_suit():
    # docs/rules.md 2.2.
    p = pos("italian", "no-tricks", {"N": "SA H2", "E": "S2 HA", "S": "S3 H3", "W": "S4 H4"},
            play=["H2"])
    assert legal(p) == ["HA"]
    with pytest.raises(IllegalPlayError, match=r"'S2' at play\[1\].*must follow suit"):
        p.play("S2")


def test_turkish_overtake():
    # docs/rules.md 2.2 overtake (Turkish trumps): a higher card of the suit led if held.
    p = pos("turkish", "trumps", {"N": "S9 D2", "W": "SA S2", "S": "S3 S4", "E": "S5 S6"},
            trump="H", play=["S9"])
    assert legal(p) == ["SA"]
    p.play("SA")
    assert legal(p) == ["S4", "S3"]   # cannot overtake the SA: any spade


def test_turkish_overtake_after_a_ruff():
    # docs/rules.md 2.2: overtake holds even when the trick has been trumped.
    p = pos("turkish", "trumps", {"N": "S5 D2", "W": "H2 D3", "S": "S9 S3", "E": "S6 S4"},
            trump="H", play=["S5", "H2"])
    assert p.to_move == Seat.S
    assert legal(p) == ["S9"]
    p.play("S9")
    assert legal(p) == ["S6", "S4"]   # E cannot beat S9: any spade


def test_portuguese_overtrump_on_a_trump_lead():
    # docs/rules.md 2.2 overtrump on a trump lead (Portuguese festa, docs/rules.md 6).
    p = pos("portuguese", "festa", {"N": "H9 D2", "E": "HK H2", "S": "HA H3", "W": "C2 C3"},
            trump="H", play=["H9"])
    assert legal(p) == ["HK"]
    p.play("HK")
    assert legal(p) == ["HA"]
    p.play("HA")
    assert legal(p) == ["C3", "C2"]   # void in trumps: any card


def test_portuguese_trump_lead_cannot_overtrump():
    p = pos("portuguese", "festa", {"N": "HQ D2", "E": "H5 H2", "S": "D3 H3", "W": "C2 C3"},
            trump="H", play=["HQ"])
    assert legal(p) == ["H5", "H2"]


def test_no_overtake_outside_turkish_trumps():
    # docs/rules.md 2.2: overtake is Turkish trumps only; Portuguese festa on a side suit.
    p = pos("portuguese", "festa", {"N": "S9 D2", "E": "SA S2", "S": "S3 S4", "W": "S5 S6"},
            trump="H", play=["S9"])
    assert legal(p) == ["SA", "S2"]


# --- 2.3 following, void in the suit led ----------------------------------------------------
def test_italian_trump_obligation_free():
    # docs/rules.md 2.3 free: trumping allowed, never required.
    p = pos("italian", "trumps", {"N": "SA D2", "E": "H5 C2", "S": "S3 S4", "W": "S5 S6"},
            trump="H", play=["SA"])
    assert legal(p) == ["H5", "C2"]


def test_ruff_overruff_must_trump_and_overtrump():
    # docs/rules.md 2.3 ruff-overruff (Portuguese festa).
    hands = {"N": "SA D2 D3", "E": "H5 C2 C3", "S": "HT H2 C4", "W": "S5 S6 S7"}
    p = pos("portuguese", "festa", hands, trump="H", play=["SA"])
    assert legal(p) == ["H5"]              # holding a trump: must trump
    p.play("H5")
    assert legal(p) == ["HT"]              # must overtrump if it can


def test_ruff_overruff_underruff_allowed():
    # docs/rules.md 2.3 ruff-overruff: cannot overtrump -> any card (underruff or discard).
    hands = {"N": "SA D2", "E": "HT C2", "S": "H2 C4", "W": "S5 S6"}
    p = pos("portuguese", "festa", hands, trump="H", play=["SA", "HT"])
    assert legal(p) == ["H2", "C4"]


def test_ruff_overruff_strict_must_underruff():
    # docs/rules.md 2.3 ruff-overruff-strict (Turkish): cannot overtrump -> any trump.
    hands = {"N": "SA D2", "W": "HT C2", "S": "H2 C4", "E": "S5 S6"}
    p = pos("turkish", "trumps", hands, trump="H", play=["SA", "HT"])
    assert p.to_move == Seat.S
    assert legal(p) == ["H2"]
    with pytest.raises(IllegalPlayError, match=r"'C4' at play\[2\].*must still play a trump"):
        p.play("C4")


def test_ruff_overruff_strict_overtrump():
    hands = {"N": "SA D2", "W": "H5 C2", "S": "HT H2", "E": "S5 S6"}
    p = pos("turkish", "trumps", hands, trump="H", play=["SA", "H5"])
    assert legal(p) == ["HT"]


def test_wikipedia_first_trick_protection():
    # docs/rules.md 2.3 first-trick protection (Wikipedia no-hearts, docs/rules.md 5).
    p = pos("italian-wikipedia", "no-hearts",
            {"N": "SA S2", "E": "HA C2", "S": "S3 S4", "W": "S5 S6"}, play=["SA"])
    assert legal(p) == ["C2"]
    with pytest.raises(IllegalPlayError, match="may not be discarded on the first trick"):
        p.play("HA")


def test_wikipedia_first_trick_protection_all_protected():
    # docs/rules.md 2.3: "unless every card in the hand is protected".
    p = pos("italian-wikipedia", "no-hearts",
            {"N": "SA S2", "E": "HA H2", "S": "S3 S4", "W": "S5 S6"}, play=["SA"])
    assert legal(p) == ["HA", "H2"]


def test_first_trick_protection_only_on_trick_one():
    p = pos("italian-wikipedia", "no-king-of-hearts",
            {"N": "SA S2 S7", "E": "C3 C4 HK", "S": "S3 S4 S8", "W": "S5 S6 S9"},
            play=["SA"])
    assert legal(p) == ["C4", "C3"]
    for c in ["C3", "S3", "S5", "S2"]:
        p.play(c)
    assert legal(p) == ["HK", "C4"]     # trick 2: no protection, no forced set


def test_booklet_has_no_first_trick_protection():
    # docs/rules.md 4: the booklet's no-hearts has no first-trick protection.
    p = pos("italian", "no-hearts", {"N": "SA S2", "E": "HA C2", "S": "S3 S4", "W": "S5 S6"},
            play=["SA"])
    assert legal(p) == ["HA", "C2"]


def test_portuguese_forced_king_versus_first_trick_protection():
    # docs/rules.md 2.3 / 6: forced set {HK} and first-trick protection {HK}; protection
    # overrides the forced set on trick 1.
    hands = {"N": "SA S2 S7", "E": "HK D2 D3", "S": "S3 S4 S8", "W": "S5 S6 S9"}
    p = pos("portuguese", "no-king-of-hearts", hands, play=["SA"])
    assert legal(p) == ["D3", "D2"]
    p.play("D2")
    p.play("S3")
    p.play("S5")
    assert p.to_move == Seat.N
    p.play("S7")
    assert legal(p) == ["HK"]           # trick 2: forced


def test_portuguese_forced_king_hand_of_only_protected_cards():
    # Every card protected (only HK): protection lifts and the forced set applies.
    p = pos("portuguese", "no-king-of-hearts", {"N": "SA", "E": "HK", "S": "S3", "W": "S5"},
            play=["SA"])
    assert legal(p) == ["HK"]


def test_portuguese_no_king_of_hearts_other_hearts_on_trick_one():
    # Only HK is protected: an other heart may be discarded to trick 1.
    p = pos("portuguese", "no-king-of-hearts",
            {"N": "SA S2", "E": "HK H2", "S": "S3 S4", "W": "S5 S6"}, play=["SA"])
    assert legal(p) == ["H2"]


def test_italian_forced_king_option():
    # docs/rules.md 4: option forced-king -> forced set {HK}, also on trick 1.
    hands = {"N": "SA S2", "E": "HK D2", "S": "S3 S4", "W": "S5 S6"}
    assert legal(pos("italian", "no-king-of-hearts", hands, play=["SA"])) == ["HK", "D2"]
    forced = pos("italian", "no-king-of-hearts", hands, play=["SA"], options=["forced-king"])
    assert legal(forced) == ["HK"]
    with pytest.raises(IllegalPlayError, match=r"'D2' at play\[1\].*must discard from HK"):
        forced.play("D2")


def test_turkish_forced_sets():
    # docs/rules.md 7: a queen (any queen) must be discarded when void in no-queens.
    p = pos("turkish", "no-queens", {"N": "SA S2", "W": "HQ DQ", "S": "S3 S4", "E": "S5 CQ"},
            play=["SA"])
    assert legal(p) == ["HQ", "DQ"]
    p = pos("turkish", "no-queens", {"N": "SA S2", "W": "HQ D2", "S": "S3 S4", "E": "S5 CQ"},
            play=["SA"])
    assert legal(p) == ["HQ"]
    p = pos("turkish", "no-hearts", {"N": "SA S2", "W": "H2 D2", "S": "S3 S4", "E": "S5 CQ"},
            play=["SA"])
    assert legal(p) == ["H2"]
    p = pos("turkish", "no-kings-jacks", {"N": "SA S2", "W": "HJ DK", "S": "S3 S4", "E": "S5 CQ"},
            play=["SA"])
    assert legal(p) == ["HJ", "DK"]


# --- 2.4 early end ---------------------------------------------------------------------------
def test_no_king_of_hearts_ends_once_taken():
    # docs/rules.md 2.4: the hand ends once HK is taken (no points remain).
    hands = {"N": "SA S2 C2", "E": "HK D2 C3", "S": "S3 S4 C4", "W": "S5 S6 C5"}
    p = pos("italian", "no-king-of-hearts", hands, play=["SA", "HK", "S3", "S5"])
    assert p.complete and p.ended_early
    assert p.to_move is None and p.legal_cards() == []
    assert p.taken == {Seat.N: -8, Seat.E: 0, Seat.S: 0, Seat.W: 0}
    assert p.to_dict()["complete"] is True and p.to_dict()["legal"] == []
    with pytest.raises(IllegalPlayError, match=r"play\[4\].*already complete"):
        p.play("S2")
    p.undo()
    assert not p.complete and p.to_move == Seat.W


def test_no_queens_ends_after_the_last_queen():
    hands = {"N": "SQ SA", "E": "HQ S2", "S": "DQ S3", "W": "CQ S4"}
    p = pos("italian", "no-queens", hands, play=["SQ", "S2", "S3", "S4"])
    assert not p.complete       # HQ DQ CQ still out
    p = pos("italian", "no-queens",
            {"N": "SQ SA S9", "E": "HQ H2 H3", "S": "DQ D2 D3", "W": "CQ C2 C3"},
            play=["SQ", "HQ", "DQ", "CQ"])
    assert p.complete and p.ended_early and len(p.tricks) == 1
    assert p.taken[Seat.N] == -12
    p = pos("italian", "no-queens", {"N": "SQ SA", "E": "HQ DQ", "S": "CQ S3", "W": "S5 S4"},
            play=["SQ", "HQ", "S3", "S4", "SA", "DQ", "CQ", "S5"])
    assert p.complete and not p.ended_early


def test_early_end_from_the_start_of_a_partial_deal():
    # docs/rules.md 2.4 read at the start too: a partly played deal without HK holds no
    # points, so the hand is already over (its second Reading).
    p = pos("italian", "no-king-of-hearts", {"N": "SA S2", "E": "H2 D2", "S": "S3 S4",
                                             "W": "S5 S6"})
    assert p.complete and p.ended_early and p.legal_cards() == []


def test_no_last_two_never_ends_early():
    # docs/rules.md 2.4: trick points remain until the last trick.
    deal = Deal.random(seed=5)
    p = Position("italian", "no-last-two", deal)
    while not p.complete:
        p.play(p.legal_cards()[-1])
    assert len(p.tricks) == 13 and not p.ended_early
    assert [t.points for t in p.tricks] == [0] * 11 + [-4, -4]


def test_no_tricks_never_ends_early():
    deal = Deal.random(seed=6)
    p = Position("portuguese", "no-tricks", deal)
    while not p.complete:
        p.play(p.legal_cards()[0])
    assert len(p.tricks) == 13 and sum(p.taken.values()) == -260


def test_russian_last_two_are_tricks_7_and_8():
    # docs/rules.md 8: 32 cards, 8 tricks; no-last-two: tricks 7 and 8 -8 each.
    deal = Deal.random(seed=7, deck=32)
    assert deal.tricks == 8
    for name, sign in (("no-last-two", -1), ("take-last-two", 1)):
        p = Position("russian", name, deal)
        while not p.complete:
            p.play(p.legal_cards()[0])
        assert [t.points for t in p.tricks] == [0] * 6 + [8 * sign, 8 * sign]


def test_russian_nothing_king_of_hearts_is_minus_20():
    # docs/rules.md 8: HK taken in `nothing` costs -2 (heart) -2 (king) -16 (the King) = -20.
    rs = VARIANTS["russian"]
    tables = compile_contract(rs.contract("nothing"), 8, None)
    assert tables.card_points[Card("HK").bit] == -20
    assert tables.card_points[Card("HQ").bit] == -6      # a heart and a queen
    assert tables.card_points[Card("SQ").bit] == -4
    assert tables.card_points[Card("HA").bit] == -2
    assert tables.card_points[Card("S7").bit] == 0
    p = pos("russian", "nothing", {"N": "S7 C7 C8", "E": "S8 C9 CT", "S": "S9 CA D7",
                                   "W": "HK D8 D9"},
            play=["S7", "S8", "S9", "HK"])
    # W, void in spades, must discard HK (forced set {HK}); S wins with S9. Trick 1 of 3
    # is trick n-2: no last-two points. -2 (trick) -20 (HK).
    assert p.tricks[0].winner == Seat.S and p.taken[Seat.S] == -22
    assert rs.contract("everything").points_of_card(Card("HK")) == 20


def test_portuguese_null_constant_counted_once_complete():
    # docs/rules.md 6: null, each seat 325 - 75 per trick; the constant counts only once the
    # hand is complete (docs/rules.md 3, the request's `taken`).
    deal = Deal.random(seed=8)
    p = Position("portuguese", "null", deal, leader="E")
    p.play(p.legal_cards()[0])
    assert p.scores() == {s: 0 for s in Seat}
    while len(p.tricks) < 12:
        p.play(p.legal_cards()[0])
    assert all(v <= 0 for v in p.scores().values())
    while not p.complete:
        p.play(p.legal_cards()[0])
    won = {s: sum(1 for t in p.tricks if t.winner == s) for s in Seat}
    assert p.scores() == {s: 325 - 75 * won[s] for s in Seat}
    assert sum(p.scores().values()) == 325
    assert p.to_dict()["taken"] == {s.name: 325 - 75 * won[s] for s in Seat}


def test_turkish_counterclockwise_order():
    # docs/rules.md 1 and 7: N -> W -> S -> E.
    p = Position("turkish", "no-tricks", Deal.random(seed=9))
    order = []
    for _ in range(4):
        order.append(p.to_move)
        p.play(p.legal_cards()[0])
    assert order == [Seat.N, Seat.W, Seat.S, Seat.E]


def test_clockwise_order():
    p = Position("russian", "no-tricks", Deal.random(seed=9, deck=32), leader="W")
    order = []
    for _ in range(4):
        order.append(p.to_move)
        p.play(p.legal_cards()[0])
    assert order == [Seat.W, Seat.N, Seat.E, Seat.S]


def test_italian_three_players_without_two_of_clubs():
    # docs/rules.md 1: 3 players, seats N E S, no C2, 17 cards each.
    deal = Deal.random(seed=10, players=3)
    assert deal.seats == (Seat.N, Seat.E, Seat.S) and deal.tricks == 17
    assert deal.holder("C2") is None
    p = Position("italian", "no-tricks", deal, leader="S")
    order = []
    for _ in range(3):
        order.append(p.to_move)
        p.play(p.legal_cards()[0])
    assert order == [Seat.S, Seat.N, Seat.E]
    bad = Deal.from_hands({"N": ["C2", "SA"], "E": ["S2", "S3"], "S": ["S4", "S5"]})
    with pytest.raises(InvalidDealError, match="2 of clubs"):
        Position("italian", "no-tricks", bad)


def test_italian_two_players():
    deal = Deal.random(seed=11, players=2)
    assert deal.seats == (Seat.N, Seat.S) and deal.tricks == 26
    p = Position("italian", "no-tricks", deal)
    while not p.complete:
        p.play(p.legal_cards()[0])
    assert sum(p.taken.values()) == -26


def test_three_players_only_in_italian():
    with pytest.raises(InvalidDealError, match="3 players"):
        Position("turkish", "no-tricks", Deal.random(seed=12, players=3))


def test_doubles_side_scores():
    # docs/rules.md 3: in doubles a side's score is the sum of its two seats.
    deal = Deal.random(seed=13)
    p = Position("italian", "no-tricks", deal, doubles=True)
    while not p.complete:
        p.play(p.legal_cards()[0])
    sc = p.scores()
    assert p.side_scores() == {"NS": sc[Seat.N] + sc[Seat.S], "EW": sc[Seat.E] + sc[Seat.W]}
    assert p.side_scores()["NS"] + p.side_scores()["EW"] == -13
    assert p.to_dict()["sides"] == p.side_scores()
    with pytest.raises(InvalidRequestError, match="no doubles"):
        Position("turkish", "no-tricks", deal, doubles=True)


def test_wikipedia_trumps_with_and_without_trump():
    # docs/rules.md 5: the dealer names a trump suit or no trump.
    deal = Deal.random(seed=14)
    assert Position("italian-wikipedia", "trumps", deal, trump=None).trump is None
    assert Position("italian-wikipedia", "trumps", deal, trump="S").trump == 0
    with pytest.raises(InvalidRequestError, match="needs a trump"):
        Position("italian", "trumps", deal)        # docs/rules.md 4: a suit must be named
    with pytest.raises(InvalidRequestError, match="takes no trump"):
        Position("italian", "no-trumps", deal, trump="S")


# --- docs/rules.md 4-8: each contract's total ------------------------------------------------------
TOTALS = {
    "italian": {"no-kings-jacks": -16, "no-queens": -12, "no-king-of-hearts": -8,
                "no-eight-of-diamonds": -8, "no-hearts": -13, "no-tricks": -13,
                "no-last-two": -8, "trumps": 13, "no-trumps": 26},
    "portuguese": {"no-tricks": -260, "no-hearts": -260, "no-queens": -200, "no-men": -240,
                   "no-king-of-hearts": -160, "no-last-two": -180, "festa": 325,
                   "null": 325},
    "turkish": {"no-tricks": -650, "no-hearts": -390, "no-kings-jacks": -480,
                "no-queens": -400, "no-king-of-hearts": -320, "no-last-two": -360,
                "trumps": 650},
    "russian": {"no-tricks": -16, "no-hearts": -16, "no-boys": -16, "no-queens": -16,
                "no-king": -16, "no-last-two": -16, "nothing": -96, "take-tricks": 16,
                "take-hearts": 16, "take-boys": 16, "take-queens": 16, "take-king": 16,
                "take-last-two": 16, "everything": 96},
}
TOTALS["italian-wikipedia"] = TOTALS["italian"]


def contract_total(variant: str, name: str) -> int:
    rs = VARIANTS[variant]
    tables = compile_contract(rs.contract(name), 52 // 4 if rs.deck == 52 else 8, None)
    deck_points = sum(tables.card_points)
    return deck_points + sum(tables.trick_points) + 4 * tables.seat_constant


@pytest.mark.parametrize("variant", sorted(TOTALS))
def test_contract_totals(variant):
    # docs/rules.md 4-8: each contract's total points, from the data.
    rs = VARIANTS[variant]
    trick_contracts = {n for n, c in rs.contracts.items() if c.kind == "tricks"}
    assert trick_contracts == set(TOTALS[variant])
    for name, total in TOTALS[variant].items():
        assert contract_total(variant, name) == total, name


def test_match_totals_from_the_data():
    # docs/rules.md 4: 7 penalties -78 against 4 trumps + no-trumps +78.
    it = VARIANTS["italian"]
    assert sum(contract_total("italian", n) for n in it.schedule if n != "domino") == 0
    # docs/rules.md 6: -1300 in the six negatives, +1300 in the four festas.
    pt = VARIANTS["portuguese"]
    neg = sum(contract_total("portuguese", n) for n in pt.schedule if n != "festa")
    assert neg == -1300 and 4 * contract_total("portuguese", "festa") == 1300
    # docs/rules.md 7: each penalty twice = 5200 = 8 trump hands.
    pen = 2 * sum(v for n, v in TOTALS["turkish"].items() if n != "trumps")
    assert pen == -5200 and 8 * contract_total("turkish", "trumps") == 5200
    # docs/rules.md 8: single contracts 16, combined 96; the match is zero-sum.
    assert sum(contract_total("russian", n) for n in VARIANTS["russian"].schedule) == 0


def test_played_hand_hands_out_the_contract_total():
    # docs/rules.md 3: a hand played to the end distributes the contract's whole total.
    deal = Deal.random(seed=15)
    for name, total in TOTALS["turkish"].items():
        p = Position("turkish", name, deal, trump="S" if name == "trumps" else None)
        while not p.complete:
            p.play(p.legal_cards()[0])
        # Played out or ended early (every scored card taken): the whole total.
        assert sum(p.scores().values()) == total, name
