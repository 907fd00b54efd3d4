"""The Flask API: every endpoint, every error status, both wire formats, and the real server."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
import types
import urllib.error
import urllib.request
from pathlib import Path

import msgpack
import pytest

from kingsolve.game.deal import Deal
from kingsolve.errors import SolveTimeout
from kingsolve.game.rules import VARIANTS
from kingsolve_api import DEFAULTS, create_app

from api_answers import error_of, request_fields
from kingsolve.io.request import SolveRequest

DEAL = "N:Q953.85.J532.T42 2.Q7642.A8.AK763 AKJ4.KT9.K76.J98 T876.AJ3.QT94.Q5"
LEGAL = {"variant": "italian", "contract": "no-queens", "deal": DEAL, "leader": "N"}


# --- GET endpoints ---------------------------------------------------------------------

def test_healthz(client):
    resp = client.get("/healthz")
    assert resp.status_code == 200
    assert resp.get_json()["status"] == "ok"


def test_variants_lists_every_rule_set_with_its_contracts(client):
    body = client.get("/api/v1/variants").get_json()
    assert set(body) == set(VARIANTS)
    assert "no-queens" in body["italian"]["contracts"]
    assert body["russian"]["deck"] == 32
    assert body["italian"]["schedule"][0] == "no-kings-jacks"


def test_levels_name_each_strength_level_weakest_first(client):
    from kingsolve.hands.hints import DEFAULT_LEVEL, LEVELS
    body = client.get("/api/v1/levels").get_json()
    assert body["default"] == DEFAULT_LEVEL
    assert [lv["level"] for lv in body["levels"]] == list(range(len(LEVELS)))
    names = [lv["name"] for lv in body["levels"]]
    assert all(names) and len(set(names)) == len(names)
    assert body["levels"][0]["samples"] == 0          # the simple player
    baseline = body["levels"][body["baseline"]]["strength"]
    assert (baseline["gain_share"], baseline["interval"]) == (0, 0)
    gains = [lv["strength"]["gain_share"] for lv in body["levels"]]
    assert gains == sorted(gains) and gains[0] < 0     # as measured, weakest first
    assert all(lv["strength"]["ms_13_cards"] > 0 for lv in body["levels"])


def test_deal_is_seeded_and_checks_its_query(client):
    a = client.get("/api/v1/deal?seed=42").get_json()
    assert a == client.get("/api/v1/deal?seed=42").get_json()
    assert a["deal"] == Deal.random(42).pbn() and a["seed"] == "42"
    assert client.get("/api/v1/deal?seed=43").get_json()["deal"] != a["deal"]
    assert Deal(client.get("/api/v1/deal?seed=x&deck=32").get_json()["deal"]).tricks == 8
    assert Deal(client.get("/api/v1/deal?players=3").get_json()["deal"]).players == 3
    unseeded = client.get("/api/v1/deal").get_json()
    assert Deal(unseeded["deal"]) == Deal.random(int(unseeded["seed"]))
    assert "deck" in error_of(client.get("/api/v1/deal?deck=40"), 400, "invalid-request")
    assert "players" in error_of(client.get("/api/v1/deal?players=five"), 400)
    assert "'colour'" in error_of(client.get("/api/v1/deal?colour=red"), 400)
    error_of(client.get("/api/v1/deal?seed=" + "9" * 65), 400)
    error_of(client.get("/api/v1/deal?players=3&deck=32"), 400, "invalid-deal")


def test_openapi_documents_every_endpoint_with_the_served_limits(make_client, client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    assert {"/api/v1/legal", "/api/v1/solve", "/api/v1/table", "/api/v1/variants",
            "/api/v1/deal", "/healthz"} <= set(doc["paths"])
    schemas = doc["components"]["schemas"]
    assert schemas["SolveBatch"]["maxItems"] == DEFAULTS["KINGSOLVE_BATCH_MAX"]
    small = make_client(KINGSOLVE_BATCH_MAX=3)
    assert small.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["SolveBatch"]["maxItems"] == 3


def test_board_page_is_served(client):
    resp = client.get("/")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    page = resp.get_data(as_text=True)
    assert "board.js" in page and "board.css" in page
    assert client.get("/static/board.js").status_code == 200


# --- /legal and the error statuses ------------------------------------------------------

def test_legal(client):
    body = client.post("/api/v1/legal", json={**LEGAL, "play": ["SQ"]}).get_json()
    assert body["to_move"] == "E" and body["trick"] == ["SQ"]
    assert body["legal"] == ["S2"]


@pytest.mark.parametrize("change, status, code, words", [
    ({"deal": None}, 400, "invalid-request", "missing field 'deal'"),
    ({"colour": "red"}, 400, "invalid-request", "unknown field 'colour'"),
    ({"play": [1]}, 400, "invalid-request", "play[0]"),
    ({"doubles": "yes"}, 400, "invalid-request", "doubles"),
    ({"variant": "klondike"}, 400, "unknown-variant", "klondike"),
    ({"contract": "no-aces"}, 400, "unknown-contract", "no-aces"),
    ({"deal": "N:xyz"}, 400, "parse", "N:xyz"),
    ({"deal": DEAL.replace("Q953", "Q955")}, 400, "invalid-deal", ""),
    ({"play": ["HA"]}, 400, "illegal-play", "'HA'"),
    ({"leader": "Q"}, 400, "parse", "'Q'"),
    ({"deal": "N:" + "A" * 500}, 400, "invalid-request", "deal"),
])
def test_legal_names_each_bad_field(client, change, status, code, words):
    req = {k: v for k, v in {**LEGAL, **change}.items() if v is not None}
    assert words in error_of(client.post("/api/v1/legal", json=req), status, code)


@pytest.mark.parametrize("data", [b"", b"{", b'{"a": NaN}', b"[" * 5000 + b"]" * 5000, b"\xff\xfe{",
                                  b'"just a string"', b"[1, 2]"])
def test_malformed_json_bodies_are_400(client, data):
    error_of(client.post("/api/v1/legal", data=data, content_type="application/json"), 400)


@pytest.mark.parametrize("data", [b"\xc1", msgpack.packb({1: 2}), msgpack.packb({"deal": b"raw"}),
                                  msgpack.packb({"a": 1}) + b"extra", msgpack.packb(float("inf")),
                                  msgpack.packb(msgpack.ExtType(5, b"x"))])
def test_malformed_msgpack_bodies_are_400(client, data):
    error_of(client.post("/api/v1/legal", data=data, content_type="application/msgpack"), 400)


def test_other_content_types_are_415(client):
    assert "text/plain" in error_of(client.post("/api/v1/legal", data=b"{}", content_type="text/plain"),
                                    415, "unsupported-media-type")
    error_of(client.post("/api/v1/legal", data=b"{}"), 415)
    error_of(client.post("/api/v1/solve", data=b"a=1", content_type="application/x-www-form-urlencoded"), 415)


def test_bodies_over_the_limit_are_413(make_client):
    client = make_client(MAX_CONTENT_LENGTH=1000)
    big = {**LEGAL, "id": "x" * 2000}
    assert "1000 bytes" in error_of(client.post("/api/v1/legal", json=big), 413)
    assert client.post("/api/v1/legal", json=LEGAL).status_code == 200


def test_unknown_paths_and_methods_answer_json(client):
    error_of(client.get("/api/v1/nothing"), 404, "not-found")
    resp = client.get("/api/v1/legal")
    error_of(resp, 405, "method-not-allowed")
    assert "POST" in resp.headers["Allow"]
    error_of(client.delete("/api/v1/variants"), 405)


# --- wire formats --------------------------------------------------------------------------

def test_msgpack_round_trip(client):
    resp = client.post("/api/v1/legal", data=msgpack.packb({**LEGAL, "play": ["SQ"]}),
                       content_type="application/msgpack", headers={"Accept": "application/msgpack"})
    assert resp.status_code == 200 and resp.mimetype == "application/msgpack"
    body = msgpack.unpackb(resp.data)
    assert body == client.post("/api/v1/legal", json={**LEGAL, "play": ["SQ"]}).get_json()
    assert body["legal"] == ["S2"]


def test_accept_chooses_the_answer_format(client):
    as_json = client.post("/api/v1/legal", json=LEGAL, headers={"Accept": "*/*"})
    assert as_json.mimetype == "application/json"
    prefers = client.post("/api/v1/legal", json=LEGAL,
                          headers={"Accept": "application/json;q=0.5, application/msgpack"})
    assert prefers.mimetype == "application/msgpack"
    assert msgpack.unpackb(prefers.data) == as_json.get_json()
    bad = client.post("/api/v1/legal", json={}, headers={"Accept": "application/x-msgpack"})
    assert bad.status_code == 400 and msgpack.unpackb(bad.data)["error"] == "invalid-request"
    assert client.get("/healthz", headers={"Accept": "text/html"}).mimetype == "application/json"


# --- /solve and /table through a stand-in solver ----------------------------------------

@pytest.fixture
def fake_solver(monkeypatch):
    """A stand-in ``kingsolve.search.solver`` that records its calls, so the API's own logic is
    tested."""
    calls: list = []
    module = types.ModuleType("kingsolve.search.solver")

    def solve_request(req, cancel=None):
        calls.append(req)
        if req.get("id") == "slow":
            raise SolveTimeout(f"search went over its budget of {req['nodes']} nodes")
        if req.get("id") == "crash":
            raise RuntimeError("secret internals")
        return {"to_move": "N", "taken": {}, "values": {}, "cards": {}, "best": [],
                "complete": False, "nodes": 1, "ms": 0.1, "echo": req.get("id")}

    def dd_table(variant, deal, leader, contracts=None, trump=None, doubles=False, budget=None, threads=2,
                 exact=False):
        calls.append(dict(variant=variant, deal=deal, leader=leader, contracts=contracts, trump=trump,
                          doubles=doubles, budget=budget, threads=threads, exact=exact))
        return types.SimpleNamespace(to_dict=lambda: {"variant": getattr(variant, "name", variant),
                                                      "contracts": {}})

    monkeypatch.setitem(sys.modules, "kingsolve.search.solver", module)
    monkeypatch.setattr(SolveRequest, "run", lambda self, cancel=None, on_update=None:
                        solve_request(request_fields(self), cancel))
    table = types.ModuleType("kingsolve.search.table")
    table.dd_table = dd_table
    monkeypatch.setitem(sys.modules, "kingsolve.search.table", table)
    return calls


def test_solve_clamps_budgets_to_the_server_maxima(make_client, fake_solver):
    client = make_client(KINGSOLVE_MAX_NODES=1000, KINGSOLVE_MAX_MS=50)
    assert client.post("/api/v1/solve", json={**LEGAL, "nodes": 10**9, "ms": 10**6}).status_code == 200
    assert client.post("/api/v1/solve", json={**LEGAL, "nodes": 10, "ms": 5}).status_code == 200
    assert client.post("/api/v1/solve", json=LEGAL).status_code == 200
    assert [(c["nodes"], c["ms"]) for c in fake_solver] == [(1000, 50), (10, 5), (1000, 50)]
    # Without ms a /solve gets the server's default time, not the longest allowed.
    fake_solver.clear()
    assert make_client().post("/api/v1/solve", json=LEGAL).status_code == 200
    assert make_client(KINGSOLVE_SOLVE_MS=700).post(
        "/api/v1/solve", json=LEGAL).status_code == 200
    assert [c["ms"] for c in fake_solver] == [DEFAULTS["KINGSOLVE_SOLVE_MS"], 700] == [2000, 700]
    error_of(client.post("/api/v1/solve", json={**LEGAL, "nodes": 0}), 400)
    error_of(client.post("/api/v1/solve", json={**LEGAL, "ms": -1}), 400)
    error_of(client.post("/api/v1/solve", json={**LEGAL, "nodes": True}), 400)


def test_solve_over_budget_is_503_and_a_crash_is_a_bare_500(client, fake_solver):
    assert "budget" in error_of(client.post("/api/v1/solve", json={**LEGAL, "id": "slow"}), 503, "budget")
    message = error_of(client.post("/api/v1/solve", json={**LEGAL, "id": "crash"}), 500, "internal")
    assert "secret" not in message


def test_solve_batch_answers_each_request(client, fake_solver):
    batch = [{**LEGAL, "id": "a"}, {**LEGAL, "id": "slow"}, {"variant": "italian"}, 7, {**LEGAL, "id": "b"}]
    out = client.post("/api/v1/solve", json=batch).get_json()
    assert [o.get("echo") for o in out] == ["a", None, None, None, "b"]
    assert [o.get("error") for o in out] == [None, "budget", "invalid-request", "invalid-request", None]
    assert "missing field" in out[2]["message"]
    error_of(client.post("/api/v1/solve", json=[]), 400)
    too_many = [LEGAL] * (DEFAULTS["KINGSOLVE_BATCH_MAX"] + 1)
    assert "batch" in error_of(client.post("/api/v1/solve", json=too_many), 400)


def test_solve_batch_shares_one_time_budget(make_client, fake_solver):
    client = make_client(KINGSOLVE_BATCH_MS=0.000001)
    out = client.post("/api/v1/solve", json=[LEGAL, LEGAL]).get_json()
    assert all(o["error"] == "budget" for o in out)
    # Each request gets at most an equal share of the batch's time left (the stand-in
    # takes none, so the later ones get more), and never more than it asks for.
    fake_solver.clear()
    client = make_client(KINGSOLVE_BATCH_MS=3000)
    client.post("/api/v1/solve", json=[LEGAL, {**LEGAL, "ms": 100}, LEGAL, LEGAL])
    shares = [c["ms"] for c in fake_solver]
    assert 740 < shares[0] <= 750 and shares[1] == 100 and 1480 < shares[2] <= 1500
    assert 1950 < shares[3] <= 2000


@pytest.mark.parametrize("path", ["/api/v1/solve", "/api/v1/solve/stream"])
def test_solve_without_a_solver_is_503(client, monkeypatch, path):
    # As if the compiled search were missing: its modules cannot be imported.
    for name in ("kingsolve.search.solver", "kingsolve.search.analysis"):
        monkeypatch.setitem(sys.modules, name, None)
    assert "not installed" in error_of(client.post(path, json=LEGAL), 503, "unavailable")
    # /legal does not need the search
    assert client.post("/api/v1/legal", json=LEGAL).status_code == 200


def test_table_passes_its_fields_and_budget(make_client, fake_solver):
    client = make_client(KINGSOLVE_MAX_MS=100, KINGSOLVE_TT_MB=8)
    req = {"variant": "italian", "deal": DEAL, "trump": "S", "contracts": ["trumps"], "ms": 1e6}
    assert client.post("/api/v1/table", json=req).get_json() == {"variant": "italian", "contracts": {}}
    call = fake_solver[-1]
    assert (call["leader"], call["trump"], call["contracts"]) == ("N", "S", ["trumps"])
    assert call["budget"].ms == 100 and call["budget"].tt_mb == 8
    error_of(client.post("/api/v1/table", json={"variant": "italian"}), 400)
    error_of(client.post("/api/v1/table", json={**req, "play": []}), 400)


# --- the real server ------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def kingsolve_serve(workers: int, flags: list[str] = ()):
    """``kingsolve serve`` (gunicorn) on a free loopback port, once it answers: its base URL."""
    port = free_port()
    exe = Path(sys.executable).with_name("kingsolve")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "kingsolve_cli"]
    proc = subprocess.Popen(cmd + ["serve", "--host", "127.0.0.1", "--port", str(port), "--workers",
                                   str(workers), *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as resp:
                    assert json.load(resp)["status"] == "ok"
                break
            except (urllib.error.URLError, ConnectionError):
                assert proc.poll() is None, proc.stdout.read().decode()
                assert time.monotonic() < deadline, "server did not start in 30 s"
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, proc.stdout.read().decode()


@pytest.mark.slow
def test_kingsolve_serve_answers_on_loopback():
    with kingsolve_serve(workers=2) as base:
        req = urllib.request.Request(base + "/api/v1/legal", data=json.dumps(LEGAL).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            assert json.load(resp)["to_move"] == "N"
        bad = urllib.request.Request(base + "/api/v1/legal", data=b"{", headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(bad, timeout=10)
        assert err.value.code == 400 and json.load(err.value)["error"] == "parse"


def test_serve_rejects_bad_flags():
    from kingsolve_cli import main
    assert main(["serve", "--port", "70000"]) == 3
    assert main(["serve", "--workers", "0"]) == 3


# --- /solve and /table with the real search ----------------------------------------------

SMALL = "N:AK.Q.. QJ.K.. T9.A.. 87.J.."


def mid_hand_play(req: dict, cards: int) -> list[str]:
    """A play record of ``cards`` cards: each seat plays its lowest legal card."""
    from kingsolve.io.request import position_from_request
    pos = position_from_request(req)
    for _ in range(cards):
        pos.play(pos.legal_cards()[-1])
    return [str(c) for c in pos.record]


def test_solve_answers_what_the_library_answers(client):
    from kingsolve.search import engine
    from kingsolve.io.request import solve_request
    req = {**LEGAL, "play": mid_hand_play(LEGAL, 30)}
    # both searches from an empty table (a core loaded with the same cards keeps its
    # entries, and earlier tests search this deal), so that the node counts compare too
    engine.idle_cores.clear()
    body = client.post("/api/v1/solve", json=req).get_json()
    engine.idle_cores.clear()
    direct = solve_request(req)
    # the analysis works in time slices, so its node count depends on the machine's load
    assert {k: v for k, v in body.items() if k not in ("ms", "nodes")} == \
        {k: v for k, v in direct.items() if k not in ("ms", "nodes")}
    assert body["to_move"] and set(body["cards"]) == set(
        client.post("/api/v1/legal", json=req).get_json()["legal"])
    assert body["best"] and all(body["cards"][c] == max(body["cards"].values()) for c in body["best"])


def test_solve_batch_and_msgpack_with_the_real_search(client):
    reqs = [{"variant": "italian", "contract": c, "deal": SMALL, "id": c} for c in ("no-queens", "no-tricks")]
    resp = client.post("/api/v1/solve", data=msgpack.packb(reqs), content_type="application/msgpack",
                       headers={"Accept": "application/msgpack"})
    out = msgpack.unpackb(resp.data)
    assert [o["id"] for o in out] == ["no-queens", "no-tricks"]
    assert out[1]["values"] == client.post("/api/v1/solve", json=reqs[1]).get_json()["values"]


def test_a_real_search_over_its_budget_answers_estimates_inside_proved_ranges(client):
    full = {"variant": "italian", "contract": "no-queens", "deal": Deal.random(11).pbn()}
    resp = client.post("/api/v1/solve", json={**full, "nodes": 1000})
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    legal = client.post("/api/v1/legal", json=full).get_json()["legal"]
    assert body["solved"] is False and body["horizon"] is not None
    # docs/rules.md 4: four queens at -3 each, so every proved range lies in -12..0
    assert set(body["bounds"]) == set(body["estimates"]) == {"N", "E", "S", "W"}
    for seat, (lo, hi) in body["bounds"].items():
        assert -12 <= lo <= body["estimates"][seat] <= hi <= 0
    assert set(body["card_bounds"]) == set(body["card_estimates"]) == set(legal)
    for card, (lo, hi) in body["card_bounds"].items():
        assert lo <= body["card_estimates"][card] <= hi
    assert all(body["values"][s] == body["bounds"][s][0] for s in body["values"])
    assert body["best"] and set(body["best"]) <= set(legal)


def test_a_real_search_with_no_estimate_or_not_exact_is_503(client):
    full = {"variant": "italian", "contract": "no-queens", "deal": Deal.random(11).pbn()}
    # exact: true keeps the exact-or-503 answer, with the ranges proved before the stop
    resp = client.post("/api/v1/solve", json={**full, "nodes": 1000, "exact": True})
    assert "1000" in error_of(resp, 503, "budget")
    bounds = resp.get_json()["bounds"]
    assert set(bounds) == {"N", "E", "S", "W"}
    assert all(-12 <= lo <= hi <= 0 for lo, hi in bounds.values())
    # a budget too short for the first play-outs: no estimate at all
    resp = client.post("/api/v1/solve", json={**full, "ms": 0.001})
    assert "first estimate" in error_of(resp, 503, "budget")
    assert set(resp.get_json()["bounds"]) == {"N", "E", "S", "W"}


def test_table_rows_answer_within_the_budget_and_exact_names_the_row(client):
    full = {"variant": "italian", "deal": Deal.random(3).pbn(), "contracts": ["no-queens"],
            "nodes": 5000}
    message = error_of(client.post("/api/v1/table", json={**full, "exact": True}), 503, "budget")
    assert "no-queens" in message
    body = client.post("/api/v1/table", json=full).get_json()
    row = body["rows"][0]
    # docs/rules.md 4: four queens at -3 each, so every proved range lies in -12..0
    assert row["solved"] is False and set(row["bounds"]) == {"N", "E", "S", "W"}
    assert all(-12 <= lo <= hi <= 0 for lo, hi in row["bounds"].values())
    for seat, est in row["estimates"].items():
        lo, hi = row["bounds"][seat]
        assert lo <= est <= hi


def test_table_of_a_small_deal(client):
    body = client.post("/api/v1/table", json={"variant": "italian", "deal": SMALL, "leader": "W",
                                              "contracts": ["no-queens", "trumps"]}).get_json()
    labels = [row["label"] for row in body["rows"]]
    assert labels[0] == "no-queens" and len(labels) == 5     # trumps once per suit
    queens = body["rows"][0]["values"]
    assert set(queens) == {"N", "E", "S", "W"} and min(queens.values()) >= -6
    error_of(client.post("/api/v1/table", json={"variant": "italian", "deal": SMALL, "contracts": ["chess"]}),
             400, "unknown-contract")


@pytest.mark.slow
def test_solve_answers_a_full_deal_within_the_default_time(client):
    full = {"variant": "italian", "contract": "no-kings-jacks", "deal": Deal.random(5).pbn()}
    start = time.monotonic()
    body = client.post("/api/v1/solve", json=full).get_json()
    took = time.monotonic() - start
    # 2 s by default; the search checks its clock every few thousand nodes
    assert took < DEFAULTS["KINGSOLVE_SOLVE_MS"] / 1000 + 0.5
    assert body["solved"] or body["ms"] >= 1000, "stopped long before its 2 s"
    assert len(body["card_estimates"]) == len(body["card_bounds"]) > 1 and body["estimates"]


def test_a_real_batch_shares_its_deadline_and_answers_every_request(make_client):
    client = make_client(KINGSOLVE_BATCH_MS=1200)
    batch = [{"variant": "italian", "contract": c, "deal": Deal.random(seed).pbn(), "id": c}
             for seed, c in enumerate(("no-tricks", "no-hearts", "no-kings-jacks"))]
    start = time.monotonic()
    out = client.post("/api/v1/solve", json=batch).get_json()
    assert time.monotonic() - start < 1.2 + 0.5
    assert [o["id"] for o in out] == ["no-tricks", "no-hearts", "no-kings-jacks"]
    assert all(o["estimates"] and o["card_estimates"] and o["ms"] < 1200 for o in out)


# --- /solve/stream ------------------------------------------------------------------------

def sse(chunks) -> list[tuple[str, dict]]:
    """The events of a Server-Sent Events text, (name, data); comment lines dropped."""
    text = "".join(c.decode() if isinstance(c, bytes) else c for c in chunks)
    events = []
    for block in text.split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        if not lines:
            continue
        fields = dict(line.split(": ", 1) for line in lines)
        events.append((fields.get("event", "message"), json.loads(fields["data"])))
    return events


def within(inner: list, outer: list) -> bool:
    return outer[0] <= inner[0] <= inner[1] <= outer[1]


def test_stream_sends_each_improvement_then_done(app, client):
    full = {"variant": "italian", "contract": "no-kings-jacks", "deal": Deal.random(1).pbn(),
            "ms": 1500, "id": 7}
    resp = client.post("/api/v1/solve/stream", json=full)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    assert resp.headers["Cache-Control"] == "no-cache"
    events = sse([resp.data])
    names = [name for name, _ in events]
    assert names[-1] == "done" and set(names[:-1]) == {"message"} and len(names) > 2
    answers = [data for _, data in events[:-1]]
    assert events[-1][1] == {"solved": answers[-1]["solved"]}
    assert all(a["id"] == 7 and a["to_move"] == "N" and a["card_estimates"] for a in answers)
    # each answer at least as good as the one before: ranges only narrow, horizons deepen
    for before, after in zip(answers, answers[1:]):
        assert all(within(after["card_bounds"][c], r) for c, r in before["card_bounds"].items())
        assert all(within(after["bounds"][s], r) for s, r in before["bounds"].items())
        assert after["horizon"] >= before["horizon"]
    assert answers[-1]["ms"] < 1500 + 300
    streams = app.extensions["kingsolve"].streams
    assert streams.count == 0 and streams.cancelled == 0     # it ran to its deadline


def test_stream_of_a_small_deal_ends_solved_with_the_exact_values(client):
    req = {"variant": "italian", "contract": "no-queens", "deal": SMALL}
    events = sse([client.post("/api/v1/solve/stream", json=req).data])
    assert events[-1] == ("done", {"solved": True})
    last = events[-2][1]
    exact = client.post("/api/v1/solve", json={**req, "exact": True}).get_json()
    assert last["solved"] and last["values"] == exact["values"] and last["cards"] == exact["cards"]


def test_stream_errors(client):
    # Bad input is a plain 400 before any event; a budget too short for an estimate an error event.
    assert "unknown field" in error_of(client.post("/api/v1/solve/stream", json={**LEGAL, "x": 1}), 400)
    error_of(client.post("/api/v1/solve/stream", json=[LEGAL]), 400)
    events = sse([client.post("/api/v1/solve/stream", json={**LEGAL, "ms": 0.001}).data])
    assert events[-1][0] == "error" and events[-1][1]["error"] == "budget"
    assert "first estimate" in events[-1][1]["message"]


def test_stream_stops_its_analysis_when_closed(app, client):
    streams = app.extensions["kingsolve"].streams
    full = {"variant": "italian", "contract": "no-tricks", "deal": Deal.random(2).pbn(), "ms": 15000}
    start = time.monotonic()
    resp = client.post("/api/v1/solve/stream", json=full, buffered=False)
    first = next(iter(resp.response))
    assert first.startswith(b"data: ") and streams.count == 1
    resp.close()        # what the server does when the client goes away
    assert streams.count == 0 and streams.cancelled == 1 and time.monotonic() - start < 2


def open_stream(port: int, req: dict) -> socket.socket:
    """A raw connection that has asked /solve/stream for ``req`` and read its first event."""
    body = json.dumps(req).encode()
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
    conn.sendall(b"POST /api/v1/solve/stream HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n" % len(body) + body)
    got = b""
    while b"data: " not in got:
        got += conn.recv(65536)
    assert b"200 OK" in got
    return conn


LONG = {"variant": "italian", "contract": "no-tricks", "deal": Deal.random(2).pbn(), "ms": 15000}


def test_stream_stops_when_the_client_goes_away_from_a_real_server():
    from werkzeug.serving import make_server
    app = create_app({"KINGSOLVE_MAX_MS": 20_000})
    streams = app.extensions["kingsolve"].streams
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        with open_stream(httpd.server_port, LONG):
            assert streams.count == 1
        gone = time.monotonic()
        while streams.count and time.monotonic() - gone < 5:
            time.sleep(0.05)
        # noticed at a failed write (a comment every 0.5 s), then stopped within one search
        assert streams.count == 0, "the analysis went on after the client left"
        assert streams.cancelled == 1 and time.monotonic() - gone < 3
    finally:
        httpd.shutdown()
        thread.join(10)


@pytest.mark.slow
def test_stream_frees_its_gunicorn_worker_when_the_client_goes_away():
    # One sync worker: it answers the next request only once the stream's analysis has
    # stopped, which must be long before the stream's 15 s.
    with kingsolve_serve(workers=1) as base:
        port = int(base.rsplit(":", 1)[1])
        with open_stream(port, LONG):
            pass
        start = time.monotonic()
        with urllib.request.urlopen(base + "/healthz", timeout=30) as resp:
            assert json.load(resp)["status"] == "ok"
        assert time.monotonic() - start < 3


# --- a plain /solve whose client goes away --------------------------------------------------

def send_solve(port: int, body) -> socket.socket:
    """A raw connection that has sent ``body`` to /solve and reads nothing yet."""
    data = json.dumps(body).encode()
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
    conn.sendall(b"POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n" % len(data) + data)
    return conn


@contextlib.contextmanager
def werkzeug_server(app):
    """``app`` on werkzeug's threaded server on a free loopback port: the port."""
    from werkzeug.serving import make_server
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_port
    finally:
        httpd.shutdown()
        thread.join(10)


