"""The solver's Python surface: ``solve``, ``solve_request``, ``dd_table`` and the CLI.

docs/rules.md section 11 (values), section 3 (scores, the constant per seat); the
request shape is the shared one of kingsolve/io/request.py plus seats and budgets.
"""

from __future__ import annotations

import json
import random

import pytest

import kingsolve
from kingsolve import Deal, Position, Seat
from kingsolve.game.cards import Card
from kingsolve_cli import main
from kingsolve.errors import InvalidRequestError, KingsolveError, SolveTimeout
from kingsolve.search.budget import Budget
from kingsolve.search.result import SolveResult
from kingsolve.io.request import solve_request
from kingsolve.search import engine
from kingsolve.search.solver import solve
from kingsolve.search.table import Table, dd_table, format_table

DEAL = "N:AQ74.K93.J82.T65 KJ2.QT754.A3.K84 T98.AJ86.KQ95.A2 653.2.T764.QJ973"
def _play(n: int, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    pos = Position("italian", "no-queens", DEAL, leader="N")
    for _ in range(n):
        pos.play(rng.choice(pos.legal_cards()))
    return [str(c) for c in pos.record]


PLAY = _play(29)   # 7 tricks and one card played


def _request(**kw):
    req = {"variant": "italian", "contract": "no-queens", "deal": DEAL, "leader": "N",
           "play": PLAY}
    req.update(kw)
    return req


def test_response_shape_and_consistency():
    out = solve_request(_request())
    assert set(out) >= {"to_move", "taken", "values", "cards", "best", "complete", "nodes", "ms"}
    pos = Position("italian", "no-queens", DEAL, leader="N", play=PLAY)
    assert out["to_move"] == pos.to_move.name
    assert set(out["values"]) == {"N", "E", "S", "W"}
    assert set(out["cards"]) == {str(c) for c in pos.legal_cards()}
    top = max(out["cards"].values())
    assert out["values"][out["to_move"]] == top
    assert out["best"] == [c for c, v in out["cards"].items() if v == top]
    assert out["taken"] == {s.name: v for s, v in pos.taken.items()}
    assert out["complete"] is False and out["nodes"] > 0
    json.dumps(out)


def test_seats_selection_and_id_echo():
    out = solve_request(_request(seats=["E", "w"], id=7))
    assert set(out["values"]) == {"E", "W"} and out["id"] == 7
    full = solve_request(_request())
    assert out["values"] == {"E": full["values"]["E"], "W": full["values"]["W"]}


def test_paranoid_value_never_above_the_value_of_any_card_line():
    # docs/rules.md 11: the mover's value is the best card; others' values are guarantees.
    pos = Position("italian", "no-tricks", DEAL, leader="N", play=PLAY)
    res = solve(pos)
    assert res.values[pos.to_move] == max(res.cards.values())
    assert all(v <= 0 for v in res.values.values())


def test_complete_hand_gives_final_scores_and_no_cards():
    pos = Position("portuguese", "null", "N:A... K... Q... J...", leader="N",
                   play=["SA", "SK", "SQ", "SJ"])
    res = solve(pos)
    assert res.complete and res.cards == {} and res.best == []
    # docs/rules.md 6: null scores 325 per seat, -75 per trick taken
    assert res.values == {Seat.N: 250, Seat.E: 325, Seat.S: 325, Seat.W: 325}


def test_seat_constant_is_added_before_the_end():
    pos = Position("portuguese", "null", "N:A2... K3... Q4... J5...", leader="N")
    res = solve(pos)
    # N must win one of the two tricks: it holds the ace and the lowest spade
    assert res.values[Seat.N] == 325 - 75
    assert res.cards == {Card("SA"): 250, Card("S2"): 250}


def test_doubles_sides_in_extra():
    out = solve_request(_request(contract="no-trumps", doubles=True))
    assert out["sides"]["NS"] == out["values"]["N"] == out["values"]["S"]
    assert out["sides"]["EW"] == out["values"]["E"] == out["values"]["W"]
    # docs/rules.md 4: 13 tricks at 2 points each
    assert out["sides"]["NS"] + out["sides"]["EW"] == 26


def test_tiny_node_budget_raises_solve_timeout_when_exact_is_asked():
    with pytest.raises(SolveTimeout, match="node budget"):
        solve_request({"variant": "italian", "contract": "no-trumps", "deal": DEAL,
                       "leader": "N", "doubles": True, "nodes": 5000, "exact": True})


def test_a_budget_too_small_for_any_estimate_raises_solve_timeout():
    with pytest.raises(SolveTimeout, match="before a first estimate") as stop:
        solve_request({"variant": "italian", "contract": "no-queens", "deal": DEAL,
                       "leader": "N", "nodes": 100})
    assert set(stop.value.bounds) == {Seat.N, Seat.E, Seat.S, Seat.W}


def test_tiny_node_budget_answers_estimates_and_ranges():
    out = solve_request({"variant": "italian", "contract": "no-trumps", "deal": DEAL,
                         "leader": "N", "doubles": True, "nodes": 5000})
    assert out["solved"] is False and out["horizon"] is not None
    assert set(out["estimates"]) == set(out["bounds"]) == {"N", "E", "S", "W"}
    for seat, (lo, hi) in out["bounds"].items():
        assert lo <= out["estimates"][seat] <= hi
    assert set(out["card_estimates"]) == set(out["card_bounds"])


@pytest.mark.slow
@pytest.mark.parametrize("contract, seed", [("no-kings-jacks", 1), ("no-hearts", 2),
                                            ("no-tricks", 3), ("no-queens", 4)])
@pytest.mark.parametrize("cards", [True, False])
def test_budget_stop_reports_the_range_proved_so_far(contract, seed, cards):
    # docs/rules.md 11: a stopped search still knows bounds; the exact value lies within.
    pos = Position("italian", contract, Deal.random(seed), leader=Seat(seed % 4))
    rng = random.Random(seed)
    for _ in range(16):
        pos.play(rng.choice(pos.legal_cards()))
    exact = solve(pos).values
    stops = 0
    for nodes in (5_000, 100_000, 400_000, 1_500_000):
        # a fresh table for each: a core loaded with the same cards keeps its entries,
        # so the exact search's table would answer at once
        engine.idle_cores.clear()
        try:
            solve(pos, budget=Budget(nodes=nodes), cards=cards)
        except SolveTimeout as exc:
            stops += 1
            assert set(exc.bounds) == set(pos.seats)
            for seat, (lo, hi) in exc.bounds.items():
                assert lo <= exact[seat] <= hi, (seat, lo, hi, exact[seat])
            assert "proved so far" in str(exc)
            assert exc.to_dict()["bounds"] == {s.name: [lo, hi] for s, (lo, hi) in exc.bounds.items()}
    assert stops  # the smallest budget always stops: the bounds above were checked


def test_a_stopped_search_narrows_its_range_from_both_ends():
    # docs/rules.md 11, no-tricks of a full deal: far too large to finish within 1 M nodes.
    # The quick bounds are -13 to 0; the search proves from both ends what it can
    # (N cannot be made to take every trick; N cannot keep clear of every one).
    pos = Position("italian", "no-tricks", Deal.random(3), leader="W")
    with pytest.raises(SolveTimeout) as info:
        solve(pos, seats=["N"], budget=Budget(nodes=1_000_000), cards=False)
    lo, hi = info.value.bounds[Seat.N]
    assert -13 < lo <= hi < 0, (lo, hi)


def test_tiny_time_budget_raises_solve_timeout():
    pos = Position("italian", "no-trumps", DEAL, leader="N", doubles=True)
    with pytest.raises(SolveTimeout, match="time budget"):
        solve(pos, budget=Budget(ms=1))


@pytest.mark.parametrize("bad, words", [
    ({"seats": ["X"]}, "invalid seat"),
    ({"seats": "N"}, "seats"),
    ({"seats": []}, "seats"),
    ({"nodes": 0}, "nodes"),
    ({"nodes": "many"}, "nodes"),
    ({"ms": -1}, "ms"),
    ({"ms": True}, "ms"),
    ({"contract": "no-such"}, "unknown contract"),
    ({"play": ["SK"]}, "illegal card"),
    ({"colour": 1}, "unknown field"),
])
def test_bad_requests_raise_kingsolve_errors(bad, words):
    with pytest.raises(KingsolveError, match=words):
        solve_request(_request(**bad))


def test_seat_not_in_play_is_refused():
    pos = Position("italian", "no-queens", "N:AK... - QJ... -", leader="N")
    with pytest.raises(InvalidRequestError, match="not in play"):
        solve(pos, seats=["E"])


def test_package_exports():
    assert kingsolve.solve is solve and kingsolve.dd_table is dd_table
    assert kingsolve.solve_request is solve_request


def test_dd_table_rows_and_text():
    deal = "N:AK.Q.. QJ.K.. T9.A.. 87.J.."
    table = dd_table("italian-wikipedia", deal, "N", threads=2)
    assert isinstance(table, Table) and table.solved and kingsolve.Table is Table
    labels = [r.label for r in table.rows]
    # docs/rules.md 5: trumps once per suit and with no trump
    assert labels.count("trumps") == 1 and "trumps S" in labels and "trumps C" in labels
    assert "domino" not in labels and table.seats == (Seat.N, Seat.E, Seat.S, Seat.W)
    one = dd_table("italian-wikipedia", deal, "N", threads=1)
    assert one.values == table.values
    for row in table.to_dict()["rows"]:
        pos = Position("italian-wikipedia", row["contract"], deal, leader="N", trump=row["trump"])
        exact = {s.name: v for s, v in solve(pos).values.items()}
        assert row["values"] == exact and row["estimates"] == exact and row["solved"]
        assert row["bounds"] == {s: [v, v] for s, v in exact.items()}
    text = format_table(table)
    assert "no-queens" in text and "trumps H" in text and "≈" not in text


def _eight_card_deal(seed: int) -> Deal:
    from kingsolve.game.cards import cards_of_mask
    return Deal([sum(c.mask for c in sorted(cards_of_mask(h), key=lambda c: c.bit)[:8])
                 for h in Deal.random(seed).hands])


@pytest.mark.parametrize("seed", [5, 11])
def test_a_budgeted_table_answers_every_cell_inside_bounds_holding_the_exact_value(seed):
    # docs/rules.md 11: each cell's proved range holds the exact value, its estimate lies in
    # the range, and a cell shown as exact is the exact value.
    deal = _eight_card_deal(seed)
    exact = dd_table("italian", deal, "N", threads=2)
    assert exact.solved
    for nodes in (4096, 30_000, 120_000):
        part = dd_table("italian", deal, "N", budget=Budget(nodes=nodes), threads=2)
        assert [r.label for r in part.rows] == [r.label for r in exact.rows]
        for p_row, e_row in zip(part.rows, exact.rows):
            for seat, (lo, hi) in p_row.analysis.bounds.items():
                value = e_row.analysis.values[seat]
                assert lo <= value <= hi, (nodes, p_row.label, seat)
                # a few hundred nodes a row may not finish the first play-outs
                est = p_row.analysis.estimates.get(seat, lo)
                assert lo <= est <= hi, (nodes, p_row.label, seat)
                if lo == hi:
                    assert p_row.analysis.values[seat] == value
        row = part.to_dict()["rows"][0]
        assert set(row) >= {"values", "bounds", "estimates", "solved"}
        assert all(lo == hi for s, (lo, hi) in row["bounds"].items() if s in row["values"])
    # a whole deal's rows cannot be proved in a few thousand nodes
    small = dd_table("italian", Deal.random(seed), "N", budget=Budget(nodes=4096), threads=2)
    assert not small.solved and not small.to_dict()["solved"]
    text = format_table(small)
    assert "≈" in text and ".." in text and "estimate" in text and "proved range" in text


def test_an_exact_table_names_the_row_that_stopped():
    # the stop says which contract it was
    with pytest.raises(SolveTimeout, match=r"table row 'no-tricks' stopped: .*proved so far"):
        dd_table("italian", Deal.random(3), "W", contracts=["no-tricks"],
                 budget=Budget(nodes=4096), threads=1, exact=True)
    with pytest.raises(SolveTimeout, match=r"table row 'trumps \w' stopped"):
        dd_table("italian", Deal.random(3), "W", contracts=["trumps"],
                 budget=Budget(nodes=20_000), threads=2, exact=True)


def test_the_table_budget_bounds_the_whole_table():
    # a full deal's twelve rows on two threads within one total, never a row each
    deal = Deal.random(5)
    table = dd_table("italian", deal, "N", budget=Budget(ms=1200), threads=2)
    assert len(table.rows) == 12 and table.ms < 1200 + 1500      # generous for a busy machine
    for row in table.rows:
        assert set(row.analysis.estimates) == {Seat.N, Seat.E, Seat.S, Seat.W}, row.label
        for seat, (lo, hi) in row.analysis.bounds.items():
            assert lo <= row.analysis.estimates[seat] <= hi


def test_budget_shares_split_the_total_between_pieces_as_they_start():
    shares = Budget(nodes=1000, ms=4000).start(pieces=4)
    first = shares.take()
    assert first.nodes == 250 and 990 < first.ms <= 1000
    shares.done(first, 50)                      # a quick piece leaves its share to the rest
    second = shares.take()
    assert second.nodes == (1000 - 50) // 3 and second.ms > 1250
    together = Budget(nodes=800, ms=4000).start(pieces=4, threads=2)
    a, b = together.take(), together.take()
    # two run at once: each holds half the time, and the nodes are split four ways
    assert 1900 < a.ms <= 2000 and 1900 < b.ms <= 2000 and a.nodes == 200 and b.nodes == 200


def test_a_deadline_splits_the_time_left_and_expires():
    clock = Budget(nodes=500, ms=60_000).start()
    half = clock.share(parts=2)
    assert half.nodes == 500 and 29_000 < half.ms <= 30_000
    assert clock.share(most=Budget(nodes=100, ms=10)) == Budget(nodes=100, ms=10)
    spent = Budget(ms=0).start()
    assert spent.expired() and spent.left_ms() == 0 and spent.share().ms == 0
    assert not Budget(ms=float("inf")).start().expired()


@pytest.mark.parametrize("seed", range(3))
def test_analysis_without_cards_bounds_hold_the_exact_values(seed):
    # docs/rules.md 11: the mover's side searched whole like the others; estimates inside
    # the proved ranges, no per-card values; exact once the budget allows
    from kingsolve.search.analysis import analyse
    deal = _eight_card_deal(seed)
    pos = Position("italian", ["no-tricks", "no-queens", "no-hearts"][seed], deal, leader="E")
    exact = solve(pos, cards=False).values
    for nodes in (300, 3000):
        a = analyse(pos, budget=Budget(nodes=nodes), cards=False)
        assert a.card_bounds == {} and a.best == [] and "cards" not in a.text()
        for seat, (lo, hi) in a.bounds.items():
            assert lo <= exact[seat] <= hi, (nodes, seat)
            if seat in a.estimates:
                assert lo <= a.estimates[seat] <= hi
    whole = analyse(pos, cards=False)
    assert whole.solved and whole.values == exact and whole.estimates == exact


def test_a_table_reports_its_rows_as_they_improve(capsys):
    seen: list = []
    deal = Deal.random(5)
    table = dd_table("italian", deal, "N", contracts=["no-queens", "no-tricks", "no-hearts"],
                     budget=Budget(ms=600), threads=2, on_update=seen.append)
    assert len(seen) >= 3 and all(isinstance(t, Table) for t in seen)
    assert [r.label for r in seen[-1].rows] == [r.label for r in table.rows]
    assert seen[-1].values == table.values
    assert main(["table", "--deal", deal.pbn(), "--ms", "400", "--contracts", "no-queens",
                 "--watch", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) >= 2 and all(len(x["rows"]) == 1 for x in lines)


def test_format_table_keeps_columns_apart_whatever_the_cell_width():
    # wide range cells never run into each other
    table = dd_table("italian", Deal.random(3), "N", contracts=["no-kings-jacks", "no-tricks"],
                     budget=Budget(nodes=3000), threads=1)
    lines = format_table(table).splitlines()
    for line, row in zip(lines[2:], table.rows):
        cells = [row.cell(s) for s in table.seats]
        rest = line[len(row.label):]
        # each cell right-aligned in its own column, at least two spaces before it
        parts = [p.strip() for p in rest.split("  ") if p.strip()]
        assert parts == cells, line


def test_a_stopped_table_row_narrows_every_seat():
    # docs/rules.md 11, no-tricks of a full deal (quick bounds -13 to 0 for every seat): the
    # row's budget is shared among the seats, so a stop leaves each of them narrowed
    # at both ends, not the first seat alone.
    row, = dd_table("italian", Deal.random(3), "W", contracts=["no-tricks"],
                    budget=Budget(nodes=4_000_000), threads=1).to_dict()["rows"]
    assert not row["solved"]
    for seat, (lo, hi) in row["bounds"].items():
        assert -13 < lo <= hi < 0, (seat, lo, hi)


def test_cli_solve_prints_json(capsys):
    assert main(["solve", "--variant", "italian", "--contract", "no-queens", "--deal", DEAL,
                 "--play", " ".join(PLAY), "--seats", "N,E"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["values"]) == {"N", "E"}


FULL = ["--variant", "italian", "--contract", "no-queens", "--deal", DEAL]


def test_cli_solve_marks_estimates_and_ranges_in_text(capsys):
    assert main(["solve", *FULL, "--ms", "150", "--text"]) == 0
    text = capsys.readouterr().out
    assert "≈" in text and ".." in text and "estimate" in text and "cards:" in text
    # a position solved exactly shows plain numbers and no legend
    assert main(["solve", *FULL, "--play", " ".join(PLAY), "--text"]) == 0
    text = capsys.readouterr().out
    assert "≈" not in text and "estimate" not in text and "best:" in text


def test_cli_solve_exact_fails_naming_what_stopped(capsys):
    assert main(["solve", *FULL, "--ms", "100", "--exact"]) != 0
    err = capsys.readouterr().err
    assert "time budget of 100 ms" in err and "proved so far: N" in err
    assert main(["solve", *FULL, "--ms", "100", "--exact", "--watch"]) != 0
    err = capsys.readouterr().err
    assert "not every value exact" in err and "N -12.." in err
    assert main(["solve", *FULL, "--play", " ".join(PLAY), "--exact"]) == 0
    assert json.loads(capsys.readouterr().out)["solved"] is True


def test_cli_solve_watch_prints_each_improvement(capsys):
    assert main(["solve", *FULL, "--ms", "300", "--watch"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) >= 2 and all(set(x) >= {"bounds", "estimates", "solved"} for x in lines)
    assert main(["solve", *FULL, "--ms", "300", "--watch", "--text"]) == 0
    blocks = capsys.readouterr().out.strip().split("\n\n")     # not a terminal: one after another
    assert len(blocks) >= 2 and all(b.startswith("N to play") for b in blocks)


def test_live_text_redraws_in_place_on_a_terminal():
    import io
    from kingsolve_cli.terminal import LiveText

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    live = LiveText(term)
    live.draw("a\nb")
    live.draw("c\nd")
    assert term.getvalue() == "a\nb\n\x1b[2F\x1b[Jc\nd\n"


def test_cli_solve_reports_errors(capsys):
    assert main(["solve", "--variant", "italian", "--contract", "no-queens", "--deal", DEAL,
                 "--nodes", "0"]) == 3
    assert "nodes" in capsys.readouterr().err


def test_cli_table_text_and_json(capsys):
    deal = "N:AK.Q.. QJ.K.. T9.A.. 87.J.."
    assert main(["table", "--variant", "turkish", "--deal", deal, "--leader", "E"]) == 0
    text = capsys.readouterr().out
    assert "no-king-of-hearts" in text and "trumps S" in text
    assert main(["table", "--variant", "turkish", "--deal", deal, "--leader", "E", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["leader"] == "E" and len(table["rows"]) == 6 + 4 and table["solved"]


def test_cli_table_prints_every_row_on_a_small_budget(capsys):
    deal = Deal.random(5).pbn()
    assert main(["table", "--deal", deal, "--ms", "600", "--contracts", "no-queens,no-tricks"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith("no-queens") and lines[3].startswith("no-tricks")
    assert "≈" in lines[2] and "proved range" in "\n".join(lines)
    assert main(["table", "--deal", deal, "--ms", "300", "--contracts", "no-queens",
                 "--exact"]) != 0
    assert "table row 'no-queens' stopped" in capsys.readouterr().err


def test_domino_requests_go_to_the_domino_solver():
    pytest.importorskip("kingsolve.search.domino_solver")
    deal = Deal.random(5).pbn()
    with pytest.raises(SolveTimeout, match="domino"):
        solve_request({"variant": "italian", "contract": "domino", "deal": deal,
                       "leader": "N", "nodes": 1000})


def test_the_typed_results_and_budgets_come_from_the_package_root():
    from kingsolve.search.analysis import Analysis
    from kingsolve.search.table import Table
    exported = {"Budget": Budget, "Deadline": type(Budget().start()), "SolveResult": SolveResult,
                "Analysis": Analysis, "Table": Table}
    for name, kind in exported.items():
        assert name in kingsolve.__all__ and getattr(kingsolve, name) is kind


def test_the_retired_partial_flag_and_field_are_refused(capsys, client):
    # a table answers every cell; `partial`, read and ignored before 0.2.0 (CHANGELOG.md,
    # 0.2.0), is an unknown flag and an unknown field now
    with pytest.raises(SystemExit) as stop:
        main(["table", "--deal", DEAL, "--contracts", "no-queens", "--partial"])
    assert stop.value.code == 2 and "--partial" in capsys.readouterr().err
    resp = client.post("/api/v1/table", json={
        "variant": "italian", "deal": DEAL, "contracts": ["no-queens"], "ms": 200,
        "partial": True})
    assert resp.status_code == 400 and "'partial'" in resp.get_json()["message"]
