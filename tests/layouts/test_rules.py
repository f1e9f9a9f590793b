"""Layout rules not covered by the figure tests: before-after needs rungs 1-2, deterministic
models, early warnings for logged-versus-recomputed and empty labels, group blocks' words."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from reportgen.checks import compute_report
from reportgen.cli import main
from reportgen.project import load_project
from reportgen.words import blocks_phrase, plural_noun, ratio
from tests.layouts.gen import make_project


def _report(tmp_path, **cell):
    gen = make_project(tmp_path / "p", **cell)
    return gen, compute_report(load_project(gen.path))[0]


def test_before_after_edited_frozen_set_cannot_be_adopted(tmp_path):
    # a clear gain and a held general set: adopt, until the frozen set is edited after freezing
    gen = make_project(
        tmp_path / "p", kind="ba", fixed=150, broken=5, general=True, general_broken=0
    )
    good, _ = compute_report(load_project(gen.path))
    if good["decision"]["verdict"] != "adopt":
        pytest.skip(f"cell does not adopt to begin with: {good['decision']['reasons']}")
    # the general set did not change at all: the exact bound 1 - 0.025^(1/300) rules out 0.02
    assert good["general"]["primary"] == "exact"
    assert good["general"]["high"] == pytest.approx(1 - 0.025 ** (1 / 300), rel=1e-12)
    test_csv = gen.path / "split" / "test.csv"  # edited after freezing: same rows, other bytes
    test_csv.write_text(test_csv.read_text().replace("\n", "\r\n"), encoding="utf-8")
    edited, _ = compute_report(load_project(gen.path))
    assert edited["ladder"][1]["status"] != "shown"
    assert edited["decision"]["verdict"] == "roll-back"
    assert any("rung 2 (fair)" in r for r in edited["decision"]["reasons"])
    r = CliRunner().invoke(
        main, ["build", str(gen.path), "--format", "json", "--out", str(tmp_path / "o"), "--strict"]
    )
    assert r.exit_code == 3, r.output


def test_deterministic_baseline_uses_the_candidates_sd(tmp_path):
    gen, rep = _report(tmp_path, layout="both", seeds=5)
    # make every baseline seed's validation value identical (a deterministic model)
    runs = pd.read_csv(gen.path / "runs.csv")
    base_val = (runs.model == "base") & (runs.split == "validation")
    runs.loc[base_val, "value"] = runs.loc[base_val, "value"].iloc[0]
    runs.loc[base_val, "predictions"] = np.nan  # the run-log value is then used
    runs.to_csv(gen.path / "runs.csv", index=False)
    rep, _ = compute_report(load_project(gen.path))
    seed = rep["noise"]["seed"]
    assert seed["deterministic"] == ["baseline"]
    assert seed["sd_used"] == pytest.approx(seed["sd"]["candidate"], rel=1e-12)
    assert "zero seed spread" in rep["noise"]["lines"][0]
    assert "candidate's sd is used" in seed["note"]


def test_both_deterministic_rule_trivially_met(tmp_path):
    gen = make_project(tmp_path / "p", layout="both", seeds=3, effect="strong")
    runs = pd.read_csv(gen.path / "runs.csv")
    for model in ("net", "base"):
        m = (runs.model == model) & (runs.split == "validation")
        runs.loc[m, "value"] = runs.loc[m, "value"].iloc[0]
        runs.loc[m, "predictions"] = np.nan
    runs.to_csv(gen.path / "runs.csv", index=False)
    rep, _ = compute_report(load_project(gen.path))
    seed = rep["noise"]["seed"]
    assert seed["trivial"] is True and seed["gap_in_sd"] is None
    assert seed["passes"] is (seed["validation_gap"] > 0)
    assert "trivially" in rep["noise"]["lines"][0]
    assert "evaluation line carries the decision" in rep["noise"]["lines"][0]
    assert not any("retraining noise is measured" in i for i in rep["claim"]["reconsider_items"])


def test_test_gap_in_seed_sd_on_the_seed_line(tmp_path):
    """The ratio is a seed-line figure; the block line never carries it."""
    _, rep = _report(tmp_path, layout="canonical")
    block, seed = rep["noise"]["block"], rep["noise"]["seed"]
    assert block["gap_in_seed_sd"] == pytest.approx(block["gap"] / seed["sd_used"], rel=1e-12)
    said = f"is {ratio(block['gap_in_seed_sd'], signed=True)} seed sd."
    assert rep["noise"]["lines"][0].endswith(said)
    assert "seed sd" not in rep["noise"]["lines"][1]


def test_validate_warns_on_rounded_predictions(tmp_path):
    gen = make_project(tmp_path / "p", layout="both", metric="log_loss", fmt="csv")
    for f in (gen.path / "artefacts" / "predictions").glob("*.csv"):
        d = pd.read_csv(f)
        d["p"] = d["p"].round(3)
        d.to_csv(f, index=False)
    r = CliRunner().invoke(main, ["validate", str(gen.path)])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if "[logged-differs]" in x)
    assert re.match(r"runs\.csv:\d+: warning: ", line)
    assert "rounded to 3 decimals" in line and "largest difference" in line


def test_empty_block_labels_are_one_warning_with_the_count(tmp_path):
    gen = make_project(tmp_path / "p", layout="both", blocks="equal")
    test = pd.read_csv(gen.path / "split" / "test.csv")
    test.loc[:6, "week"] = ""
    test.to_csv(gen.path / "split" / "test.csv", index=False)
    from reportgen.project.manifest import freeze

    freeze(gen.path, created="2026-01-01T00:00:00Z")
    project = load_project(gen.path)
    warns = [w for w in project.warnings if w.slug == "empty-label"]
    assert warns and all("7 of" in w.message and "'(missing)'" in w.message for w in warns)
    rep, _ = compute_report(project)
    assert rep["noise"]["block"]["gap"] is not None


def test_block_columns_not_needed_on_validation(tmp_path):
    gen = make_project(tmp_path / "p", layout="both", blocks="equal")
    val = pd.read_csv(gen.path / "split" / "validation.csv")
    val.drop(columns=[c for c in ("week", "route") if c in val]).to_csv(
        gen.path / "split" / "validation.csv", index=False
    )
    from reportgen.project.manifest import freeze

    freeze(gen.path, created="2026-01-01T00:00:00Z")
    r = CliRunner().invoke(main, ["validate", str(gen.path)])
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize(
    "word,plural",
    [
        ("week", "weeks"),
        ("batch", "batches"),
        ("city", "cities"),
        ("day", "days"),
        ("bus", "buses"),
        ("visit_month", "visit months"),
    ],
)
def test_block_names_pluralise(word, plural):
    assert plural_noun(word) == plural
    assert blocks_phrase(1, word) == f"1 {word.replace('_', ' ')}"
    assert blocks_phrase(3, word) == f"3 {plural}"


def test_group_blocks_are_named_groups(tmp_path):
    _, rep = _report(tmp_path, layout="both", block_col="batch", block_kind="group")
    text = " ".join(rep["not_tested"] + rep["noise"]["lines"] + rep["noise"]["covers"])
    assert "batches" in text and "batchs" not in text
    assert "drift" not in text and "after" not in " ".join(rep["not_tested"])


def test_canonical_layout_has_ranking_and_calibration_with_a_threshold_reason(tmp_path):
    # validation seeds from the run log only, one network per model with test y/p predictions
    gen, rep = _report(tmp_path, layout="canonical", blocks="weekly52")
    assert rep["ranking"] is not None and rep["calibration"] is not None
    th = rep["threshold"]["candidate"]
    assert th["validation_cost"] is None and "no validation predictions" in th["threshold_reason"]
    from sklearn.metrics import roc_auc_score

    test = gen.parts["test"]
    seed = rep["ranking"]["candidate"]["seed"]
    pred = pd.read_csv(gen.path / "artefacts" / "predictions" / f"net-s{seed}-test.csv")
    assert rep["ranking"]["candidate"]["roc_auc"] == pytest.approx(
        roc_auc_score(pred["y"], pred["p"]), rel=1e-12
    )
    assert len(test) == len(pred)


def test_claim_metric_missing_from_the_run_log_is_an_error(tmp_path):
    gen = make_project(tmp_path / "p", layout="both")
    runs = pd.read_csv(gen.path / "runs.csv")
    runs["metric"] = "logloss"
    runs.to_csv(gen.path / "runs.csv", index=False)
    r = CliRunner().invoke(main, ["validate", str(gen.path)])
    assert r.exit_code == 1
    assert "claim.metric = 'log_loss' is not a metric of any row" in r.output
    assert "did you mean 'logloss'" in r.output


def test_capitalised_split_names_are_read_with_a_warning(tmp_path):
    gen = make_project(tmp_path / "p", layout="both")
    runs = pd.read_csv(gen.path / "runs.csv")
    runs["split"] = runs["split"].str.capitalize()
    runs.to_csv(gen.path / "runs.csv", index=False)
    project = load_project(gen.path)
    warns = [w for w in project.warnings if w.slug == "split-case"]
    assert {w.message for w in warns} >= {
        "split 'Validation' read as 'validation' (part names are lower case)"
    }
    assert compute_report(project)[0]["noise"]["seed"]["n"] == {"candidate": 5, "baseline": 5}


def test_empty_block_column_on_the_general_set_means_questions(tmp_path):
    gen = make_project(
        tmp_path / "p",
        kind="ba",
        blocks="equal",
        general=True,
        general_broken=4,
        general_blocks=True,
    )
    general = pd.read_csv(gen.path / "split" / "general.csv")
    general["week"] = ""
    general.to_csv(gen.path / "split" / "general.csv", index=False)
    from reportgen.project.manifest import freeze

    freeze(gen.path, created="2026-01-01T00:00:00Z")
    rep, _ = compute_report(load_project(gen.path))
    assert rep["general"]["high"] is not None  # resampled over questions, not one empty block
