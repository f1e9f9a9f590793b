"""Recorder.log for multi-class (2-D p, classes) and regression (y_pred) runs: the files it
writes, the logged value equal to the recomputed one, and the refusals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from reportgen.record import Recorder

TOML = """title = "t"

[claim]
text = "c"
candidate = "a"
baseline = "b"
metric = "{metric}"
{task}
"""


def _project(tmp_path, metric="log_loss", task=""):
    (tmp_path / "split").mkdir(parents=True)
    pd.DataFrame({"row_id": [f"r{i}" for i in range(30)]}).to_csv(
        tmp_path / "split" / "test.csv", index=False
    )
    (tmp_path / "evreport.toml").write_text(TOML.format(metric=metric, task=task))
    rec = Recorder(tmp_path)
    rec.freeze("2026-01-01T00:00:00Z")
    return rec


def _proba(n, k, seed=0):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, k))
    return np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)


def _log(rec, **kwargs):
    """rec.log of model "a", seed 1 on 30 test rows r0 .. r29, unless the call says otherwise."""
    args = dict(model="a", seed=1, split="test", row_id=[f"r{i}" for i in range(30)])
    return rec.log(**{**args, **kwargs})


def test_multiclass_writes_p_columns_and_logs_sklearns_value(tmp_path):
    rec = _project(tmp_path, task='task = "multiclass"')
    ids = [f"r{i}" for i in range(30)]
    p = _proba(30, 3)
    y = np.array(["cat", "dog", "eel"])[np.arange(30) % 3]
    out = _log(
        rec,
        row_id=ids,
        y=y,
        p=p,
        classes=["cat", "dog", "eel"],
        metric=["log_loss", "brier", "accuracy"],
    )
    frame = pd.read_parquet(tmp_path / "artefacts/predictions/a-s1-test.parquet")
    assert list(frame.columns) == ["row_id", "y", "p_cat", "p_dog", "p_eel"]
    idx = np.arange(30) % 3
    assert out["log_loss"] == pytest.approx(skm.log_loss(idx, p), rel=1e-12)
    assert out["brier"] == pytest.approx(skm.brier_score_loss(idx, p), rel=1e-12)
    assert out["accuracy"] == pytest.approx(skm.accuracy_score(idx, p.argmax(axis=1)), rel=1e-12)


def test_integer_classes_default_and_two_columns_need_the_task(tmp_path):
    rec = _project(tmp_path)
    ids = [f"r{i}" for i in range(30)]
    _log(rec, row_id=ids, y=np.arange(30) % 4, p=_proba(30, 4), metric="log_loss")
    frame = pd.read_parquet(tmp_path / "artefacts/predictions/a-s1-test.parquet")
    assert list(frame.columns)[2:] == ["p_0", "p_1", "p_2", "p_3"]
    assert frame["y"].dtype.kind == "i"
    with pytest.raises(ValueError, match=r"p\[:, 1\]"):
        _log(rec, model="b", row_id=ids, y=np.arange(30) % 2, p=_proba(30, 2), metric="log_loss")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"y": np.arange(30) % 3, "p": _proba(30, 3) * 2}, "outside"),
        ({"y": np.arange(30) % 3, "p": _proba(30, 3) * 0.9}, "sums to"),
        ({"y": np.arange(30) % 4, "p": _proba(30, 3)}, "not among the classes"),
        ({"y": np.arange(30) % 3, "p": _proba(30, 3), "classes": ["a", "b"]}, "one per column"),
    ],
)
def test_multiclass_refusals(tmp_path, kwargs, message):
    rec = _project(tmp_path)
    with pytest.raises(ValueError, match=message):
        _log(rec, metric="log_loss", **kwargs)


def test_a_binary_label_error_points_to_multiclass(tmp_path):
    rec = _project(tmp_path)
    with pytest.raises(ValueError, match="classes=estimator.classes_"):
        _log(rec, y=np.arange(30) % 3, p=np.full(30, 0.5), metric="log_loss")


def test_regression_writes_y_pred_and_logs_sklearns_value(tmp_path):
    rec = _project(tmp_path, metric="squared_error")
    rng = np.random.default_rng(1)
    y = rng.normal(100, 20, size=30)
    yp = y + rng.normal(0, 5, size=30)
    out = _log(rec, y=y, y_pred=yp, metric=["squared_error", "absolute_error"])
    frame = pd.read_parquet(tmp_path / "artefacts/predictions/a-s1-test.parquet")
    assert list(frame.columns) == ["row_id", "y", "y_pred"]
    assert out["squared_error"] == pytest.approx(skm.mean_squared_error(y, yp), rel=1e-12)
    assert out["absolute_error"] == pytest.approx(skm.mean_absolute_error(y, yp), rel=1e-12)
    with pytest.raises(ValueError, match="not a regression metric"):
        _log(rec, model="b", y=y, y_pred=yp, metric="log_loss")
    with pytest.raises(ValueError, match="not both"):
        _log(rec, model="b", y=y, y_pred=yp, p=np.full(30, 0.5), metric="squared_error")


def test_logged_projects_build_with_logged_equal_recomputed(tmp_path):
    from reportgen.checks import compute_report
    from reportgen.project import load_project

    rec = _project(tmp_path, metric="brier", task='task = "multiclass"')
    ids = [f"r{i}" for i in range(30)]
    for model, seed in (("a", 1), ("b", 2)):
        _log(
            rec, model=model, row_id=ids, y=np.arange(30) % 3, p=_proba(30, 3, seed), metric="brier"
        )
    report, _ = compute_report(load_project(tmp_path))
    assert report["project"]["task"] == "multiclass"
    assert all(c["agree"] for c in report["comparisons"]) and len(report["comparisons"]) == 2


def test_classes_out_of_sorted_order_warn(tmp_path):
    """estimator.classes_ is always sorted: another order usually misnames p's columns."""
    import warnings

    rec = _project(tmp_path)
    y = np.array(["a", "b", "c"])[np.arange(30) % 3]
    with pytest.warns(UserWarning, match=r"not in sorted order.*\['a', 'b', 'c'\]"):
        _log(rec, y=y, p=_proba(30, 3), classes=["c", "a", "b"], metric="log_loss")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _log(rec, seed=2, y=y, p=_proba(30, 3), classes=["a", "b", "c"], metric="log_loss")
        _log(
            rec,
            seed=3,
            y=np.arange(30) % 3,
            p=_proba(30, 3),
            classes=np.array([0, 1, 2]),
            metric="log_loss",
        )
    with pytest.warns(UserWarning, match="not in sorted order"):  # numbers compare as numbers
        _log(
            rec,
            seed=4,
            y=np.arange(30) % 3 * 5,
            p=_proba(30, 3),
            classes=[10, 5, 0],
            metric="log_loss",
        )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"p": _proba(30, 3) * 0.9}, r"row 0 sums to 0\.9; "),
        ({"p": _proba(30, 3) + 1}, r"p\[0, 0\] = 1\.\d+ is outside"),
        ({"p": np.where(np.eye(30, 3, k=1) > 0, np.nan, _proba(30, 3))}, r"p\[0, 1\] is nan:"),
    ],
)
def test_multiclass_messages_print_plain_numbers(tmp_path, kwargs, message):
    rec = _project(tmp_path)
    with pytest.raises(ValueError, match=message) as e:
        _log(rec, y=np.arange(30) % 3, metric="log_loss", **kwargs)
    assert "np." not in str(e.value)


