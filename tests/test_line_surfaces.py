"""The optimal line on every surface (docs/rules.md 11, "The optimal line"): ``"line"``
in a solve request (the API's /solve, its lists and its stream, batches, the command
line) and ``"lines"`` in a review, each the library's line."""

from __future__ import annotations

import json

import pytest

from kingsolve import Deal, Position, Seat, solve
from kingsolve.errors import InvalidRequestError
from kingsolve.game.record import Record
from kingsolve.io.batch import answers
from kingsolve.io.request import solve_request
from kingsolve_cli import main

from api_answers import error_of

DEAL = Deal.random(5).pbn()


def _request(**more) -> dict:
    pos = Position("italian", "no-hearts", Deal(DEAL), leader="N")
    while len(pos.record) < 24:                  # 7 tricks left: exact at once
        pos.play(pos.legal_cards()[0])
    return {"variant": "italian", "contract": "no-hearts", "deal": DEAL, "leader": "N",
            "play": [str(c) for c in pos.record], "ms": 20_000, **more}


def _library_line(req: dict, seat: Seat, all_equal: bool = False) -> dict:
    pos = Position("italian", "no-hearts", Deal(DEAL), leader="N", play=req["play"])
    return solve(pos, seats=[seat], line=seat, all_equal=all_equal).line.to_dict()


def test_all_equal_names_every_equal_card_on_every_surface(client, capsys):
    req = _request(seats=["E"], line="E", all_equal=True)
    whole = _library_line(req, Seat.E, all_equal=True)
    assert whole["all_equal"] and whole["cards"] == _library_line(req, Seat.E)["cards"]
    assert solve_request(req)["line"] == whole
    assert client.post("/api/v1/solve", json=req).get_json()["line"] == whole
    [out] = list(answers([req]))
    assert out["line"] == whole
    argv = ["solve", "--variant", "italian", "--contract", "no-hearts", "--deal", DEAL,
            "--play", " ".join(req["play"]), "--seats", "E", "--line", "E", "--all-equal"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["line"] == whole
    with pytest.raises(InvalidRequestError, match="all_equal"):
        solve_request({**req, "all_equal": "yes"})


def test_a_solve_request_carries_the_library_s_line():
    req = _request(seats=["E"], line="E")
    out = solve_request(req)
    assert out["solved"] and out["line"] == _library_line(req, Seat.E)
    assert out["line"]["value"] == out["values"]["E"] and out["line"]["exact"]
    assert "line" not in solve_request(_request(seats=["E"]))


def test_line_true_is_the_seat_on_move_and_a_seat_not_asked_is_refused():
    req = _request(line=True)
    mover = solve_request(req)["to_move"]
    assert solve_request(req)["line"]["seat"] == mover
    with pytest.raises(InvalidRequestError, match="the line's seat must be one of the seats"):
        solve_request(_request(seats=["N"], line="E"))
    with pytest.raises(InvalidRequestError, match="invalid field 'line'"):
        solve_request(_request(line=3))


def test_the_api_gives_the_line_in_solve_lists_and_the_stream_s_last_answer(client):
    req = _request(seats=["E"], line="E")
    body = client.post("/api/v1/solve", json=req).get_json()
    assert body["line"] == _library_line(req, Seat.E)
    [item] = client.post("/api/v1/solve", json=[{**req, "id": 1}]).get_json()
    assert item["id"] == 1 and item["line"] == body["line"]
    stream = client.post("/api/v1/solve/stream", json=req).get_data(as_text=True)
    analyses = [json.loads(line[6:]) for line in stream.splitlines()
                if line.startswith("data: {") and "to_move" in line]      # not the done event
    assert analyses[-1]["line"] == body["line"]
    assert "wrong" in error_of(client.post("/api/v1/solve", json={**req, "line": "wrong"}), 400)


def test_a_batch_gives_the_line():
    req = _request(seats=["E"], line="E")
    [out] = list(answers([{**req, "id": "a"}]))
    assert out["id"] == "a" and out["line"] == _library_line(req, Seat.E)


def test_the_command_line_prints_the_line(capsys):
    req = _request()
    argv = ["solve", "--variant", "italian", "--contract", "no-hearts", "--deal", DEAL,
            "--play", " ".join(req["play"]), "--seats", "E", "--line", "E"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["line"] == _library_line(req, Seat.E)
    assert main(argv + ["--text"]) == 0
    assert "line:   " in capsys.readouterr().out


def _mistaken_record() -> Record:
    """A short no-tricks hand whose first seat throws away tricks."""
    pos = Position("italian", "no-tricks", Deal.random(9), leader="N")
    while len(pos.record) < 36:
        pos.play(max(pos.legal_cards()))         # the highest card: a hand of mistakes
    return Record.from_dict({"variant": "italian", "contract": "no-tricks",
                             "deal": pos.deal.pbn(), "leader": "N",
                             "play": [str(c) for c in pos.record]})


def test_a_review_request_gives_lines_at_proved_mistakes(client):
    record = _mistaken_record()
    body = client.post("/api/v1/review", json={"record": record.text(), "from_trick": 6,
                                               "lines": True, "ms": 20_000}).get_json()
    proved = [c for c in body["cards"] if c.get("mistake") == "proved"]
    assert proved and all(c["line"]["exact"] and c["line"]["cards"] for c in proved)
    plain = client.post("/api/v1/review", json={"record": record.text(), "from_trick": 6,
                                                "ms": 20_000}).get_json()
    assert not any("line" in c for c in plain["cards"])


def test_kingsolve_review_lines(tmp_path, capsys):
    path = tmp_path / "hand.kpbn"
    path.write_text(_mistaken_record().text())
    assert main(["review", str(path), "--from-trick", "6", "--lines", "--ms", "20000"]) == 0
    assert "best line: " in capsys.readouterr().out
