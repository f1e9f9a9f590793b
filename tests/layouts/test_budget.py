"""The variance budget on generated projects: the toy layout's budget terms, the null cases, the plan sentence."""

from __future__ import annotations

import numpy as np
import pytest

from reportgen.checks import compute_report
from reportgen.project import load_project
from tests.layouts.gen import make_project


def test_toy_layout_budget_terms(tmp_path):
    # 5 validation seeds per model (run log only), one network per model on 52 weekly blocks
    gen = make_project(tmp_path / "p", layout="canonical", blocks="weekly52", seeds=5)
    rep, _ = compute_report(load_project(gen.path))
    b = rep["noise"]["budget"]
    # seed term: the seed rule's sd (the larger, over the validation seeds) squared over 5
    sds = [
        np.std([gen.logged[(m, s, "validation")] for s in gen.seeds(m, "validation")], ddof=1)
        for m in (gen.candidate, gen.baseline)
    ]
    assert b["S"] == 5 and b["B"] == 52 and b["seed_part"] == "validation"
    assert b["seed_term"] == pytest.approx(max(sds) ** 2 / 5, rel=1e-9)
    # block term: var(per-week gaps, ddof 1) / 52 (equal weeks), computed here with pandas
    test = gen.parts["test"].copy()
    test["gap"] = gen.sign(gen.seed_mean_rows(gen.candidate), gen.seed_mean_rows(gen.baseline))
    weekly = test.groupby("week")["gap"].mean()
    assert len(weekly) == 52 and test.groupby("week").size().nunique() == 1
    assert b["block_term"] == pytest.approx(weekly.var(ddof=1) / 52, rel=1e-9, abs=1e-15)
    assert b["total"] == pytest.approx(b["seed_term"] + b["block_term"], rel=1e-12)
    # the third line is model-based and never replaces the two measured ones
    assert len(rep["noise"]["lines"]) == 2
    assert b["line"].startswith("Both sources (model-based): ")


def test_budget_null_cases(tmp_path):
    one = make_project(tmp_path / "a", layout="both", seeds=1)
    r1, _ = compute_report(load_project(one.path))
    assert r1["noise"]["budget"] is None and "fewer than 2 seeds" in r1["noise"]["budget_reason"]
    runlog = make_project(tmp_path / "b", layout="both", predictions=False)
    r2, _ = compute_report(load_project(runlog.path))
    assert r2["noise"]["budget"] is None and "block term" in r2["noise"]["budget_reason"]
    oneblock = make_project(tmp_path / "c", layout="both", blocks="one")
    r3, _ = compute_report(load_project(oneblock.path))
    assert r3["noise"]["budget"] is None and "fewer than 2 blocks" in r3["noise"]["budget_reason"]


def test_plan_sentence_in_reconsider_when(tmp_path):
    gen = make_project(tmp_path / "p", layout="both", blocks="equal", effect="tie", seeds=3)
    rep, _ = compute_report(load_project(gen.path))
    plan = rep["noise"]["budget"]["planning"]
    items = rep["claim"]["reconsider_items"]
    if rep["noise"]["interval"]["low"] > 0 or plan["gap"] <= 0:
        pytest.skip("the cell's gap already clears zero or is not positive")
    both = plan["both_needed"]
    line = next(i for i in items if i.startswith(f"with {both['S']} seeds and {both['B']} "))
    assert "the interval would exclude zero if the gap stays at" in line
    assert "now 3 seeds" in line
