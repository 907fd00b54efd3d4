"""Match score sheets (docs/rules.md 4-10): schedules, settlements, quotas, zero-sum matches."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from kingsolve import Deal, KingsolveError, Position, Seat, UnknownContractError
from kingsolve.game.domino import DominoPosition
from kingsolve.hands.match import (Bid, Festa, Sale, ScoreSheet, ScoreSheetError,
                             check_turkish_choices, contract_total)

SUITS = ["S", "H", "D", "C"]


def play_out(variant, contract, leader, rng, trump=None, doubles=False, players=4, deck=52):
    """A hand of random legal play from a seeded deal, played to its end."""
    deal = Deal.random(seed=rng.randrange(10**9), deck=deck, players=players)
    p = Position(variant, contract, deal, leader=leader, trump=trump, doubles=doubles)
    while not p.complete:
        p.play(rng.choice(p.legal_cards()))
    return p


def domino_scores(rng, seats, shared):
    """Per-seat domino scores as docs/rules.md 9 gives them (single winner or shared win)."""
    counts = {s: rng.randrange(0, 9) for s in seats}
    winners = rng.sample(list(seats), rng.choice([1, 1, 2, 3]) if shared else 1)
    for w in winners:
        counts[w] = 0
    lost = sum(counts.values())
    share = Fraction(lost, len(winners))
    share = share.numerator if share.denominator == 1 else share
    return {s.name: share if s in winners else -counts[s] for s in seats}


def play_match(variant, rng, doubles=False, players=4) -> ScoreSheet:
    """A whole match by random legal play over the rule set's schedule, with random
    trumps, sales, Turkish choices and festa outcomes."""
    sheet = ScoreSheet(variant, doubles=doubles, players=players)
    rs = sheet.variant
    turkish_left = {"penalty": {n: 2 for n in rs.contracts if n != "trumps"},
                    "seat_penalty": {s: 3 for s in Seat}, "seat_trumps": {s: 2 for s in Seat}}
    while not sheet.complete:
        h = sheet.next_hand()
        name = h.contract
        if variant == "turkish":
            seat = h.leader
            options = []
            if turkish_left["seat_trumps"][seat]:
                options.append("trumps")
            if turkish_left["seat_penalty"][seat]:
                options += [n for n, k in turkish_left["penalty"].items() if k]
            name = rng.choice(options)
            if name == "trumps":
                turkish_left["seat_trumps"][seat] -= 1
            else:
                turkish_left["seat_penalty"][seat] -= 1
                turkish_left["penalty"][name] -= 1
        if name == "domino":
            if players == 4 and rng.random() < 0.5:
                d = DominoPosition(variant, Deal.random(seed=rng.randrange(10**9)), leader=h.leader)
                while not d.complete:
                    d.play(rng.choice(d.legal_cards()))
                sheet.add(d)
            else:
                sheet.add(domino_scores(rng, sheet.seats, variant == "italian-wikipedia"),
                          contract="domino")
            continue
        if name == "festa":
            host = h.dealer
            others = [s for s in Seat if s != host]
            kind = rng.choice(["plus", "null", "refused", "host-festa", "host-null", "433"])
            if kind == "433":
                sheet.add(None, festa=Festa.four_three_three())
                continue
            if kind == "plus":
                bidder = rng.choice(others)
                festa = Festa.accepted(bidder, Bid.plus(rng.randrange(1, 9)))
                leader, contract = rng.choice([bidder, bidder.next()]), "festa"
            elif kind == "null":
                bidder = rng.choice(others)
                festa = Festa.accepted(bidder, Bid.null(rng.randrange(1, 4)))
                leader, contract = rng.choice([bidder, bidder.next()]), "null"
            elif kind == "refused":
                festa = Festa.refused(rng.choice(others), Bid.plus(rng.choice([6, 7])))
                leader, contract = host.next(), "null"
            else:
                festa = Festa.host_plays()
                contract = "festa" if kind == "host-festa" else "null"
                leader = rng.choice([host, host.next()]) if contract == "festa" else host.next()
            trump = rng.choice(SUITS) if contract == "festa" else None
            sheet.add(play_out(variant, contract, leader, rng, trump=trump), festa=festa)
            continue
        trump = None
        if rs.contract(name).takes_trump:
            trump = rng.choice(SUITS + ([None] if variant == "italian-wikipedia" else []))
        p = play_out(variant, name, h.leader, rng, trump=trump, doubles=doubles,
                     players=players, deck=rs.deck)
        sale = None
        if name == "trumps" and variant.startswith("italian") and rng.random() < 0.5:
            buyer = rng.choice([s for s in sheet.seats if s != h.dealer])
            sale = Sale(buyer, rng.randrange(1, 6))
        sheet.add(p, sale=sale)
    return sheet


# docs/rules.md 4: 4 players: penalties -78 against trumps 4 x 13 + no-trumps 26: zero-sum, the
# domino (docs/rules.md 9) and the sale (docs/rules.md 10) only move points between seats.
# Doubles add a fifth trumps hand (+13). With 3 players (17 tricks): penalties
# -16 -12 -8 -8 -13 -17 -8 = -82 against 4 x 17 + 34 = 102: +20. With 2 players (26
# tricks): -16 -12 -8 -8 -13 -26 -8 = -91 against 4 x 26 + 52 = 156: +65.
# docs/rules.md 5-8: the other rule sets are zero-sum (Portuguese -1300/+1300 with every festa
# outcome worth 325 in all, Turkish -5200/+5200, Russian -192/+192).
MATCH_TOTALS = [
    ("italian", False, 4, 0),
    ("italian", True, 4, 13),
    ("italian", False, 3, 20),
    ("italian", False, 2, 65),
    ("italian-wikipedia", False, 4, 0),
    ("portuguese", False, 4, 0),
    ("turkish", False, 4, 0),
    ("russian", False, 4, 0),
]


@pytest.mark.parametrize("variant,doubles,players,total", MATCH_TOTALS)
@pytest.mark.parametrize("seed", [1, 2])
def test_full_match_totals(variant, doubles, players, total, seed):
    sheet = play_match(variant, random.Random(f"{variant}{doubles}{players}{seed}"),
                       doubles=doubles, players=players)
    assert sheet.complete and len(sheet.hands) == len(sheet.schedule)
    assert sum(sheet.totals().values()) == total
    assert sheet.expected_total() == total
    running = {s: 0 for s in sheet.seats}
    for line in sheet.hands:
        for s in sheet.seats:
            running[s] += line.scores[s]
        assert line.running == running
        if line.contract is not None and sheet.variant.contract(line.contract).kind == "tricks":
            # every trick hand hands out its contract's total; settlements are transfers
            assert sum(line.played.values()) == contract_total(variant, line.contract, players)
            settled = sum(line.scores.values()) - sum(line.played.values())
            assert settled == 0
    out = json.loads(json.dumps(sheet.to_dict()))
    assert out["complete"] is True and len(out["hands"]) == len(sheet.schedule)
    assert sum(out["totals"].values()) == pytest.approx(total)
    if variant == "turkish":
        check_turkish_choices([(h.leader, h.contract) for h in sheet.hands], complete=True)


# --- schedules -----------------------------------------------------------------------------
def test_schedule_lengths():
    # docs/rules.md 4-8: 13 hands (14 in doubles), 13, 10, 20, 14.
    assert len(ScoreSheet("italian").schedule) == 13
    assert len(ScoreSheet("italian", doubles=True).schedule) == 14
    assert ScoreSheet("italian", doubles=True).schedule[12].contract == "trumps"
    assert ScoreSheet("italian", doubles=True).schedule[13].contract == "no-trumps"
    assert len(ScoreSheet("italian-wikipedia").schedule) == 13
    assert len(ScoreSheet("portuguese").schedule) == 10
    assert len(ScoreSheet("turkish").schedule) == 20
    assert len(ScoreSheet("russian").schedule) == 14


def test_dealer_and_leader_rotation():
    # docs/rules.md 4: first dealer W, N leads hand 1, the dealer moves clockwise.
    sched = ScoreSheet("italian").schedule
    assert [(h.dealer, h.leader) for h in sched[:5]] == [
        (Seat.W, Seat.N), (Seat.N, Seat.E), (Seat.E, Seat.S), (Seat.S, Seat.W), (Seat.W, Seat.N)]
    # docs/rules.md 7: the chooser passes counterclockwise.
    assert [h.leader for h in ScoreSheet("turkish").schedule[:5]] == [
        Seat.N, Seat.W, Seat.S, Seat.E, Seat.N]
    # docs/rules.md 8: N leads hand 1, then the next seat.
    assert [h.leader for h in ScoreSheet("russian").schedule[:3]] == [Seat.N, Seat.E, Seat.S]


def test_three_player_rotation():
    # Reading (kingsolve.hands.match): with 3 players the dealer rotates among N E S, N leads
    # hand 1.
    sched = ScoreSheet("italian", players=3).schedule
    assert [(h.dealer, h.leader) for h in sched[:4]] == [
        (Seat.S, Seat.N), (Seat.N, Seat.E), (Seat.E, Seat.S), (Seat.S, Seat.N)]
    two = ScoreSheet("italian", players=2).schedule
    assert [h.leader for h in two[:3]] == [Seat.N, Seat.S, Seat.N]


# --- recording and errors ----------------------------------------------------------------
def test_scores_recorded_and_running():
    sheet = ScoreSheet("russian")
    line = sheet.add({"N": -4, "E": -6, "S": -2, "W": -4})
    assert line.contract == "no-tricks" and line.leader == Seat.N
    line = sheet.add({"N": -16, "E": 0, "S": 0, "W": 0})
    assert line.contract == "no-hearts"
    assert line.running == {Seat.N: -20, Seat.E: -6, Seat.S: -2, Seat.W: -4}
    assert sheet.next_hand().contract == "no-boys"


@pytest.mark.parametrize("kwargs,words", [
    (dict(hand={"N": -4, "E": -6, "S": -2, "W": -3}), "add up to -15"),
    (dict(hand={"N": -16, "E": 0, "S": 0}), "expected the seats N E S W"),
    (dict(hand={"N": -16, "E": 0, "S": 0, "W": "0"}), "invalid score '0'"),
    (dict(hand={"N": -16, "E": 0, "S": 0, "W": True}), "invalid score True"),
    (dict(hand=[1, 2]), "expected a mapping"),
    (dict(hand={"N": -16, "E": 0, "S": 0, "W": 0}, contract="no-hearts"), "schedule plays"),
    (dict(hand=None), "expected a finished position"),
    (dict(hand={"N": -16, "E": 0, "S": 0, "W": 0}, sale=Sale("E", 2)), "has no sale"),
    (dict(hand={"N": -16, "E": 0, "S": 0, "W": 0}, festa=Festa.four_three_three()),
     "festa outcome"),
])
def test_bad_hands(kwargs, words):
    sheet = ScoreSheet("russian")
    hand = kwargs.pop("hand")
    with pytest.raises(ScoreSheetError) as info:
        sheet.add(hand, **kwargs)
    assert words in str(info.value) and "hand 1" in str(info.value)
    assert isinstance(info.value, KingsolveError) and not sheet.hands


def test_bad_positions():
    rng = random.Random(3)
    sheet = ScoreSheet("italian")
    p = play_out("italian", "no-kings-jacks", "E", rng)
    with pytest.raises(ScoreSheetError, match="E leads, but N leads this hand"):
        sheet.add(p)
    p = play_out("italian", "no-queens", "N", rng)
    with pytest.raises(ScoreSheetError, match="schedule plays 'no-kings-jacks', got 'no-queens'"):
        sheet.add(p)
    p = Position("italian", "no-kings-jacks", Deal.random(seed=1))
    with pytest.raises(ScoreSheetError, match="not finished"):
        sheet.add(p)
    p = play_out("italian-wikipedia", "no-kings-jacks", "N", rng)
    with pytest.raises(ScoreSheetError, match="under 'italian-wikipedia'"):
        sheet.add(p)
    p = play_out("italian", "no-kings-jacks", "N", rng, doubles=True)
    with pytest.raises(ScoreSheetError, match="doubles"):
        sheet.add(p)
    p = play_out("italian", "no-kings-jacks", "N", rng)
    with pytest.raises(ScoreSheetError, match="contract 'no-queens' given"):
        sheet.add(p, contract="no-queens")
    assert sheet.add(p).played == p.scores()


def test_domino_scores_must_be_zero_sum():
    # docs/rules.md 9: the winner scores what the others lose.
    sheet = ScoreSheet("italian")
    for h in sheet.schedule[:7]:
        sheet.add(play_out("italian", h.contract, h.leader, random.Random(h.number)))
    assert sheet.next_hand().contract == "domino"
    with pytest.raises(ScoreSheetError, match="adds up to 0"):
        sheet.add({"N": 9, "E": -3, "S": -3, "W": -2})
    line = sheet.add({"N": Fraction(9, 2), "E": Fraction(9, 2), "S": -4, "W": -5})
    assert sheet.to_dict()["hands"][-1]["scores"]["N"] == 4.5
    assert line.contract == "domino"


def test_match_complete():
    sheet = play_match("russian", random.Random(5))
    with pytest.raises(ScoreSheetError, match="the match is complete: all 14 hands"):
        sheet.add({"N": 0, "E": 0, "S": 0, "W": -16})
    assert sheet.next_hand() is None and sheet.to_dict()["next"] is None


def test_bad_sheets():
    with pytest.raises(ScoreSheetError, match="number of players 3"):
        ScoreSheet("portuguese", players=3)
    with pytest.raises(ScoreSheetError, match="no doubles"):
        ScoreSheet("turkish", doubles=True)
    with pytest.raises(KingsolveError, match="unknown variant 'french'"):
        ScoreSheet("french")


# --- docs/rules.md 10: the Italian sale -----------------------------------------------------------
def italian_sheet_at_trumps(variant="italian") -> ScoreSheet:
    sheet = ScoreSheet(variant)
    rng = random.Random(7)
    for h in sheet.schedule[:8]:
        if h.contract == "domino":
            sheet.add({"N": 6, "E": -2, "S": -2, "W": -2})
        else:
            sheet.add(play_out(variant, h.contract, h.leader, rng))
    return sheet


def test_sale_settlement():
    # docs/rules.md 10: the buyer scores its tricks - k, the dealer its tricks + k; the seat
    # after the dealer still leads.
    sheet = italian_sheet_at_trumps()
    h = sheet.next_hand()
    assert h.contract == "trumps" and h.dealer == Seat.W and h.leader == Seat.N
    p = play_out("italian", "trumps", "N", random.Random(8), trump="H")
    tricks = {s: sum(1 for t in p.tricks if t.winner == s) for s in Seat}
    line = sheet.add(p, sale=Sale("E", 3))
    assert line.scores[Seat.E] == tricks[Seat.E] - 3
    assert line.scores[Seat.W] == tricks[Seat.W] + 3
    assert line.scores[Seat.N] == tricks[Seat.N] and line.scores[Seat.S] == tricks[Seat.S]
    assert line.trump is not None and line.trump.letter == "H"
    assert line.to_dict()["sale"] == {"buyer": "E", "price": 3}


def test_sale_errors():
    sheet = italian_sheet_at_trumps("italian-wikipedia")
    p = play_out("italian-wikipedia", "trumps", "N", random.Random(9), trump=None)
    with pytest.raises(ScoreSheetError, match="dealer \\(W\\) cannot buy"):
        sheet.add(p, sale=Sale("W", 2))
    with pytest.raises(ScoreSheetError, match="price 14"):
        sheet.add(p, sale=Sale("E", 14))
    with pytest.raises(ScoreSheetError, match="invalid sale price 0"):
        Sale("E", 0)
    assert sheet.add(p, sale=Sale("S", 13)).scores[Seat.W] == p.scores()[Seat.W] + 13


# --- docs/rules.md 6: the Portuguese festa -------------------------------------------------------
def portuguese_at_festa() -> ScoreSheet:
    sheet = ScoreSheet("portuguese")
    rng = random.Random(11)
    for h in sheet.schedule[:6]:
        sheet.add(play_out("portuguese", h.contract, h.leader, rng))
    h = sheet.next_hand()
    assert h.number == 7 and h.contract == "festa" and h.dealer == Seat.E   # the host
    return sheet


def test_festa_accepted_plus_bid():
    # docs/rules.md 6 (1): the bidder pays the bid's points to the host, names the trump and
    # who leads (itself or the next seat).
    sheet = portuguese_at_festa()
    p = play_out("portuguese", "festa", "W", random.Random(12), trump="S")
    line = sheet.add(p, festa=Festa.accepted("S", Bid.plus(5)))
    assert line.contract == "festa"
    assert line.scores[Seat.S] == p.scores()[Seat.S] - 125
    assert line.scores[Seat.E] == p.scores()[Seat.E] + 125
    assert line.scores[Seat.N] == p.scores()[Seat.N]
    assert sum(line.scores.values()) == 325
    assert line.to_dict()["festa"] == {"outcome": "accepted", "bidder": "S",
                                       "bid": {"kind": "plus", "tricks": 5, "points": 125}}


def test_festa_accepted_null_bid():
    sheet = portuguese_at_festa()
    p = play_out("portuguese", "null", "N", random.Random(13))
    line = sheet.add(p, festa=Festa.accepted("N", Bid.null(2)))
    assert line.contract == "null"
    assert line.scores[Seat.N] == p.scores()[Seat.N] - 150
    assert line.scores[Seat.E] == p.scores()[Seat.E] + 150


def test_festa_eight_or_null_refused():
    # docs/rules.md 6 (2): the host plays null and nobody pays; the seat after the host leads.
    sheet = portuguese_at_festa()
    p = play_out("portuguese", "null", "S", random.Random(14))
    line = sheet.add(p, festa=Festa.refused("W", Bid.plus(7)))
    assert line.scores == p.scores() and line.contract == "null"


def test_festa_433():
    # docs/rules.md 6 (3): no play; the host 100, each other seat 75.
    sheet = portuguese_at_festa()
    line = sheet.add(None, festa=Festa.four_three_three())
    assert line.contract is None and line.played == {s: 0 for s in Seat}
    assert line.scores == {Seat.N: 75, Seat.E: 100, Seat.S: 75, Seat.W: 75}


def test_festa_host_plays():
    sheet = portuguese_at_festa()
    p = play_out("portuguese", "festa", "E", random.Random(15), trump="D")
    assert sheet.add(p, festa=Festa.host_plays()).scores == p.scores()


@pytest.mark.parametrize("make,words", [
    (lambda: Festa.refused("W", Bid.plus(5)), "only at 6 or 7 plus-tricks"),
    (lambda: Festa.refused("W", Bid.null(2)), "only at 6 or 7 plus-tricks"),
    (lambda: Bid.null(4), "invalid null bid 4"),
    (lambda: Bid.plus(0), "invalid plus bid 0"),
    (lambda: Bid("minus", 2), "invalid bid kind 'minus'"),
    (lambda: Festa("won"), "invalid festa outcome 'won'"),
    (lambda: Festa("accepted"), "needs a bidder and a bid"),
    (lambda: Festa("433", Seat.N, Bid.plus(3)), "takes no bidder"),
])
def test_festa_value_errors(make, words):
    with pytest.raises(ScoreSheetError, match=words):
        make()


def test_festa_hand_errors():
    sheet = portuguese_at_festa()
    rng = random.Random(16)
    p = play_out("portuguese", "festa", "W", rng, trump="S")
    with pytest.raises(ScoreSheetError, match="needs its outcome"):
        sheet.add(p)
    with pytest.raises(ScoreSheetError, match="host \\(E\\) does not bid"):
        sheet.add(p, festa=Festa.accepted("E", Bid.plus(3)))
    with pytest.raises(ScoreSheetError, match="W leads, but N or E leads"):
        sheet.add(p, festa=Festa.accepted("N", Bid.plus(3)))
    with pytest.raises(ScoreSheetError, match="is played as 'null', got 'festa'"):
        sheet.add(p, festa=Festa.accepted("W", Bid.null(1)))
    with pytest.raises(ScoreSheetError, match="refused: the host plays 'null', got 'festa'"):
        sheet.add(p, festa=Festa.refused("W", Bid.plus(6)))
    q = play_out("portuguese", "null", "W", rng)
    with pytest.raises(ScoreSheetError, match="W leads, but S leads"):
        sheet.add(q, festa=Festa.refused("W", Bid.plus(6)))
    with pytest.raises(ScoreSheetError, match="433 is not played, got contract 'festa'"):
        sheet.add(p, festa=Festa.four_three_three())
    with pytest.raises(ScoreSheetError, match="433 has no play"):
        sheet.add({"N": 75, "E": 100, "S": 75, "W": 75}, festa=Festa.four_three_three())
    with pytest.raises(ScoreSheetError, match="host plays 'festa' or 'null'"):
        sheet.add({"N": 0, "E": 0, "S": 0, "W": 325}, festa=Festa.host_plays())
    assert not sheet.hands[6:]


def test_bid_order():
    # docs/rules.md 6, Reading: bids compare by points; a null bid beats a plus bid of equal
    # points (null k beats plus 3k or fewer).
    assert Bid.null(1).beats(Bid.plus(3)) and not Bid.plus(3).beats(Bid.null(1))
    assert Bid.plus(4).beats(Bid.null(1))
    assert Bid.null(2).beats(Bid.plus(6)) and not Bid.null(2).beats(Bid.plus(7))
    assert Bid.plus(5).beats(Bid.plus(4)) and not Bid.plus(5).beats(Bid.plus(5))


# --- docs/rules.md 7: Turkish quotas --------------------------------------------------------------
def test_turkish_quotas():
    ok = [("N", "no-queens"), ("W", "no-queens"), ("S", "trumps")]
    check_turkish_choices(ok)
    with pytest.raises(ScoreSheetError, match="'no-queens' is played a 3rd time"):
        check_turkish_choices(ok + [("E", "no-queens")])
    with pytest.raises(ScoreSheetError, match="N chooses 'trumps' a 3rd time"):
        check_turkish_choices([("N", "trumps")] * 3)
    with pytest.raises(ScoreSheetError, match="N chooses a 4th penalty contract"):
        check_turkish_choices([("N", "no-tricks"), ("N", "no-hearts"), ("N", "no-queens"),
                               ("N", "no-last-two")])
    with pytest.raises(ScoreSheetError, match="incomplete match: 3 hands, expected 20"):
        check_turkish_choices(ok, complete=True)
    with pytest.raises(UnknownContractError, match="unknown contract 'festa'"):
        check_turkish_choices([("N", "festa")])


def test_turkish_sheet_enforces_quotas_and_chooser():
    sheet = ScoreSheet("turkish")
    rng = random.Random(17)
    with pytest.raises(ScoreSheetError, match="chooser \\(N\\) picks the contract"):
        sheet.add({"N": -650, "E": 0, "S": 0, "W": 0})
    p = play_out("turkish", "trumps", "W", rng, trump="C")
    with pytest.raises(ScoreSheetError, match="W leads, but N leads"):
        sheet.add(p)
    for contract in ["trumps", "no-tricks", "no-tricks"]:   # N, W, S choose
        h = sheet.next_hand()
        sheet.add(play_out("turkish", contract, h.leader, rng, trump="C"
                           if contract == "trumps" else None))
    h = sheet.next_hand()
    assert h.leader == Seat.E
    with pytest.raises(ScoreSheetError, match="'no-tricks' is played a 3rd time"):
        sheet.add({"N": 0, "E": -650, "S": 0, "W": 0}, contract="no-tricks")
    assert len(sheet.hands) == 3


def test_house_rules_keep_the_festa_chooser_and_sale_of_their_base():
    # docs/rules.md 13: a sheet under house rules of their own name keeps the base's
    # procedures; a position under other rules of the same name is refused.
    from kingsolve import rules_from_dict
    club = rules_from_dict({"base": "portuguese", "name": "club",
                            "contracts": {"no-hearts": {"lead": "any"}}})
    sheet = ScoreSheet(club)
    rng = random.Random(11)
    for h in sheet.schedule[:6]:
        sheet.add(play_out(club, h.contract, h.leader, rng))
    assert sheet.add(None, festa=Festa.four_three_three()).scores == \
        {Seat.N: 75, Seat.E: 100, Seat.S: 75, Seat.W: 75}
    chooser = ScoreSheet(rules_from_dict({"base": "turkish", "name": "club"}))
    assert len(chooser.schedule) == 20 and chooser.schedule[0].contract is None
    with pytest.raises(ScoreSheetError, match="'no-tricks' is played a 3rd time"):
        for seat in "NWS":
            chooser.add({s: -650 if s == seat else 0 for s in "NESW"}, contract="no-tricks")
    # no dealer: the first lead goes round, as in Russian (docs/rules.md 8)
    unsold = ScoreSheet(rules_from_dict({"base": "italian", "first_dealer": None}))
    assert unsold.schedule[0].dealer is None and unsold.schedule[1].leader == Seat.E
    portuguese = ScoreSheet("portuguese")
    house = rules_from_dict({"base": "portuguese", "contracts": {"no-tricks": {"each_trick": -30}}})
    with pytest.raises(ScoreSheetError, match="'portuguese' \\(other rules of that name\\)"):
        portuguese.add(play_out(house, "no-tricks", portuguese.next_hand().leader, rng))


# --- docs/rules.md 3: doubles -------------------------------------------------------------------
def test_doubles_sides():
    sheet = play_match("italian", random.Random(19), doubles=True)
    out = sheet.to_dict()
    assert len(out["hands"]) == 14 and out["doubles"] is True
    assert out["side_totals"]["NS"] + out["side_totals"]["EW"] == 13
    t = sheet.totals()
    assert sheet.side_totals() == {"NS": t[Seat.N] + t[Seat.S], "EW": t[Seat.E] + t[Seat.W]}
    first = out["hands"][0]
    assert first["sides"]["NS"] == first["scores"]["N"] + first["scores"]["S"]


def test_to_dict_shape():
    sheet = ScoreSheet("russian")
    sheet.add({"N": -4, "E": -6, "S": -2, "W": -4})
    out = json.loads(json.dumps(sheet.to_dict()))
    assert out["variant"] == "russian" and out["seats"] == ["N", "E", "S", "W"]
    assert out["hands"] == [{"number": 1, "contract": "no-tricks", "dealer": None, "leader": "N",
                             "trump": None, "played": {"N": -4, "E": -6, "S": -2, "W": -4},
                             "scores": {"N": -4, "E": -6, "S": -2, "W": -4},
                             "running": {"N": -4, "E": -6, "S": -2, "W": -4}}]
    assert out["next"] == {"number": 2, "contract": "no-hearts", "dealer": None, "leader": "E"}
    assert out["complete"] is False


def test_contract_total():
    # docs/rules.md 4-8, from the data.
    assert contract_total("italian", "no-hearts") == -13
    assert contract_total("italian", "no-tricks", players=3) == -17
    assert contract_total("russian", "everything") == 96
    assert contract_total("turkish", "trumps") == 650
