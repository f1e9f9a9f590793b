"""A second run of one model and seed (a re-run after a tweak) is listed as left out with its
line, and a second test scoring of one network is reported as the test reused."""

from __future__ import annotations

import pandas as pd

from reportgen.checks import compute_report
from reportgen.project import load_project
from tests.checks.builder import make_project


def _rerun(root, splits=("validation", "test")) -> None:
    """Append a re-run of net seed 1 (config net-a) on ``splits`` to runs.csv."""
    runs = pd.read_csv(root / "runs.csv", dtype=str, keep_default_na=False)
    net_a = (runs.model == "net") & (runs.seed == "1") & (runs.config == "net-a")
    first = runs[net_a & runs.split.isin(splits)]
    again = first.assign(run_id="net-1-net-a-rerun", started_at="2026-01-04T00:00:00Z")
    pd.concat([runs, again]).to_csv(root / "runs.csv", index=False)


def _fact(report: dict, fact: str) -> dict:
    return next(f for f in report["fairness"] if f["id"] == fact)


def test_a_rerun_is_listed_as_left_out_with_its_line(tmp_path):
    root = make_project(tmp_path / "p")
    _rerun(root)
    report, _ = compute_report(load_project(root))
    assert report["noise"]["seed"]["left_out"] == [
        "net seed 1 (runs.csv:22): a second validation row of this seed (run "
        "'net-1-net-a-rerun'); the first in the log, runs.csv:2, is analysed",
        "net seed 1 (runs.csv:23): a second test row of this seed (run "
        "'net-1-net-a-rerun'); the first in the log, runs.csv:3, is analysed",
    ]


def test_a_second_test_scoring_of_one_network_is_reported_as_test_reuse(tmp_path):
    root = make_project(tmp_path / "p")
    _rerun(root, splits=("test",))
    report, _ = compute_report(load_project(root))
    fact = _fact(report, "test-opened-once-candidate")
    assert fact["passed"] is False
    assert fact["text"] == (
        "seed 1 of net scored on test 2 times (runs.csv:3, runs.csv:22): the test number is "
        "validation-level"
    )
    assert {"runs.csv:3", "runs.csv:22"} <= set(fact["artefacts"])
    assert _fact(report, "test-opened-once-baseline")["passed"] is True
    assert report["ladder"][1]["status"] == "partly"
    assert report["ladder"][1]["missing"] == fact["text"]


def test_a_validation_rerun_alone_leaves_the_test_opened_once(tmp_path):
    root = make_project(tmp_path / "p")
    _rerun(root, splits=("validation",))
    report, _ = compute_report(load_project(root))
    assert _fact(report, "test-opened-once-candidate")["passed"] is True
    (left_out,) = report["noise"]["seed"]["left_out"]
    assert left_out.startswith("net seed 1 (runs.csv:22): a second validation row")


def test_one_test_row_per_seed_is_the_test_opened_once(tmp_path):
    report, _ = compute_report(load_project(make_project(tmp_path / "p")))
    fact = _fact(report, "test-opened-once-candidate")
    assert fact["passed"] is True
    assert report["noise"]["seed"]["left_out"] == []


def test_two_configs_and_a_rerun_on_test_are_both_named(tmp_path):
    root = make_project(tmp_path / "p", test_configs=2)
    _rerun(root, splits=("test",))
    report, _ = compute_report(load_project(root))
    text = _fact(report, "test-opened-once-candidate")["text"]
    assert text.startswith("test opened 2 times for net (2 configs scored on test); seed 1 of net")
    assert text.endswith(
        "scored on test 2 times (runs.csv:3, runs.csv:32): the test number is validation-level"
    )
