"""Recorder against its own fairness check: sub-second order, split_id, row ids, metric names.

The script of docs/recording.md, run as fast as a machine runs it (freeze, then log at
once), must reach rung 2 shown; times cut to one second must neither pass nor fail as if
they were ordered.
"""

from __future__ import annotations

import csv
import re
import warnings
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from reportgen import sanity
from reportgen.project.manifest import split_fingerprint, time_resolution
from reportgen.record import Recorder
from tests.record.conftest import fake_p, log, log_both, write_split

#: the TOML of the fast script: the rule written today, before the runs, after the freeze
TOML = """title = "Fast script"

[claim]
text      = "mlp beats lr"
candidate = "mlp"
baseline  = "lr"
metric    = "log_loss"

[rule]
written = {today}
"""


def _rows(root):
    with (root / "runs.csv").open(newline="") as f:
        return list(csv.DictReader(f))


def _report(root):
    from reportgen.checks import compute_report
    from reportgen.project import load_project

    return compute_report(load_project(root))[0]


def _fact(report, cid):
    return next(c for c in report["checks"] if c["id"] == f"fair-{cid}")


def _rung1(rec):
    """The four rung-1 check files of the candidate (values a healthy network gives)."""
    sanity.initial_loss(rec, "mlp", 0.70, classes=2)
    sanity.library_gradient(rec, "mlp", "scikit-learn MLPClassifier")
    X = np.arange(64, dtype=float).reshape(32, 2)
    y = np.arange(32) % 2

    def fit(Xb, yb):
        table = {tuple(r): float(t) for r, t in zip(Xb, yb, strict=True)}
        return lambda Z: np.array([0.99 if table[tuple(r)] else 0.01 for r in Z])

    sanity.overfit(rec, "mlp", fit, X, y, rows=32, rng=np.random.default_rng(0))
    sanity.shapes(rec, "mlp", [("p is (n,)", True)])


def test_the_documented_fast_script_reaches_rung_2_shown(tmp_path):
    root = tmp_path / "fast"
    root.mkdir()
    (root / "evreport.toml").write_text(TOML.format(today=datetime.now(UTC).date()))
    parts = write_split(root)
    rec = Recorder(root)
    manifest = rec.freeze()  # then log at once, as docs/recording.md shows
    log_both(rec, parts, 1.3)
    _rung1(rec)
    rows = _rows(root)
    stamp = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")
    assert stamp.match(manifest["created"]), manifest["created"]
    assert all(stamp.match(r["started_at"]) for r in rows)
    first = min(datetime.fromisoformat(r["started_at"]) for r in rows)
    assert datetime.fromisoformat(manifest["created"]) < first
    assert first - datetime.fromisoformat(manifest["created"]) < timedelta(seconds=30)
    want = split_fingerprint("row_id", [(f["part"], f["sha256"]) for f in manifest["files"]])
    assert {r["split_id"] for r in rows} == {want}

    report = _report(root)
    fair = [c for c in report["checks"] if c["id"].startswith("fair-")]
    assert all(c["passed"] is True for c in fair), [(c["id"], c["text"]) for c in fair]
    assert _fact(report, "same-split-id")["text"] == f"same split for both models: {want}"
    assert _fact(report, "frozen-before-runs")["text"].startswith(
        f"split frozen {manifest['created']}, before the first run"
    )
    ladder = {r["rung"]: r["status"] for r in report["ladder"]}
    assert ladder[1] == ladder[2] == "shown"
    assert report["claim"]["supported_rung"] >= 2


