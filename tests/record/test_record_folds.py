"""split/folds.csv from scikit-learn splitters (Recorder.write_folds), and a cv project recorded
end to end: write the folds, freeze, log every fold of two models, build."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
)

from reportgen.record import Recorder
from reportgen.record.folds import folds_of
from tests.record.conftest import log

N = 40
X = np.arange(N * 2, dtype=float).reshape(N, 2)
Y = np.array([0, 1, 1, 0, 1] * 8)
GROUPS = np.repeat(np.arange(8), 5)
IDS = np.array([f"id{i:02d}" for i in range(N)], dtype=object)


def _read(root) -> pd.DataFrame:
    return pd.read_csv(root / "split" / "folds.csv", dtype={"row_id": str})


@pytest.mark.parametrize(
    ("splitter", "repeats", "folds"),
    [
        (RepeatedStratifiedKFold(n_splits=4, n_repeats=3, random_state=1), 3, 4),
        (RepeatedKFold(n_splits=5, n_repeats=2, random_state=2), 2, 5),
        (StratifiedKFold(n_splits=5, shuffle=True, random_state=3), 1, 5),
        (KFold(n_splits=3), 1, 3),
        (GroupKFold(n_splits=4), 1, 4),
    ],
    ids=lambda v: type(v).__name__ if not isinstance(v, int) else str(v),
)
def test_folds_csv_is_the_splitters_test_sets(tmp_path, splitter, repeats, folds):
    groups = GROUPS if isinstance(splitter, GroupKFold) else None
    rec = Recorder(tmp_path)
    got = rec.write_folds(splitter, X, Y, groups=groups, row_id=IDS)
    frame = _read(tmp_path)
    assert list(frame.columns) == ["row_id", "repeat", "fold"]
    assert len(frame) == N * repeats
    assert sorted(frame.repeat.unique()) == list(range(1, repeats + 1))
    assert sorted(frame.fold.unique()) == list(range(1, folds + 1))
    # every row exactly once per repeat
    assert (frame.groupby("repeat").row_id.nunique() == N).all()
    assert not frame.duplicated(["row_id", "repeat"]).any()
    # each fold of folds.csv holds out exactly the splitter's test set, in its order
    expected = list(splitter.split(X, Y, groups))
    assert len(got) == len(expected) == repeats * folds
    for i, (f, (train, test)) in enumerate(zip(got, expected, strict=True)):
        assert (f.repeat, f.fold) == (1 + i // folds, 1 + i % folds)
        np.testing.assert_array_equal(f.test, test)
        np.testing.assert_array_equal(f.train, train)
        held = frame[(frame.repeat == f.repeat) & (frame.fold == f.fold)].row_id
        assert set(held) == set(IDS[test])


def test_group_folds_keep_groups_together(tmp_path):
    Recorder(tmp_path).write_folds(GroupKFold(n_splits=4), X, groups=GROUPS, row_id=IDS)
    frame = _read(tmp_path)
    frame["group"] = frame.row_id.map(dict(zip(IDS, GROUPS, strict=True)))
    assert (frame.groupby("group").fold.nunique() == 1).all()


def test_stratified_folds_keep_the_class_share(tmp_path):
    rsk = RepeatedStratifiedKFold(n_splits=4, n_repeats=2, random_state=0)
    Recorder(tmp_path).write_folds(rsk, X, Y, row_id=IDS)
    frame = _read(tmp_path)
    frame["y"] = frame.row_id.map(dict(zip(IDS, Y, strict=True)))
    share = frame.groupby(["repeat", "fold"]).y.mean()
    assert np.allclose(share, Y.mean())


def test_default_row_ids_are_the_positions(tmp_path):
    Recorder(tmp_path).write_folds(KFold(n_splits=4), X)
    frame = _read(tmp_path)
    assert list(frame.row_id) == [str(i) for i in range(N)]
    assert list(frame.fold) == [1] * 10 + [2] * 10 + [3] * 10 + [4] * 10


def test_a_splitter_that_is_not_a_k_fold_is_refused(tmp_path):
    with pytest.raises(ValueError, match="test sets overlap within a repeat|in no test set"):
        Recorder(tmp_path).write_folds(ShuffleSplit(n_splits=5, test_size=0.5), X)
    with pytest.raises(ValueError, match="in no test set"):
        folds_of(ShuffleSplit(n_splits=1, test_size=0.25, random_state=0), X)
    assert not (tmp_path / "split" / "folds.csv").exists()


def test_bad_row_ids_are_refused(tmp_path):
    rec = Recorder(tmp_path)
    with pytest.raises(ValueError, match="row_id has 39 values but X has 40 rows"):
        rec.write_folds(KFold(4), X, row_id=IDS[:-1])
    with pytest.raises(ValueError, match="duplicate"):
        rec.write_folds(KFold(4), X, row_id=np.r_[IDS[:-1], IDS[:1]])


def test_leave_one_out_is_written_and_the_build_refuses_it(tmp_path):
    """Leave-one-out is a k-fold (k = n); writing it works, the corrected t refuses it."""
    folds = folds_of(LeaveOneOut(), X[:6])
    assert [(f.repeat, f.fold, len(f.test)) for f in folds] == [(1, k, 1) for k in range(1, 7)]


TOML = """title = "Recorder cv"

