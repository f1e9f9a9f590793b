"""The report as a reviewer reads it: display names, units, artefact lists and links, one
precision per number, rates beside the confusion matrices, the planner's reality check."""

from __future__ import annotations

import math
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from reportgen import view
from reportgen.model import Report
from reportgen.project.config import MAX_DISPLAY_NAME, parse_config
from reportgen.safe import project_link
from reportgen.view.artefacts import artefact_list, file_href, link_prefix
from reportgen.view.parts import in_words, names
from reportgen.words import fixed, gap_decimals

from .conftest import ROOT, load

MINI = """\
title = "Mini"

[claim]
text      = "The MLP beats GBM."
candidate = "mlp"
baseline  = "gbm"
metric    = "log_loss"
"""


# ---------------------------------------------------------------- [models] display names


def test_models_table_gives_display_names():
    problems: list = []
    cfg = parse_config(
        MINI + '\n[models]\nmlp = "MLP (2 x 64)"\ngbm  = " gradient  boosting "\n', "t", problems
    )
    assert problems == []
    assert cfg.display_names == {"mlp": "MLP (2 x 64)", "gbm": "gradient boosting"}


@pytest.mark.parametrize(
    "value, why",
    [
        ('""', "empty"),
        ('"a\\u0007b"', "a control character"),
        (f'"{"x" * (MAX_DISPLAY_NAME + 1)}"', "long"),
    ],
)
def test_models_table_refuses_unprintable_names(value, why):
    problems: list = []
    text = MINI + f"\n[models]\nmlp = {value}\n"
    assert parse_config(text, "evreport.toml", problems) is None, why
    (p,) = problems
    assert p.line == 10 and "models.mlp" in p.message and p.slug == "bad-config"


def test_models_table_refuses_a_table_as_name():
    problems: list = []
    assert parse_config(MINI + "\n[models]\nmlp = 3\n", "evreport.toml", problems) is None
    assert [p.slug for p in problems] == ["bad-type"]


def test_report_json_carries_the_display_names(weekly_churn):
    assert weekly_churn["project"]["display_names"] == {
        "mlp": "MLP (1 x 32)",
        "gbm": "gradient boosting",
    }
    assert load("moons-tie")["project"]["display_names"] == {
        "tanh-mlp": "tanh MLP",
        "logreg": "logistic regression",
    }
    assert load("minimal")["project"]["display_names"] == {}


def test_page_names_models_by_display_name(weekly_churn):
    v = view.build_view(Report.from_json(weekly_churn), {})
    assert (v.header.candidate, v.header.baseline) == (
        "MLP (1 x 32)",
        "gradient boosting",
    )
    assert v.decision.verdict == "Keep gradient boosting"
    assert v.decision.recommend == "gradient boosting"
    assert v.claim.rewritten.startswith("Under a fair comparison, MLP (1 x 32) is not")
    assert "mlp" not in v.claim.rewritten


def _models(candidate: str, baseline: str, display_names: dict[str, str]) -> Report:
    """weekly-churn's report with the two models' ids and display names replaced."""
    report = Report.from_json(load("weekly-churn"))
    project = replace(
        report.project, candidate=candidate, baseline=baseline, display_names=display_names
    )
    return replace(report, project=project)


def test_in_words_replaces_ids_that_stand_as_words():
    report = _models("mlp", "gbm", {"mlp": "MLP"})
    assert names(report) == ("MLP", "gbm")
    text = "mlp seed 4 (runs.csv:12); artefacts/mlp/x.csv, mlp-c and r03-mlp-s1.csv; mlp."
    assert (
        in_words(text, report)
        == "MLP seed 4 (runs.csv:12); artefacts/mlp/x.csv, mlp-c and r03-mlp-s1.csv; MLP."
    )


def test_in_words_leaves_an_id_that_is_one_of_evreports_words():
    report = _models("new", "old", {"new": "v2"})
    assert in_words("the new model", report) == "the new model"


# ---------------------------------------------------------------- units and digits


def test_saving_names_its_unit(weekly_churn):
    v = view.build_view(Report.from_json(weekly_churn), {})
    rel = weekly_churn["relevance"]
    assert f"saves 85.8 {rel['unit']} per week of 10,000 cases" in v.decision.in_units
    assert rel["cost_per_period"] == pytest.approx(85.8, abs=0.05)


