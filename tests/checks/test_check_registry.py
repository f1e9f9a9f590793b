"""The check registry (reportgen/checks/registry.py) is whole: every check id and fairness fact
a report fixture lists is declared for the report's design, with its rung and in report order,
and no module of reportgen/checks writes an id as a literal instead of its declaration."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from reportgen.checks import MODES, fairness
from reportgen.checks.cv import rungs as cv_rungs
from reportgen.checks.ids import CheckId
from reportgen.checks.registry import DESIGNS, FACTS, all_ids, declared, design_of
from reportgen.model import Report, ReportShapeError

ROOT = Path(__file__).resolve().parents[2]
#: every report.json fixture of the tests (the examples' built reports among them)
FIXTURES = sorted(
    p
    for p in (ROOT / "tests").rglob("fixtures/*.json")
    if "checks" in json.loads(p.read_text(encoding="utf-8"))
)
#: the calls that write a check or fairness fact, and the position of its id
WRITERS = {"Check": 0, "FactCheck": 0, "Evidence": 0, "_fact": 0}


def _fixture_id(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def typed(report: dict) -> Report:
    """A report.json as its model holds it. tests/perf stores reports without build.date and
    build.libraries: they are filled in as tests/test_fixtures.py does."""
    return Report.from_json({**report, "build": {"date": "", "libraries": {}, **report["build"]}})


def _report(path: Path) -> Report:
    return typed(json.loads(path.read_text(encoding="utf-8")))


def assert_declared(report: Report, where: str) -> None:
    """Each check of ``report`` is declared for its design with its rung, in declared order,
    and each fairness fact is one of the design's facts, in their order."""
    design = design_of(report)
    assert design in DESIGNS, f"{where}: no design {design!r}"
    order = []
    for c in report.checks:
        decl = declared(design, c.id)
        assert decl is not None, f"{where}: {c.id!r} is not declared for a {design} report"
        assert c.rung == decl.rung, f"{where}: {c.id!r} is on rung {c.rung}"
        order.append(DESIGNS[design].index(decl))
    assert order == sorted(order), f"{where}: checks out of the declared order"
    facts = [f.id for f in report.fairness]
    assert set(facts) <= set(FACTS[design]), f"{where}: {set(facts) - set(FACTS[design])}"
    assert facts == [f for f in FACTS[design] if f in facts], f"{where}: facts out of order"


@pytest.mark.parametrize("path", FIXTURES, ids=_fixture_id)
def test_each_check_a_fixture_lists_is_declared_for_its_design(path):
    assert_declared(_report(path), _fixture_id(path))


def test_every_example_has_a_report_fixture():
    """tests/test_fixtures.py keeps these what each example builds today."""
    examples = sorted(p.parent.name for p in (ROOT / "examples").glob("*/evreport.toml"))
    assert examples
    names = {p.name for p in FIXTURES}
    assert [e for e in examples if f"report-{e}.json" not in names] == []


@pytest.mark.parametrize(
    "name, design",
    [
        ("report-breast-cancer.json", "split"),
        ("report-breast-cancer-cv.json", "cv"),
        ("report-cv-test-part.json", "cv"),
        ("report-tuned-replay.json", "before-after"),
    ],
)
def test_the_design_is_read_from_report_json(name, design):
    assert design_of(_report(ROOT / "tests" / "fixtures" / name)) == design


def test_a_report_of_no_known_kind_does_not_parse_so_has_no_design():
    data = json.loads((ROOT / "tests" / "fixtures" / "report-breast-cancer.json").read_text())
    data["project"]["kind"] = "other"
    with pytest.raises(ReportShapeError, match=r"report\.project\.kind: expected one of"):
        typed(data)


def test_each_mode_has_a_design_with_its_facts():
    modes = {"model-vs-baseline": "split", "cv": "cv", "before-after": "before-after"}
    assert set(MODES) == set(modes) and set(modes.values()) == set(DESIGNS) == set(FACTS)


def test_an_id_has_one_rung_and_is_declared_once_per_design():
    rungs: dict[str, set[int]] = {}
    for design, checks in DESIGNS.items():
        ids = [c.id for c in checks]
        assert len(ids) == len(set(ids)), design
        for c in checks:
            rungs.setdefault(c.id, set()).add(c.rung)
            assert 1 <= c.rung <= 5, c
    assert {i: r for i, r in rungs.items() if len(r) > 1} == {}
    assert set(all_ids()) == set(rungs)


def test_the_fact_lists_are_the_checked_facts_of_each_design():
    assert set(FACTS["before-after"]) < set(FACTS["split"])
    assert set(cv_rungs.KEPT_FACTS) < set(FACTS["split"]) and set(cv_rungs.CV_FACTS) == set(
        FACTS["cv"]
    )
    assert fairness.SAME_ROWS["test"] in FACTS["before-after"]
    assert fairness.TEST_OPENED_ONCE["candidate"] not in FACTS["before-after"]


def test_a_family_names_its_members():
    harness = CheckId("rung1-*-*", 1)
    assert harness.of("overfit", "after") == "rung1-overfit-after"
    assert harness.matches("rung1-overfit-after")
    assert not harness.matches("rung1-overfit") and not harness.matches("rung1--after")
    assert harness.member("shapes", "v2") == CheckId("rung1-shapes-v2", 1)
    assert CheckId("useful-effect", 4).matches("useful-effect")
    assert not CheckId("useful-effect", 4).matches("useful-effects")
    with pytest.raises(ValueError, match="takes 2 parts, not 1"):
        harness.of("overfit")


def _modules():
    return sorted((ROOT / "reportgen" / "checks").rglob("*.py"))


def _literal(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def test_no_check_or_fact_is_written_with_a_literal_id():
    """The id of every Check, FactCheck, Evidence or _fact call is a declared constant."""
    found = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in WRITERS:
                continue
            pos = WRITERS[name]
            arg = node.args[pos] if len(node.args) > pos else None
            arg = next((k.value for k in node.keywords if k.arg in ("id", "id_")), arg)
            if arg is not None and _literal(arg):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert found == []


def test_a_declared_id_is_spelled_only_where_it_is_declared():
    """A string equal to a check id or fairness fact appears in reportgen/checks only in the
    module-level assignment that declares it."""
    names = {c.id for checks in DESIGNS.values() for c in checks}
    names |= {f for facts in FACTS.values() for f in facts}
    found = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {
            id(n)
            for stmt in tree.body
            if isinstance(stmt, ast.Assign | ast.AnnAssign)
            for n in ast.walk(stmt)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in names and id(node) not in top:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert found == []
