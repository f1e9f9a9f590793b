"""Finite numbers too large for the metric's sums: refused at their file, line and column, and
a project at the bound builds (squares and Welch's fourth powers stay finite)."""

from __future__ import annotations

import glob
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from reportgen.project import inspect_project
from reportgen.project.tables import MAX_MAGNITUDE
from tests.layouts.gen_cv import make_cv_project
from tests.layouts.gen_tasks import make_task_project

REPO = Path(__file__).resolve().parents[2]


def _first_test_file(path: Path, pattern: str = "*-test.csv") -> str:
    return sorted(glob.glob(str(path / "artefacts" / "predictions" / pattern)))[0]


def _set_cells(file: str, **cells) -> None:
    frame = pd.read_csv(file)
    for column, value in cells.items():
        frame.loc[0, column] = value
    frame.to_csv(file, index=False)


def _bad_values(path: Path):
    _, problems = inspect_project(path)
    return [p for p in problems if p.slug == "bad-value"]


@pytest.fixture(scope="module")
def regression(tmp_path_factory):
    path = tmp_path_factory.mktemp("reg") / "p"
    make_task_project(path, task="regression")
    return path


def test_a_regression_target_of_1e308_against_minus_1e308_is_refused_at_its_cells(regression):
    file = _first_test_file(regression)
    _set_cells(file, y=1e308, y_pred=-1e308)
    found = _bad_values(regression)
    name = str(Path(file).relative_to(regression))
    assert [(p.path, p.line, p.column) for p in found] == [(name, 2, 2), (name, 2, 3)]
    assert found[0].message == (
        "y = '1e+308' is over 1e+30 in size: the metric's sums over the rows would overflow; "
        "rescale the values"
    )


def test_a_regression_at_the_magnitude_bound_builds(regression, tmp_path):
    _set_cells(_first_test_file(regression), y=MAX_MAGNITUDE, y_pred=-MAX_MAGNITUDE)
    r = subprocess.run(
        [sys.executable, "-m", "reportgen", "build", str(regression), "--out", str(tmp_path)]
        + ["--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert (tmp_path / "report.json").exists()


def test_a_cv_per_row_metric_of_1_7e308_is_refused_at_its_cell(tmp_path):
    make_cv_project(tmp_path / "p", repeats=1, folds=3, rows=30, metric="custom_low")
    file = _first_test_file(tmp_path / "p", "*-f1.csv")
    _set_cells(file, abs_err=-1.7e308)
    [p] = _bad_values(tmp_path / "p")
    assert p.path == str(Path(file).relative_to(tmp_path / "p")) and p.line == 2
    assert p.message.startswith("abs_err = '-1.7e+308' is over 1e+30 in size")


def test_a_run_log_value_of_1e308_is_refused_at_its_cell(tmp_path):
    make_cv_project(tmp_path / "p", repeats=1, folds=3, rows=30, predictions=False)
    runs = pd.read_csv(tmp_path / "p" / "runs.csv", dtype=str, keep_default_na=False)
    runs.loc[0, "value"] = "1.7e308"
    runs.to_csv(tmp_path / "p" / "runs.csv", index=False)
    [p] = _bad_values(tmp_path / "p")
    assert (p.path, p.line) == ("runs.csv", 2)
    assert p.message.startswith("value = '1.7e308' is over 1e+30 in size")
