"""The API under abuse: bodies over the limit in any framing, oversized input in errors,
numbers a JavaScript client cannot hold, CORS and the per-client limits."""

from __future__ import annotations

import io
import json

import pytest

from kingsolve_api import create_app

DEAL = "N:Q953.85.J532.T42 2.Q7642.A8.AK763 AKJ4.KT9.K76.J98 T876.AJ3.QT94.Q5"
LEGAL = {"variant": "italian", "contract": "no-queens", "deal": DEAL, "leader": "N"}


@pytest.fixture
def client():
    return create_app({"TESTING": True}).test_client()


def error_of(resp, status: int, code: str | None = None) -> str:
    """The message of an error answer, after checking its status, shape and code."""
    assert resp.status_code == status, resp.get_data(as_text=True)
    body = resp.get_json()
    assert set(body) - {"bounds"} == {"error", "message"} and "Traceback" not in body["message"]
    if code is not None:
        assert body["error"] == code, body
    return body["message"]


# --- bodies over the limit ----------------------------------------------------------------

def post_chunked(client, data: bytes, path: str = "/api/v1/legal"):
    """``data`` sent with no Content-Length, as a server hands on a chunked body."""
    return client.post(path, input_stream=io.BytesIO(data), content_type="application/json",
                       headers={"Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True})


def test_chunked_bodies_over_the_limit_are_413():
    client = create_app({"MAX_CONTENT_LENGTH": 1000}).test_client()
    body = json.dumps(LEGAL).encode()
    assert post_chunked(client, body).status_code == 200
    assert post_chunked(client, body + b" " * (1000 - len(body))).status_code == 200
    assert "1000 bytes" in error_of(post_chunked(client, body + b" " * 5000), 413)
    # cut mid-JSON at the limit, it is still too large, not malformed
    error_of(post_chunked(client, body[:50] + b"x" * 5000), 413)
    error_of(post_chunked(client, body + b" " * (1001 - len(body))), 413)
