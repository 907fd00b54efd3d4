"""Schemathesis against the served OpenAPI document: no 5xx, every answer as documented.

Bodies are generated from the same schemas that validate the requests, in JSON and in
msgpack; the run is bounded (few examples per operation, short search budgets).
"""

from __future__ import annotations

import msgpack
import pytest
import schemathesis
from hypothesis import HealthCheck, reject, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from kingsolve_api import create_app

# Review, choices and hint run many searches a request: BATCH_MS bounds them all; a
# solve or a stream that gives no ms runs for SOLVE_MS or STREAM_MS.
app = create_app({"KINGSOLVE_MAX_MS": 2000, "KINGSOLVE_BATCH_MS": 3000, "KINGSOLVE_BATCH_MAX": 8,
                  "KINGSOLVE_SOLVE_MS": 300, "KINGSOLVE_STREAM_MS": 300})


@schemathesis.serializer("application/msgpack")
def to_msgpack(ctx, value):
    # Negative cases put any JSON value in a field, integers past 64 bits too: msgpack
    # has no form for those, so no client can send them; skip such a case.
    try:
        return msgpack.packb(value, use_bin_type=True)
    except OverflowError:
        reject()


@schemathesis.deserializer("application/msgpack")
def from_msgpack(ctx, response):
    return msgpack.unpackb(response.content, raw=False)


schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate(checks=CHECKS)


def test_document_is_the_one_that_validates():
    # The schema the tests generate from is the one the app validates with.
    doc = app.test_client().get("/api/v1/openapi.json").get_json()
    assert doc["components"]["schemas"]["SolveBatch"]["maxItems"] == 8
    tested = {(op.ok().method.upper(), op.ok().path) for op in schema.get_all_operations()}
    documented = {(m.upper(), p) for p, ops in doc["paths"].items() for m in ops}
    assert tested == documented - {("GET", "/api/v1/openapi.json")}
