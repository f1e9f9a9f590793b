"""report.json's sentences of the checks in Ukrainian: the decision, the rewritten claim, the
ladder, reconsider-when, the noise lines, relevance and fairness carry no English word outside
the user's values, and their numbers use the decimal comma; English is unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reportgen.checks import compute_report
from reportgen.project.load import load_project
from reportgen.words.i18n import speaking

ROOT = Path(__file__).resolve().parents[2]
#: common English words of the checks' sentences (user values such as "weeks 1-20" or
#: "retention-offer costs" are removed before looking)
ENGLISH = {
    "the",
    "and",
    "of",
    "is",
    "not",
    "interval",
    "model",
    "models",
    "seed",
    "seeds",
    "gap",
    "test",
    "better",
    "worse",
    "shown",
    "zero",
    "lies",
    "includes",
    "validation",
    "both",
    "rule",
    "fails",
    "passes",
    "keep",
    "simpler",
    "baseline",
    "candidate",
    "between",
    "over",
    "blocks",
    "rows",
    "wider",
    "bootstrap",
    "than",
    "more",
    "useful",
    "effect",
    "fair",
}


def _report(example: str, lang: str = "en") -> tuple[dict, object]:
    project = load_project(ROOT / "examples" / example)
    with speaking(lang):
        report, _problems = compute_report(project)
    return report, project


def _texts(r: dict) -> dict[str, str]:
    out = {"claim.rewritten": r["claim"]["rewritten"]}
    out |= {f"claim.reconsider_items[{i}]": t for i, t in enumerate(r["claim"]["reconsider_items"])}
    out |= {f"decision.reasons[{i}]": t for i, t in enumerate(r["decision"]["reasons"])}
    for i, rung in enumerate(r["ladder"]):
        out[f"ladder[{i}].summary"] = rung["summary"]
        if rung.get("missing"):
            out[f"ladder[{i}].missing"] = rung["missing"]
    out |= {f"noise.lines[{i}]": t for i, t in enumerate(r["noise"]["lines"])}
    out |= {f"noise.covers[{i}]": t for i, t in enumerate(r["noise"]["covers"])}
    out |= {f"fairness[{i}]": f["text"] for i, f in enumerate(r["fairness"])}
    if r.get("relevance"):
        out["relevance.text"] = r["relevance"]["text"]
    return out


def _english_words(text: str, user: list[str]) -> set[str]:
    for value in user:
        text = text.replace(value, " ")
    return {w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH}


def _user_values(project) -> list[str]:
    cfg = project.config
    vals = [
        cfg.unit or "",
        cfg.period or "",
        "runs.csv",
        "split_id",
        "log_loss",
        "min_useful_effect",
    ]
    vals += list(cfg.reconsider_when)
    return sorted((v for v in vals if v), key=len, reverse=True)


@pytest.mark.parametrize("example", ["weekly-churn", "moons-tie"])
def test_the_checks_sentences_are_ukrainian(example):
    report, project = _report(example, "uk")
    user = _user_values(project) + ["weeks 1-20 / 21-24 / 25-54", "churn-v1 (10 cols)"]
    left = {k: sorted(w) for k, t in _texts(report).items() if (w := _english_words(t, user))}
    assert left == {}
    said = report["claim"]["rewritten"] + " ".join(report["decision"]["reasons"])
    # numbers in the decimal comma: an interval's ends print "від −0,0051 до +0,0116"
    assert re.search(r"від [−+]?\d+,\d+ до [−+]?\d+,\d+", said)
    assert not re.search(r"\d\.\d", said)


def test_english_is_unchanged_outside_speaking():
    report, _project = _report("weekly-churn")
    assert report["claim"]["rewritten"].startswith("Under a fair comparison, mlp is not shown")
    assert "the test interval −0.0051 to +0.0116" in " ".join(report["decision"]["reasons"])


@pytest.mark.parametrize("example", ["breast-cancer", "breast-cancer-cv", "diabetes-regression"])
def test_check_files_results_and_folds_speak_the_build_language(example):
    """The check files are read before a build knows its language (load_project here runs in
    English): their sentences are built again when the report is, so rung 1 reads in Ukrainian
    with decimal commas, as do the results' bases and a cv design's fold facts."""
    report, project = _report(example, "uk")
    texts = {f"checks[{c['id']}]": c["text"] for c in report["checks"]}
    texts |= {f"results[{i}].basis": r["basis"] for i, r in enumerate(report["results"])}
    texts |= _texts(report)
    # the run log's split ids and feature sets ("stratified seed 20260410") are the user's
    user = _user_values(project) + ["split/folds.csv", "n_test/n_train"]
    own = {v for r in project.runs for v in (r.split_id, r.features) if v}
    user = sorted(set(user) | own, key=len, reverse=True)
    left = {k: sorted(w) for k, t in texts.items() if (w := _english_words(t, user))}
    assert left == {}
    initial = next(c["text"] for c in report["checks"] if c["id"] == "rung1-initial_loss")
    assert initial.startswith("початков") and not re.search(r"\d\.\d", initial)


def test_check_file_sentences_stay_english_in_english():
    report, _project = _report("breast-cancer")
    said = {c["id"]: c["text"] for c in report["checks"]}
    assert said["rung1-initial_loss"].startswith("initial loss 0.7795 against ln 2 = 0.6931")
    assert said["rung1-shapes"] == "shape assertions passed (15 assertions)"


def test_a_logged_value_that_differs_is_diagnosed_in_ukrainian(tmp_path):
    """The run log's disagreement with the predictions: the warning, its likely cause and the
    ladder's rung 1 in Ukrainian (the error rate logged as accuracy)."""
    import pandas as pd

    from tests.layouts.gen import make_project

    gen = make_project(tmp_path / "p", metric="accuracy")
    runs = pd.read_csv(gen.path / "runs.csv", dtype=str, keep_default_na=False)
    hit = (runs["model"] == "net") & (runs["seed"] == "1") & (runs["split"] == "test")
    runs.loc[hit, "value"] = f"{1 - gen.logged[('net', 1, 'test')]:.3f}"
    runs.to_csv(gen.path / "runs.csv", index=False)
    project = load_project(gen.path)
    with speaking("uk"):
        report, _problems = compute_report(project)
    (warning,) = [w["message"] for w in report["warnings"] if w["slug"] == "logged-differs"]
    assert "відрізняється від значень, переобчислених" in warning
    assert "схоже, що як accuracy записано error rate" in warning
    assert not re.search(r"\d\.\d", warning.split("(записано")[0])
