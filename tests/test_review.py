"""Post-game review: the cost of every card, checked against double-dummy values.

docs/rules.md 11: a seat's value is the score it can guarantee against the other three
(its side's exact value in doubles). Records with deliberate mistakes are built by
playing best cards except one known worse card; the review must report exactly
that card's cost. Short deals keep the searches small.
"""

from __future__ import annotations

import json
import random

import pytest

from kingsolve import Card, Deal, Position, Seat, Suit
from kingsolve.errors import InvalidRequestError
from kingsolve.game.record import Record
from kingsolve.search.result import SolveResult
from kingsolve.hands.reviews import review

from bruteforce import solve as brute_solve
from contracts import small_deal


def record_with_mistake(seed: int, contract: str, trump=None, doubles=False, per_seat=3):
    """A record where every card is best but one, which costs something; else None."""
    rng = random.Random(seed)
    deal = small_deal(rng, per_seat)
    pos = Position("italian", contract, deal, leader=rng.choice(list(Seat)), trump=trump,
                   doubles=doubles)
    mistake_at, cost = None, 0
    while not pos.complete:
        res = brute_solve(pos, [pos.to_move])
        top = max(res.cards.values())
        worse = sorted((c for c, v in res.cards.items() if v < top), key=str)
        if mistake_at is None and worse and rng.random() < 0.5:
            card = rng.choice(worse)
            mistake_at, cost = len(pos.record), top - res.cards[card]
        else:
            card = rng.choice(res.best)
        pos.play(card)
    if mistake_at is None:
        return None
    return Record.from_position(pos, dealer=pos.leader.next(-1)), mistake_at, cost


def find_mistakes(contract, trump=None, doubles=False, want=2, per_seat=3):
    out = []
    for seed in range(400):
        found = record_with_mistake(seed, contract, trump, doubles, per_seat)
        if found:
            out.append(found)
            if len(out) == want:
                return out
    raise AssertionError("no record with a mistake found")


@pytest.mark.parametrize("contract, trump, doubles", [
    ("no-queens", None, False), ("no-tricks", None, False), ("no-last-two", None, False),
    ("no-kings-jacks", None, False), ("trumps", Suit.H, False), ("no-trumps", None, True),
])
def test_deliberate_mistake_costs_exactly_its_value_loss(contract, trump, doubles):
    # docs/rules.md 11 (doubles: the side's exact value); section 3 scoring.
    for record, at, cost in find_mistakes(contract, trump, doubles):
        assert Record.parse(record.text()) == record
        rv = review(record, solver=brute_solve)
        assert len(rv.cards) == len(record.play)
        for c in rv.cards:
            assert c.cost == (cost if c.index == at else 0), (record.text(), c)
            assert c.before - c.after == c.cost
            assert c.card in c.values and c.values[c.card] == c.after
            assert max(c.values.values()) == c.before
            assert set(c.best) == {k for k, v in c.values.items() if v == c.before}
        seat = rv.cards[at].seat
        assert rv.seats[seat].cost == cost and rv.seats[seat].costly == 1
        assert rv.seats[seat].largest.index == at
        for other, summary in rv.seats.items():
            if other != seat and not (doubles and other == seat.partner):
                assert summary.cost == 0 and summary.largest is None
        # Everyone's value at the start: an independent brute force on the deal.
        start = record.position(0)
        for s in start.seats:
            assert rv.start_values[s] == brute_solve(start, [s]).values[s]


def test_a_mistake_lowers_the_players_value_by_its_cost():
    # The value after the mistake is the value the seat can still guarantee.
    record, at, cost = find_mistakes("no-queens", want=1)[0]
    rv = review(record, solver=brute_solve)
    c = rv.cards[at]
    after = record.position(at + 1)
    assert brute_solve(after, [c.seat]).values[c.seat] == c.before - cost


def test_forced_cards_are_marked_and_cost_nothing():
    # N leads SA; E, S, W each hold one spade and must follow (docs/rules.md 2.2).
    deal = Deal("N:AK.2.. Q.3.K. J.4.Q. T.5.J.")
    record = Record("italian", "no-queens", deal, Seat.N, play=["SA", "SQ", "SJ", "ST"])
    rv = review(record, solver=brute_solve)
    assert [c.forced for c in rv.cards] == [False, True, True, True]
    assert all(c.cost == 0 for c in rv.cards[1:])
    assert rv.cards[1].best == (Card("SQ"),)


