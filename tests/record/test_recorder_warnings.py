"""Every warning Recorder.log gives points at the user's own rec.log call (its stacklevel)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.model_selection import KFold

from reportgen.record import Recorder
from tests.record.conftest import fake_p


def _no_manifest(tmp_path, _project):
    rec = Recorder(tmp_path / "bare")
    return rec, {"split": "test", "metric": "x", "row_id": [1], "values": [0.5]}


def _part_rows_left_out(_tmp_path, project):
    _, rec, parts = project
    v = parts["validation"].head(10)
    y = v["y"].to_numpy()
    return rec, {"split": "validation", "row_id": v["row_id"], "y": y, "p": y * 0.5 + 0.2}


def _no_validation_threshold(_tmp_path, project):
    _, rec, parts = project
    t = parts["test"]
    y = t["y"].to_numpy()
    return rec, {
        "split": "test",
        "metric": "cost",
        "row_id": t["row_id"],
        "y": y,
        "p": fake_p(y, 1, 1),
    }


def _reads_like_built_in(_tmp_path, project):
    _, rec, parts = project
    v = parts["validation"]
    return rec, {
        "split": "validation",
        "metric": "Log-Loss",
        "row_id": v["row_id"],
        "values": np.ones(len(v)),
    }


def _unsorted_classes(_tmp_path, project):
    _, rec, parts = project
    v = parts["validation"]
    n = len(v)
    p = np.full((n, 3), 1 / 3)
    return rec, {
        "split": "validation",
        "row_id": v["row_id"],
        "y": np.arange(n) % 3,
        "p": p,
        "classes": [2, 0, 1],
    }


def _fold_rows_left_out(tmp_path, _project):
    rec = Recorder(tmp_path / "cv")
    ids = np.arange(20)
    first = rec.write_folds(KFold(n_splits=2), np.zeros((20, 1)), row_id=ids)[0]
    rec.freeze("2020-01-01T00:00:00Z")
    held = ids[first.test][:3]
    return rec, {"split": "fold", "fold": 1, "metric": "x", "row_id": held, "values": np.ones(3)}


@pytest.mark.parametrize(
    ("setup", "says"),
    [
        (_no_manifest, "does not exist: freeze the split"),
        (_part_rows_left_out, "rows of the validation split logged"),
        (_no_validation_threshold, "has no validation predictions yet"),
        (_reads_like_built_in, "reads like the built-in"),
        (_unsorted_classes, "is not in sorted order"),
        (_fold_rows_left_out, "rows of repeat 1 fold 1 logged"),
    ],
    ids=lambda v: getattr(v, "__name__", "").strip("_") or None,
)
def test_warning_points_at_the_callers_line(tmp_path, project, setup, says):
    rec, kwargs = setup(tmp_path, project)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rec.log(**{"model": "mlp", "seed": 1, "metric": "log_loss", **kwargs})
    got = [w for w in caught if says in str(w.message)]
    assert got, says
    assert {w.filename for w in got} == {__file__}
