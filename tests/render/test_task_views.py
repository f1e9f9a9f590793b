"""The multi-class and regression sections as printed: every cell from report.json's value in
the words policy, checked here with plain Python formatting (never reportgen.words)."""

from __future__ import annotations

import html as html_text
import math
import re
from pathlib import Path

import pandas as pd
import pytest

from reportgen.model import Report
from reportgen.view import build_view

from .conftest import load


def _plain(x: float, decimals: int) -> str:
    """A number with thousands separators and a typographic minus."""
    return f"{x:,.{decimals}f}".replace("-", "\u2212")


def _target_decimals(scale: float) -> int:
    """Decimals of 3 significant figures of the target's scale (docs/report.md)."""
    return max(0, 2 - math.floor(math.log10(scale)))


def test_regression_errors_table_in_the_targets_digits(rendered):
    report = load("diabetes-regression")
    view = build_view(Report.from_json(report), ()).regression
    sec = report["regression"]
    sd = sec["target"]["sd"]
    d, d2 = _target_decimals(sd), _target_decimals(sd**2)
    assert (d, d2) == (1, 0)  # sd 76.1 points: tenths of points, whole points²
    for row, role in zip(view.models, ("candidate", "baseline"), strict=True):
        m = sec[role]
        assert row.seed == str(m["seed"])
        assert row.mse == _plain(m["mse"], d2)
        assert row.rmse == _plain(m["rmse"], d) and row.mae == _plain(m["mae"], d)
        assert row.mean_residual == _plain(m["mean_residual"], d)
    assert (
        view.unit_note == "MSE in points², the others in points; residual = actual minus predicted."
    )
    # each figure once: R² only in the descriptions line (mean over networks), the means over
    # networks only in Results at a glance
    assert not hasattr(view.models[0], "r2") and not hasattr(view.models[0], "seeds_mse")
    html = rendered("diabetes-regression")["report.html"].decode("utf-8")
    section = html[html.index('<section class="regression') :]
    section = section[: section.index("</section>")]
    assert section.count("R²") == 1 and "R² (a description" in section
    assert "mean of all seeds" not in section
    t = sec["target"]
    assert view.summary[0].value == (
        f"mean {_plain(t['mean'], d)} points, sd {_plain(sd, d)} points (n − 1), "
        f"{_plain(t['min'], d)} "
        f"to {_plain(t['max'], d)} points over {t['rows']} rows"
    )
    by_slice = {g.name: g for g in view.slices}
    for g in sec["candidate"]["by_slice"]:
        assert by_slice[g["slice"]].candidate_mae == _plain(g["mae"], d)
        assert by_slice[g["slice"]].candidate_residual == _plain(g["mean_residual"], d)


def test_a_description_says_it_is_the_mean_over_the_networks():
    report = load("diabetes-regression")
    (row,) = build_view(Report.from_json(report), ()).regression.descriptions
    r2 = report["descriptions"][0]
    assert row.label == "R² (a description, not the claim's metric)"
    assert row.value.startswith(
        f"MLP {r2['candidate']:.3f}, ridge regression {r2['baseline']:.3f} (each the mean over the "
        f"model's {r2['networks']['candidate']} networks); gap "
        f"{_plain(r2['gap'], 3)}, 95% block bootstrap "
    )


def test_multiclass_confusion_and_per_class_cells():
    report = load("digits-multiclass")
    view = build_view(Report.from_json(report), ()).multiclass
    sec = report["multiclass"]
    for conf, role in zip(view.confusions, ("candidate", "baseline"), strict=True):
        m = sec[role]
        for i, row in enumerate(conf.rows):
            assert [c.count for c in row.cells] == [f"{v:,}" for v in m["confusion"][i]]
            assert row.rows == f"{sum(m['confusion'][i]):,}"
            diag = row.cells[i]
            assert diag.diagonal and diag.share == f"{m['per_class'][i]['recall']:.3f}"
            assert all(
                c.share == "" for c, v in zip(row.cells, m["confusion"][i], strict=True) if v == 0
            )
    for i, row in enumerate(view.classes):
        c, b = sec["candidate"], sec["baseline"]
        assert row.rows == f"{c['per_class'][i]['rows']:,}"
        assert row.candidate_recall == f"{c['per_class'][i]['recall']:.3f}"
        assert row.baseline_precision == f"{b['per_class'][i]['precision']:.3f}"
        # the ECE column on one number of decimals: 4 significant figures of its largest
        d = len(row.candidate_ece.split(".")[1])
        every = [*c["classwise_ece"]["per_class"], *b["classwise_ece"]["per_class"]]
        assert d == 3 - math.floor(math.log10(max(every)))
        assert row.candidate_ece == f"{c['classwise_ece']['per_class'][i]:.{d}f}"
        assert len(row.baseline_ece.split(".")[1]) == d