def test_regression_messages_print_plain_numbers(tmp_path):
    rec = _project(tmp_path, metric="squared_error")
    y = np.linspace(0, 1, 30)
    bad = y.copy()
    bad[3] = np.nan
    with pytest.raises(ValueError, match=r"y_pred\[3\] is nan: it must be finite") as e:
        _log(rec, y=y, y_pred=bad, metric="squared_error")
    assert "np." not in str(e.value)


#: metric names mistyped, by task, and the built-in name the error suggests
TYPOS = {
    "multiclass": {"logloss": "log_loss", "acuracy": "accuracy", "nll": "log_loss"},
    "regression": {
        "squared_eror": "squared_error",
        "mse": "squared_error",
        "MAE": "absolute_error",
    },
}


@pytest.mark.parametrize(
    ("task", "metric", "suggestion"),
    [(task, typo, name) for task, typos in TYPOS.items() for typo, name in typos.items()],
)
def test_task_metric_typos_get_did_you_mean(tmp_path, task, metric, suggestion):
    rec = _project(tmp_path)
    kwargs = (
        {"y": np.arange(30) % 3, "p": _proba(30, 3)}
        if task == "multiclass"
        else {"y": np.linspace(0, 1, 30), "y_pred": np.linspace(0, 1, 30)}
    )
    with pytest.raises(ValueError, match=f"did you mean '{suggestion}'\\?"):
        _log(rec, metric=metric, **kwargs)


def _good_proba(y, k, rng, right=0.9):
    """Probabilities that put ``right`` on the true class of most rows."""
    p = np.full((len(y), k), (1 - right) / (k - 1))
    hit = rng.random(len(y)) < 0.95
    p[np.arange(len(y)), np.where(hit, y, (y + 1) % k)] = right
    return p


@pytest.mark.parametrize("wrong", ["candidate", "baseline", None])
def test_misnamed_class_columns_warn_in_the_report(tmp_path, wrong):
    """Columns in the wrong order: accuracy far below 1/K that a relabelling lifts. A warning
    names the file; for the candidate, rung 1 is partly (the evaluation code is in doubt)."""
    import warnings

    from reportgen.checks import compute_report
    from reportgen.project import load_project

    rec = _project(tmp_path, metric="log_loss", task='task = "multiclass"')
    ids = [f"r{i}" for i in range(30)]
    y = np.array(["a", "b", "c"])[np.arange(30) % 3]
    rng = np.random.default_rng(3)
    for model in ("a", "b"):
        order = ["c", "a", "b"] if model == {"candidate": "a", "baseline": "b"}.get(wrong) else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _log(
                rec,
                model=model,
                row_id=ids,
                y=y,
                p=_good_proba(np.arange(30) % 3, 3, rng),
                classes=order or ["a", "b", "c"],
                metric="log_loss",
            )
    report, problems = compute_report(load_project(tmp_path))
    found = [p for p in problems if p.slug == "class-order"]
    role = wrong
    if role is None:
        assert found == []
        assert report["multiclass"]["candidate"]["class_order"] is None
        return
    [w] = found
    doubt = report["multiclass"][role]["class_order"]
    assert doubt["relabelled"] == ["b", "c", "a"]  # p_a holds b, p_b holds c, p_c holds a
    assert doubt["relabelled_accuracy"] > 0.9 and doubt["accuracy"] < 0.1
    assert "reading its columns p_a as b, p_b as c, p_c as a would give" in w.message
    assert w.path.endswith(f"{'a' if role == 'candidate' else 'b'}-s1-test.parquet")
    rung1 = report["ladder"][0]
    if role == "candidate":
        assert rung1["status"] == "partly" and rung1["missing"] == doubt["text"]
    else:
        assert rung1["missing"] != doubt["text"]
