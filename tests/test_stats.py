"""`kingsolve stats`: value distributions over batch results."""

from __future__ import annotations

import json

import pytest

from kingsolve_cli import main
from kingsolve.io.stats import collect, format_stats, plot_stats


def _req(i, leader, contract="trumps", trump="S", play=None):
    return {"id": i, "variant": "italian", "contract": contract, "trump": trump,
            "deal": "N:...", "leader": leader, "play": play or []}


def test_counts_by_seat_and_by_role():
    reqs = [_req(0, "N"), _req(1, "E"), _req(2, "N", contract="no-king-of-hearts", trump=None)]
    resps = [{"id": 0, "values": {"N": 3, "E": 4, "S": 2, "W": 4}},
             {"id": 1, "values": {"N": 3, "E": 5, "S": 1, "W": 4}},
             {"id": 2, "values": {"N": 0, "E": -8, "S": 0, "W": 0}}]
    stats = collect(reqs, resps)
    rows = {(r["contract"], r["seat"]): r for r in stats.rows()}
    assert rows[("trumps S", "N")]["distribution"] == {"3": 2}
    # the leader was N (3 tricks) then E (5 tricks)
    assert rows[("trumps S", "leader")]["distribution"] == {"3": 1, "5": 1}
    assert rows[("trumps S", "leader")]["mean"] == 4
    # the seat after the leader: E (4) then S (1), clockwise in Italian
    assert rows[("trumps S", "2nd")]["distribution"] == {"1": 1, "4": 1}
    assert rows[("no-king-of-hearts", "E")]["distribution"] == {"-8": 1}
    text = format_stats(stats, by="seat")
    assert "no-king-of-hearts" in text and "-8:1" in text


def test_counter_clockwise_roles_in_turkish():
    req = {"id": 0, "variant": "turkish", "contract": "no-tricks", "deal": "", "leader": "N"}
    stats = collect([req], [{"id": 0, "values": {"N": 0, "E": -50, "S": -100, "W": -150}}])
    rows = {r["seat"]: r for r in stats.rows()}
    assert rows["2nd"]["distribution"] == {"-150": 1}  # W follows N in Turkish (docs/rules.md 1)


def test_failed_and_partial_results_are_skipped_and_mismatch_refused():
    reqs = [_req(0, "N"), _req(1, "N", play=["SA"]), _req(2, "N")]
    resps = [{"id": 0, "error": "parse", "message": "x"}, {"id": 1, "values": {"N": 1}},
             {"id": 2, "values": {"N": 2}}]
    stats = collect(reqs, resps)
    assert stats.skipped == 2 and sum(r["n"] for r in stats.rows() if r["seat"] == "N") == 1
    with pytest.raises(ValueError, match="do not match"):
        collect([_req(0, "N")], [{"id": 9, "values": {}}])


def test_plot_and_cli(tmp_path, capsys):
    reqs = [_req(i, "NESW"[i % 4]) for i in range(8)]
    resps = [{"id": i, "values": {"N": i % 3, "E": 1, "S": 2, "W": 3}} for i in range(8)]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in reqs))
    (tmp_path / "out.jsonl").write_text("".join(json.dumps(r) + "\n" for r in resps))
    png = tmp_path / "v.png"
    assert main(["stats", str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl"),
                 "--plot", str(png)]) == 0
    assert "trumps S" in capsys.readouterr().out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["stats", str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"]
    with pytest.raises(ValueError, match="nothing to plot"):
        plot_stats(collect([], []), str(png))


def test_cli_errors_are_one_line_and_exit_3(tmp_path, capsys):
    reqs = [_req(i, "N") for i in range(3)]
    resps = [{"id": i, "values": {"N": 1, "E": 2, "S": 3, "W": 4}} for i in range(8)]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in reqs))
    (tmp_path / "out.jsonl").write_text("".join(json.dumps(r) + "\n" for r in resps))
    (tmp_path / "out3.jsonl").write_text("".join(json.dumps(r) + "\n" for r in resps[:3]))
    inp, out = str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl")
    for argv, words in [
        ([str(tmp_path / "nope.jsonl"), out], "cannot read '"),
        ([inp, out], "3 requests but 8 responses"),
        ([out, inp], "8 requests but 3 responses"),
        ([inp, str(tmp_path / "out3.jsonl"), "--plot", str(tmp_path / "no" / "dir" / "x.png")],
         "cannot write plot"),
    ]:
        assert main(["stats", *argv]) == 3
        captured = capsys.readouterr()
        assert captured.err.startswith("kingsolve stats: error: ") and words in captured.err
        assert captured.err.count("\n") == 1 and captured.out == ""


