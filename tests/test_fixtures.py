"""The report fixtures are real: schema-valid, and what ``make fixtures`` makes today."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.compare import differences
from tests.render import make_fixtures

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "reportgen" / "report.schema.json").read_text(encoding="utf-8"))
#: every JSON file in a fixtures folder of the tests that is a report.json (schema evreport/1)
REPORT_FIXTURES = sorted(
    p
    for p in (ROOT / "tests").rglob("fixtures/*.json")
    if json.loads(p.read_text(encoding="utf-8")).get("schema")
    == SCHEMA["properties"]["schema"]["const"]
)
RERUN = "the fixtures are stale: run `make fixtures`, then `make golden`, and review both diffs"


def make_fixtures_names() -> list[str]:
    """The file names ``make fixtures`` writes in tests/fixtures/."""
    names = (*make_fixtures.EXAMPLES, make_fixtures.MINIMAL, *make_fixtures.GENERATED)
    return [f"report-{n}.json" for n in names]


def test_the_fixture_folders_hold_reports():
    names = {p.relative_to(ROOT).as_posix() for p in REPORT_FIXTURES}
    assert {f"tests/fixtures/{n}" for n in make_fixtures_names()} <= names
    assert "tests/perf/fixtures/scale-int-parquet.json" in names


@pytest.mark.parametrize("path", REPORT_FIXTURES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_fixture_validates_against_the_shipped_schema(path):
    report = json.loads(path.read_text(encoding="utf-8"))
    if path.parent.parent.name == "perf":  # tests/perf stores reports without these two keys
        report["build"] = {"date": "", "libraries": {}, **report["build"]}
    errors = sorted(jsonschema.Draft202012Validator(SCHEMA).iter_errors(report), key=str)
    assert errors == [], "\n".join(f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors)


@pytest.fixture(scope="module")
def made() -> dict[str, dict]:
    """What ``make fixtures`` writes, made again here."""
    return make_fixtures.fixture_reports()


def test_make_fixtures_writes_exactly_these_files(made):
    on_disk = sorted(p.name for p in make_fixtures.FIXTURES.glob("*.json"))
    assert sorted(made) == on_disk == sorted(make_fixtures_names()), RERUN


@pytest.mark.parametrize("name", make_fixtures_names())
def test_fixture_is_what_make_fixtures_makes_today(made, name):
    path = make_fixtures.FIXTURES / name
    assert path.exists(), f"{name} is missing: {RERUN}"
    on_disk = json.loads(path.read_text(encoding="utf-8"))
    # floats within 1e-9: another BLAS may change a last digit, never a figure
    diffs = differences(on_disk, json.loads(make_fixtures.fixture_bytes(made[name])), 1e-9)
    shown = "\n  ".join(diffs[:12]) + (
        f"\n  (and {len(diffs) - 12} more)" if len(diffs) > 12 else ""
    )
    assert diffs == [], f"{name}: {RERUN}\n  {shown}"


def test_fixtures_name_no_machine_path(made):
    text = "\n".join(p.read_text(encoding="utf-8") for p in REPORT_FIXTURES)
    assert str(ROOT) not in text
    for name, report in made.items():
        assert report["build"]["date"] == "2025-12-01", name
        assert set(report["build"]["libraries"].values()) == {make_fixtures.VERSION}, name
        assert report["build"]["command"].startswith("evreport build "), name