def test_review_from_a_later_trick_only_solves_the_rest():
    record, at, cost = find_mistakes("no-tricks", want=1)[0]
    calls = []

    def counting(pos, seats=None, budget=None):
        calls.append(len(pos.record))
        return brute_solve(pos, seats, budget)

    rv = review(record, from_trick=2, solver=counting)
    # one solve a position, the last first (the time the small ones leave goes to the big)
    assert rv.start == 4 and calls == list(range(len(record.play) - 1, 3, -1))
    assert [c.index for c in rv.cards] == list(range(4, len(record.play)))
    full = review(record, solver=brute_solve)
    assert [c.cost for c in full.cards[4:]] == [c.cost for c in rv.cards]
    with pytest.raises(InvalidRequestError, match="invalid from_trick 5"):
        review(record, from_trick=5, solver=brute_solve)
    with pytest.raises(InvalidRequestError, match="invalid from_card -1"):
        review(record, from_card=-1, solver=brute_solve)


def test_text_and_json_reports():
    record, at, cost = find_mistakes("no-queens", want=1)[0]
    record = Record.parse(record.text().replace('[Variant', '[Hand "2"]\n[Variant'))
    rv = review(record, solver=brute_solve)
    text = rv.text()
    bad = rv.cards[at]
    assert f"{bad.seat.name} {bad.card}*" in text
    assert f"* {bad.seat.name} {bad.card} cost {cost} " in text
    assert text.startswith("Hand 2 · italian no-queens")
    assert f"{bad.seat.name}: {cost} in 1 of" in text
    data = json.loads(json.dumps(rv.to_dict()))
    assert data["cards"][at]["cost"] == cost
    assert data["seats"][bad.seat.name]["largest"]["index"] == at
    assert data["budget"]["nodes"] > 0


def test_review_accepts_record_text_and_refuses_other_things():
    record, _, _ = find_mistakes("no-queens", want=1)[0]
    assert review(record.text(), solver=brute_solve).cards
    with pytest.raises(InvalidRequestError, match="review needs a Record"):
        review(42, solver=brute_solve)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["italian", "italian-wikipedia"])
def test_domino_review_reports_a_deliberate_mistake(variant):
    # docs/rules.md 9 (single winner / shared win, exact fractions) and 11.
    from kingsolve.game.domino import DominoPosition
    from kingsolve.search.domino_solver import solve_domino
    for seed in range(40):
        rng = random.Random(seed)
        pos = DominoPosition(variant, Deal.random(seed=seed), leader=rng.choice(list(Seat)))
        while not pos.complete and len(pos.record) < 30:
            pos.play(rng.choice(pos.legal_cards()))
        start = len(pos.record)
        mistake_at, cost = None, 0
        while not pos.complete:
            res = solve_domino(pos, [pos.to_move])
            top = max(res.cards.values())
            worse = [c for c, v in res.cards.items() if v < top]
            if mistake_at is None and worse:
                card, mistake_at, cost = worse[0], len(pos.record), top - res.cards[worse[0]]
            else:
                card = res.best[0]
            pos.play(card)
        if mistake_at is None:
            continue
        record = Record.from_position(pos)
        assert Record.parse(record.text()) == record
        rv = review(record, from_card=start)
        assert [c.cost for c in rv.cards] == [cost if c.index == mistake_at else 0
                                            for c in rv.cards]
        seat = rv.cards[mistake_at - start].seat
        assert rv.seats[seat].cost == cost and rv.seats[seat].largest.index == mistake_at
        assert rv.final_scores == pos.scores()
        text = rv.text()
        assert f"{seat.name} {rv.cards[mistake_at - start].card}*" in text
        json.dumps(rv.to_dict())
        return
    raise AssertionError("no domino position with a costly card found")


# --- match reports (kingsolve/hands/report.py) ----------------------------------------------
from kingsolve.game.record import format_records  # noqa: E402
from kingsolve.hands.report import hand_total, match_report  # noqa: E402
from kingsolve.game.rules import VARIANTS  # noqa: E402


