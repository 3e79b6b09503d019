"""The worker's outcome enums (common/outcomes.py) against the report schema's word lists."""
import json
import os

import pytest

pytestmark = pytest.mark.torch_free

from precompile_studio.common.outcomes import (  # noqa: E402
    CheckOutcome,
    Judgement,
    RuntimeStatus,
    Status,
    TrialStatus,
    VerifyStatus,
)

SCHEMA = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "report.schema.json")


@pytest.fixture(scope="module")
def schema():
    with open(SCHEMA, encoding="utf-8") as f:
        return json.load(f)


def words(enum):
    return [m.value for m in enum]


def test_each_enum_spells_exactly_the_schemas_words(schema):
    defs = schema["$defs"]
    assert words(Status) == defs["capture"]["properties"]["status"]["enum"]
    # the run's status: the worker's four, then those only the front end writes
    assert schema["properties"]["status"]["enum"][:4] == words(Status)
    assert words(VerifyStatus) == defs["verify"]["properties"]["status"]["enum"]
    assert words(CheckOutcome) == defs["check"]["properties"]["outcome"]["enum"]
    assert words(RuntimeStatus) == defs["runtime"]["properties"]["status"]["enum"]
    assert words(Judgement) + [None] == defs["accuracy"]["properties"]["verdict"]["enum"]
    assert [j.value_word for j in Judgement] + [None] == defs["judged_tensor"]["properties"]["verdict"]["enum"]
    assert words(TrialStatus) == defs["resized"]["properties"]["trials"]["items"]["properties"]["status"]["enum"]
    perturbed = defs["perturbed"]["properties"]["trials"]["items"]["properties"]["status"]["enum"]
    assert perturbed == [w for w in words(TrialStatus) if w != "accepted"]


def test_the_report_carries_the_word_and_an_unknown_word_is_never_ok():
    assert json.dumps({"status": Status.VIOLATION, "verdict": Judgement.DRIFT}) == (
        '{"status": "violation", "verdict": "numerics drift"}')
    assert f"{Status.MISMATCH}" == "mismatch" and str(TrialStatus.ACCEPTED) == "accepted"
    assert Status.of("ok") is Status.OK
    assert Status.of("okay") is Status.ERROR and Status.of(None) is Status.ERROR
    assert max([Status.OK, Status.ERROR, Status.MISMATCH], key=lambda s: s.severity) is Status.ERROR
    assert Status.VIOLATION.severity > Status.MISMATCH.severity > Status.OK.severity
