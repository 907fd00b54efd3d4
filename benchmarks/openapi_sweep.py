"""A schemathesis sweep of the served OpenAPI document: every operation, every check.

    PYTHONPATH=.:api python benchmarks/openapi_sweep.py --cases 1500

Bodies (JSON and msgpack) and query parameters are generated from the document, both
schema-valid ("positive") and schema-violating ("negative") ones, and every answer goes
through all of schemathesis's checks (``--checks all``): no 5xx, the documented status
codes, content types and response schemas, a schema-violating request refused, an
``Allow`` header on each 405. One check is refined: a schema-valid request may be
refused only for sense the schema cannot say (``SENSE_ERRORS``), never for its shape
(``schema_valid_requests_pass_the_check``). The script prints the answers by status,
the sense errors met, and every failure; it exits 1 on a failure.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time

import msgpack
import schemathesis
from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import strategies as st
from hypothesis.errors import UnsatisfiedAssumption
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS
from schemathesis.core.failures import FailureGroup

from kingsolve.game.deal import DEAL_PATTERN, Deal
from kingsolve_api import create_app

#: Short budgets: a review, a choice or a hint runs many searches within BATCH_MS.
CONFIG = {"KINGSOLVE_MAX_MS": 1000, "KINGSOLVE_BATCH_MS": 1000, "KINGSOLVE_BATCH_MAX": 8,
          "KINGSOLVE_SOLVE_MS": 100, "KINGSOLVE_STREAM_MS": 100, "KINGSOLVE_RATE_LIMIT": "none"}

#: The error codes of sense no schema can say: a deal's hands of unequal size or with a
#: card twice, a card the seat on move does not hold, a contract or option the rule set
#: lacks, a rule document that contradicts itself, a record's text (a line format that
#: no pattern describes), a budget too small for an estimate.
SENSE_ERRORS = ("invalid-deal", "illegal-play", "unknown-contract", "invalid-rules", "record",
                "budget", "busy", "unknown-variant")
#: How the one check of a request's shape (kingsolve.io.schema) starts its messages:
#: one of these on a schema-valid request means the schema and the check disagree.
SHAPE_MESSAGES = ("invalid field", "missing field", "unknown field", "invalid request",
                  "invalid batch", "invalid query parameter", "unknown query parameter")


# Half the deals generated are real ones (the ``pbn-deal`` format): a text drawn from the
# pattern alone is nearly never a deal of equal hands, and would reach no search.
schemathesis.openapi.format("pbn-deal", st.one_of(
    st.builds(lambda seed, players: Deal.random(seed, players=players).pbn(),
              st.integers(0, 10**6), st.sampled_from([2, 3, 4])),
    st.from_regex(DEAL_PATTERN, fullmatch=True)))


@schemathesis.serializer("application/msgpack")
def to_msgpack(ctx, value):
    # Negative cases may hold integers past 64 bits, which msgpack cannot carry.
    try:
        return msgpack.packb(value, use_bin_type=True)
    except OverflowError:
        reject()


@schemathesis.deserializer("application/msgpack")
def from_msgpack(ctx, response):
    return msgpack.unpackb(response.content, raw=False)


def error_of(response) -> tuple[str, str]:
    """The ``error`` code and ``message`` of an error answer, in either media type."""
    kind = (response.headers.get("content-type") or [""])[0]
    body = msgpack.unpackb(response.content, raw=False) if "msgpack" in kind else \
        json.loads(response.content)
    return body.get("error", ""), body.get("message", "")


#: The body reader's one limit of its own, in the document's description: an integer of
#: more than 20 digits anywhere in a body (a ``/solve`` list's item may be any value).
WIRE_LIMIT = "invalid JSON body: number too long"


def refused_for_sense(code: str, message: str) -> bool:
    """Whether an error refuses a schema-valid request for its sense or the body
    reader's documented limit, not its shape."""
    if message.startswith(WIRE_LIMIT):
        return True
    if code == "parse" or message.startswith(SHAPE_MESSAGES):
        return False
    return code in SENSE_ERRORS or code == "invalid-request"


