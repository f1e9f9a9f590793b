"""The multi-class and regression figures of generated projects against scikit-learn
and numpy on the predictions files the generator wrote (never reportgen's own arrays)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from tests.layouts import cells as C
from tests.layouts.conftest import cell_params
from tests.layouts.gen_tasks import mc_row_metric, reg_row_metric
from tests.layouts.test_figures import built_ok, expected_test_gap

TOL = 1e-12


def _prediction_file(b, model: str, seed, part: str = "test") -> pd.DataFrame:
    runs = pd.read_csv(b.gen.path / "runs.csv")
    row = runs[(runs.model == model) & (runs.seed == seed) & (runs.split == part)].iloc[0]
    path = b.gen.path / row.predictions
    return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)


def _proba(frame: pd.DataFrame, k: int) -> np.ndarray:
    return frame[[f"p_{c}" for c in range(k)]].to_numpy()


@pytest.mark.parametrize("cell", cell_params([C.MC_MISSING, C.MC_BINARY_CLASSES]))
def test_multiclass_figures_match_sklearn(cell, built_cells):
    b = built_ok(built_cells, cell)
    sec = b.report["multiclass"]
    k = len(sec["classes"])
    assert b.report["project"]["task"] == "multiclass"
    for role, model in (("candidate", b.gen.candidate), ("baseline", b.gen.baseline)):
        m = sec[role]
        f = _prediction_file(b, model, m["seed"])
        y, p = f["y"].to_numpy(), _proba(f, k)
        hat = p.argmax(axis=1)
        assert m["confusion"] == skm.confusion_matrix(y, hat, labels=list(range(k))).tolist()
        assert m["accuracy"] == pytest.approx(skm.accuracy_score(y, hat), rel=TOL)
        assert m["macro_f1"] == pytest.approx(skm.f1_score(y, hat, average="macro"), rel=TOL)
        recall = skm.recall_score(y, hat, labels=list(range(k)), average=None, zero_division=0)
        for c, row in enumerate(m["per_class"]):
            if row["rows"]:
                assert row["recall"] == pytest.approx(recall[c], rel=TOL)
        # the logged metric of this network is scikit-learn's on the same file
        assert b.gen.logged[(model, m["seed"], "test")] == pytest.approx(
            skm.log_loss(y, p, labels=list(range(k))), rel=TOL
        )
        # top-label calibration against a binning by hand
        top, hit = p.max(axis=1), (hat == y).astype(float)
        idx = np.minimum((top * 10).astype(int), 9)
        ece = sum(
            (idx == j).sum() * abs(top[idx == j].mean() - hit[idx == j].mean())
            for j in range(10)
            if (idx == j).any()
        ) / len(y)
        assert m["top_label"]["ece"] == pytest.approx(ece, rel=1e-10)


def test_a_class_missing_from_a_block_builds_and_says_so(built_cells):
    b = built_ok(built_cells, C.MC_MISSING)
    gen = b.gen
    test = gen.parts["test"]
    first = test[test.week == test.week.iloc[0]]
    assert not (first.y == 2).any() and (test.y == 2).any()  # missing in a block, not overall
    assert b.report["multiclass"]["candidate"]["missing_classes"] == []
    assert b.report["descriptions"][0]["name"] == "macro_f1"
    assert b.report["descriptions"][0]["low"] <= b.report["descriptions"][0]["gap"]


@pytest.mark.parametrize("cell", cell_params([C.MC_MISSING, C.REG_UNIT, C.REG_UNEQUAL]))
def test_task_block_gap_is_the_row_weighted_test_metric(cell, built_cells):
    b = built_ok(built_cells, cell)
    assert b.report["noise"]["block"]["gap"] == pytest.approx(expected_test_gap(b.gen), rel=1e-9)


@pytest.mark.parametrize("cell", cell_params([C.REG_UNIT, C.REG_UNEQUAL]))
def test_regression_figures_match_sklearn(cell, built_cells):
    b = built_ok(built_cells, cell)
    sec = b.report["regression"]
    assert b.report["project"]["task"] == "regression"
    assert sec["unit"] == cell.get("unit")
    for role, model in (("candidate", b.gen.candidate), ("baseline", b.gen.baseline)):
        m = sec[role]
        f = _prediction_file(b, model, m["seed"])
        y, yp = f["y"].to_numpy(), f["y_pred"].to_numpy()
        assert m["mse"] == pytest.approx(skm.mean_squared_error(y, yp), rel=TOL)
        assert m["rmse"] == pytest.approx(skm.root_mean_squared_error(y, yp), rel=TOL)
        assert m["mae"] == pytest.approx(skm.mean_absolute_error(y, yp), rel=TOL)
        assert m["r2"] == pytest.approx(skm.r2_score(y, yp), rel=1e-10)
        metric = b.report["project"]["metric"]
        assert b.gen.logged[(model, m["seed"], "test")] == pytest.approx(
            reg_row_metric(metric, y, yp).mean(), rel=TOL
        )
        split = b.gen.parts["test"].set_index("row_id")
        joined = f.join(split[["route", "week"]], on="row_id")
        for g in m["by_slice"]:
            part = joined[joined.route == g["slice"]]
            assert g["rows"] == len(part)
            assert g["mae"] == pytest.approx(
                skm.mean_absolute_error(part.y, part.y_pred), rel=1e-12
            )
            assert g["rmse"] == pytest.approx(
                skm.root_mean_squared_error(part.y, part.y_pred), rel=1e-12
            )
        for g in m["by_block"]:
            part = joined[joined.week == g["block"]]
            assert g["mean_residual"] == pytest.approx((part.y - part.y_pred).mean(), rel=1e-10)
        assert len(m["points"]["actual"]) <= 500


def test_regression_r2_description_is_the_mean_over_networks(built_cells):
    b = built_ok(built_cells, C.REG_UNIT)
    d = b.report["descriptions"][0]
    assert d["name"] == "r2" and d["low"] <= d["gap"] <= d["high"]
    per_model = []
    for model in (b.gen.candidate, b.gen.baseline):
        r2 = [
            skm.r2_score(f["y"], f["y_pred"])
            for s in b.gen.seeds(model, "test", predictions=True)
            for f in [_prediction_file(b, model, s)]
        ]
        per_model.append(np.mean(r2))
    assert d["candidate"] == pytest.approx(per_model[0], rel=1e-10)
    assert d["gap"] == pytest.approx(per_model[0] - per_model[1], rel=1e-10)


def test_generator_metrics_are_sklearn(built_cells):
    """The generator's own definitions (its truth) are scikit-learn's."""
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(4), size=50)
    y = rng.integers(0, 4, size=50)
    assert mc_row_metric("brier", y, p).mean() == pytest.approx(
        skm.brier_score_loss(y, p, labels=[0, 1, 2, 3]), rel=TOL
    )
    assert mc_row_metric("log_loss", y, p).mean() == pytest.approx(
        skm.log_loss(y, p, labels=[0, 1, 2, 3]), rel=TOL
    )


@pytest.mark.parametrize("cell", cell_params(C.TASK_SPECIAL))
def test_binary_sections_are_absent_with_their_reason(cell, built_cells):
    b = built_ok(built_cells, cell)
    r = b.report
    assert r["threshold"] is None and r["ranking"] is None and r["calibration"] is None
    task = cell["task"]
    assert (r["multiclass"] is None) == (task != "multiclass")
    assert (r["regression"] is None) == (task != "regression")


def test_unit_is_named_in_the_noise_sentences(built_cells):
    b = built_ok(built_cells, C.REG_UNIT)
    lines = b.report["noise"]["lines"]
    assert all("mean squared error in mmHg²" in ln for ln in lines[1:2])
    assert "mean squared error in mmHg²" in b.report["claim"]["rewritten"]


def _strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)


def test_every_useful_effect_carries_the_unit(built_cells):
    """With [claim] unit, the useful effect is "0.005 mmHg²" in every sentence that gives it."""
    import re

    b = built_ok(
        built_cells, {**C.REG_UNIT, "id": "task-regression-unit-useful", "min_useful_effect": 0.005}
    )
    said = [s for s in _strings(b.report) if re.search(r"useful effect (of )?0\.005", s)]
    assert said
    for s in said:
        assert re.findall(r"useful effect (?:of )?0\.005( mmHg²)?", s) == [" mmHg²"] * len(
            re.findall(r"useful effect (?:of )?0\.005", s)
        ), s


@pytest.mark.parametrize(
    ("cell", "live"),
    [
        ({"id": "task-regression-noblock-adopt", "blocks": "none"}, "the gap on new rows"),
        ({"id": "task-regression-week-adopt"}, "the live week gap"),
    ],
)
def test_reconsider_names_no_period_without_a_block_column(cell, live, built_cells):
    b = built_ok(
        built_cells,
        {**C.REG_UNIT, **cell, "effect": "very-strong", "min_useful_effect": 0.005},
    )
    r = b.report
    assert r["decision"]["verdict"] == "adopt", r["decision"]
    items = r["claim"]["reconsider_items"]
    assert f"{live} falls below the useful effect 0.005 mmHg²" in items
