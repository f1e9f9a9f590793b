"""The rubric knows every check a design can list (checks/registry.py): a line per check of any
report is accepted and counts in its maximum, and a check of another design does not apply."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.checks.registry import DESIGNS, FACTS, all_ids
from reportgen.cli import main
from reportgen.errors import UsageError
from reportgen.grading.advice import FACT_ADVICE
from reportgen.grading.rubric import DESIGN_WORDS, max_points, parse_rubric, score
from reportgen.model import Report
from tests.checks.test_check_registry import FIXTURES, ROOT

CV_EXAMPLE = ROOT / "examples" / "breast-cancer-cv"
BATCH_DOC = ROOT / "docs" / "batch.md"


def _fixture(name: str) -> Report:
    return _read(ROOT / "tests" / "fixtures" / name)


def _read(path: Path) -> Report:
    """A fixture as a Report; the perf fixtures leave out the build's date and libraries."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["build"] = {"date": "2026-01-01", "libraries": {}} | doc["build"]
    return Report.from_json(doc)


def _rubric_of(report: Report):
    """A rubric with one point per check the report lists."""
    return parse_rubric({"checks": {c.id: 1 for c in report.checks}})


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_line_per_check_of_a_report_is_known_and_every_line_counts(path):
    report = _read(path)
    rubric = _rubric_of(report)
    scores = score(rubric, report)
    assert [s.line.key for s in scores if not s.applies] == []
    assert max_points(rubric, scores) == rubric.max == len({c.id for c in report.checks})
    passed = {c.id for c in report.checks if c.passed is True}
    assert {s.line.key for s in scores if s.points == 1} == passed


def test_a_check_of_another_design_does_not_apply():
    split, cv = _fixture("report-breast-cancer.json"), _fixture("report-breast-cancer-cv.json")
    rubric = parse_rubric(
        {
            "checks": {
                "test-interval-excludes-zero": 1,
                "cv-interval-excludes-zero": 1,
                "fair-folds-frozen": 1,
                "fair-*": 1,
                "not-worse-on-*": 1,
                "general-set-held": 1,
            }
        }
    )
    on_cv = {s.line.key: s for s in score(rubric, cv)}
    on_split = {s.line.key: s for s in score(rubric, split)}
    assert [k for k, s in on_cv.items() if not s.applies] == [
        "test-interval-excludes-zero",
        "general-set-held",
    ]
    assert on_cv["test-interval-excludes-zero"].why == (
        "does not apply to a cross-validated comparison: left out of the maximum"
    )
    assert [k for k, s in on_split.items() if not s.applies] == [
        "cv-interval-excludes-zero",
        "fair-folds-frozen",
        "general-set-held",
    ]
    assert on_split["fair-folds-frozen"].why == (
        "does not apply to a model against baseline comparison: left out of the maximum"
    )
    assert max_points(rubric, list(on_cv.values())) == 4


def test_a_fact_a_cv_project_measures_only_with_a_test_part_applies_only_with_one():
    """The template's fair-test-opened-once-candidate: a cross-validated project without a
    held-out test part cannot have it (the cv design lists it only when it checked a test
    part), so it is left out of the maximum, not scored 0 of 1; with a test part it counts."""
    rubric = parse_rubric({"checks": {"fair-test-opened-once-candidate": 1, "fair-*": 1}})
    without, with_test = (
        _fixture("report-breast-cancer-cv.json"),
        _fixture("report-cv-test-part.json"),
    )
    assert "fair-test-opened-once-candidate" not in {c.id for c in without.checks}
    on = {s.line.key: s for s in score(rubric, without)}
    assert not on["fair-test-opened-once-candidate"].applies
    assert on["fair-test-opened-once-candidate"].why == (
        "does not apply to a cross-validated comparison without a held-out test part: left "
        "out of the maximum"
    )
    assert on["fair-*"].applies
    assert max_points(rubric, list(on.values())) == 1
    on = {s.line.key: s for s in score(rubric, with_test)}
    assert on["fair-test-opened-once-candidate"].applies
    assert max_points(rubric, list(on.values())) == 2


