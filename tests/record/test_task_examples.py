"""examples/diabetes-regression and examples/digits-multiclass: written only through the
Recorder, the sanity adapters and freeze, reaching rung 1 honestly; the scripts of
these two and of examples/breast-cancer import nothing else that writes."""

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


#: each scikit-learn example's script and the rung-1 adapter it calls
SCRIPTS = {
    "breast-cancer": ("make_breast_cancer.py", "check_mlp_classifier"),
    **{name: case[:2] for name, case in CASES.items()},
}
#: what those scripts may take from examples/_common.py: the split, the TOML tables and the
#: tune-then-repeat loop, which logs only through the Recorder class the script passes in
COMMON = {
    "Classifiers",
    "PairedSeeds",
    "claim_table",
    "fit_quietly",
    "rule_table",
    "split_60_20_20",
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_writes_only_through_the_recording_api(name):
    script, adapter = SCRIPTS[name]
    path = ROOT / "examples" / script
    tree = ast.parse(path.read_text())
    imported = {
        (n.module, a.name)
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and n.module
        for a in n.names
    }
    assert {i for i in imported if i[0].startswith("reportgen")} - {
        ("reportgen.sanity", "input_sensitivity")  # issue 32: the one-call sensitivity helper
    } == {
        ("reportgen.record", "Recorder"),
        ("reportgen.sanity", adapter),
    }
    assert {a for m, a in imported if m == "_common"} <= COMMON
    text = path.read_text()
    # predictions, run log and manifest come from the API: no Parquet or JSON written by hand
    assert "to_parquet" not in text and "import json" not in text and "hashlib" not in text