def wait_until(done, seconds: float) -> None:
    """Wait for ``done()``, no longer than ``seconds``: a bound on a hang, not a figure."""
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        time.sleep(0.02)


@pytest.mark.parametrize("body", [LONG, [LONG, LONG]], ids=["one", "batch"])
def test_a_solve_stops_and_frees_its_slot_when_the_client_goes_away(body):
    # The budget is 20 s a request: a search that ran on would still hold the one slot,
    # and the count of searches its client's leaving cancelled would stay 0.
    app = create_app({"KINGSOLVE_MAX_MS": 20_000, "KINGSOLVE_BATCH_MS": 40_000,
                      "KINGSOLVE_SEARCH_SLOTS": 1})
    searches = app.extensions["kingsolve"].searches
    with werkzeug_server(app) as port:
        with send_solve(port, body):
            wait_until(lambda: searches.count == 1, 10)
            assert searches.count == 1 and searches.cancelled == 0
        wait_until(lambda: searches.count == 0, 60)
        assert searches.cancelled == 1, "the search went on after its client left"
        # the slot is free: a search that may not wait at all gets it
        held = app.extensions["kingsolve_gate"].enter("another client", deadline=time.monotonic())
        held.release()


def test_a_solve_whose_client_waits_is_answered_whole():
    app = create_app()
    searches = app.extensions["kingsolve"].searches
    with werkzeug_server(app) as port:
        for _ in range(2):
            req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/solve",
                                         data=json.dumps({**LONG, "ms": 600}).encode(),
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=30) as resp:
                assert json.load(resp)["ms"] >= 600
    assert searches.count == 0 and searches.cancelled == 0