def test_match_report_scores_values_costs_and_running_totals():
    found = find_mistakes("no-queens", want=1) + find_mistakes("no-tricks", want=1)
    records = [r for r, _, _ in found]
    text = format_records(records)
    rep = match_report(text, solver=brute_solve)
    assert len(rep.hands) == 2
    running = {s: 0 for s in Seat}
    for hand, (record, at, cost) in zip(rep.hands, found):
        actual = record.position().scores()
        assert hand.actual == actual
        for s in Seat:
            running[s] += actual[s]
        assert hand.running == running
        assert hand.values == {s: brute_solve(record.position(0), [s]).values[s] for s in Seat}
        seat = hand.review.cards[at].seat
        assert hand.costs[seat] == cost and sum(hand.costs.values()) == cost
        assert hand.sum_ok and hand.total == sum(actual.values())
    assert rep.totals == running
    assert sum(rep.costs.values()) == sum(c for _, _, c in found)
    assert rep.checks["zero_sum"] is None and rep.checks["hand_sums_ok"]
    assert "Zero sum: not checked (2 of 13 hands)" in rep.text()
    assert json.loads(json.dumps(rep.to_dict()))["hands"][1]["running"] == \
        {s.name: v for s, v in running.items()}


def _zero_solver(pos, seats=None, budget=None):
    seats = list(pos.seats) if seats is None else seats
    return SolveResult(pos.to_move, {}, {s: 0 for s in seats}, {}, [], False)


@pytest.mark.parametrize("variant", ["italian", "portuguese", "turkish", "russian"])
def test_a_full_match_adds_up_to_zero(variant):
    # docs/rules.md 4, 6, 7, 8: every rule set's match is zero-sum. Each hand gives all its
    # points to N (Score tags), so the totals add up to the sum of the hand totals.
    rules = VARIANTS[variant]
    turkish = ["no-tricks", "no-hearts", "no-kings-jacks", "no-queens", "no-king-of-hearts",
               "no-last-two"] * 2 + ["trumps"] * 8
    names = turkish if variant == "turkish" else [h.contract for h in rules.match_schedule()]
    records = []
    for i, name in enumerate(names):
        deal = Deal.random(seed=i, deck=rules.deck)
        trump = Suit.S if rules.contract(name).takes_trump else None
        leader = Seat.N if variant == "turkish" else rules.match_schedule()[i].leader
        if variant == "turkish":
            leader = [Seat.N, Seat.W, Seat.S, Seat.E][i % 4]
        r = Record(variant, name, deal, leader, trump=trump, hand=i + 1)
        total = hand_total(r)
        score = ((Seat.N, total), (Seat.E, 0), (Seat.S, 0), (Seat.W, 0))
        records.append(Record(variant, name, deal, leader, trump=trump, hand=i + 1, score=score))
    rep = match_report(records, review_play=False, solver=_zero_solver)
    assert rep.checks["zero_sum"] is True and rep.checks["match_sum"] == 0
    assert rep.checks["hand_sums_ok"]
    if variant == "turkish":
        assert rep.checks["quotas"]["ok"], rep.checks["quotas"]
    if variant == "italian":
        # docs/rules.md 4 table: -16 -12 -8 -8 -13 -13 -8, domino 0, 4 x 13, 26.
        assert [h.total for h in rep.hands] == [-16, -12, -8, -8, -13, -13, -8, 0,
                                                13, 13, 13, 13, 26]
    assert "Zero sum: ok" in rep.text()


def test_match_report_flags_scores_that_do_not_add_up_and_broken_quotas():
    deal = Deal.random(seed=3)
    bad = Record("italian", "no-queens", deal, Seat.N, hand=2,
                 score=((Seat.N, -3), (Seat.E, 0), (Seat.S, 0), (Seat.W, 0)))
    rep = match_report([bad], review_play=False, solver=_zero_solver)
    assert rep.hands[0].sum_ok is False and rep.checks["hand_sums_wrong"] == [2]
    assert "scores do not add up" in rep.text()
    tk = [Record("turkish", "no-queens", deal, Seat.N) for _ in range(3)]
    q = match_report(tk, review_play=False, solver=_zero_solver).checks["quotas"]
    assert not q["ok"] and "'no-queens' is played a 3rd time" in q["problems"][0]
    with pytest.raises(InvalidRequestError, match="mix rule sets"):
        match_report([bad, tk[0]], review_play=False, solver=_zero_solver)
    with pytest.raises(InvalidRequestError, match="no records"):
        match_report([], solver=_zero_solver)


