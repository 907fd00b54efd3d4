"""The optimal line (kingsolve/search/line.py, docs/rules.md 11 "The optimal line")
against the plain-Python minimax (tests/bruteforce.py) and the plain-Python reference
of the rules (tests/reference.py).

On seeded small positions of every trick contract of every rule set, singles and
doubles (tests/contracts.py): every card of the line is legal for the reference, is
optimal for its player (the seat or side maximising its value, the others minimising
it) by the minimax, names exactly the other cards of the same value as equal, is the
simple player's first choice among them; and the line ends the hand with the value
proved, scored by the reference.
"""

from __future__ import annotations

import random

import pytest

from kingsolve import Budget, Deal, Position, Seat, analyse, solve
from kingsolve.game.domino import DominoPosition
from kingsolve.game.cards import Card, Rank, Suit
from kingsolve.hands.hints import play_preference
from kingsolve.search.domino_solver import solve_domino
from kingsolve.errors import InvalidRequestError

import bruteforce
import domino_bruteforce
from contracts import CONFIGS, config_id, deeper_position, fast_sample, random_position
from reference import RefHand, text

POSITIONS_PER_CONFIG = 24


def reference_hand(pos: Position) -> RefHand:
    """The reference's hand of ``pos``'s deal with ``pos``'s cards played."""
    deal = pos.deal
    ref = RefHand(pos.variant.name, pos.contract.name,
                  {s.name: [str(c) for c in deal.hand(s)] for s in deal.seats},
                  leader=pos.leader.name, trump=None if pos.trump is None else pos.trump.letter,
                  options=pos.options, doubles=pos.doubles)
    for card in pos.record:
        ref.play(str(card))
    return ref


def child_values(pos: Position, seat: Seat) -> dict[Card, int]:
    """Each legal card's value for ``seat`` (its side) once played, by full minimax."""
    out = {}
    for card in pos.legal_cards():
        pos.play(card)
        out[card] = bruteforce.value(pos, seat)
        pos.undo()
    return out


def check_line(pos: Position, seat: Seat, line, value: int) -> None:
    """Every card legal (reference), optimal for its player (minimax), the simple
    player's first among the cards of its value, its equal cards exactly the others
    of its value (``all_equal``; else cards of its value); the hand ends with
    ``value`` for the seat's side (reference)."""
    where = f"{pos!r} seat={seat.name}"
    side = pos.side_of(seat)
    assert line.seat == seat and line.side == side and line.exact
    p, ref = pos.copy(), reference_hand(pos)
    for i, play in enumerate(line.plays):
        assert play.seat == p.to_move and play.exact, (where, i)
        assert play.card in [Card.parse(text(c)) for c in ref.legal()], (where, i)
        children = child_values(p, seat)
        best = (max if p.to_move in side else min)(children.values())
        assert best == value, (where, i)          # the value holds all along the line
        assert children[play.card] == value, (where, i, play)
        equal = [c for c, v in children.items() if v == value]
        assert play.card == next(c for c in play_preference(p) if c in equal), (where, i)
        if line.all_equal:
            assert sorted([play.card, *play.equal]) == sorted(equal), (where, i, play)
        else:
            assert set(play.equal) <= set(equal), (where, i, play)
        p.play(play.card)
        ref.play(str(play.card))
    assert p.complete and ref.complete, where
    scores = ref.scores()
    assert sum(scores[s.name] for s in side) == value == line.value, where
    assert {s.name: v for s, v in line.scores.items()} == scores, where
    assert list(line.tricks) == p.tricks[len(pos.tricks):], where


@pytest.mark.parametrize("cfg", fast_sample(CONFIGS, config_id), ids=None)
def test_lines_are_legal_optimal_and_reach_the_value(cfg):
    for seed in range(POSITIONS_PER_CONFIG):
        pos = random_position(cfg, seed)
        seat = pos.seats[seed % len(pos.seats)]
        result = solve(pos, seats=[seat], line=True, all_equal=True)
        value = result.values[seat]
        assert value == bruteforce.value(pos, seat), pos
        assert result.line.all_equal
        check_line(pos, seat, result.line, value)
        # the mover's line starts with one of its best cards
        if result.line.plays and seat == pos.to_move:
            assert result.line.plays[0].card in result.best
        # the default line plays the same cards, naming the cards alike as equal
        default = solve(pos, seats=[seat], line=True).line
        assert not default.all_equal and default.cards == result.line.cards, pos
        check_line(pos, seat, default, value)