[claim]
text      = "mlp beats lr"
candidate = "mlp"
baseline  = "lr"
metric    = "log_loss"
min_useful_effect = 0.01

[rule]
written = 2020-01-01

[evaluation]
design = "cv"
"""


def test_a_cv_project_recorded_end_to_end(tmp_path):
    """write_folds, freeze, then log(split="fold", repeat=r, fold=k) for both models: the build
    reads every fold, the corrected t uses the fold sizes, the rows say repeat and fold."""
    import jsonschema
    from click.testing import CliRunner

    from reportgen.cli import main
    from tests.layouts.conftest import SCHEMA_PATH

    rng = np.random.default_rng(5)
    x = rng.normal(size=N)
    y = (rng.random(N) < 1 / (1 + np.exp(-2 * x))).astype(int)
    (tmp_path / "evreport.toml").write_text(TOML)
    rec = Recorder(tmp_path)
    folds = rec.write_folds(RepeatedStratifiedKFold(n_splits=4, n_repeats=2, random_state=0), X, y)
    rec.freeze("2020-01-01T00:00:00Z")
    for f in folds:
        # what every run of this fold logs: its held-out rows, the time, features and split
        held_out = {"split": "fold", "repeat": f.repeat, "fold": f.fold, "row_id": f.test}
        shared = {"started_at": "2020-01-02T00:00:00Z", "features": "x", "split_id": "rskf"}
        for model, skill in (("mlp", 2.0), ("lr", 1.0)):
            for seed in (1, 2) if model == "mlp" else (0,):
                z = skill * x[f.test] + 0.3 * np.random.default_rng(
                    [seed, f.repeat, f.fold]
                ).normal(size=len(f.test))
                p = 1 / (1 + np.exp(-z))
                log(rec, model=model, seed=seed, y=y[f.test], p=p, **held_out, **shared)
    runs = pd.read_csv(tmp_path / "runs.csv")
    assert len(runs) == 8 * 3
    assert set(runs.run_id) >= {"mlp-s1-r1-f1", "lr-s0-r2-f4"}
    assert set(zip(runs.repeat, runs.fold, strict=True)) == {
        (r, k) for r in (1, 2) for k in (1, 2, 3, 4)
    }
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["build", str(tmp_path), "--format", "json", "--out", str(out)])
    assert r.exit_code == 0, r.output
    report = json.loads((out / "report.json").read_text())
    jsonschema.validate(report, json.loads(SCHEMA_PATH.read_text()))
    cv = report["noise"]["cv"]
    assert (cv["repeats"], cv["folds"], cv["J"], cv["ratio_from"]) == (2, 4, 8, "folds.csv")
    assert cv["test_train_ratio"] == pytest.approx(10 / 30, rel=1e-12)
    assert report["noise"]["lines"][1].startswith("Resampling (cross-validation, 2 x 4 folds")


def test_a_fold_row_logs_exactly_that_folds_rows(tmp_path):
    """log(split="fold") checks its row ids against that repeat and fold of split/folds.csv: a
    row of another fold is refused, a fold logged in part is a warning."""
    (tmp_path / "evreport.toml").write_text(TOML)
    rec = Recorder(tmp_path)
    folds = rec.write_folds(KFold(n_splits=4), X, row_id=IDS)
    rec.freeze("2020-01-01T00:00:00Z")
    f1, f2 = folds[0], folds[1]
    y = np.zeros(N, dtype=int)
    p = np.full(N, 0.3)
    common = dict(model="mlp", seed=1, split="fold", metric="log_loss")
    with pytest.raises(ValueError, match=r"row_id\[0\] = 'id10' is not a row of repeat 1 fold 1"):
        rec.log(**common, fold=1, row_id=IDS[f2.test], y=y[f2.test], p=p[f2.test])
    with pytest.raises(ValueError, match=r"repeat=2, fold=1 is not a fold of split/folds.csv"):
        rec.log(**common, repeat=2, fold=1, row_id=IDS[f1.test], y=y[f1.test], p=p[f1.test])
    part = f1.test[:5]
    with pytest.warns(UserWarning, match="5 of the 10 rows of repeat 1 fold 1 logged"):
        rec.log(**common, fold=1, row_id=IDS[part], y=y[part], p=p[part])
    assert not (tmp_path / "artefacts" / "predictions" / "mlp-s1-r1-f2-fold.parquet").exists()