# --- the library's solver gives the same review (kingsolve.solve, docs/rules.md 11) ---------
@pytest.mark.parametrize("contract, trump, doubles", [
    ("no-queens", None, False), ("trumps", Suit.S, False), ("no-trumps", None, True),
    ("no-last-two", None, False),
])
def test_review_with_the_library_solver_matches_the_brute_force(contract, trump, doubles):
    for record, at, cost in find_mistakes(contract, trump, doubles, want=1):
        rv = review(record)  # kingsolve.search.solver.solve
        assert [(c.before, c.after, c.best, c.forced) for c in rv.cards] == \
            [(c.before, c.after, c.best, c.forced)
             for c in review(record, solver=brute_solve).cards]
        assert rv.cards[at].cost == cost
        assert rv.nodes > 0


# --- command line -------------------------------------------------------------------------
from kingsolve_cli import main  # noqa: E402


def test_cli_review_text_json_and_errors(tmp_path, capsys):
    record, at, cost = find_mistakes("no-queens", want=1)[0]
    path = tmp_path / "hand.kpbn"
    path.write_text(record.text(), encoding="utf-8")
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    bad = review(record, solver=brute_solve).cards[at]
    assert f"* {bad.seat.name} {bad.card} cost {cost} " in out
    assert main(["review", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"][at]["cost"] == cost
    # A match file: every hand reviewed, then the match report.
    match = tmp_path / "match.kpbn"
    match.write_text(record.text() + "\n" + record.text(), encoding="utf-8")
    assert main(["review", str(match), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["reviews"]) == 2 and data["costs"][bad.seat.name] == 2 * cost
    assert main(["review", str(match)]) == 0
    assert "Match report · italian · 2 hands" in capsys.readouterr().out
    broken = tmp_path / "broken.kpbn"
    broken.write_text(record.text().replace("[Variant", "[Varient"), encoding="utf-8")
    assert main(["review", str(broken)]) == 3
    assert "error: line 1: unknown tag 'Varient'" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.kpbn")]) == 3
    assert "cannot read record file" in capsys.readouterr().err
    assert main(["review", str(path), "--nodes", "0"]) == 3
    assert "invalid budget" in capsys.readouterr().err


def test_cli_choices(capsys):
    deal = "N:A2.K.. K3.Q.. Q4.J.. J5.T.."
    assert main(["choices", "trump", "--variant", "italian", "--deal", deal, "--dealer", "W",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [o["label"] for o in data["options"]] == ["trump S", "trump H", "trump D", "trump C"]
    assert data["options"][0]["values"] == {
        s.name: v for s, v in brute_solve(Position("italian", "trumps", Deal(deal), "N",
                                                   trump="S")).values.items()}
    assert data["budget"]["nodes"] > 0
    assert main(["choices", "contract", "--deal", deal, "--chooser", "S",
                 "--chosen", "N:no-queens,E:no-queens"]) == 0
    out = capsys.readouterr().out
    assert "contract choice · turkish" in out and "no-queens" not in out.split("Deal:")[1]
    assert main(["choices", "redeal", "--seed", "1"]) == 0
    assert "Seed: 1" in capsys.readouterr().out
    for argv, message in [
        (["choices", "sale", "--variant", "italian", "--deal", deal], "needs --dealer"),
        (["choices", "trump", "--deal", deal, "--leader", "N"], "needs --variant"),
        (["choices", "festa", "--variant", "italian", "--deal", deal, "--host", "N"],
         "choices festa: variant 'italian' has no festa"),
        (["choices", "trump", "--variant", "italian", "--leader", "N"],
         "give exactly one of --deal and --seed"),
        (["choices", "contract", "--deal", deal, "--chooser", "S", "--chosen", "Nx"],
         "invalid --chosen item 'Nx'"),
    ]:
        assert main(argv) == 3
        assert message in capsys.readouterr().err


def test_package_exports_the_analysis_surface():
    import kingsolve
    assert kingsolve.review is review and kingsolve.match_report is match_report
    assert kingsolve.Record is Record


@pytest.mark.parametrize("first", ["import kingsolve.hands.reviews, kingsolve.hands.hints",
                                   "from kingsolve import review, hint"])
def test_no_exported_name_is_a_module_of_the_package(first):
    # Loading a submodule binds it on the package under its own name, over an exported
    # function of that name: whichever is loaded first, the names stay the functions.
    import subprocess
    import sys
    check = (f"{first}\n"
             "import pkgutil, types, kingsolve\n"
             "from kingsolve import review, hint\n"
             "import kingsolve.hands.reviews, kingsolve.hands.hints\n"
             "modules = {m.name for m in pkgutil.iter_modules(kingsolve.__path__)}\n"
             "assert not modules & set(kingsolve.__all__), modules & set(kingsolve.__all__)\n"
             "assert isinstance(review, types.FunctionType) and kingsolve.review is review\n"
             "assert isinstance(hint, types.FunctionType) and kingsolve.hint is hint\n")
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def test_a_search_over_budget_keeps_its_card_and_the_progress_bar_draws_on_a_terminal():
    import io

    from kingsolve.errors import SolveTimeout
    from kingsolve_cli.terminal import ProgressBar
    record, _, _ = find_mistakes("no-queens", want=1)[0]

    at = next(i for i in range(1, len(record.play)) if len(record.position(i).legal_cards()) > 1)

    def over_budget(pos, seats=None, budget=None):
        if len(pos.record) == at:
            raise SolveTimeout("search stopped at its node budget of 10 nodes",
                               bounds={s: (-6, 0) for s in (seats or pos.seats)})
        return brute_solve(pos, seats, budget)

    stopped = review(record, solver=over_budget)
    card = stopped.cards[at]
    assert not card.solved and card.bounds == (-6, 0) and card.estimate is None
    assert all(c.solved for c in stopped.cards if c.index != at)
    assert f"? {card.seat.name} {card.card}: no estimate within the budget (value -6..0)" \
        in stopped.text()
    assert "(1 card not exact)" in stopped.text()

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term, pipe = Terminal(), io.StringIO()
    rv = review(record, from_trick=2, solver=brute_solve, progress=ProgressBar("review", term))
    ProgressBar("review", pipe)(1, 2)
    assert pipe.getvalue() == ""
    assert term.getvalue().endswith(f"] {len(rv.cards)}/{len(rv.cards)}\n")
    assert term.getvalue().count("\r") == len(rv.cards)
    assert "(the cards before trick 2 are not reviewed)" in rv.text()


def _played_out(seed: int, contract: str = "no-queens", per_seat: int = 13) -> Record:
    rng = random.Random(seed)
    deal = Deal.random(seed) if per_seat == 13 else small_deal(rng, per_seat)
    pos = Position("italian", contract, deal, leader=Seat.N)
    while not pos.complete:
        pos.play(rng.choice(pos.legal_cards()))
    return Record.from_position(pos)


@pytest.mark.slow
def test_a_whole_13_card_hand_reviews_within_its_total_budget():
    # every card gets an estimate inside its proved range within the review's one
    # budget; the late positions come out exact and agree with an exact review
    from kingsolve.search.budget import Budget
    record = _played_out(7)
    rv = review(record, budget=Budget(ms=3000))
    assert len(rv.cards) == len(record.play) == 52 and rv.ms < 3000 + 2000
    for c in rv.cards:
        assert c.estimate is not None and c.after_estimate is not None, c
        lo, hi = c.bounds
        assert lo <= c.estimate <= hi and -12 <= lo <= hi <= 0   # four queens at -3 (docs/rules.md 4)
        alo, ahi = c.after_bounds
        assert alo <= c.after_estimate <= ahi
        assert c.cost_bounds[0] <= (c.estimated_cost or 0) <= c.cost_bounds[1] or c.forced
    assert rv.cards[-1].solved and not rv.cards[0].solved
    exact = {c.index: c for c in review(record, from_trick=10).cards}
    for c in rv.cards:
        if c.index in exact:
            e = exact[c.index]
            assert c.bounds[0] <= e.before <= c.bounds[1]
            assert c.after_bounds[0] <= e.after <= c.after_bounds[1]
            if c.solved:
                assert (c.before, c.after, c.best) == (e.before, e.after, e.best)
    for seat, summary in rv.seats.items():
        assert summary.cards == 13
        assert summary.unsolved == sum(1 for c in rv.cards if c.seat == seat and not c.solved)
    out = rv.to_dict()
    assert out["cards"][0]["solved"] is False and out["cards"][0]["cost"] is None
    assert out["cards"][0]["estimate"] is not None and out["start_bounds"]
    report = match_report([record], budget=Budget(ms=1500))
    assert report.hands[0].values is None and "?" in report.text()


def test_cli_and_api_refuse_a_trick_the_record_does_not_have(tmp_path, capsys, client):
    """Trick 9 of a 3-trick record: the same error from the CLI and the API, no clamping."""
    from pathlib import Path

    match = (Path(__file__).parent / "data" / "italian-short.kpbn").read_text()
    short = match.split("\n\n")[0]
    path = tmp_path / "short.kpbn"
    path.write_text(short, encoding="utf-8")
    assert main(["review", str(path), "--from-trick", "9"]) == 3
    err = capsys.readouterr().err
    resp = client.post("/api/v1/review", json={"record": short, "from_trick": 9})
    assert resp.status_code == 400
    message = resp.get_json()["message"]
    assert "the record has 3 tricks played" in message
    assert err == f"kingsolve review: error: {message}\n"
    assert main(["review", str(path), "--from-trick", "0"]) == 3
    assert "invalid from_trick 0" in capsys.readouterr().err
    # A match file: refused before any review, naming the hand.
    (tmp_path / "match.kpbn").write_text(match, encoding="utf-8")
    assert main(["review", str(tmp_path / "match.kpbn"), "--from-trick", "4"]) == 3
    assert "hand 1: invalid from_trick 4: the record has 3 tricks" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "match.kpbn"), "--from-trick", "3"]) == 0


@pytest.mark.parametrize("seed", range(4))
def test_a_proved_mistake_is_a_real_mistake(seed):
    # docs/rules.md 11: a card whose highest value is below another card's lowest costs at
    # least the gap, whatever the exact values turn out to be; checked against the
    # exact review on 8-card hands, reviewed first on a budget too small to be exact
    from kingsolve.search.budget import Budget
    record = _played_out(seed, "no-tricks", per_seat=8)
    exact = review(record).cards
    for ms in (20, 80):
        rv = review(record, budget=Budget(ms=ms))
        for c, e in zip(rv.cards, exact):
            assert e.solved and c.cost_bounds[0] <= e.cost <= c.cost_bounds[1], (ms, c, e)
            if c.mistake == "proved":
                assert e.cost >= c.min_cost > 0
            if c.solved:
                assert c.cost == e.cost
        for seat, summary in rv.seats.items():
            mine = [c for c in rv.cards if c.seat == seat]
            assert summary.costly == sum(c.mistake == "proved" for c in mine)
            assert summary.estimated == sum(c.mistake == "estimated" for c in mine)
            assert summary.cost <= sum(e.cost for e in exact if e.seat == seat)


def test_the_text_and_json_tell_proved_from_estimated_mistakes():
    from kingsolve.hands.reviews import CardReview, SeatSummary, _seat_summary
    head = dict(trick=1, seat=Seat.E, forced=False)
    proved = CardReview(index=1, card=Card.parse("SK"), before=None, after=None,
                        best=(Card.parse("SJ"),), bounds=(-3, 0), after_bounds=(-6, -3),
                        estimate=0, after_estimate=-3, cost_bounds=(0, 6), best_exact=False,
                        **head)
    assert proved.mistake == "estimated" and proved.estimated_cost == 3
    sure = CardReview(index=5, card=Card.parse("H2"), before=None, after=None,
                      best=(Card.parse("HA"),), bounds=(-3, 0), after_bounds=(-9, -6),
                      estimate=-3, after_estimate=-9, cost_bounds=(3, 6), best_exact=False,
                      **head)
    assert sure.mistake == "proved" and sure.min_cost == 3 and sure.cost is None
    summary = _seat_summary(Seat.E, [proved, sure])
    assert isinstance(summary, SeatSummary)
    assert (summary.costly, summary.cost, summary.estimated, summary.estimated_cost) == (1, 3, 1, 3)
    d = summary.to_dict()
    assert d["costly"] == 1 and d["estimated"] == 1 and d["largest"]["mistake"] == "proved"
    assert d["largest_estimated"]["mistake"] == "estimated"
    from kingsolve.hands.reviews import _summary_text
    text = _summary_text(summary)
    assert text.startswith("at least 3 in 1 of 2 cards; largest H2 (3)") and "by estimate ≈3 more in 1 card" in text