@pytest.mark.parametrize("cfg", CONFIGS[1::4], ids=config_id)
def test_lines_after_a_value_alone_are_legal_optimal_and_reach_the_value(cfg):
    # exact_line on the table of a value's search (no card values), both kinds
    from kingsolve.search.engine import leased_core
    from kingsolve.search.line import exact_line
    for seed in range(12):
        pos = random_position(cfg, seed)
        seat = pos.seats[seed % len(pos.seats)]
        value = solve(pos, seats=[seat], cards=False).values[seat]
        with leased_core(pos, Budget()) as core:
            core.set_budget(10**9, 60_000)
            line = exact_line(core, pos, seat, value, Budget())
            whole = exact_line(core, pos, seat, value, Budget(), every=True)
        assert not line.all_equal and whole.all_equal and line.cards == whole.cards
        check_line(pos, seat, line, value)
        check_line(pos, seat, whole, value)


@pytest.mark.slow
@pytest.mark.parametrize("cfg", CONFIGS[::3], ids=config_id)
def test_lines_of_deeper_positions(cfg):
    # full deals with four tricks left: the core's multi-trick rules decide
    for seed in range(2):
        pos = deeper_position(cfg, seed)
        seat = pos.seats[seed % len(pos.seats)]
        result = solve(pos, seats=[seat], line=True)
        p = pos.copy()
        value = bruteforce.value_pruned(pos, seat)
        assert result.values[seat] == value
        for play in result.line.plays:
            p.play(play.card)
            if not p.complete:
                assert bruteforce.value_pruned(p, seat) == value, (pos, play)
        assert p.complete and sum(p.scores()[s] for s in p.side_of(seat)) == value


def test_equal_cards_are_named_and_the_simple_player_chooses():
    # N holds the touching SQ SJ ST: every lead of N is worth the same, the simple
    # player leads the lowest (a penalty contract) and names the two others equal;
    # by default only SJ, alike for the search (the queen carries points)
    deal = Deal("N:QJT... A32... K54... 986...")
    pos = Position("italian", "no-queens", deal, leader="N")
    line = solve(pos, seats=["N"], line=True, all_equal=True).line
    first = line.plays[0]
    assert first.card == Card("ST") and first.equal == (Card("SQ"), Card("SJ"))
    check_line(pos, Seat.N, line, line.value)
    alike = solve(pos, seats=["N"], line=True).line
    assert alike.plays[0].card == Card("ST") and alike.plays[0].equal == (Card("SJ"),)
    check_line(pos, Seat.N, alike, alike.value)


def test_a_hand_that_ends_early_ends_its_line():
    # no-king-of-hearts: N holds only hearts and leads one; E must drop its bare HK,
    # and the hand ends with that trick (docs/rules.md 2.4), two tricks before its last
    deal = Deal("N:.AQ3.. KJ.K.. T9.J.. 87.2..")
    pos = Position("italian", "no-king-of-hearts", deal, leader="N")
    result = solve(pos, seats=["E"], line=True)
    line = result.line
    p = pos.copy()
    for card in line.cards:
        p.play(card)
    assert p.ended_early and len(line.plays) == 4 and len(line.tricks) == 1
    assert Card("HK") in line.cards and result.values[Seat.E] == line.value
    check_line(pos, Seat.E, line, result.values[Seat.E])


@pytest.mark.parametrize("contract,trump", [("no-trumps", None), ("trumps", "H"),
                                            ("no-queens", None)])
def test_doubles_lines_are_both_sides_best_play(contract, trump):
    for seed in range(4):
        rng = random.Random(f"line-doubles/{contract}/{seed}")
        pos = Position("italian", contract, Deal.random(rng.randrange(10**9)),
                       leader=rng.choice(list(Seat)), trump=trump, doubles=True)
        while pos.n_tricks - len(pos.tricks) > 3:
            pos.play(rng.choice(pos.legal_cards()))
        seat = rng.choice(list(Seat))
        result = solve(pos, seats=[seat], line=True)
        assert result.line.side == (seat, seat.partner)
        check_line(pos, seat, result.line, result.values[seat])
        # the other side's line: the same value seen from the other side
        other = solve(pos, seats=[seat.next()], line=True)
        check_line(pos, seat.next(), other.line, other.values[seat.next()])


