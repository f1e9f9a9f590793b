"""examples/breast-cancer reaches rung 1 (its script's imports: test_task_examples.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "breast-cancer"

pytestmark = pytest.mark.skipif(
    not (EXAMPLE / "evreport.toml").is_file(), reason="examples/breast-cancer not generated"
)


def test_validates_clean_and_reaches_rung_1():
    from reportgen.checks import compute_report
    from reportgen.project import inspect_project, load_project

    project, problems = inspect_project(EXAMPLE)
    assert project is not None and problems == []
    report, _ = compute_report(load_project(EXAMPLE))
    rungs = {r["rung"]: r for r in report["ladder"]}
    assert rungs[1]["status"] == "shown", rungs[1]
    checks = {c["id"]: c for c in report["checks"]}
    assert checks["rung1-gradient"]["text"].startswith(
        "gradient from a tested library (scikit-learn"
    )
    assert checks["logged-equals-recomputed"]["passed"] is True
    assert all(checks[f"rung1-{n}"]["passed"] for n in ("initial_loss", "overfit", "shapes"))
