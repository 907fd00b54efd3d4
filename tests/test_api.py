"""The Flask API: every endpoint, every error status, both wire formats, and the real server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import types
import urllib.error
import urllib.request
from pathlib import Path

import msgpack
import pytest

from kingsolve.deal import Deal
from kingsolve.errors import SolveTimeout
from kingsolve.rules import VARIANTS
from kingsolve_api import DEFAULTS, create_app

DEAL = "N:Q953.85.J532.T42 2.Q7642.A8.AK763 AKJ4.KT9.K76.J98 T876.AJ3.QT94.Q5"
LEGAL = {"variant": "italian", "contract": "no-queens", "deal": DEAL, "leader": "N"}


@pytest.fixture
def app():
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


def error_of(resp, status: int, code: str | None = None) -> str:
    """The message of an error answer, after checking its status, shape and code."""
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.mimetype == "application/json"
    body = resp.get_json()
    assert set(body) == ({"error", "message", "bounds"} if "bounds" in body else {"error", "message"})
    assert "Traceback" not in body["message"]
    if code is not None:
        assert body["error"] == code
    return body["message"]


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
    assert body["italian"]["schedule"][0]["contract"]


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


def test_openapi_documents_every_endpoint_with_the_served_limits(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    assert {"/api/v1/legal", "/api/v1/solve", "/api/v1/table", "/api/v1/variants",
            "/api/v1/deal", "/healthz"} <= set(doc["paths"])
    schemas = doc["components"]["schemas"]
    assert schemas["SolveBatch"]["maxItems"] == DEFAULTS["KINGSOLVE_BATCH_MAX"]
    small = create_app({"KINGSOLVE_BATCH_MAX": 3}).test_client()
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
    ({"variant": "klondike"}, 400, "invalid-request", "klondike"),
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


def test_bodies_over_the_limit_are_413():
    client = create_app({"MAX_CONTENT_LENGTH": 1000}).test_client()
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
    """A stand-in ``kingsolve.solver`` that records its calls, so the API's own logic is tested."""
    calls: list = []
    module = types.ModuleType("kingsolve.solver")

    def solve_request(req):
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
        return types.SimpleNamespace(to_dict=lambda: {"variant": variant, "contracts": {}})

    module.solve_request = solve_request
    monkeypatch.setitem(sys.modules, "kingsolve.solver", module)
    table = types.ModuleType("kingsolve.table")
    table.dd_table = dd_table
    monkeypatch.setitem(sys.modules, "kingsolve.table", table)
    return calls


def test_solve_clamps_budgets_to_the_server_maxima(fake_solver):
    client = create_app({"KINGSOLVE_MAX_NODES": 1000, "KINGSOLVE_MAX_MS": 50}).test_client()
    assert client.post("/api/v1/solve", json={**LEGAL, "nodes": 10**9, "ms": 10**6}).status_code == 200
    assert client.post("/api/v1/solve", json={**LEGAL, "nodes": 10, "ms": 5}).status_code == 200
    assert client.post("/api/v1/solve", json=LEGAL).status_code == 200
    assert [(c["nodes"], c["ms"]) for c in fake_solver] == [(1000, 50), (10, 5), (1000, 50)]
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


def test_solve_batch_shares_one_time_budget(fake_solver):
    client = create_app({"KINGSOLVE_BATCH_MS": 0.000001}).test_client()
    out = client.post("/api/v1/solve", json=[LEGAL, LEGAL]).get_json()
    assert all(o["error"] == "budget" for o in out)


def test_solve_without_a_solver_is_503(client, monkeypatch):
    monkeypatch.setitem(sys.modules, "kingsolve.solver", None)
    assert "not installed" in error_of(client.post("/api/v1/solve", json=LEGAL), 503, "unavailable")
    # /legal does not need the search
    assert client.post("/api/v1/legal", json=LEGAL).status_code == 200


def test_table_passes_its_fields_and_budget(fake_solver):
    client = create_app({"KINGSOLVE_MAX_MS": 100, "KINGSOLVE_TT_MB": 8}).test_client()
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


def test_kingsolve_serve_answers_on_loopback():
    port = free_port()
    exe = Path(sys.executable).with_name("kingsolve")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "kingsolve"]
    proc = subprocess.Popen(cmd + ["serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"],
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
        req = urllib.request.Request(base + "/api/v1/legal", data=json.dumps(LEGAL).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            assert json.load(resp)["to_move"] == "N"
        bad = urllib.request.Request(base + "/api/v1/legal", data=b"{", headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(bad, timeout=10)
        assert err.value.code == 400 and json.load(err.value)["error"] == "parse"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, proc.stdout.read().decode()


def test_serve_rejects_bad_flags():
    from kingsolve.cli import main
    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "--workers", "0"]) == 2


# --- /solve and /table with the real search ----------------------------------------------

SMALL = "N:AK.Q.. QJ.K.. T9.A.. 87.J.."


def mid_hand_play(req: dict, cards: int) -> list[str]:
    """A play record of ``cards`` cards: each seat plays its lowest legal card."""
    from kingsolve.request import position_from_request
    pos = position_from_request(req)
    for _ in range(cards):
        pos.play(pos.legal_cards()[-1])
    return [str(c) for c in pos.record]


def test_solve_answers_what_the_library_answers(client):
    from kingsolve.request import solve_request
    req = {**LEGAL, "play": mid_hand_play(LEGAL, 30)}
    body = client.post("/api/v1/solve", json=req).get_json()
    direct = solve_request(req)
    assert {k: v for k, v in body.items() if k != "ms"} == {k: v for k, v in direct.items() if k != "ms"}
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


def test_a_real_search_over_its_budget_is_503(client):
    full = {"variant": "italian", "contract": "no-queens", "deal": Deal.random(11).pbn(), "nodes": 1000}
    resp = client.post("/api/v1/solve", json=full)
    assert "1000" in error_of(resp, 503, "budget")
    # RULES.md 11: what the stopped search proved, per seat (four queens at -3: -12 to 0)
    bounds = resp.get_json()["bounds"]
    assert set(bounds) == {"N", "E", "S", "W"}
    assert all(-12 <= lo <= hi <= 0 for lo, hi in bounds.values())


def test_table_rows_answer_within_the_budget_and_exact_names_the_row(client):
    full = {"variant": "italian", "deal": Deal.random(3).pbn(), "contracts": ["no-queens"],
            "nodes": 5000}
    message = error_of(client.post("/api/v1/table", json={**full, "exact": True}), 503, "budget")
    assert "no-queens" in message
    body = client.post("/api/v1/table", json=full).get_json()
    row = body["rows"][0]
    # RULES.md 4: four queens at -3 each, so every proved range lies in -12..0
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
