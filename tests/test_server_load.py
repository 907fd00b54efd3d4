"""The real server under the abuse mix: long searches, slow clients, a queued search and
health probes at once. A functional check with generous bounds, not a benchmark."""

from __future__ import annotations

import http.client
import importlib.util
import json
import socket
import sys
import time
from pathlib import Path

import pytest

LOAD = Path(__file__).parent.parent / "benchmarks" / "load.py"


@pytest.fixture(scope="module")
def load():
    spec = importlib.util.spec_from_file_location("load_benchmark", LOAD)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module         # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def server(load):
    proc, base = load.start_server(2, load.UNLIMITED + ["--read-timeout", "2"])
    yield base
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except Exception:
        proc.kill()
        proc.wait()


@pytest.mark.slow
def test_health_answers_while_searches_and_slow_clients_hold_the_server(load, server):
    result = load.run_mix(server, duration=8, queued_ms=1500, timeout=30)
    health = result.tallies["health probe"]
    assert result.server_errors == 0, {r: t.statuses for r, t in result.tallies.items()}
    assert result.health_failures == 0 and len(health.latencies) >= 10
    assert max(health.latencies) < 5, max(health.latencies)
    assert result.tallies["long solve"].statuses.get(200, 0) >= 1
    # the queued search answers by its budget (1.5 s), a 200 or a 503, never much later
    queued = result.tallies["queued search"]
    assert queued.latencies and max(queued.latencies) < 1.5 + 2, queued.latencies
    assert set(queued.statuses) <= {200, 503}
    # a client that stops sending its body is answered 408 after the read timeout
    assert set(result.tallies["slow client"].statuses) <= {408, 0}
    assert result.tallies["slow client"].statuses.get(408, 0) >= 1


def test_a_chunked_body_over_the_limit_is_413_on_the_real_server(server):
    host, port = server.removeprefix("http://").split(":")
    body = json.dumps({"variant": "italian", "contract": "no-queens", "deal": "-"}).encode()

    def chunks():
        yield body
        for _ in range(20):
            yield b" " * 65536              # 1.3 MB in all, no Content-Length

    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request("POST", "/api/v1/legal", body=chunks(), encode_chunked=True,
                     headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        assert resp.status == 413 and json.load(resp)["error"] == "request-entity-too-large"
    except (ConnectionResetError, BrokenPipeError):
        pass        # the server may close before the client has sent it all
    finally:
        conn.close()


@pytest.mark.slow
def test_a_stalled_body_gets_408_and_health_stays_up(server):
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(b"POST /api/v1/legal HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{")
        start = time.monotonic()
        conn = http.client.HTTPConnection(host, int(port), timeout=5)
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200
        conn.close()
        reply = sock.recv(200)
        assert reply.startswith(b"HTTP/1.1 408"), reply
        assert time.monotonic() - start < 8
