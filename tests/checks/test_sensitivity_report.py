"""An input-sensitivity check file read into report.json ``sensitivity`` and cited by rung 1."""

from __future__ import annotations

import json

import numpy as np

from reportgen.checks import compute_report
from reportgen.project import load_project
from reportgen.sanity.sensitivity import PIECEWISE_CONSTANT, check_sensitivity
from tests.checks.builder import make_project

W = np.array([0.5, -2.0])


def _p(X):
    return 1.0 / (1.0 + np.exp(-(X @ W)))


def _grad(X):
    p = _p(X)
    return (p * (1 - p))[:, None] * W


def _build(tmp_path, gradient_factor=(1.0, 1.0), extra=None):
    root = make_project(tmp_path / "p")
    X = np.random.default_rng(0).normal(size=(50, 2))
    check_sensitivity(
        _p,
        X,
        _grad(X) * np.array(gradient_factor),
        project=root,
        model="net",
        features=["age", "dose"],
        units={"age": "year"},
    )
    for name, body in (extra or {}).items():
        (root / "artefacts" / "checks" / name).write_text(json.dumps(body))
    report, _ = compute_report(load_project(root))
    return root, report


def test_the_file_s_numbers_are_report_json_s(tmp_path):
    root, report = _build(tmp_path)
    on_disk = json.loads((root / "artefacts/checks/sensitivity-net.json").read_text())
    s = report["sensitivity"]["net"]
    assert s["features"] == on_disk["features"]
    assert s["features"][0]["unit"] == "year"
    assert s["check"]["max_relative_error"] == on_disk["finite_differences"]["max_relative_error"]
    assert s["check"]["passed"] is True and s["rows"] == "test" and s["n_rows"] == 50
    # independent: the logistic model's p (1 - p) w, averaged by numpy here
    X = np.random.default_rng(0).normal(size=(50, 2))
    assert s["features"][1]["mean"] == np.mean(_grad(X)[:, 1])
    assert "base" not in report["sensitivity"]


def test_rung_1_cites_an_agreeing_file_beside_the_gradient_check(tmp_path):
    _, report = _build(tmp_path)
    ids = [c["id"] for c in report["checks"] if c["rung"] == 1]
    assert ids[:3] == ["rung1-initial_loss", "rung1-gradient", "rung1-sensitivity"]
    c = next(c for c in report["checks"] if c["id"] == "rung1-sensitivity")
    assert c["passed"] is True and c["artefacts"] == ["artefacts/checks/sensitivity-net.json"]
    assert report["ladder"][0]["status"] == "shown"


def test_a_disagreeing_file_fails_rung_1_with_its_numbers(tmp_path):
    _, report = _build(tmp_path, gradient_factor=(1.0, 2.0))
    rung = report["ladder"][0]
    assert rung["status"] == "not shown"
    c = next(c for c in report["checks"] if c["id"] == "rung1-sensitivity")
    assert c["passed"] is False
    # the worst entry is dose: analytical twice the central difference, a factor 0.5
    assert "dp/dx_dose analytical" in c["text"] and "a factor 0.500" in c["text"]
    assert rung["missing"].startswith("sensitivity check fails: dp/dx_dose")


def test_a_tree_s_reason_is_reported_and_rung_1_does_not_cite_it(tmp_path):
    reason = {"check": "sensitivity", "model": "base", "reason": PIECEWISE_CONSTANT}
    _, report = _build(tmp_path, extra={"sensitivity-base.json": reason})
    assert report["sensitivity"]["base"] == {
        "reason": PIECEWISE_CONSTANT,
        "artefact": "artefacts/checks/sensitivity-base.json",
    }
    assert not [w for w in report["warnings"] if "sensitivity" in w["path"]]


def test_no_file_gives_null(tmp_path):
    report, _ = compute_report(load_project(make_project(tmp_path / "p")))
    assert report["sensitivity"] is None
    assert "rung1-sensitivity" not in [c["id"] for c in report["checks"]]