@pytest.mark.parametrize(
    "created, started, passed, words",
    [
        # the same second, both cut to it: no order either way
        ("2026-03-02T10:00:00Z", "2026-03-02T10:00:00Z", None, "written to the second"),
        # a whole-second freeze and a run inside that second: the freeze may have come later
        ("2026-03-02T10:00:00Z", "2026-03-02T10:00:00.400000Z", None, "written to the second"),
        ("2026-03-02T10:00:00.300000Z", "2026-03-02T10:00:00Z", None, "written to the second"),
        # one microsecond apart, both written to the microsecond: ordered
        ("2026-03-02T10:00:00.300000Z", "2026-03-02T10:00:00.300001Z", True, "before"),
        ("2026-03-02T10:00:00.300001Z", "2026-03-02T10:00:00.300000Z", False, "AFTER"),
        ("2026-03-02T10:00:00.300000Z", "2026-03-02T10:00:00.300000Z", None, "the microsecond"),
        # whole seconds one second apart are ordered (the run's second starts after the freeze's)
        ("2026-03-02T10:00:00Z", "2026-03-02T10:00:01Z", True, "before"),
        ("2026-03-02T10:00:01Z", "2026-03-02T10:00:00Z", False, "AFTER"),
        # milliseconds (MLflow's clock) against microseconds
        ("2026-03-02T10:00:00.123456Z", "2026-03-02T10:00:00.123Z", None, "the millisecond"),
        ("2026-03-02T10:00:00.122999Z", "2026-03-02T10:00:00.123Z", True, "before"),
    ],
)
def test_order_is_shown_only_where_the_precision_allows(project, created, started, passed, words):
    root, rec, parts = project
    rec.freeze(created)
    y = parts["validation"]["y"].to_numpy()
    for model in ("mlp", "lr"):
        log(
            rec,
            model=model,
            split="validation",
            row_id=parts["validation"]["row_id"],
            y=y,
            p=fake_p(y, 1.0, 1),
            started_at=started,
        )
    fact = _fact(_report(root), "frozen-before-runs")
    assert fact["passed"] is passed, fact["text"]
    assert words in fact["text"]
    if passed is None:
        assert fact["text"] == (
            f"split frozen {created} and the first run started "
            f"{datetime.fromisoformat(started).isoformat().replace('+00:00', 'Z')}: "
            f"written to {words.removeprefix('written to ')}, these times do not show which came "
            "first (evreport freeze and Recorder write microseconds)"
        )


@pytest.mark.parametrize(
    "text, seconds",
    [
        ("2026-03-02", 86400),
        ("2026-03-02T10", 3600),
        ("2026-03-02T10:00", 60),
        ("2026-03-02T10:00:00Z", 1),
        ("2026-03-02T10:00:00+01:00", 1),
        ("2026-03-02 10:00:00.5", 0.1),
        ("2026-03-02T10:00:00.123Z", 0.001),
        ("2026-03-02T10:00:00,123456-05:00", 1e-6),
        ("2026-03-02T10:00:00.1234567Z", 1e-6),
    ],
)
def test_time_resolution(text, seconds):
    assert time_resolution(text).total_seconds() == pytest.approx(seconds)


def test_split_id_is_the_manifest_fingerprint_unless_given(project):
    root, rec, parts = project
    y = parts["validation"]["y"].to_numpy()
    args = dict(split="validation", row_id=parts["validation"]["row_id"], y=y, metric="brier")
    rec.log(model="mlp", seed=1, p=fake_p(y, 1, 1), **args)
    rec.log(model="lr", seed=1, p=fake_p(y, 1, 2), split_id="mine-v1", **args)
    rows = _rows(root)
    assert rows[0]["split_id"].startswith("sha256:") and len(rows[0]["split_id"]) == 23
    assert rows[1]["split_id"] == "mine-v1"
    # the same files frozen again: the same id; a changed file: another
    before = rows[0]["split_id"]
    rec.freeze("2021-01-01T00:00:00Z")
    rec.log(model="mlp", seed=2, p=fake_p(y, 1, 3), **args)
    assert _rows(root)[2]["split_id"] == before
    with (root / "split" / "train.csv").open("a") as f:
        f.write("9999,0.5,1\n")
    rec.freeze("2021-01-02T00:00:00Z")
    rec.log(model="mlp", seed=3, p=fake_p(y, 1, 4), **args)
    assert _rows(root)[3]["split_id"] not in ("", before)