def test_saving_equal_to_the_gap_has_the_gaps_digits():
    """moons-tie: costs 1 and 1 on accuracy, so the saving per case is the test gap."""
    r = load("moons-tie")
    block = r["noise"]["block"]
    assert math.isclose(r["relevance"]["cost_per_case"]["difference"], block["gap"], rel_tol=1e-9)
    d = gap_decimals(block["gap"], block["low"], block["high"])
    v = view.build_view(Report.from_json(r), {})
    assert f"saves {fixed(block['gap'], d)} cost units per case" in v.decision.in_units
    assert f"test gap of +{fixed(block['gap'], d)}" in v.claim.rewritten


def test_planner_reason_half_widths_have_the_intervals_digits(weekly_churn):
    b = weekly_churn["noise"]["budget"]
    block = weekly_churn["noise"]["block"]
    d = gap_decimals(block["gap"], block["low"], block["high"])
    alone = fixed(b["z"] * math.sqrt(b["block_term"]), d)
    assert f"the block term alone gives plus or minus {alone}" in b["planning"]["reason"]
    assert len(alone.split(".")[1]) == d == 4


def test_planner_flags_an_impractical_plan(weekly_churn):
    plan = weekly_churn["noise"]["budget"]["planning"]
    both = plan["both_needed"]
    assert both["scale"] > 4 and plan["impractical"] is True
    years = fixed(both["B"] / 52.18, 1)
    assert plan["impractical_text"] == (
        f"impractical: {fixed(both['scale'], 1)} times today's seeds and weeks, {years} years of data"
    )
    assert years == "4.7"
    item = next(
        i for i in weekly_churn["claim"]["reconsider_items"] if i.startswith("with 41 seeds")
    )
    assert plan["impractical_text"] in item
    v = view.build_view(Report.from_json(weekly_churn), {})
    row = next(r for r in v.noise.budget_rows if r.label == "both scaled together")
    assert row.value == f"41 seeds and 243 weeks: {plan['impractical_text']}"


def test_planner_says_nothing_when_the_plan_is_modest():
    plan = load("moons-tie")["noise"]["budget"]["planning"]
    assert plan["impractical"] is (plan["impractical_text"] is not None)


def test_reconsider_when_is_a_list_with_todays_values(weekly_churn):
    v = view.build_view(Report.from_json(weekly_churn), {})
    items = v.claim.reconsider
    assert len(items) == len(weekly_churn["claim"]["reconsider_items"]) == 6
    assert (items[0].what, items[0].now) == (
        "the validation gap exceeds 2 seed sd with 6 or more seeds of each model",
        "+0.88 sd, with 5 of MLP (1 x 32) and 6 of gradient boosting",
    )
    assert items[-1].now == ""  # the user's own trigger has no value today


# ---------------------------------------------------------------- rates and bands


@pytest.mark.parametrize("role", ["candidate", "baseline"])
def test_confusion_rates(weekly_churn, role):
    t = weekly_churn["threshold"][role]
    (tn, fp), (fn, tp) = t["confusion"]
    assert t["false_positive_rate"] == pytest.approx(fp / (fp + tn))
    assert t["recall"] == pytest.approx(tp / (tp + fn))
    m = next(
        m
        for m in view.build_view(Report.from_json(weekly_churn), {}).threshold.models
        if role in m.model
    )
    assert m.fpr == fixed(fp / (fp + tn), 3)


@pytest.mark.parametrize("role", ["candidate", "baseline"])
def test_roc_and_pr_bands_span_the_networks(weekly_churn, role):
    r = weekly_churn["ranking"][role]
    seeds = len(weekly_churn["threshold"][role]["per_seed"])
    for key, x in (("roc_band", "fpr"), ("pr_band", "recall")):
        band = r[key]
        assert band["seeds"] == seeds >= 2
        assert len(band[x]) == len(band["low"]) == len(band["high"]) == 51
        assert all(lo <= hi for lo, hi in zip(band["low"], band["high"], strict=True))
    roc = r["roc_band"]
    assert roc["low"][-1] == roc["high"][-1] == 1.0  # every curve ends at (1, 1)
    assert min(roc["high"]) >= 0 and roc["high"] != roc["low"]


# ---------------------------------------------------------------- artefacts


def test_artefacts_grouped_by_folder_and_cited_file():
    a = artefact_list(
        [
            "artefacts/p/a.csv",
            "runs.csv:4",
            "artefacts/p/b.csv",
            "runs.csv:5",
            "runs.csv:6",
            "runs.csv:9",
        ],
        "../",
    )
    assert [(g.head.text, [i.text for i in g.items]) for g in a.groups] == [
        ("artefacts/p/", ["a.csv", "b.csv"]),
        ("runs.csv, lines", ["4–6", "9"]),
    ]
    assert [i.href for i in a.groups[0].items] == ["../artefacts/p/a.csv", "../artefacts/p/b.csv"]
    assert {i.href for i in a.groups[1].items} == {"../runs.csv"}
    assert a.more == ""