def test_the_line_of_a_complete_hand_is_empty():
    pos = random_position(CONFIGS[0], 0)
    while not pos.complete:
        pos.play(pos.legal_cards()[0])
    line = solve(pos, line="E").line
    assert line.plays == () and line.value == pos.scores()[Seat.E]
    assert analyse(pos, line=True).line.value == pos.scores()[pos.seats[0]]


def test_the_line_seat_must_be_asked():
    pos = random_position(CONFIGS[0], 1)
    with pytest.raises(InvalidRequestError, match="line"):
        solve(pos, seats=["N"], line="E")
    with pytest.raises(InvalidRequestError, match="line"):
        solve(pos, seats=["N"], line="X")


def test_to_dict_shape():
    pos = random_position(CONFIGS[0], 3)
    seat = pos.to_move
    d = solve(pos, seats=[seat], line=True).to_dict()["line"]
    assert set(d) == {"seat", "side", "value", "exact", "exact_from", "all_equal", "cards",
                      "plays", "tricks", "scores"}
    assert d["all_equal"] is False
    assert solve(pos, seats=[seat], line=True, all_equal=True).to_dict()["line"]["all_equal"]
    assert d["seat"] == seat.name and d["exact"] and d["exact_from"] == 0
    assert d["cards"] == [p["card"] for p in d["plays"]]
    assert all(set(p) == {"card", "seat", "exact", "equal"} for p in d["plays"])
    assert all(set(t) == {"number", "leader", "cards", "winner", "points"} for t in d["tricks"])


@pytest.mark.parametrize("estimator", ["playout", "model"])
def test_an_estimated_line_is_the_estimates_then_exact(estimator):
    # a full deal analysed too briefly to be exact: the line plays the estimate's
    # card and play-out (estimated), then an optimal line from the horizon (exact)
    pos = Position("italian", "no-queens", Deal.random(seed=11), leader="E")
    rng = random.Random(0)
    for _ in range(16):
        pos.play(rng.choice(pos.legal_cards()))
    seat = pos.to_move
    a = analyse(pos, seats=[seat], budget=Budget(ms=5000, nodes=60_000), estimator=estimator,
                line=True)
    assert not a.solved and a.horizon is not None
    line = a.line
    k = line.exact_from
    assert 0 < k <= len(line.plays)
    assert not any(p.exact for p in line.plays[:k]) and all(p.exact for p in line.plays[k:])
    assert line.plays[0].card in a.best
    p, ref = pos.copy(), reference_hand(pos)
    for play in line.plays[:k]:
        p.play(play.card)
        ref.play(str(play.card))
    if p.complete:                  # no points left before the horizon: an early end
        assert p.ended_early and k == len(line.plays)
        assert ref.complete and ref.scores()[seat.name] == line.value
        return
    # the play-out stops at a trick start with the horizon's tricks left; from there
    # the line is the optimal line of the value proved there
    assert not p.trick and p.n_tricks - len(p.tricks) == a.horizon
    rest = solve(p, seats=[seat], line=True)
    assert rest.values[seat] == line.value
    assert rest.line.plays == line.plays[k:]
    for play in line.plays[k:]:
        ref.play(str(play.card))
    assert ref.complete and ref.scores()[seat.name] == line.value
    assert line.to_dict()["exact"] is False
    first = line.plays[0].card
    assert a.card_estimates[first] == max(a.card_estimates.values())
    if estimator == "playout":
        # the first card's estimate is its play-out's value, held in its proved range
        lo, hi = a.card_bounds[first]
        assert a.card_estimates[first] == min(max(line.value, lo), hi)


def test_an_exact_analysis_line_is_the_optimal_line():
    pos = random_position(CONFIGS[0], 4)
    seat = pos.seats[0]
    a = analyse(pos, seats=[seat], budget=Budget(ms=5000), line=True)
    assert a.solved
    check_line(pos, seat, a.line, a.values[seat])
    assert a.to_dict()["line"] == a.line.to_dict()


# --- the domino ---------------------------------------------------------------------------
def _small_domino(seed: int) -> DominoPosition:
    """A seeded domino position of a short deck (each suit a run around the seven),
    from the start or a few random cards in; either rule set."""
    rng = random.Random(f"line-domino/{seed}")
    low, high, played = [(6, 8, 0), (5, 9, 9), (6, 9, 4)][seed % 3]
    deck = [Card(s, Rank(r)) for s in Suit for r in range(low, high + 1)]
    rng.shuffle(deck)
    per = len(deck) // 4
    deal = Deal.from_hands({seat: deck[i * per:(i + 1) * per] for i, seat in enumerate(Seat)})
    p = DominoPosition(("italian", "italian-wikipedia")[seed % 2], deal,
                       leader=Seat(seed % 4), full_deck=False)
    for _ in range(played):
        if not p.complete:
            p.play(rng.choice(p.legal_cards()))
    return p


