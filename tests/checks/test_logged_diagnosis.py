"""Logged against recomputed: rounding explains a difference only up to what it can move the
metric; beyond that another metric or other rows."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from reportgen.checks import compute_report
from reportgen.checks.diagnose import score_rounding_bounds, written_decimals
from reportgen.project import load_project
from reportgen.project.config import Config
from reportgen.project.predictions import Predictions
from reportgen.words import sig
from tests.layouts import cells as C
from tests.layouts.gen import make_project
from tests.layouts.gen_cv import CAND as CV_CAND
from tests.layouts.gen_cv import make_cv_project

EPS = float(np.finfo(float).eps)


def _warning(report: dict) -> str:
    (w,) = [w for w in report["warnings"] if w["slug"] == "logged-differs"]
    return w["message"]


def _bad(report: dict) -> list[dict]:
    return [c for c in report["comparisons"] if not c["agree"]]


def _edit_run(root, model: str, seed: int, part: str, value: str) -> None:
    runs = pd.read_csv(root / "runs.csv", dtype=str, keep_default_na=False)
    hit = (runs["model"] == model) & (runs["seed"] == str(seed)) & (runs["split"] == part)
    assert hit.sum() == 1
    runs.loc[hit, "value"] = value
    runs.to_csv(root / "runs.csv", index=False)


def test_the_error_rate_logged_as_accuracy_is_named_not_blamed_on_rounding(tmp_path):
    gen = make_project(tmp_path / "p", metric="accuracy")
    true = gen.logged[("net", 1, "test")]
    written = f"{1 - true:.3f}"
    _edit_run(gen.path, "net", 1, "test", written)
    report, _ = compute_report(load_project(gen.path))
    (bad,) = _bad(report)
    assert bad["diagnosis"]["kind"] == "complement"
    text = _warning(report)
    assert f"logged {written}, recomputed" in text  # as written, not padded to 7 figures
    assert "rounded to" not in text.split("likely cause:")[1].split("rounding explains")[0]
    assert f"the logged value {written} is 1 − the recomputed accuracy" in text
    assert "it looks like the error rate logged as accuracy" in text
    # rounding of the 3-decimal logged value explains at most 0.0005
    assert (
        "beyond what rounding explains here (at most 0.000500: the logged value to 3 decimals"
        in text
    )
    assert report["ladder"][0]["missing"].endswith(f"(logged {written}, recomputed {sig(true, 7)})")


def test_a_logged_value_rounded_to_4_decimals_is_rounding_with_its_bound(tmp_path):
    gen = make_project(tmp_path / "p", log_digits=4)
    report, _ = compute_report(load_project(gen.path))
    bad = _bad(report)
    assert bad and {c["diagnosis"]["kind"] for c in bad} == {"logged-rounded"}
    worst = max(bad, key=lambda c: abs(c["logged"] - c["recomputed"]))
    assert abs(worst["logged"] - worst["recomputed"]) <= 0.00005
    assert worst["diagnosis"]["bound"] == pytest.approx(0.00005)
    assert "was rounded to 4 decimals, which moves it by at most 0.00005" in _warning(report)


def _row_loss(p: float, y: int) -> float:
    q = min(max(p, EPS), 1 - EPS)
    return -math.log(q) if y == 1 else -math.log(1 - q)


def _rounded_scores(gen, digits: int) -> tuple[float, float]:
    """Round net seed 1's test scores to ``digits``; (recomputed, largest rise of the mean)."""
    path = gen.path / "artefacts/predictions/net-s1-test.csv"
    frame = pd.read_csv(path)
    frame["p"] = frame["p"].round(digits)
    frame.to_csv(path, index=False)
    h = 0.5 * 10.0**-digits
    now, up, down = [], [], []
    for p, y in zip(frame["p"], frame["y"], strict=True):
        ends = [_row_loss(min(max(p + d, 0.0), 1.0), y) for d in (-h, h)]
        now.append(_row_loss(p, y))
        up.append(max(ends) - now[-1])
        down.append(now[-1] - min(ends))
    return float(np.mean(now)), float(np.mean(up)), float(np.mean(down))


