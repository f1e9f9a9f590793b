"""examples/diabetes-regression and examples/digits-multiclass: written only through the
Recorder, the sanity adapters and freeze, reaching rung 1 honestly (issue 21); the script
test covers examples/breast-cancer's script too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = {
    "diabetes-regression": ("make_diabetes_regression.py", "check_mlp_regressor", "regression"),
    "digits-multiclass": ("make_digits_multiclass.py", "check_mlp_classifier", "multiclass"),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    name = request.param
    if not (ROOT / "examples" / name / "evreport.toml").is_file():
        pytest.skip(f"examples/{name} not generated")
    return name, *CASES[name]


def test_validates_clean_and_reaches_rung_1(case):
    from reportgen.checks import compute_report
    from reportgen.project import inspect_project, load_project

    name, _, _, task = case
    project, problems = inspect_project(ROOT / "examples" / name)
    assert project is not None and problems == []
    assert project.task == task and project.task_source == "config"
    report, _ = compute_report(load_project(ROOT / "examples" / name))
    rungs = {r["rung"]: r for r in report["ladder"]}
    assert rungs[1]["status"] == "shown", rungs[1]
    assert rungs[2]["status"] == "shown", rungs[2]
    checks = {c["id"]: c for c in report["checks"]}
    assert all(checks[f"rung1-{n}"]["passed"] for n in ("initial_loss", "overfit", "shapes"))
    assert checks["logged-equals-recomputed"]["passed"] is True
    assert report[task] is not None and report["threshold"] is None
    assert report["descriptions"][0]["low"] is not None


#: every example script written through the recording API, with its rung-1 adapter
SCRIPTS = {"make_breast_cancer.py": "check_mlp_classifier"} | {
    script: adapter for script, adapter, _ in CASES.values()
}


@pytest.mark.parametrize(("script", "adapter"), sorted(SCRIPTS.items()))
def test_script_writes_only_through_the_recording_api(script, adapter):
    path = ROOT / "examples" / script
    tree = ast.parse(path.read_text())
    imported = {
        (n.module, a.name)
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("reportgen")
        for a in n.names
    }
    assert imported == {("reportgen.record", "Recorder"), ("reportgen.sanity", adapter)}
    text = path.read_text()
    # predictions, run log and manifest come from the API: no Parquet or JSON written by hand
    assert "to_parquet" not in text and "import json" not in text and "hashlib" not in text