def test_a_capped_list_says_where_the_rest_are():
    a = artefact_list([f"f{i}.csv" for i in range(30)], None, limit=4)
    assert sum(len(g.items) for g in a.groups) == 4
    assert a.more == "and 26 more in the appendix"
    assert all(i.href is None for g in a.groups for i in g.items)


@pytest.mark.parametrize(
    "path", ["/etc/passwd", "../secret", "a/../../b", "https://x.org/a", "C:\\x", "a//b", "a?b", ""]
)
def test_no_link_leaves_the_project(path):
    assert file_href(path, "../") is None


def test_links_start_from_the_reports_folder(tmp_path):
    project = tmp_path / "p"
    (project / "report").mkdir(parents=True)
    assert project_link(project, project / "report") == "../"
    assert project_link(project, project) == ""
    assert project_link(project, tmp_path / "elsewhere" / "deep") == "../../p/"
    assert project_link(project, tmp_path / "a" / "b" / "c") is None  # more than 2 folders up
    assert link_prefix("../../p/") == "../../p/"
    assert link_prefix("../../../p/") is None
    assert link_prefix("../a/../b/") is None
    assert file_href("split/my file.csv", "../") == "../split/my%20file.csv"


def test_fairness_facts_cite_what_was_checked(weekly_churn):
    facts = {f["id"]: f for f in weekly_churn["fairness"]}
    for fid in ("same-rows-validation", "same-rows-test", "same-metric"):
        assert facts[fid]["passed"] is True
        assert facts[fid]["artefacts"], fid
        assert all(a.startswith("artefacts/predictions/") for a in facts[fid]["artefacts"])
    part = {a.rsplit("-", 1)[-1] for a in facts["same-rows-test"]["artefacts"]}
    assert part == {"test.csv"}


def test_appendix_lists_every_artefact_once_per_check(weekly_churn):
    v = view.build_view(Report.from_json(weekly_churn), {})
    fair = next(e for e in v.evidence if e.rung == 2)
    cover = next(f for f in fair.facts if f.label == "predictions cover parts")
    listed = [g.head.text + i.text for g in cover.artefacts.groups for i in g.items]
    wanted = next(f for f in weekly_churn["fairness"] if f["id"] == "predictions-cover-parts")[
        "artefacts"
    ]
    assert listed == wanted and cover.artefacts.more == ""
    body = next(f for f in v.fairness if f.label == "predictions cover parts")
    assert body.artefacts.more == f"and {len(wanted) - 4} more in the appendix"


# ---------------------------------------------------------------- the HTML beside its project


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """weekly-churn copied and built into its own report/ folder (HTML and JSON)."""
    from reportgen.api import build_report

    project = tmp_path_factory.mktemp("read") / "weekly-churn"
    shutil.copytree(
        ROOT / "examples" / "weekly-churn", project, ignore=shutil.ignore_patterns("report")
    )
    build_report(project, formats=("html", "json"), versioned=False)
    return project / "report"


def test_html_links_artefacts_to_the_projects_files(built):
    html = (built / "report.html").read_text(encoding="utf-8")
    assert '<a class="file" href="../runs.csv">' in html
    assert '<a class="file" href="../split/manifest.json">' in html
    for href in ("../runs.csv", "../split/manifest.json", "../artefacts/cost-model.md"):
        assert (built / href).resolve().is_file()


def test_html_has_a_table_of_contents(built):
    html = (built / "report.html").read_text(encoding="utf-8")
    toc = html.split('<nav class="toc"', 1)[1].split("</nav>", 1)[0]
    anchors = [a.split('"', 1)[0] for a in toc.split('href="#')[1:]]
    assert anchors[0] == "h-ladder" and anchors[-1] == "h-appendix"
    for a in anchors:
        assert f'id="{a}"' in html


def test_pdf_html_has_no_links(rendered):
    from reportgen.render.html import render_html
    from reportgen.view import build_view

    v = build_view(Report.from_json(load("weekly-churn")), (), "../")
    assert '<a class="file"' in render_html(v, {}, for_print=False)
    assert '<a class="file"' not in render_html(v, {}, for_print=True)