@pytest.mark.slow
def test_a_solve_frees_its_gunicorn_search_slot_when_the_client_goes_away():
    # One search slot, a search of 60 s (and nodes for longer) whose client leaves,
    # then a search that may wait 10 s for the slot: it gets the slot only if the
    # first search stopped early.
    small = {"variant": "italian", "contract": "no-queens", "deal": SMALL}

    def solve(req: dict) -> tuple[int, dict]:
        post = urllib.request.Request(base + "/api/v1/solve", data=json.dumps(req).encode(),
                                      headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(post, timeout=60) as resp:
                return resp.status, json.load(resp)
        except urllib.error.HTTPError as err:
            return err.code, json.load(err)

    flags = ["--search-slots", "1", "--max-ms", "60000", "--max-nodes", "2000000000"]
    with kingsolve_serve(workers=1, flags=flags) as base:
        port = int(base.rsplit(":", 1)[1])
        with send_solve(port, {**LONG, "ms": 60_000, "nodes": 2_000_000_000}):
            for _ in range(50):         # until the long search holds the slot
                status, answer = solve({**small, "ms": 100})
                if status == 503:
                    break
            assert answer["error"] == "busy"
        status, answer = solve({**small, "ms": 10_000})
        assert status == 200 and answer["solved"], answer