def schema_valid_requests_pass_the_check(ctx, response, case):
    """positive_data_acceptance, refined: a schema-valid request answered 400 must be
    refused for its sense (``refused_for_sense``)."""
    if not case.meta or not case.meta.generation.mode.is_positive or response.status_code != 400:
        return None
    code, message = error_of(response)
    if not refused_for_sense(code, message):
        raise AssertionError(f"a schema-valid request refused for its shape: {code}: {message}")
    return True


def all_checks() -> list:
    """Every registered check, positive_data_acceptance refined as above."""
    checks = [c for c in CHECKS.get_all() if getattr(c, "__name__", "") != "positive_data_acceptance"]
    return [*checks, schema_valid_requests_pass_the_check]


class Tally:
    """What a sweep met: answers by status, sense refusals by code, failures."""

    def __init__(self) -> None:
        self.cases = 0
        self.statuses: collections.Counter = collections.Counter()
        self.sense: collections.Counter = collections.Counter()
        self.failures: list[str] = []
        self.ungenerated: list[str] = []
        self.examples: dict[str, set] = {}

    def run(self, case, checks: list) -> None:
        self.cases += 1
        try:
            response = case.call_and_validate(checks=checks)
        except UnsatisfiedAssumption:               # no msgpack form: not a case
            self.cases -= 1
            raise
        except (Exception, FailureGroup) as exc:    # a failed check: note it, go on
            self.failures.append(f"{case.operation.label} [{case.meta.generation.mode.value}]: "
                                 f"{str(exc).strip()[:600]}")
            return
        self.statuses[response.status_code] += 1
        if response.status_code == 400 and case.meta.generation.mode.is_positive:
            code, message = error_of(response)
            code = "body reader: number too long" if message.startswith(WIRE_LIMIT) else code
            self.sense[code] += 1
            # the kind of refusal: its message up to the quoted input
            self.examples.setdefault(code, set()).add(message.split("'")[0][:70])


def sweep(per_operation: int, app=None, tally: Tally | None = None) -> Tally:
    """``per_operation`` cases of each mode for every operation of ``app``'s document."""
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app or create_app(CONFIG))
    tally = tally or Tally()
    checks = all_checks()
    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            @settings(max_examples=per_operation, derandomize=True, database=None, deadline=None,
                      phases=[Phase.explicit, Phase.generate],
                      suppress_health_check=list(HealthCheck))
            @given(case=operation.as_strategy(generation_mode=mode))
            def one(case):
                tally.run(case, checks)
            try:
                one()
            except Exception as exc:
                if type(exc).__name__ in ("Unsatisfiable", "UnsupportedSchema"):
                    # schemathesis has no negative form of some schemas (a ``not``)
                    tally.ungenerated.append(f"{operation.label} [{mode.value}]: "
                                             f"{type(exc).__name__}")
                else:
                    tally.failures.append(f"{operation.label} [{mode.value}]: {exc!r}"[:600])
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1500,
                        help="cases in all, shared by the operations and both modes")
    args = parser.parse_args()
    app = create_app(CONFIG)
    operations = len(list(schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
                          .get_all_operations()))
    start = time.perf_counter()
    tally = sweep(max(1, args.cases // (2 * operations)), app)
    print(f"{tally.cases} cases, {operations} operations, {time.perf_counter() - start:.0f} s")
    print("answers by status:", dict(sorted(tally.statuses.items())))
    print("schema-valid requests refused for sense, by error:", dict(tally.sense.most_common()))
    for code, kinds in sorted(tally.examples.items()):
        print(f"  {code}: {'; '.join(sorted(kinds)[:6])}")
    print("not generated:", tally.ungenerated)
    print(f"failures: {len(tally.failures)}")
    for failure in tally.failures:
        print(" -", failure.replace("\n", "\n   "))
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