def test_scores_rounded_to_2_decimals_explain_a_small_difference_with_their_bound(tmp_path):
    gen = make_project(tmp_path / "p")
    recomputed, up, down = _rounded_scores(gen, 2)
    report, _ = compute_report(load_project(gen.path))
    (bad,) = [c for c in _bad(report) if c["cite"].endswith(":") is False and c["split"] == "test"]
    assert bad["recomputed"] == pytest.approx(recomputed, rel=1e-12)
    diff = bad["logged"] - bad["recomputed"]
    bound = up if diff > 0 else down
    assert abs(diff) <= bound
    assert bad["diagnosis"]["kind"] == "scores-rounded"
    h_log = 0.5 * 10.0 ** -written_decimals(bad["logged"])
    assert bad["diagnosis"]["bound"] == pytest.approx(bound + h_log, rel=1e-9)
    assert (
        f"rounded to 2 decimals, which can move the log loss by up to {sig(bound, 3)}"
        in (bad["diagnosis"]["text"])
    )


def test_a_difference_beyond_the_rounding_bound_is_not_blamed_on_rounding(tmp_path):
    gen = make_project(tmp_path / "p")
    _, up, down = _rounded_scores(gen, 2)
    true = gen.logged[("net", 1, "test")]
    _edit_run(gen.path, "net", 1, "test", repr(true + 0.05))
    report, _ = compute_report(load_project(gen.path))
    (bad,) = [c for c in _bad(report) if c["split"] == "test"]
    assert 0.05 > up + down  # far beyond what the 2-decimal scores can explain
    assert bad["diagnosis"]["kind"] == "beyond-rounding"
    text = bad["diagnosis"]["text"]
    assert "beyond what rounding explains" in text and "the scores to 2 decimals" in text
    assert "a different metric definition" in text and "a different set of rows" in text


def _pred(p, y) -> Predictions:
    return Predictions(
        "p.csv", "test", np.array(["a"] * len(p), dtype=object), "binary", np.array(y), np.array(p)
    )


def test_threshold_flips_are_counted_exactly_at_the_rounding_interval_s_ends():
    # p rounded to 2 decimals, threshold 0.5: only the row at 0.50 can flip (0.495 -> class 0)
    project = SimpleNamespace(config=Config(metric="accuracy"))
    pred = _pred([0.50, 0.49, 0.51, 0.20], [1, 0, 0, 1])
    k, rise, fall = score_rounding_bounds(project, pred, 0.5)
    assert (k, rise, fall) == (2, 0.0, 0.25)  # row 0 right now, wrong at 0.495: one of four
    # the error rate moves the other way by the same count
    project = SimpleNamespace(config=Config(metric="error_rate"))
    assert score_rounding_bounds(project, pred, 0.5) == (2, 0.25, 0.0)
    assert score_rounding_bounds(project, _pred([0.123456789], [1]), 0.5) is None


def test_written_decimals_are_the_value_s_own():
    assert [written_decimals(x) for x in (0.243, 0.4095, 1.0, 12.5, 0.1 + 0.2)] == [3, 4, 0, 1, 17]


def test_a_fold_value_that_disagrees_is_diagnosed_and_warned_about(tmp_path):
    gen = make_cv_project(tmp_path / "p", **C.cv_cells()[0])
    runs = pd.read_csv(gen.path / "runs.csv", dtype=str, keep_default_na=False)
    hit = (runs["model"] == CV_CAND) & (runs["repeat"] == "1") & (runs["fold"] == "1")
    first = runs.index[hit][0]
    true = gen.logged[(CV_CAND, int(runs.at[first, "seed"]), 1, 1)]
    runs.at[first, "value"] = repr(true + 0.05)
    runs.to_csv(gen.path / "runs.csv", index=False)
    report, _ = compute_report(load_project(gen.path))
    (bad,) = _bad(report)
    assert (bad["repeat"], bad["fold"]) == (1, 1)
    assert "logged_text" not in bad  # a fold comparison has none (report-json.md)
    assert bad["diagnosis"]["kind"] == "beyond-rounding"
    text = _warning(report)
    assert f"logged {sig(true + 0.05, 7)}, recomputed {sig(true, 7)}" in text
    assert "likely cause: the difference 0.0500 is beyond what rounding explains" in text
    assert report["ladder"][0]["status"] == "partly"
