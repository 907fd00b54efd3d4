"""The check every API test makes of an error answer."""

from __future__ import annotations


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


def request_fields(req) -> dict:
    """A typed solve request as the fields a stand-in solver reads (its budget, threads
    and id), for tests of the API's own logic."""
    out = {"nodes": req.budget.nodes, "ms": req.budget.ms, "threads": req.threads,
           "exact": req.exact}
    return out if req.id is None else {"id": req.id, **out}
