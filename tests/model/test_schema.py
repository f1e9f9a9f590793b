"""The shipped schema and the key tables of docs/report-json.md are what the model generates;
every fixture validates against the schema; the enums cover every value the fixtures hold."""

from __future__ import annotations

import json

import jsonschema
import pytest

from reportgen.model import enums
from reportgen.model.doc import doc_text
from reportgen.model.schema import DOC_PATH, SCHEMA_PATH, schema, schema_text
from tests.model.conftest import FIXTURES

#: where each closed vocabulary is held in report.json
ENUM_PATHS = {
    enums.RungStatus: lambda r: [x["status"] for x in r["ladder"]],
    enums.Verdict: lambda r: [r["decision"]["verdict"]],
    enums.Kind: lambda r: [r["project"]["kind"]],
    enums.Task: lambda r: [r["project"]["task"]] if r["project"]["task"] else [],
    enums.TaskSource: lambda r: (
        [r["project"]["task_source"]] if r["project"]["task_source"] else []
    ),
    enums.Repeats: lambda r: [r["project"]["repeats"]],
    enums.Finding: lambda r: [r["relevance"]["finding"]] if r["relevance"] else [],
    enums.IntervalSource: lambda r: (
        [r["noise"]["interval"]["source"]] if r["noise"]["interval"] else []
    ),
    enums.GeneralStatus: lambda r: [r["general"]["status"]] if r["general"] else [],
    enums.Severity: lambda r: [w["severity"] for w in r["warnings"]],
    enums.DiagnosisKind: lambda r: [
        c["diagnosis"]["kind"] for c in r["comparisons"] if "diagnosis" in c
    ],
}


def test_the_shipped_schema_is_the_generated_one():
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "run python -m reportgen.model.schema"
    )


def test_the_doc_tables_are_the_generated_ones():
    text = DOC_PATH.read_text(encoding="utf-8")
    assert "<!-- generated: " in text
    assert doc_text(text) == text, "run python -m reportgen.model.schema"


def test_the_generated_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_a_fixture_validates_against_the_generated_schema(path):
    validator = jsonschema.Draft202012Validator(schema())
    errors = [
        e.message for e in validator.iter_errors(json.loads(path.read_text(encoding="utf-8")))
    ]
    assert not errors, errors[:5]


def test_the_schema_refuses_an_unknown_key():
    report = json.loads(FIXTURES[0].read_text(encoding="utf-8"))
    report["noise"]["extra"] = 1
    assert not jsonschema.Draft202012Validator(schema()).is_valid(report)


@pytest.mark.parametrize("vocabulary", list(ENUM_PATHS), ids=lambda e: e.__name__)
def test_the_enums_cover_every_value_in_the_fixtures(vocabulary):
    seen = set()
    for p in FIXTURES:
        seen |= set(ENUM_PATHS[vocabulary](json.loads(p.read_text(encoding="utf-8"))))
    assert seen <= {m.value for m in vocabulary}