def test_row_ids_must_be_rows_of_the_split_part(project):
    root, rec, parts = project
    val = parts["validation"]["row_id"].to_numpy()
    test_ids = parts["test"]["row_id"].to_numpy()
    ids = np.concatenate([val[:10], test_ids[:5], val[10:]])  # 5 test rows mixed in at 10
    y = np.zeros(len(ids), dtype=int)
    with pytest.raises(ValueError) as e:
        log(rec, split="val", row_id=ids, y=y, p=np.full(len(ids), 0.4))
    assert str(e.value) == (
        f"row_id[10] = {int(test_ids[0])} is not a row of the frozen validation split "
        "(split/validation.csv, column 'row_id'); 5 of the 65 row ids are not in it"
    )
    assert _rows(root) == [] and list((root / "artefacts/predictions").iterdir()) == []
    # string ids are compared as the report compares them (text, stripped)
    with pytest.raises(ValueError, match=r"row_id\[0\] = 'x1060' is not a row"):
        log(rec, split="validation", row_id=["x1060", "1061"], y=[0, 1], p=[0.2, 0.8])
    with pytest.warns(UserWarning, match="2 of the 60 rows of the validation split logged"):
        log(rec, split="validation", row_id=[" 1060", "1061"], y=[0, 1], p=[0.2, 0.8])


def test_whole_part_logged_gives_no_warning(project):
    root, rec, parts = project
    y = parts["test"]["y"].to_numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        log(rec, split="test", row_id=parts["test"]["row_id"], y=y, p=fake_p(y, 1, 1))


@pytest.mark.parametrize(
    "metric, kwargs, message",
    [
        ("logloss", {}, "is not a built-in metric .*; did you mean 'log_loss'\\?"),
        ("Log-Loss", {}, "did you mean 'log_loss'\\?"),
        ("bier", {}, "did you mean 'brier'\\?"),
        ("acuracy", {"correct": True}, "cannot be computed from correct=.*did you mean 'accuracy'"),
        ("f1", {}, "metric='f1' is not a built-in metric \\[.*\\] \\(for a metric of your own"),
    ],
)
def test_metric_typos_get_did_you_mean(project, metric, kwargs, message):
    root, rec, parts = project
    ids = [1060, 1061, 1062]
    if kwargs.get("correct"):
        args = dict(correct=[1, 0, 1])
    else:
        args = dict(y=[0, 1, 1], p=[0.2, 0.7, 0.9])
    with pytest.raises(ValueError, match=message) as e:
        log(rec, split="validation", row_id=ids, metric=metric, **args)
    if metric == "f1":
        assert "did you mean" not in str(e.value)


def test_own_metric_named_like_a_built_in_warns(project):
    root, rec, _ = project
    with pytest.warns(UserWarning, match="reads like the built-in 'log_loss': give y and p"):
        log(rec, split="validation", row_id=[1060, 1061], values=[0.3, 0.2], metric="log-loss")


def test_multi_class_p_is_logged_and_a_binary_y_points_to_both_routes(project):
    root, rec, _ = project
    ids = [1060, 1061, 1062]
    proba = np.full((3, 3), 1 / 3)
    # a (N, 3) predict_proba is a multi-class run: the built-in metric, p_<class> columns
    logged = log(rec, model="m", seed=3, split="validation", row_id=ids, y=[0, 1, 2], p=proba)
    assert logged["log_loss"] == pytest.approx(np.log(3))
    with pytest.raises(ValueError) as e:
        log(rec, model="m", split="validation", row_id=ids, y=[0, 1, 2], p=[0.1, 0.2, 0.3])
    assert str(e.value).startswith(
        "y[2] = 2.0 is not a valid label; it should be 0 or 1; y has 3 labels"
    )
    assert "values=" in str(e.value) and "classes=estimator.classes_" in str(e.value)
    # the per-row route the message names works
    y = np.array([0, 1, 2])
    got = log(
        rec,
        model="m",
        split="validation",
        row_id=ids,
        metric="nll",
        values=-np.log(proba[np.arange(len(y)), y]),
    )
    assert got["nll"] == pytest.approx(np.log(3))
    with pytest.raises(ValueError, match=r"p\[:, 1\]"):
        log(
            rec,
            model="m",
            seed=2,
            split="validation",
            row_id=ids,
            y=[0, 1, 1],
            p=np.full((3, 2), 0.5),
        )
