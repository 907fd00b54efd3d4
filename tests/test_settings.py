"""The server's settings are checked when the app is made: a value it cannot run with is
refused at once, in one line naming the setting (or the flag of ``kingsolve serve``), and
no value that is let through makes the app answer with a 500."""

from __future__ import annotations

import logging
import math

import pytest

from kingsolve_api import DEFAULTS, InvalidSettingError, create_app
from kingsolve_api.settings import SETTINGS, check_settings
from kingsolve_cli import main

DEAL = "N:A643.KJT8.92.AK3 2.653.QJT7.T9842 KQ97.Q9.AK54.J75 JT85.A742.863.Q6"
LEGAL = {"variant": "italian", "contract": "no-hearts", "deal": DEAL, "play": ["SA"]}
SOLVE = {**LEGAL, "seats": ["E"], "ms": 50}

#: Values of every kind a config might hold by mistake.
CANDIDATES = [0, -1, 1, 2.5, 10**12, math.nan, math.inf, True, None, "", "10", "none",
              "2 per second", "https://club.example", [], ["*"], {}, "/tmp"]

#: For each setting, values it must refuse (with the reason in a word).
BAD = {
    "MAX_CONTENT_LENGTH": [0, 1, 511, 1.5, "1000", None, True],
    "KINGSOLVE_BATCH_MAX": [0, 10**6, 2.0],
    "KINGSOLVE_MAX_NODES": [0, 10**12, "many"],
    "KINGSOLVE_MAX_MS": [0, -1, math.nan, math.inf, 10**9, "20000", None],
    "KINGSOLVE_SOLVE_MS": [0, math.nan, "2s"],
    "KINGSOLVE_STREAM_MS": [-1, None],
    "KINGSOLVE_BATCH_MS": [0, math.inf],
    "KINGSOLVE_TT_MB": [0, 10**6, 64.0],
    "KINGSOLVE_TABLE_THREADS": [0, 65, True],
    "KINGSOLVE_READ_TIMEOUT": [0, "10", 10**5],
    "KINGSOLVE_SEARCH_SLOTS": [0, -1, 2000, "4"],
    "KINGSOLVE_CLIENT_SEARCHES": [0, None, 1.0],
    "KINGSOLVE_RATE_LIMIT": ["often", "0 per minute", "", 100, "1200 per fortnight"],
    "KINGSOLVE_CORS_ORIGINS": ["club.example", ["https://club.example/path"], [3], 7,
                               ["ftp://club.example"]],
    "KINGSOLVE_LOCK_DIR": ["/no/such/folder", 3, ""],
}


def test_every_setting_has_its_check_and_every_default_passes_it():
    assert set(SETTINGS) == set(DEFAULTS) == set(BAD)
    assert check_settings(DEFAULTS) == {**DEFAULTS, "KINGSOLVE_CORS_ORIGINS": []}


@pytest.mark.parametrize("name,value", [(n, v) for n, values in BAD.items() for v in values])
def test_a_bad_setting_is_refused_at_once_in_one_line_naming_it(name, value):
    with pytest.raises(InvalidSettingError) as refused:
        create_app({name: value})
    message = str(refused.value)
    assert message.startswith(f"invalid {name} ") and "expected" in message
    assert "\n" not in message and len(message) < 200


def test_a_misspelt_setting_is_refused():
    with pytest.raises(InvalidSettingError, match="unknown setting 'KINGSOLVE_RATELIMIT'"):
        create_app({"KINGSOLVE_RATELIMIT": "none"})
    # Flask's own settings pass through unchecked
    assert create_app({"TESTING": True}).config["TESTING"] is True


@pytest.mark.parametrize("rate", ["none", "None", " OFF ", None])
def test_no_rate_limit_means_none_as_the_readme_says(rate):
    app = create_app({"KINGSOLVE_RATE_LIMIT": rate})
    assert app.config["KINGSOLVE_RATE_LIMIT"] is None
    assert "kingsolve_limiter" not in app.extensions
    client = app.test_client()
    assert {client.post("/api/v1/legal", json=LEGAL).status_code for _ in range(5)} == {200}