def test_domino_lines_are_optimal():
    checked = 0
    for seed in range(18):
        pos = _small_domino(seed)
        seat = pos.seats[seed % 4]
        result = solve_domino(pos, seats=[seat], line=True)
        value, line = result.values[seat], result.line
        assert result.to_dict()["line"]["cards"] == [str(c) for c in line.cards]
        p = pos.copy()
        for play in line.plays:
            assert play.seat == p.to_move and play.card in p.legal_cards()
            children = {}
            for c in p.legal_cards():
                p.play(c)
                children[c] = domino_bruteforce.paranoid_values(p)[seat]
                p.undo()
            best = (max if p.to_move == seat else min)(children.values())
            assert best == value and children[play.card] == value, (pos, play)
            assert sorted([play.card, *play.equal]) == sorted(
                c for c, v in children.items() if v == value)
            p.play(play.card)
            checked += 1
        assert p.complete and p.scores()[seat] == value == line.value
    assert checked > 60


# --- reviews -------------------------------------------------------------------------------
def test_a_review_gives_the_line_at_each_proved_mistake():
    from kingsolve import review
    from contracts import played_out
    record = played_out()
    r = review(record, budget=Budget(ms=20_000), from_trick=11, lines=True)
    mistakes = [c for c in r.cards if c.mistake == "proved" and c.before is not None]
    assert mistakes
    for c in r.cards:
        if c not in mistakes:
            assert c.line is None and "line" not in c.to_dict()
            continue
        pos = record.position(c.index)
        check_line(pos, c.seat, c.line, c.before)
        assert c.line.plays[0].card in c.best and c.line.plays[0].card != c.card
        assert c.to_dict()["line"] == c.line.to_dict()
    assert "best line: " in r.text()
    assert all(c.line is None for c in review(record, budget=Budget(ms=20_000),
                                               from_trick=11).cards)


def test_an_analysis_falls_back_to_the_alike_equal_cards(monkeypatch):
    # the line naming every equal card stopped by the budget: the analysis gives the
    # line naming the cards alike instead
    import kingsolve.search.analysis as analysis_module
    from kingsolve.errors import SolveTimeout
    whole = analysis_module.analysis_line

    def stopped_when_whole(run, core, seat, budget, every=True):
        if every:
            raise SolveTimeout("search stopped at its node budget of 1 nodes")
        return whole(run, core, seat, budget, every)
    monkeypatch.setattr(analysis_module, "analysis_line", stopped_when_whole)
    pos = random_position(CONFIGS[0], 6)
    seat = pos.seats[1]
    a = analyse(pos, seats=[seat], budget=Budget(ms=5000), line=True, all_equal=True)
    assert a.solved and not a.line.all_equal and a.to_dict()["line"]["all_equal"] is False
    check_line(pos, seat, a.line, a.values[seat])


def test_a_domino_review_gives_the_line_at_its_mistake():
    # a domino hand from card 30 on, one card worse than the best: its line is the
    # domino's optimal line from there, which begins with a best card
    from kingsolve import review
    from kingsolve.game.record import Record
    for seed in range(40):
        rng = random.Random(seed)
        pos = DominoPosition("italian", Deal.random(seed=seed), leader=rng.choice(list(Seat)))
        while not pos.complete and len(pos.record) < 30:
            pos.play(rng.choice(pos.legal_cards()))
        start, mistake = len(pos.record), None
        while not pos.complete:
            res = solve_domino(pos, [pos.to_move])
            worse = [c for c, v in res.cards.items() if v < max(res.cards.values())]
            card = worse[0] if mistake is None and worse else res.best[0]
            mistake = len(pos.record) if mistake is None and worse else mistake
            pos.play(card)
        if mistake is None:
            continue
        rv = review(Record.from_position(pos), from_card=start, lines=True)
        c = rv.cards[mistake - start]
        assert c.mistake == "proved" and c.line is not None
        assert c.line.plays[0].card in c.best and c.line.value == c.before
        before = Record.from_position(pos).position(mistake)
        assert c.line.value == solve_domino(before, [c.seat]).values[c.seat]
        assert all(other.line is None for other in rv.cards if other is not c)
        return
    raise AssertionError("no domino hand with a costly card found")