@pytest.mark.parametrize(
    "name", ["fair-fold*", "not-worse-*", "rung1-*", "*-excludes-zero", "rung1-overfit-after"]
)
def test_a_name_or_pattern_that_can_name_a_declared_check_is_known(name):
    assert parse_rubric({"checks": {name: 1}}).max == 1


@pytest.mark.parametrize(
    "name, hint",
    [
        ("fair-folds-froze", "fair-folds-frozen"),
        ("cv-interval-exclude-zero", "cv-interval-excludes-zero"),
        ("not-worse-on-", "not-worse-on-*"),
        ("nothing-*", None),
    ],
)
def test_a_name_no_design_declares_is_refused_with_the_closest(name, hint):
    with pytest.raises(UsageError, match=f"unknown check {re.escape(repr(name))}") as e:
        parse_rubric({"checks": {name: 1}})
    if hint:
        assert f"did you mean {hint!r}?" in str(e.value)


def test_every_fact_with_advice_is_a_declared_fact():
    facts = {f for fs in FACTS.values() for f in fs}
    assert set(FACT_ADVICE) - facts == set()


def test_the_batch_doc_lists_each_design_s_checks():
    """docs/batch.md's table of check names is the registry's (one row per id or family)."""
    text = BATCH_DOC.read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        m = re.fullmatch(r"\| `([^`]+)` \| (\d) \|(.*)\|", line)
        if m:
            rows[m.group(1)] = (int(m.group(2)), [c.strip() for c in m.group(3).split("|")])
    want = {}
    for i in all_ids():
        rung = next(c.rung for cs in DESIGNS.values() for c in cs if c.id == i)
        marks = ["yes" if any(c.id == i for c in DESIGNS[d]) else "" for d in DESIGNS]
        want[i] = (rung, marks)
    assert rows == want
    assert list(rows) == list(all_ids())
    header = "| check | rung | " + " | ".join(DESIGNS) + " |"
    assert header in text


@pytest.mark.skipif(not (CV_EXAMPLE / "evreport.toml").is_file(), reason="no breast-cancer-cv")
def test_a_rubric_of_every_cv_check_grades_the_cv_example_through_the_cli(tmp_path):
    report = _fixture("report-breast-cancer-cv.json")
    ids = [c.id for c in report.checks]
    shutil.copytree(CV_EXAMPLE, tmp_path / "subs" / "cv", ignore=shutil.ignore_patterns("report"))
    rubric = tmp_path / "rubric.toml"
    rubric.write_text("[checks]\n" + "".join(f'"{i}" = 1\n' for i in ids), encoding="utf-8")
    out = tmp_path / "out"
    r = CliRunner().invoke(
        main,
        ["batch", str(tmp_path / "subs"), "--out", str(out), "--rubric", str(rubric)]
        + ["--format", "json", "--jobs", "1"],
    )
    assert r.exit_code == 0, r.output
    (row,) = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8")))
    assert row["status"] == "ok", row
    assert float(row["max"]) == len(ids)
    cells = {i: row[f"check_{i}"] for i in ids}
    assert [i for i, v in cells.items() if v == ""] == []
    built = json.loads((out / "cv" / "report.json").read_text(encoding="utf-8"))
    passed = [c["id"] for c in built["checks"] if c["passed"] is True]
    assert float(row["total"]) == len(passed)
    assert [i for i, v in cells.items() if float(v) == 1] == passed


def test_each_design_has_its_words_for_a_line_that_does_not_apply():
    assert set(DESIGN_WORDS) == set(DESIGNS)


def test_reading_the_rubric_module_loads_no_checks():
    """The registry (and numpy with it) is imported only when a rubric names a check."""
    import subprocess
    import sys

    code = (
        "import sys; import reportgen.grading.rubric; "
        "print([m for m in ('reportgen.checks', 'numpy') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