def test_a_bad_file_is_a_warning_naming_the_file_and_field(tmp_path):
    bad = {
        "check": "sensitivity",
        "model": "base",
        "rows": "test",
        "n_rows": 5,
        "features": [{"name": "a", "mean": 0.1, "median_abs": -1, "share_positive": 0.5}],
        "finite_differences": {"eps": [1e-5], "max_relative_error": 0.0, "passed": True},
    }
    _, report = _build(tmp_path, extra={"sensitivity-base.json": bad})
    w = [w for w in report["warnings"] if w["path"].endswith("sensitivity-base.json")]
    assert len(w) == 1 and "features[0].median_abs" in w[0]["message"]
    assert "base" not in report["sensitivity"]


def _second_file(root, name, gradient_factor):
    X = np.random.default_rng(1).normal(size=(30, 2))
    rec = check_sensitivity(_p, X, _grad(X) * np.array(gradient_factor), features=["age", "dose"])
    rec.pop("passed")
    rec["model"] = "net"
    (root / "artefacts" / "checks" / name).write_text(json.dumps(rec))


def test_every_sensitivity_file_of_a_model_is_read_and_any_failing_one_fails_rung_1(tmp_path):
    root = make_project(tmp_path / "p")
    X = np.random.default_rng(0).normal(size=(50, 2))
    check_sensitivity(_p, X, _grad(X), project=root, model="net", features=["age", "dose"])
    # a later file (by path) whose gradient misses a factor: it alone disagrees
    _second_file(root, "sensitivity-net_validation.json", (1.0, 2.0))
    report, _ = compute_report(load_project(root))
    c = next(c for c in report["checks"] if c["id"] == "rung1-sensitivity")
    assert c["passed"] is False
    assert c["artefacts"] == [
        "artefacts/checks/sensitivity-net.json",
        "artefacts/checks/sensitivity-net_validation.json",
    ]
    assert report["ladder"][0]["status"] == "not shown"
    # report.json shows the failing file's figures, the one rung 1 fails on
    s = report["sensitivity"]["net"]
    assert s["artefact"] == "artefacts/checks/sensitivity-net_validation.json"
    assert s["check"]["passed"] is False and s["n_rows"] == 30


def test_with_several_agreeing_files_report_json_shows_the_first_by_path(tmp_path):
    root = make_project(tmp_path / "p")
    X = np.random.default_rng(0).normal(size=(50, 2))
    check_sensitivity(_p, X, _grad(X), project=root, model="net", features=["age", "dose"])
    _second_file(root, "sensitivity-net_b.json", (1.0, 1.0))
    report, _ = compute_report(load_project(root))
    c = next(c for c in report["checks"] if c["id"] == "rung1-sensitivity")
    assert c["passed"] is True and len(c["artefacts"]) == 2
    assert report["sensitivity"]["net"]["artefact"] == "artefacts/checks/sensitivity-net.json"


def test_before_after_a_tree_s_reason_file_makes_rung_1_partly_saying_why(tmp_path):
    from tests.checks.builder_ba import make_ba_project

    root = make_ba_project(tmp_path / "ba")
    before, _ = compute_report(load_project(root))
    assert before["ladder"][0]["status"] == "shown"
    reason = {"check": "sensitivity", "model": "after", "reason": PIECEWISE_CONSTANT}
    (root / "artefacts/checks/sensitivity-after.json").write_text(json.dumps(reason))
    report, _ = compute_report(load_project(root))
    rung = report["ladder"][0]
    assert rung["status"] == "partly"
    assert rung["missing"] == (
        "the sensitivity check of after has no verdict: local gradients are not defined for a "
        "piecewise-constant model"
    )
    c = next(c for c in report["checks"] if c["id"] == "rung1-sensitivity-after")
    assert c["passed"] is None and c["text"] == PIECEWISE_CONSTANT