DATA = __import__("pathlib").Path(__file__).parent / "data"


def test_every_response_is_counted_or_skipped_with_its_reason():
    # tests/data/stats_*.jsonl: a `kingsolve batch` of 20 solve requests: six doubles rows
    # and two domino deals proved, seven analyses by estimate, an exact request stopped at
    # its budget, one with cards played, three errors
    from kingsolve.io.batch import read_requests
    stats = collect(read_requests(str(DATA / "stats_requests.jsonl")),
                    read_requests(str(DATA / "stats_responses.jsonl")))
    assert dict(stats.counted) == {"exact": 8, "estimated": 7, "ranges": 1}
    assert dict(stats.reasons) == {"failed (unknown-contract)": 2, "failed (parse)": 1,
                                   "cards already played: not a whole deal": 1}
    assert sum(stats.counted.values()) + stats.skipped == 20
    rows = {(r["contract"], r["seat"]): r for r in stats.rows()}
    # the leader's value of every whole-deal no-queens response is there: three
    # estimates and the range of the exact request that stopped
    nq = rows[("no-queens", "leader")]
    assert nq["n"] == 4 and nq["exact"] == 0 and sum(nq["estimates"].values()) == 3
    assert nq["ranges"] == {"-12..0": 1} and nq["mean"] is None
    # doubles values are a side's: apart from the singles ones of the same contract
    assert rows[("no-trumps (doubles)", "leader")]["distribution"] == {"22": 1}
    text = format_stats(stats)
    assert "counted 16 of 20 responses: 8 exact, 7 with estimates, 1 with proved ranges only" \
        in text
    assert text.splitlines()[-1] == ("skipped 4: 2 failed (unknown-contract), 1 cards already "
                                     "played: not a whole deal, 1 failed (parse)")


def test_estimates_and_ranges_are_summarised_as_such():
    reqs = [_req(i, "N", contract="no-queens", trump=None) for i in range(3)]
    resps = [{"id": 0, "values": {"N": -6}, "bounds": {"N": [-6, -6]}, "estimates": {"N": -6}},
             {"id": 1, "values": {}, "bounds": {"N": [-12, -3]}, "estimates": {"N": -9}},
             {"id": 2, "error": "budget", "message": "search stopped", "bounds": {"N": [-9, 0]}}]
    row = {r["seat"]: r for r in collect(reqs[:2], resps[:2]).rows()}["N"]
    assert row["n"] == 2 and row["exact"] == 1
    assert row["mean"] == -7.5 and row["mean_bounds"] == [-9, -4.5]
    assert row["distribution"] == {"-6": 1} and row["estimates"] == {"-9": 1}
    stats = collect(reqs, resps)
    row = {r["seat"]: r for r in stats.rows()}["N"]
    # a range alone has no estimate: the mean is only known to lie in its range
    assert row["mean"] is None and row["mean_bounds"] == [-9, -3] and row["ranges"] == {"-9..0": 1}
    line = next(x for x in format_stats(stats, by="seat").splitlines() if " N " in x)
    assert "-9.00..-3.00" in line and "-6:1 ≈-9:1 -9..0:1" in line
    assert "≈-3 estimate" in format_stats(stats)
    # a stop with nothing proved, a legal answer, a request that is not an object
    reqs = [_req(0, "N"), _req(1, "N"), "x"]
    resps = [{"id": 0, "error": "budget", "message": "no time"}, {"id": 1, "legal": ["SA"]}, "y"]
    assert dict(collect(reqs, resps).reasons) == {
        "failed (budget)": 1, "no values: not a solve response": 1, "not a JSON object": 1}


def test_doubles_and_options_make_rows_of_their_own():
    reqs = [{**_req(0, "N"), "doubles": True}, _req(1, "N"),
            {**_req(2, "N", contract="no-queens", trump=None), "options": ["forced-queen"]}]
    resps = [{"id": i, "values": {"N": 1, "E": 2, "S": 1, "W": 2}} for i in range(3)]
    labels = {r["contract"] for r in collect(reqs, resps).rows()}
    assert labels == {"trumps S (doubles)", "trumps S", "no-queens (forced-queen)"}