def test_without_a_block_column_no_period_is_measured():
    """The first and last "blocks" of a project without a block column are row ids."""
    report = load("diabetes-regression")
    assert report["data"]["block_column"] is None and report["data"]["first_block"]
    v = build_view(Report.from_json(report), ())
    rows = {r.label: r.value for r in v.bounds.data}
    assert "period measured" not in rows
    # the slice table on the same page says each row is its own block: said once there
    assert "blocks on test" not in rows
    assert v.slices is not None and "Each row is its own block" in v.slices.caption
    no_slices = Report.from_json({**report, "slices": None})
    rows = {r.label: r.value for r in build_view(no_slices, ()).bounds.data}
    assert rows["blocks on test"] == "none: the bootstrap resamples rows"
    weekly = {
        r.label: r.value for r in build_view(Report.from_json(load("weekly-churn")), ()).bounds.data
    }
    assert weekly["period measured"].split(" to ")[0] == load("weekly-churn")["data"]["first_block"]


def test_the_smallest_useful_effect_carries_the_unit():
    report = load("diabetes-regression")
    assert report["project"]["unit"] == "points"
    rows = {r.label: r.value for r in build_view(Report.from_json(report), ()).bounds.relevance}
    assert rows["smallest useful effect"] == "100 points²"
    rows = {
        r.label: r.value
        for r in build_view(Report.from_json(load("weekly-churn")), ()).bounds.relevance
    }
    assert rows["smallest useful effect"] == str(
        load("weekly-churn")["relevance"]["min_useful_effect"]
    )


def test_the_budget_says_what_its_seed_count_is_for():
    """'seeds needed 2' beside a failed seed rule read as the rule's need: it is the interval's."""
    report = load("digits-multiclass")
    plan = report["noise"]["budget"]["planning"]
    rows = {r.label: r.value for r in build_view(Report.from_json(report), ()).noise.budget_rows}
    assert "seeds needed, blocks fixed" not in rows
    seeds = rows["seeds for the interval to exclude zero, blocks fixed"]
    if plan["seeds_needed"]:
        assert seeds == f"{plan['seeds_needed']:,} (now {report['noise']['budget']['S']:,})"
    assert "blocks for the interval to exclude zero, seeds fixed" in rows


def test_the_regression_target_sd_is_the_sample_sd_of_the_test_target():
    """ddof 1, as the table says: the diabetes example's test target, read from its split."""
    split = Path(__file__).resolve().parents[2] / "examples" / "diabetes-regression" / "split"
    y = pd.read_csv(split / "test.csv")["progression"]
    sd = load("diabetes-regression")["regression"]["target"]["sd"]
    assert sd == pytest.approx(float(y.std(ddof=1)), rel=1e-12)
    assert sd != pytest.approx(float(y.std(ddof=0)), rel=1e-6)


def test_the_budget_plans_towards_a_tie_and_says_when_none_can_show_it():
    """moons-tie: the gap lies inside the useful effect, so more seeds or weeks could show a tie;
    diabetes: the gap is larger than the useful effect, so nothing can."""
    tie = load("moons-tie")
    plan, b = tie["noise"]["budget"]["planning"], tie["noise"]["budget"]
    rows = {r.label: r.value for r in build_view(Report.from_json(tie), ()).noise.budget_rows}
    assert plan["seeds_needed_tie"] and plan["blocks_needed_tie"]
    assert rows["seeds for a tie (inside the useful effect), blocks fixed"] == (
        f"{plan['seeds_needed_tie']:,} (now {b['S']:,})"
    )
    blocks = [k for k in rows if k.endswith(" for a tie, seeds fixed")]
    assert blocks and rows[blocks[0]] == f"{plan['blocks_needed_tie']:,} (now {b['B']:,})"
    far = load("diabetes-regression")
    rows = {r.label: r.value for r in build_view(Report.from_json(far), ()).noise.budget_rows}
    assert rows["seeds or blocks for a tie"] == (
        "the gap's size 752 reaches the useful effect 100 points²: more seeds or blocks cannot "
        "show a tie"
    )


