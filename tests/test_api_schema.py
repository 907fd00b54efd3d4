"""Schemathesis against the served OpenAPI document: no 5xx, every answer as documented.

Bodies are generated from the same schemas that validate the requests, in JSON and in
msgpack, schema-valid and schema-violating, and every answer goes through all of
schemathesis's checks (benchmarks/openapi_sweep.py, which runs the large sweep): a
schema-valid request is refused only for sense the schema cannot say.
"""

from __future__ import annotations

import pytest
import schemathesis

from benchmarks.openapi_sweep import CONFIG, SHAPE_MESSAGES, refused_for_sense, sweep
from kingsolve_api import create_app

app = create_app({**CONFIG, "KINGSOLVE_BATCH_MAX": 8})
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)


@pytest.mark.slow
def test_api_conforms_to_its_openapi_document():
    # about 100 cases: 4 of each mode for each of the 13 operations
    tally = sweep(4, app)
    assert tally.cases >= 80
    assert tally.failures == []


def test_a_shape_error_on_a_schema_valid_request_is_a_failure():
    assert not refused_for_sense("parse", "invalid card 'XX'")
    assert not any(refused_for_sense("invalid-request", m + " 'x'") for m in SHAPE_MESSAGES)
    assert refused_for_sense("invalid-deal", "invalid deal: card SA is dealt to more than one seat")


def test_document_is_the_one_that_validates():
    # The schema the tests generate from is the one the app validates with.
    doc = app.test_client().get("/api/v1/openapi.json").get_json()
    assert doc["components"]["schemas"]["SolveBatch"]["maxItems"] == 8
    tested = {(op.ok().method.upper(), op.ok().path) for op in schema.get_all_operations()}
    documented = {(m.upper(), p) for p, ops in doc["paths"].items() for m in ops}
    assert tested == documented - {("GET", "/api/v1/openapi.json")}
