"""Cross-validation cells: every figure of noise.cv recomputed from the generator's truth, baycomp's
correlated t on every fold layout, refusals, the seed line within folds (methods.md section 9)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from baycomp import CorrelatedTTest
from baycomp.single import Posterior
from scipy import stats

from reportgen.checks import compute_report
from reportgen.project import ProjectPaths, load_project
from tests.compare import assert_cv_mirrored
from tests.layouts import cells as C
from tests.layouts.conftest import cell_params
from tests.layouts.gen_cv import BASE, CAND, make_cv_project

COMPUTED = [c for c in C.cv_cells() if c["id"] not in ("cv-two-folds-refused", "cv-leave-one-out")]


def _cv(b) -> dict:
    assert b.report is not None, b.describe()
    return b.report["noise"]["cv"]


def _truth_gaps(gen) -> np.ndarray:
    """Fold gaps as the methods say: from predictions when written, else the logged means."""
    if gen.cell["predictions"]:
        return gen.fold_gaps()
    out = []
    for r, k in sorted(gen.folds):
        c = np.mean([v for (m, _, rr, kk), v in gen.logged.items() if (m, rr, kk) == (CAND, r, k)])
        b = np.mean([v for (m, _, rr, kk), v in gen.logged.items() if (m, rr, kk) == (BASE, r, k)])
        out.append(gen.sign(c, b))
    return np.array(out)


@pytest.mark.parametrize("cell", cell_params(COMPUTED))
def test_fold_gaps_ratio_and_corrected_t_from_the_truth(cell, built_cells):
    b = built_cells(cell)
    cv, gen = _cv(b), b.gen
    d = _truth_gaps(gen)
    got = np.array([g["gap"] for g in cv["fold_gaps"]])
    np.testing.assert_allclose(got, d, rtol=1e-10, atol=1e-13)
    K = gen.cell["folds"] if gen.cell["sizes"] is None else len(gen.cell["sizes"])
    ratio = gen.ratio() if gen.cell["folds_file"] else 1 / (K - 1)
    assert cv["ratio_from"] == ("folds.csv" if gen.cell["folds_file"] else "fold count")
    assert cv["test_train_ratio"] == pytest.approx(ratio, rel=1e-12)
    J, s = d.size, d.std(ddof=1)
    assert (cv["J"], cv["repeats"], cv["folds"]) == (J, gen.cell["repeats"], K)
    se = math.sqrt((1 / J + ratio) * s**2)
    q = stats.t.ppf(0.975, J - 1)
    c = cv["corrected"]
    assert c["se"] == pytest.approx(se, rel=1e-9)
    assert (c["low"], c["high"]) == pytest.approx((d.mean() - q * se, d.mean() + q * se), rel=1e-9)
    assert c["p"] == pytest.approx(2 * stats.t.sf(abs(d.mean()) / se, J - 1), rel=1e-8, abs=1e-15)
    n = cv["naive"]
    assert n["se"] == pytest.approx(s / math.sqrt(J), rel=1e-9)
    assert c["low"] <= n["low"] and n["high"] <= c["high"]
    floor = stats.norm.ppf(0.975) * math.sqrt(ratio) * s
    assert cv["planning"]["floor_half_width"] == pytest.approx(floor, rel=1e-9)
    assert b.report["noise"]["interval"]["source"] == "cv-corrected"
    assert b.report["noise"]["lines"][1].startswith(
        f"Resampling (cross-validation, {gen.cell['repeats']} x {K} folds: which rows trained "
        "and tested each model): "
    )


@pytest.mark.parametrize("cell", cell_params(COMPUTED))
def test_baycomp_agrees_on_every_fold_layout(cell, built_cells):
    """baycomp's CorrelatedTTest where it applies (equal folds, or the fold-count ratio); its
    Posterior with our variance where the folds are unequal; to 1e-9."""
    b = built_cells(cell)
    cv = _cv(b)
    bayes = cv["bayes"]
    if cell.get("min_useful_effect", 0.01) is None:
        assert bayes is None
        return
    d = np.array([g["gap"] for g in cv["fold_gaps"]])
    ours = (bayes["p_worse"], bayes["p_equivalent"], bayes["p_better"])
    equal = len({g["n_test"] for g in cv["fold_gaps"]}) == 1 and not b.gen.cell["train_rows"]
    if cv["ratio_from"] == "fold count" or (equal and b.gen.rows % cv["folds"] == 0):
        theirs = CorrelatedTTest.probs(np.zeros(d.size), d, rope=bayes["rope"], runs=cv["repeats"])
    else:
        var = (1 / d.size + cv["test_train_ratio"]) * d.var(ddof=1)
        theirs = Posterior(d.mean(), var, d.size - 1, bayes["rope"]).probs()
    assert ours == pytest.approx(theirs, abs=1e-9)
    assert sum(ours) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("cell", cell_params(COMPUTED))
def test_seed_line_is_within_folds(cell, built_cells):
    b = built_cells(cell)
    seed, gen = b.report["noise"]["seed"], b.gen
    assert seed["part"] == "cross-validation" and seed["within_folds"] is True
    assert b.report["noise"]["lines"][0].startswith("Seed spread (retraining): ")
    for model, role in ((CAND, "candidate"), (BASE, "baseline")):
        per_fold = [
            [
                v
                for key, v in gen.logged.items()
                if len(key) == 4 and key[::2] + key[3:] == (model, r, k)
            ]
            for r, k in sorted(gen.folds)
        ]
        if min(len(v) for v in per_fold) < 2:
            assert seed["sd"][role] is None
            continue
        sd = math.sqrt(np.mean([np.var(v, ddof=1) for v in per_fold]))
        assert seed["sd"][role] == pytest.approx(sd, rel=1e-9, abs=1e-15)
    # never called seed spread: the resampling line is the fold spread
    assert "seed" not in b.report["noise"]["lines"][1].split(":")[0].lower()


@pytest.mark.parametrize(
    "cell, reason",
    [
        (
            {"id": "cv-two-folds-refused"},
            "2 fold gap(s): the corrected resampled t needs at least 3",
        ),
        ({"id": "cv-leave-one-out"}, "leave-one-out"),
    ],
)
def test_refusals_are_null_with_a_reason(cell, reason, built_cells):
    full = next(c for c in C.cv_cells() if c["id"] == cell["id"])
    b = built_cells(full)
    cv = _cv(b)
    assert reason in cv["reason"]
    assert cv["corrected"]["low"] is None and cv["bayes"] is None
    assert b.report["noise"]["interval"] is None
    assert b.report["decision"]["verdict"] != "adopt"
    assert f"no interval: {cv['reason']}" in b.report["noise"]["lines"][1]
    ids = {c["id"]: c for c in b.report["checks"]}
    assert ids["cv-interval-excludes-zero"]["passed"] is None


def test_few_fold_gaps_are_said(built_cells):
    b = built_cells(next(c for c in C.cv_cells() if c["id"] == "cv-3-folds"))
    assert _cv(b)["few_folds"] is True
    assert (
        "Only 3 fold gaps: their sd, and so both intervals, rest on few values"
        in (b.report["noise"]["lines"][1])
    )


def test_a_held_out_test_part_keeps_the_block_line_as_a_third_line(built_cells):
    b = built_cells(next(c for c in C.cv_cells() if c["id"] == "cv-test-part"))
    noise = b.report["noise"]
    assert noise["block"] is not None and noise["block"]["rows"] == 120
    assert len(noise["lines"]) == 3 and len(noise["covers"]) == 3
    assert noise["lines"][2].startswith(
        "Block bootstrap (which blocks were sampled, for the networks as trained): "
    )
    # rung 3 still rests on the corrected interval, not on the test part
    assert noise["interval"]["source"] == "cv-corrected"
    assert b.report["threshold"] is not None


def test_run_log_only_says_it_assumed_equal_folds(built_cells):
    b = built_cells(next(c for c in C.cv_cells() if c["id"] == "cv-runlog-only"))
    assert "1/(K − 1) = 0.250 from the fold count" in b.report["noise"]["lines"][1]
    assert "equal folds are assumed" in b.report["noise"]["lines"][1]
    facts = {f["id"]: f for f in b.report["fairness"]}
    assert facts["folds-frozen"]["passed"] is None


def test_split_design_has_null_cv(built_cells):
    b = built_cells(C.CANONICAL)
    assert "cv" in b.report["noise"] and b.report["noise"]["cv"] is None


def test_fairness_facts_of_folds(built_cells):
    b = built_cells(next(c for c in C.cv_cells() if c["id"] == "cv-5x10"))
    facts = {f["id"]: f for f in b.report["fairness"]}
    for fid in (
        "folds-frozen",
        "same-folds",
        "fold-predictions-cover-folds",
        "folds-disjoint",
        "folds-cover-rows",
    ):
        assert facts[fid]["passed"] is True, facts[fid]
    assert (
        facts["same-folds"]["text"]
        == "both models scored on the same 50 folds, each fold on the same rows"
    )
    assert b.report["ladder"][1]["status"] == "shown"


def _report(path):
    return compute_report(load_project(path, ProjectPaths()))[0]


def test_swapping_the_models_mirrors_everything(tmp_path):
    gen = make_cv_project(tmp_path / "a", repeats=2, folds=5, rows=100)
    a = _report(gen.path)
    toml = gen.path / "evreport.toml"
    text = toml.read_text()
    toml.write_text(
        text.replace(f'candidate = "{CAND}"', 'candidate = "X"')
        .replace(f'baseline = "{BASE}"', f'baseline = "{CAND}"')
        .replace('candidate = "X"', f'candidate = "{BASE}"')
    )
    b = _report(gen.path)
    ca, cb = a["noise"]["cv"], b["noise"]["cv"]
    assert cb["gap"] == pytest.approx(-ca["gap"], abs=1e-14)
    assert_cv_mirrored(ca, cb, 1e-14, {"rel": 1e-12})
    assert cb["bayes"]["p_better"] == pytest.approx(ca["bayes"]["p_worse"], abs=1e-12)
    assert cb["bayes"]["p_worse"] == pytest.approx(ca["bayes"]["p_better"], abs=1e-12)
    np.testing.assert_allclose(
        [g["gap"] for g in cb["fold_gaps"]], [-g["gap"] for g in ca["fold_gaps"]], atol=1e-14
    )
