"""The API under abuse: bodies over the limit in any framing, oversized input in errors,
numbers a JavaScript client cannot hold, CORS and the per-client limits."""

from __future__ import annotations

import io
import json

import pytest


from api_answers import error_of

DEAL = "N:Q953.85.J532.T42 2.Q7642.A8.AK763 AKJ4.KT9.K76.J98 T876.AJ3.QT94.Q5"
LEGAL = {"variant": "italian", "contract": "no-queens", "deal": DEAL, "leader": "N"}


# --- bodies over the limit ----------------------------------------------------------------

def post_chunked(client, data: bytes, path: str = "/api/v1/legal"):
    """``data`` sent with no Content-Length, as a server hands on a chunked body."""
    return client.post(path, input_stream=io.BytesIO(data), content_type="application/json",
                       headers={"Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True})


def test_chunked_bodies_over_the_limit_are_413(make_client):
    client = make_client(MAX_CONTENT_LENGTH=1000)
    body = json.dumps(LEGAL).encode()
    assert post_chunked(client, body).status_code == 200
    assert post_chunked(client, body + b" " * (1000 - len(body))).status_code == 200
    assert "1000 bytes" in error_of(post_chunked(client, body + b" " * 5000), 413)
    # cut mid-JSON at the limit, it is still too large, not malformed
    error_of(post_chunked(client, body[:50] + b"x" * 5000), 413)
    error_of(post_chunked(client, body + b" " * (1001 - len(body))), 413)


# --- errors quote an excerpt of oversized input ----------------------------------------------

BIG = "x" * 200_000
RECORD = f'[Variant "italian"]\n[Contract "no-queens"]\n[Deal "{DEAL}"]\n[Leader "N"]\n'


@pytest.mark.parametrize("path, body, words", [
    ("legal", {**LEGAL, "deal": BIG}, "200000 characters; at most 400"),
    ("legal", {**LEGAL, "contract": BIG}, "200000 characters; at most 40"),
    ("legal", {**LEGAL, "id": BIG}, "200000 characters; at most 100"),
    ("legal", {**LEGAL, "play": ["SA"] * 10_000}, "10000 items; at most 52"),
    ("legal", {**LEGAL, "play": [BIG]}, "at most 3"),
    ("legal", {**LEGAL, "variant": BIG}, "expected one of"),
    ("legal", {**LEGAL, "leader": ["N"] * 10_000}, "expected text, got ['N', 'N',"),
    ("legal", {**LEGAL, "doubles": {"a": BIG}}, "expected true or false"),
    ("solve", {**LEGAL, "seats": [BIG]}, "at most 5"),
    ("hint", {"variant": "italian", "contract": "no-queens", "seat": "N", "hand": BIG}, "200000 characters; at most 60"),
    ("review", {"record": BIG}, "200000 characters; at most 4000"),
    ("review", {"record": RECORD + f'[Score "{"y" * 3000}"]\n'}, "'yyyy"),
    ("review", {"record": RECORD.replace("no-queens", "z" * 3000)}, "unknown contract 'zzzz"),
    ("review", {"record": RECORD + '[Play "N"]\n' + "ZZ " * 1000}, "trick 1 has 1000 cards"),
    ("review", {"record": "[" + "q" * 3900}, "invalid tag line '[qqqq"),
    ("choices", {"kind": "sale", "variant": "italian", "deal": DEAL, "dealer": BIG}, "at most 5"),
])
def test_errors_quote_an_excerpt_of_oversized_input(client, path, body, words):
    message = error_of(client.post(f"/api/v1/{path}", json=body), 400)
    assert words in message
    assert len(message) < 300, message


def test_a_batch_item_quotes_an_excerpt(client):
    out = client.post("/api/v1/solve", json=[{**LEGAL, "deal": BIG}]).get_json()
    assert out[0]["message"] == "invalid field 'deal': 200000 characters; at most 400"


def test_library_errors_quote_an_excerpt():
    from kingsolve.errors import KingsolveError
    from kingsolve.game.record import Record
    from kingsolve.io.request import position_from_request
    for bad in ({**LEGAL, "play": "SA" * 10_000}, {**LEGAL, "leader": BIG}, {**LEGAL, "deal": DEAL + " " + "K" * 300},
                {**LEGAL, "contract": BIG}, {**LEGAL, "variant": BIG}, {**LEGAL, "trump": BIG}):
        with pytest.raises(KingsolveError) as err:
            position_from_request(bad)
        assert len(str(err.value)) < 300, str(err.value)
    with pytest.raises(KingsolveError) as err:
        Record.parse(RECORD + f'[Hand "{"9" * 3000}"]\n[Play "N"]\n' + "SQ " * 1000)
    assert "…" in str(err.value) and len(str(err.value)) < 300


# --- bodies nested too deep ------------------------------------------------------------------

@pytest.mark.parametrize("levels", [33, 900, 5000, 40_000])
@pytest.mark.parametrize("kind, body", [
    ("JSON", lambda n: b"[" * n + b"]" * n),
    ("JSON", lambda n: b'{"a":' * n + b"1" + b"}" * n),
    ("msgpack", lambda n: b"\x91" * n + b"\xc0"),           # arrays of one
    ("msgpack", lambda n: b"\x81\xa1a" * n + b"\x01"),      # maps of one
])
def test_a_body_nested_too_deep_is_refused_naming_the_limit(client, kind, body, levels):
    # Python's decoder and msgpack's give up on deep nesting in their own words
    # (a recursion limit, a stack): the client is told the nesting limit instead.
    resp = client.post("/api/v1/legal", data=body(levels), content_type=f"application/{kind.lower()}")
    assert error_of(resp, 400, "parse") == f"invalid {kind} body: nested deeper than 32 levels"


def test_a_body_nested_32_levels_is_decoded(client):
    resp = client.post("/api/v1/legal", data=b"[" * 32 + b"]" * 32, content_type="application/json")
    assert "expected an object" in error_of(resp, 400, "invalid-request")


# --- numbers a JavaScript client cannot hold ------------------------------------------------

def test_a_5000_digit_number_is_refused_in_the_clients_terms(client):
    resp = client.post("/api/v1/legal", data=b'{"id": ' + b"9" * 5000 + b"}", content_type="application/json")
    message = error_of(resp, 400, "parse")
    assert message == "invalid JSON body: number too long: 5000 digits; at most 20"
    assert "sys." not in message


def test_a_records_100_digit_hand_tag_is_refused_not_echoed(client):
    text = RECORD + f'[Hand "{"1" * 100}"]\n'
    message = error_of(client.post("/api/v1/review", json={"record": text}), 400)
    assert "tag Hand" in message and "9007199254740991" in message and "1" * 50 not in message
    twin = {"variant": "italian", "contract": "no-queens", "deal": DEAL, "leader": "N", "hand": "1" * 100}
    assert "tag Hand" in error_of(client.post("/api/v1/review", json={"record": twin}), 400)


def test_counts_past_2_53_go_as_text():
    from kingsolve.io.request import JSON_SAFE_INT, hint_request
    # a first lead with nothing known: the other 39 cards can lie in ~8.4e16 ways
    out = hint_request({"variant": "italian", "contract": "no-queens", "seat": "N", "leader": "N",
                        "hand": DEAL[2:18], "samples": 1, "ms": 5000, "nodes": 1000})
    assert out["consistent_deals"] == str(int(out["consistent_deals"]))
    assert int(out["consistent_deals"]) > JSON_SAFE_INT


# --- smaller ones: seats, card parse errors, one name for the sale, health, hint budget ----

def test_duplicate_seats_are_refused(client):
    message = error_of(client.post("/api/v1/solve", json={**LEGAL, "seats": ["N", "N"]}), 400, "invalid-request")
    assert message == "invalid field 'seats': ['N', 'N'] repeats an item: each may appear once"


def test_an_unparseable_card_is_a_parse_error(client):
    message = error_of(client.post("/api/v1/legal", json={**LEGAL, "play": ["SQ", "XX"]}), 400, "parse")
    assert "invalid card at play[1]" in message
    error_of(client.post("/api/v1/legal", json={**LEGAL, "play": ["HA"]}), 400, "illegal-play")


def test_the_sale_has_one_name_and_its_retired_name_is_refused(client, monkeypatch):
    from kingsolve.hands import hints as hint_module
    from kingsolve.errors import InvalidRequestError
    from kingsolve.io.request import hint_request
    from kingsolve.search.result import SolveResult

    def trumps_held(position, seats=None, budget=None):
        t = position.trump
        values = {s: 0 if t is None else (position.deal.hands[s] >> (16 * t) & 0xFFFF).bit_count() for s in seats}
        return SolveResult(position.to_move, {}, values, {}, [], False)

    hint = hint_module.sale_hint("italian", "W", "AKQJT.AK3.72.843", samples=2, solver=trumps_held)
    assert hint.to_dict()["choice"] == "sale"
    asked = []
    monkeypatch.setattr(hint_module, "sale_hint", lambda *a, **k: asked.append(a) or hint)
    body = {"variant": "italian", "seat": "W", "hand": "AKQJT.AK3.72.843", "choice": "sale"}
    resp = client.post("/api/v1/hint", json=body)
    assert resp.status_code == 200 and resp.get_json()["choice"] == "sale"
    assert len(asked) == 1
    # 'sell', the sale's name before 0.2.0 (CHANGELOG.md, 0.2.0), is an unknown choice now
    assert "'choice'" in error_of(client.post("/api/v1/hint", json={**body, "choice": "sell"}), 400)
    with pytest.raises(InvalidRequestError, match="'sell' is not one of 'card', 'trump', 'sale'"):
        hint_request({**body, "choice": "sell"})
    assert len(asked) == 1


def test_api_v1_healthz_answers_like_healthz(client):
    assert client.get("/api/v1/healthz").get_json() == client.get("/healthz").get_json()
    assert "/api/v1/healthz" in client.get("/api/v1/openapi.json").get_json()["paths"]


def test_hint_reports_the_per_search_budget_it_used(make_client):
    from kingsolve.game.deal import Deal
    client = make_client(KINGSOLVE_MAX_MS=2000)
    north = Deal.random(5, deck=32).pbn()[2:].split()[0]
    body = {"variant": "russian", "contract": "no-queens", "seat": "N", "hand": north, "samples": 2,
            "seed": 1, "ms": 60000}
    resp = client.post("/api/v1/hint", json=body)
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["budget"]["ms"] == 2000


# --- the record's JSON form agrees with its schema --------------------------------------------

SMALL_DEAL = "N:AQ.K9.. KJ.Q2.. T9.A8.. 87.J4.."


def test_a_record_object_with_the_required_fields_alone_is_reviewed(client):
    resp = client.post("/api/v1/review", json={"record": {"variant": "italian", "contract": "no-queens",
                                                          "deal": SMALL_DEAL}})
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["record"]["leader"] == "N"
    led_by_dealer = {"variant": "italian", "contract": "no-queens", "deal": SMALL_DEAL, "dealer": "W"}
    assert client.post("/api/v1/review", json={"record": led_by_dealer}).get_json()["record"]["leader"] == "N"


def test_a_record_object_names_its_missing_fields(client):
    message = error_of(client.post("/api/v1/review", json={"record": {}}), 400, "invalid-request")
    assert message == "missing fields 'variant', 'contract', 'deal' in 'record'"
    message = error_of(client.post("/api/v1/review", json={"record": {"variant": "italian", "deal": SMALL_DEAL}}), 400)
    assert message == "missing field 'contract' in 'record'"


# --- CORS ---------------------------------------------------------------------------------------

CLUB = "https://club.example"


def test_no_cors_headers_by_default(client):
    resp = client.post("/api/v1/legal", json=LEGAL, headers={"Origin": CLUB})
    assert resp.status_code == 200 and "Access-Control-Allow-Origin" not in resp.headers


def test_allowed_origins_get_cors_headers_and_preflight_answers(make_client):
    client = make_client(KINGSOLVE_CORS_ORIGINS=[CLUB])
    resp = client.post("/api/v1/legal", json=LEGAL, headers={"Origin": CLUB})
    assert resp.headers["Access-Control-Allow-Origin"] == CLUB
    assert "Retry-After" in resp.headers["Access-Control-Expose-Headers"]
    pre = client.options("/api/v1/solve", headers={
        "Origin": CLUB, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type"})
    assert pre.status_code == 200
    assert pre.headers["Access-Control-Allow-Origin"] == CLUB
    assert "POST" in pre.headers["Access-Control-Allow-Methods"]
    assert "content-type" in pre.headers["Access-Control-Allow-Headers"].lower()
    assert client.get("/healthz", headers={"Origin": CLUB}).headers["Access-Control-Allow-Origin"] == CLUB
    other = client.post("/api/v1/legal", json=LEGAL, headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_serve_takes_cors_origins(monkeypatch):
    from kingsolve_api import serve as server
    from kingsolve_cli import main
    seen = {}
    monkeypatch.setattr(server, "serve", lambda host, port, workers, config, threads: seen.update(config))
    assert main(["serve", "--cors-origin", CLUB, "--cors-origin", "http://localhost:3000"]) == 0
    assert seen["KINGSOLVE_CORS_ORIGINS"] == [CLUB, "http://localhost:3000"]
    assert main(["serve", "--cors-origin", "club.example/path"]) == 3


# --- per-client limits and the search slots -----------------------------------------------------

def test_a_client_over_the_request_rate_gets_429_with_retry_after(make_client):
    client = make_client(KINGSOLVE_RATE_LIMIT="3 per minute")
    for _ in range(3):
        assert client.post("/api/v1/legal", json=LEGAL).status_code == 200
    resp = client.post("/api/v1/legal", json=LEGAL)
    assert "at most 3 per 1 minute" in error_of(resp, 429, "too-many-requests")
    assert 0 < int(resp.headers["Retry-After"]) <= 61
    assert client.get("/healthz").status_code == 200          # probes are never limited
    other = client.post("/api/v1/legal", json=LEGAL, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert other.status_code == 200


@pytest.fixture
def held_solver(monkeypatch):
    """A stand-in search that runs until ``release`` is set, recording each request's ms."""
    import threading
    import types
    module = types.ModuleType("kingsolve.search.solver")
    module.release, module.started, module.calls = threading.Event(), threading.Semaphore(0), []

    def solve_request(req, cancel=None):
        module.calls.append(req)
        module.started.release()
        module.release.wait(10)
        return {"to_move": "N", "taken": {}, "values": {}, "cards": {}, "best": [], "complete": False,
                "nodes": 1, "ms": req["ms"]}

    from kingsolve.io.request import SolveRequest
    from api_answers import request_fields
    monkeypatch.setattr(SolveRequest, "run", lambda self, cancel=None, on_update=None:
                        solve_request(request_fields(self), cancel))
    yield module
    module.release.set()


def in_background(client, body, addr="10.0.0.1"):
    import concurrent.futures
    pool = concurrent.futures.ThreadPoolExecutor(1)
    future = pool.submit(client.post, "/api/v1/solve", json=body, environ_base={"REMOTE_ADDR": addr})
    pool.shutdown(wait=False)
    return future


def test_a_client_over_its_concurrent_searches_gets_429(make_client, held_solver):
    client = make_client(KINGSOLVE_CLIENT_SEARCHES=1, KINGSOLVE_SEARCH_SLOTS=4)
    first = in_background(client, LEGAL)
    assert held_solver.started.acquire(timeout=10)
    resp = client.post("/api/v1/solve", json=LEGAL, environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert "at most 1" in error_of(resp, 429, "too-many-requests")
    assert resp.headers["Retry-After"] == "1"
    # another client searches meanwhile, and the light endpoints answer
    other = in_background(client, LEGAL, addr="10.0.0.2")
    assert held_solver.started.acquire(timeout=10)
    assert client.post("/api/v1/legal", json=LEGAL, environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 200
    held_solver.release.set()
    assert first.result(10).status_code == 200 and other.result(10).status_code == 200
    # its turn is free again once its search has ended
    assert client.post("/api/v1/solve", json=LEGAL, environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 200


def test_a_queued_search_keeps_its_budget_from_arrival(make_client, held_solver):
    import time
    client = make_client(KINGSOLVE_SEARCH_SLOTS=1)
    first = in_background(client, LEGAL)
    assert held_solver.started.acquire(timeout=10)
    start = time.monotonic()
    resp = client.post("/api/v1/solve", json={**LEGAL, "ms": 300}, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert "server busy" in error_of(resp, 503, "busy")
    assert 0.25 < time.monotonic() - start < 2 and resp.headers["Retry-After"] == "1"
    # one that waits less than its budget gets the rest of it for its search
    queued = in_background(client, {**LEGAL, "ms": 5000}, addr="10.0.0.3")
    time.sleep(0.5)
    held_solver.release.set()
    assert first.result(10).status_code == 200
    answer = queued.result(10)
    assert answer.status_code == 200
    assert 3000 < answer.get_json()["ms"] < 4600, answer.get_json()


def test_serve_takes_the_limits(monkeypatch):
    from kingsolve_api import serve as server
    from kingsolve_cli import main
    seen = {}
    monkeypatch.setattr(server, "serve", lambda host, port, workers, config, threads: seen.update(config,
                                                                                                threads=threads))
    assert main(["serve", "--rate-limit", "none", "--client-searches", "2", "--search-slots", "3",
                 "--read-timeout", "5", "--threads", "8"]) == 0
    assert (seen["KINGSOLVE_RATE_LIMIT"], seen["KINGSOLVE_CLIENT_SEARCHES"], seen["KINGSOLVE_SEARCH_SLOTS"],
            seen["KINGSOLVE_READ_TIMEOUT"], seen["threads"]) == (None, 2, 3, 5, 8)
    assert main(["serve", "--rate-limit", "60 per minute"]) == 0 and seen["KINGSOLVE_RATE_LIMIT"] == "60 per minute"
    for bad in (["--rate-limit", "often"], ["--client-searches", "0"], ["--threads", "0"], ["--read-timeout", "-1"]):
        assert main(["serve", *bad]) == 3