def test_the_cross_validation_task_pages_show_threshold_roc_pr_and_calibration(rendered):
    """breast-cancer-cv (no held-out test part): the threshold, ROC/PR and reliability figures
    come from the out-of-fold predictions; the PDF prints ROC/PR beside the reliability diagram
    and says "Not computed" for none of them; the words say cross-fitted and over repeats."""
    from tests.render.test_layout import page_texts

    files = rendered("breast-cancer-cv")
    html = files["report.html"].decode()
    for key in ("threshold_cost", "ranking", "reliability"):
        assert f'id="fig-{key}"' in html
    assert "cross-fitted" in html and "mean over repeats" in html
    assert "Confusion matrices out of fold at the chosen thresholds" in html
    text = " ".join(page_texts(files["report.pdf"]))
    assert "Not computed" not in text
    assert "Confusion matrices out of fold" in text
    assert "ROC AUC, mean over repeats" in text
    assert "ECE, mean over repeats" in text


def test_multiclass_page_one_gives_accuracy_and_macro_f1_on_the_results_basis():
    """Log loss alone under "reads digits better": page one also gives each model's accuracy and
    macro F1, the mean over its networks on test, the very figures of Results at a glance."""
    report = load("digits-multiclass")
    view = build_view(Report.from_json(report), ())
    text = view.decision.companions
    assert text and view.decision.companions_label == "On test"
    table = {
        (x.metric, x.model): x.mean
        for p in view.results.parts
        if p.title.startswith("Test")
        for x in p.lines
    }
    for metric, shown in (("accuracy", "accuracy"), ("macro_f1", "macro F1")):
        rows = {
            r["model"]: r["mean"]
            for r in report["results"]
            if r["part"] == "test" and r["metric"] == metric
        }
        cand, base = f"{rows['mlp']:.4f}", f"{rows['logreg']:.4f}"
        assert f"{shown}: MLP {cand}, logistic regression {base}" in text  # display names
        assert table[(shown, "MLP")] == cand and table[(shown, "logistic regression")] == base
    assert "each the mean over the model's 5 networks" in text
    assert "log loss" not in text  # the claim's metric is the claim box's
    # other tasks' page one is unchanged
    assert build_view(Report.from_json(load("weekly-churn")), ()).decision.companions is None


def test_multiclass_section_prints_no_single_network_accuracy(rendered):
    """One network's accuracy (digits: mlp seed 5 0.961 < logreg seed 1 0.967) beside the macro
    F1 mean over five networks (mlp ahead) pointed opposite ways and contradicted Results at a
    glance's mean accuracy: the section says its figures are one network's and where the means
    are, and prints no accuracy of its own."""
    report = load("digits-multiclass")
    sec = report["multiclass"]
    view = build_view(Report.from_json(report), ()).multiclass
    for r in view.summary:
        assert "accuracy" not in r.label
    html = rendered("digits-multiclass")["report.html"].decode("utf-8")
    part = html.split('<section class="multiclass', 1)[1].split("</section>", 1)[0]
    text = html_text.unescape(" ".join(re.sub(r"<[^>]+>", " ", part).split()))
    assert "one representative network per model" in text
    assert (
        "each model's mean over its networks, with its interval, is in Results at a glance" in text
    )
    # no accuracy there at all (the word is the HTML tables' and charts' only in their captions)
    assert "accuracy" not in text
    assert f"{sec['baseline']['accuracy']:.3f}" not in text  # logreg seed 1's 0.967
    # the macro F1 there is on the results' basis, each model's mean over its networks, with
    # the table's digits: the same figures as Results at a glance prints
    means = {
        r["model"]: r["mean"]
        for r in report["results"]
        if r["part"] == "test" and r["metric"] == "macro_f1"
    }
    assert (
        f"MLP {means['mlp']:.4f}, logistic regression {means['logreg']:.4f} (each the mean over "
        "the model's 5 networks)" in text
    )