def test_a_rate_limit_still_limits():
    client = create_app({"KINGSOLVE_RATE_LIMIT": "2 per minute"}).test_client()
    assert [client.post("/api/v1/legal", json=LEGAL).status_code for _ in range(3)] == \
        [200, 200, 429]


def test_origins_come_in_one_form():
    app = create_app({"KINGSOLVE_CORS_ORIGINS": "HTTPS://Club.Example"})
    assert app.config["KINGSOLVE_CORS_ORIGINS"] == ["https://club.example"]
    answer = app.test_client().get("/healthz", headers={"Origin": "https://club.example"})
    assert answer.headers["Access-Control-Allow-Origin"] == "https://club.example"


def test_no_setting_that_is_let_through_makes_every_request_a_500(caplog, tmp_path):
    # Each candidate value of each setting: refused when the app is made, or the app
    # answers its health check, a /legal and a short /solve without a 500.
    caplog.set_level(logging.CRITICAL)
    tried = accepted = 0
    for name in SETTINGS:
        for value in CANDIDATES + ([str(tmp_path)] if name == "KINGSOLVE_LOCK_DIR" else []):
            tried += 1
            try:
                client = create_app({name: value}).test_client()
            except InvalidSettingError:
                continue
            accepted += 1
            answers = [client.get("/healthz"), client.post("/api/v1/legal", json=LEGAL),
                       client.post("/api/v1/solve", json=SOLVE)]
            assert [a.status_code for a in answers[:2]] == [200, 200], (name, value)
            assert answers[2].status_code in (200, 503), (name, value, answers[2].get_json())
    assert 20 < accepted < tried     # the sweep saw both sides


def test_serve_refuses_a_bad_setting_before_it_starts():
    from kingsolve_api.serve import serve

    with pytest.raises(InvalidSettingError, match="KINGSOLVE_BATCH_MS"):
        serve(port=1, config={"KINGSOLVE_BATCH_MS": -1})


@pytest.mark.parametrize("flags,named", [
    (["--max-ms", "0"], "--max-ms"), (["--max-ms", "nan"], "--max-ms"),
    (["--max-nodes", "0"], "--max-nodes"), (["--read-timeout", "0"], "--read-timeout"),
    (["--search-slots", "0"], "--search-slots"), (["--client-searches", "5000"], "--client-searches"),
    (["--cors-origin", "club.example"], "--cors-origin"), (["--rate-limit", "often"], "--rate-limit"),
    (["--threads", "0"], "--threads"), (["--host", "a b"], "--host"), (["--port", "0"], "port"),
    (["--workers", "0"], "workers"),
])
def test_a_bad_serve_flag_is_one_line_naming_it(flags, named, monkeypatch, capsys):
    from kingsolve_api import serve as server

    monkeypatch.setattr(server, "serve", lambda *a, **k: pytest.fail("the server started"))
    assert main(["serve", *flags]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and named in err, err


def test_serve_flags_reach_the_app_in_its_forms(monkeypatch):
    from kingsolve_api import serve as server

    seen = {}
    monkeypatch.setattr(server, "serve", lambda host, port, workers, config, threads:
                        seen.update(config))
    assert main(["serve", "--rate-limit", "none", "--cors-origin", "HTTPS://Club.Example",
                 "--max-ms", "5000", "--max-nodes", "1000"]) == 0
    assert seen == {"KINGSOLVE_RATE_LIMIT": None, "KINGSOLVE_CORS_ORIGINS": ["https://club.example"],
                    "KINGSOLVE_MAX_MS": 5000.0, "KINGSOLVE_MAX_NODES": 1000}
    create_app(seen)    # what the flags give, the app takes
