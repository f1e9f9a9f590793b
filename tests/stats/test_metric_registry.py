"""The metric registry: every built-in metric against scikit-learn, the invariants every entry
must keep (in the manner of scikit-learn's test_common), and every table derived from it."""

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.names import did_you_mean, fold, metric_aliases
from reportgen.project import config
from reportgen.record import inputs as record_inputs
from reportgen.stats import metric_registry as reg
from reportgen.stats import metrics, multiclass, regression
from reportgen.stats.metrics import gap
from reportgen.words import metric_label, metric_unit

SEEDS = st.integers(0, 2**32 - 1)
FEW = settings(max_examples=12, deadline=None)
#: every (metric, predictions kind) the registry holds
PAIRS = [(n, kind) for n, m in reg.METRICS.items() for kind in m.per_row]
#: the task module whose HIGHER_IS_BETTER and per_row_metric serve each task
TASK_MODULES = {"binary": metrics, "multiclass": multiclass, "regression": regression}


def _binary(rng, n):
    y = rng.integers(0, 2, n)
    p = rng.random(n)
    p[: n // 4] = np.round(p[: n // 4])  # exact 0 and 1: the clipping
    truth = {"y": y, "threshold": rng.uniform(0.05, 0.95), "c_fp": 1.5, "c_fn": 4.0}
    return truth, {"p": p}, {"p": y.astype(float)}, {"p": 1.0 - y}


def _multiclass(rng, n):
    k = int(rng.integers(2, 6))
    y = rng.integers(0, k, n)
    eye = np.eye(k)
    return (
        {"y": y},
        {"proba": rng.dirichlet(np.ones(k), n)},
        {"proba": eye[y]},
        {"proba": eye[(y + 1) % k]},
    )


def _regression(rng, n):
    y = rng.normal(100.0, 30.0, n)
    return {"y": y}, {"y_pred": y + rng.normal(0, 20, n)}, {"y_pred": y.copy()}, {"y_pred": y + 1}


def _correct(rng, n):
    return (
        {},
        {"correct": rng.random(n) < 0.7},
        {"correct": np.ones(n, bool)},
        {"correct": np.zeros(n, bool)},
    )


#: kind -> rng, rows -> (the truth, a random, the perfect and a wrong prediction of it)
CASES = {
    "binary": _binary,
    "multiclass": _multiclass,
    "regression": _regression,
    "correct": _correct,
}


def per_row(name, kind, truth, pred):
    """A metric's per-row values through the public function of its predictions kind."""
    d = truth | pred
    if kind == "binary":
        return metrics.per_row_metric(
            name, y=d["y"], p=d["p"], threshold=d["threshold"], c_fp=d["c_fp"], c_fn=d["c_fn"]
        )
    if kind == "correct":
        return metrics.per_row_metric(name, correct=d["correct"])
    if kind == "multiclass":
        return multiclass.per_row_metric(name, d["y"], d["proba"])
    return regression.per_row_metric(name, d["y"], d["y_pred"])


def _cost(d):
    tn, fp, fn, tp = skm.confusion_matrix(d["y"], d["p"] >= d["threshold"], labels=[0, 1]).ravel()
    return (d["c_fp"] * fp + d["c_fn"] * fn) / d["y"].size


def _accuracy(d):
    return skm.accuracy_score(d["y"], d["p"] >= d["threshold"])


#: (metric, kind) -> scikit-learn's aggregate of the same predictions
REFERENCES = {
    ("log_loss", "binary"): lambda d: skm.log_loss(d["y"], d["p"], labels=[0, 1]),
    ("brier", "binary"): lambda d: skm.brier_score_loss(d["y"], d["p"], labels=[0, 1]),
    ("accuracy", "binary"): _accuracy,
    ("error_rate", "binary"): lambda d: 1.0 - _accuracy(d),
    ("cost", "binary"): _cost,
    ("log_loss", "multiclass"): lambda d: skm.log_loss(
        d["y"], d["proba"], labels=range(d["proba"].shape[1])
    ),
    ("brier", "multiclass"): lambda d: skm.brier_score_loss(
        d["y"], d["proba"], labels=range(d["proba"].shape[1])
    ),
    ("accuracy", "multiclass"): lambda d: skm.accuracy_score(d["y"], d["proba"].argmax(axis=1)),
    ("error_rate", "multiclass"): lambda d: (
        1.0 - skm.accuracy_score(d["y"], d["proba"].argmax(axis=1))
    ),
    ("accuracy", "correct"): lambda d: skm.accuracy_score(np.ones_like(d["correct"]), d["correct"]),
    ("error_rate", "correct"): lambda d: (
        1.0 - skm.accuracy_score(np.ones_like(d["correct"]), d["correct"])
    ),
    ("squared_error", "regression"): lambda d: skm.mean_squared_error(d["y"], d["y_pred"]),
    ("absolute_error", "regression"): lambda d: skm.mean_absolute_error(d["y"], d["y_pred"]),
}


def test_every_metric_has_a_reference():
    assert sorted(PAIRS) == sorted(REFERENCES)


@pytest.mark.parametrize(("name", "kind"), PAIRS)
@FEW
@given(seed=SEEDS, n=st.integers(1, 80))
def test_mean_equals_sklearn(name, kind, seed, n):
    truth, pred, _, _ = CASES[kind](np.random.default_rng(seed), n)
    values = per_row(name, kind, truth, pred)
    assert values.shape == (n,) and values.dtype == np.float64
    assert values.mean() == pytest.approx(
        REFERENCES[name, kind](truth | pred), rel=1e-12, abs=1e-15
    )


@pytest.mark.parametrize(("name", "kind"), PAIRS)
@FEW
@given(seed=SEEDS, n=st.integers(1, 80))
def test_perfect_prediction_scores_best(name, kind, seed, n):
    """Row by row no prediction beats the perfect one, and the gap's sign follows the direction:
    the perfect prediction is better than a wrong one by a positive gap."""
    m = reg.METRICS[name]
    truth, pred, perfect, wrong = CASES[kind](np.random.default_rng(seed), n)
    best = per_row(name, kind, truth, perfect)
    sign = 1.0 if m.higher_is_better else -1.0
    for other in (pred, wrong):
        assert np.all(sign * (best - per_row(name, kind, truth, other)) >= -1e-15)
    assert gap(best.mean(), per_row(name, kind, truth, wrong).mean(), m.higher_is_better) > 0
    assert np.all(np.isfinite(best))


@pytest.mark.parametrize(("name", "kind"), [p for p in PAIRS if reg.METRICS[p[0]].complement])
@FEW
@given(seed=SEEDS, n=st.integers(1, 40))
def test_a_complement_is_one_minus_the_metric(name, kind, seed, n):
    m = reg.METRICS[name]
    other = reg.METRICS[m.complement]
    assert other.complement == name and kind in other.per_row
    assert other.higher_is_better != m.higher_is_better
    truth, pred, _, _ = CASES[kind](np.random.default_rng(seed), n)
    both = per_row(name, kind, truth, pred) + per_row(m.complement, kind, truth, pred)
    assert np.allclose(both, 1.0, rtol=0, atol=1e-15)


@pytest.mark.parametrize("name", list(reg.METRICS))
def test_an_entry_is_complete(name):
    m = reg.METRICS[name]
    assert m.name == name and m.words and m.tasks
    assert set(m.per_row) <= set(reg.TASKS) | {reg.CORRECT}
    assert m.unit_power in (0, 1, 2)
    assert not m.costs or m.threshold  # a cost is priced at a decision
    with pytest.raises(ValueError, match="not a"):
        per_row("not_a_metric", m.tasks[0], *CASES[m.tasks[0]](np.random.default_rng(0), 3)[:2])


def test_config_derives_its_tables():
    assert config.TASKS == reg.TASKS
    assert config.BUILTIN_METRICS == tuple(reg.METRICS)
    assert config.TASK_METRICS == {
        t: tuple(n for n, m in reg.METRICS.items() if t in m.tasks) for t in reg.TASKS
    }
    assert set(config.HIGHER_IS_BETTER_METRICS) == {
        n for n, m in reg.METRICS.items() if m.higher_is_better
    }
    assert not set(config.DESCRIPTIVE_METRICS) & set(reg.METRICS)


@pytest.mark.parametrize("task", reg.TASKS)
def test_each_task_module_has_the_direction_config_has(task):
    directions = TASK_MODULES[task].HIGHER_IS_BETTER
    assert tuple(directions) == config.TASK_METRICS[task]
    for name, higher in directions.items():
        assert (
            higher
            == (name in config.HIGHER_IS_BETTER_METRICS)
            == reg.METRICS[name].higher_is_better
        )


def test_the_recorder_derives_its_tables():
    assert record_inputs.THRESHOLD_METRICS == tuple(
        n for n, m in reg.METRICS.items() if m.threshold
    )
    assert record_inputs.CORRECT_METRICS == tuple(
        n for n, m in reg.METRICS.items() if m.from_correct
    )
    assert record_inputs.HIGHER_IS_BETTER is metrics.HIGHER_IS_BETTER


@pytest.mark.parametrize(
    ("name", "alias"), [(n, a) for n, m in reg.METRICS.items() for a in m.aliases]
)
def test_every_alias_resolves(name, alias):
    assert metric_aliases()[fold(alias)] == name
    assert did_you_mean(alias, config.BUILTIN_METRICS) == f"; did you mean {name!r}?"
    assert did_you_mean(alias.upper(), reg.task_metrics(reg.METRICS[name].tasks[0])) == (
        f"; did you mean {name!r}?"
    )


def test_aliases_name_one_metric_each():
    folded = [fold(a) for m in reg.METRICS.values() for a in m.aliases]
    assert len(folded) == len(set(folded)) == len(metric_aliases())
    assert not set(folded) & {fold(n) for n in reg.METRICS}


@pytest.mark.parametrize("name", list(reg.METRICS))
def test_words_and_unit_come_from_the_entry(name):
    m = reg.METRICS[name]
    unit = {0: None, 1: "kWh", 2: "kWh²"}[m.unit_power]
    assert reg.unit_power(name) == m.unit_power
    assert config.Config(metric=name).metric_words == m.words
    cfg = config.Config(metric=name, claim_unit="kWh")
    assert cfg.metric_unit == unit == metric_unit("kWh", power=m.unit_power)
    assert cfg.metric_words == (f"{m.words} in {unit}" if unit else m.words)
    label = metric_label(name, "kWh", power=m.unit_power)
    assert label == (f"{name.replace('_', ' ')}, {unit}" if unit else name.replace("_", " "))


def test_a_metric_of_ones_own_keeps_the_unit_as_given():
    assert reg.unit_power("visit_minutes") == 1
    assert config.Config(metric="visit_minutes", claim_unit="min").metric_words == (
        "visit minutes in min"
    )
