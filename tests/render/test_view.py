"""The view: numbers formatted once (the formatters: tests/test_words.py), optional sections tolerated."""

from __future__ import annotations

import copy
import hashlib
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from reportgen import view
from reportgen.model import Report
from reportgen.model.noise import SignDisagreement
from reportgen.model.seed import SeedNoise
from tests.render.conftest import load
from tests.render.shown import in_words
from tests.render.test_html import after_results


def build(report: dict | Report) -> view.ReportView:
    """The view of a fixture's report (its plain JSON read as the model) without charts."""
    typed = report if isinstance(report, Report) else Report.from_json(report)
    return view.build_view(typed, {})


def test_model_vs_baseline_view_has_every_section(weekly_churn):
    v = build(weekly_churn)
    assert [r.status.word for r in v.ladder] == [
        "shown",
        "shown",
        "not shown",
        "not shown",
        "shown, not credited",  # rung 5 is shown, but rung 3 below it is not
    ]
    assert v.ladder[4].status.css == "not-credited"
    assert v.decision.verdict == "Keep gradient boosting"  # evreport.toml [models]
    assert v.decision.recommend_role == "baseline"
    assert v.threshold is not None and len(v.threshold.models) == 2
    assert v.threshold.models[0].tn.replace(",", "").isdigit()
    assert v.calibration is not None and len(v.calibration.bins) == 10
    assert [s.reading for s in v.slices.rows] == [
        "no clear difference",
        "no clear difference",
        "no clear difference",
        "may be worse",
    ]
    assert v.before_after is None
    # word for word, each model id as its display name (evreport.toml [models])
    # the block line after Results at a glance: without the gap and interval they print
    seed_line, block_line = weekly_churn["noise"]["lines"]
    assert v.noise.lines == [in_words(seed_line, weekly_churn), after_results(block_line)]
    assert "MLP (1 x 32) seeds" in v.noise.lines[0]
    # no chart SVG given: every figure is absent, not broken
    assert v.noise.seed_figure is None and v.threshold.figure is None


def test_reconsider_label_not_repeated(weekly_churn):
    v = build(weekly_churn)
    assert not v.claim.reconsider[0].what.lower().startswith("reconsider when")
    assert v.claim.reconsider[0].what.startswith("the validation gap exceeds 2 seed sd")


def test_minimal_view_tolerates_null_sections(minimal):
    v = build(minimal)
    assert v.threshold is None and v.calibration is None and v.slices is None
    assert v.before_after is None
    assert v.noise.interval_rows == []
    assert v.noise.block_reason.startswith("No per-row predictions")
    assert v.bounds.relevance == []
    assert v.header.author is None
    assert v.decision.in_units is None and v.decision.sign_flip is None


def test_before_after_view(tuned_no_replay):
    v = build(tuned_no_replay)
    ba = v.before_after
    assert ba is not None
    assert [q.id for q in ba.broken] == tuned_no_replay["before_after"]["broken_ids"]
    assert ba.general_status.word == "did not hold"
    assert v.decision.verdict == "Roll back to before"
    assert v.threshold is None


def test_page_one_numbers_behind_unshown_rungs(weekly_churn):
    rows = {r.name: r for r in build(weekly_churn).ladder}
    assert rows["correct"].numbers == []
    # the gap in seed sd is in the row's own words ("the validation gap is +0.88 seed sd"):
    # a number once per cell
    assert "+0.88" in rows["larger than noise"].page_missing
    assert rows["larger than noise"].numbers == [
        "test interval's lower end: \u22120.0051, not above 0",  # the interval's decimals
    ]
    assert rows["relevant"].numbers == [
        "worse end on shifted: \u22120.0511, below the no-worse margin \u22120.005",
        "interval's lower end: \u22120.0051, short of the useful effect 0.005",
    ]
    # the rung's label leaves the gap in seed sd to the missing text: said once in the row
    three = rows["larger than noise"]
    assert three.summary == "seed rule fails; test interval includes zero"
    assert "+0.88" not in (three.summary or "") + " ".join(three.numbers)


@pytest.mark.parametrize(
    ("cid", "value", "bar", "passed", "words"),
    [
        ("validation-gap-vs-seed-sd", 0.88, 2, False, "0.88 seed sd; the rule needs more than 2"),
        ("test-interval-excludes-zero", 0.01, 0, True, "0.01, above 0"),
        ("cv-interval-excludes-zero", -0.01, 0, False, "-0.01, not above 0"),
        ("useful-effect", 0.02, 0.01, True, "0.02, at or above the useful effect 0.01"),
        ("not-worse-on-x", -0.03, -0.02, False, "-0.03, below the no-worse margin \u22120.02"),
        ("general-set-held", 0.01, 0.02, True, "0.01, allowed 0.02"),
        ("logged-equals-recomputed", 0, 0, True, ""),
        ("some-new-check", 3, 4, None, "3 against 4"),
        ("some-new-check", 3, None, None, "3"),
    ],
)
def test_a_value_against_its_bar_reads_as_words(cid, value, bar, passed, words):
    from reportgen.view.appendix import measured

    assert measured(value, bar, str, cid, passed) == words
    assert ", bar " not in measured(value, bar, str, cid, passed)


def test_artefacts_counted_not_silently_capped(weekly_churn):
    report = Report.from_json(weekly_churn)
    rung = report.ladder[2]
    many = replace(rung, artefacts=tuple(f"runs.csv:{i}" for i in range(2, 32)))
    row = build(replace(report, ladder=(*report.ladder[:2], many, *report.ladder[3:]))).ladder[2]
    assert sum(len(g.items) for g in row.artefacts_shown.groups) == 2
    assert row.artefacts_shown.more == "and 28 more"  # listed in the appendix, row.anchor
    assert row.anchor == "evidence-rung-3"
    assert build(report).ladder[3].artefacts_shown.more == "and 12 more"
    two = replace(report.ladder[3], artefacts=report.ladder[3].artefacts[:2])
    cut = replace(report, ladder=(*report.ladder[:3], two, *report.ladder[4:]))
    assert build(cut).ladder[3].artefacts_shown.more == ""  # 2 cited: all shown


def test_decision_in_its_units(weekly_churn):
    d = build(weekly_churn).decision
    # relevance.cost_per_case is each model's mean over its runs: the sentence says so
    assert d.in_units == (
        "At each run's chosen threshold, MLP (1 x 32) saves 85.8 retention-offer "
        "costs (EUR 20 each) per week of 10,000 cases on test, mean over each model's "
        "runs; a point estimate, without an interval."
    )
    rel = weekly_churn["relevance"]
    means = [weekly_churn["threshold"][m]["mean_test_cost"] for m in ("baseline", "candidate")]
    assert rel["cost_per_case"]["difference"] == means[0] - means[1]


def test_sign_flip_said_on_page_one(weekly_churn):
    report = Report.from_json(weekly_churn)
    assert build(report).decision.sign_flip is None
    # the view prints the checks' noise.sign_disagreement, never its own reading of the gaps
    assert isinstance(report.noise.seed, SeedNoise) and report.noise.block is not None
    seed = replace(report.noise.seed, validation_gap=-0.0045)
    report = replace(report, noise=replace(report.noise, seed=seed))
    assert build(report).decision.sign_flip is None
    gap = report.noise.block.gap
    assert gap is not None
    flip = SignDisagreement(validation_gap=-0.0045, test_gap=gap, text="x")
    flipped = replace(report, noise=replace(report.noise, sign_disagreement=flip))
    assert build(flipped).decision.sign_flip == (
        "Validation and test disagree: on validation gradient boosting is better (gap "
        "\u22120.00450), on test MLP (1 x 32) (gap +0.0032 (\u22120.0051 to "
        "+0.0116))."
    )
    cleared = replace(report, noise=replace(report.noise, sign_disagreement=None))
    assert build(cleared).decision.sign_flip is None


def test_page_one_says_when_the_two_level_interval_holds_zero():
    """digits-multiclass: the test interval excludes zero, the two-level one does not."""
    report = Report.from_json(load("digits-multiclass"))
    block = report.noise.block
    assert block is not None and block.low is not None and block.low > 0
    assert block.two_level.low is not None and block.two_level.low < 0
    assert build(report).decision.two_level == (
        "The test interval +0.0088 to +0.0557 excludes zero, but the two-level interval over "
        "seeds and blocks, \u22120.0080 to +0.0596, includes it: with retraining noise added to "
        "the sampling noise, zero is not ruled out."
    )
    both = replace(block, two_level=replace(block.two_level, low=0.001))
    agree = replace(report, noise=replace(report.noise, block=both))
    assert build(agree).decision.two_level is None
    one = replace(block, networks=replace(block.networks, candidate=1, baseline=1))
    single = replace(report, noise=replace(report.noise, block=one))
    assert build(single).decision.two_level is None  # no seed level to disagree with
    assert build(Report.from_json(load("weekly-churn"))).decision.two_level is None


def test_provenance_gives_one_combined_digest_that_sha256sum_reproduces(weekly_churn):
    """The PDF prints one digest in place of the per-file list: the digest of what
    ``sha256sum FILES | LC_ALL=C sort -k2`` prints in the project folder."""
    p = build(weekly_churn).provenance
    f = p.inputs[0]
    assert len(f.sha256) == 64
    assert "".join(f.sha256_groups) == f.sha256 and {len(g) for g in f.sha256_groups} == {16}
    assert f.path.parts[-1] == f.path.text.rsplit("/", 1)[-1]
    paths = [i["path"] for i in weekly_churn["inputs"]]
    folder = Path(__file__).resolve().parents[2] / "examples" / "weekly-churn"
    listed = subprocess.run(
        ["sha256sum", *paths], cwd=folder, capture_output=True, check=True
    ).stdout
    lines = b"".join(sorted(listed.splitlines(keepends=True), key=lambda x: x.split(b"  ", 1)[1]))
    assert p.digest == hashlib.sha256(lines).hexdigest()
    total = sum(i["bytes"] for i in weekly_churn["inputs"])
    # independently: every file of the example folder the report reads (not its README or report/)
    on_disk = sorted(
        q
        for q in folder.rglob("*")
        if q.is_file() and q.name != "README.md" and "report" not in q.relative_to(folder).parts
    )
    assert sorted(paths) == sorted(str(q.relative_to(folder)) for q in on_disk)
    assert total == sum(q.stat().st_size for q in on_disk)
    assert (len(paths), total) == (38, 1_288_106)
    assert p.files == "38 input files, 1.29 MB in all"


def test_the_printed_page_lists_no_input_file_and_the_screen_keeps_every_one(weekly_churn):
    from bs4 import BeautifulSoup

    from reportgen.render.html import render_html

    view_ = build(weekly_churn)
    screen = BeautifulSoup(render_html(view_, {}), "html.parser")
    printed = BeautifulSoup(render_html(view_, {}, for_print=True), "html.parser")
    paths = [i["path"] for i in weekly_churn["inputs"]]
    rows = screen.select("details.inputs table.inputs tbody tr")
    assert [r.td.get_text("").strip() for r in rows] == paths
    assert not printed.select("table.inputs")
    for page in (screen, printed):
        assert view_.provenance.digest in page.select_one("p.digest").get_text()


def test_the_logged_values_are_said_in_one_sentence_with_the_lines_that_disagree(weekly_churn):
    report = Report.from_json(weekly_churn)
    n = len(report.comparisons)
    assert build(report).comparisons_said == (
        f"{n} of {n} logged values agree with the values recomputed from their predictions."
    )
    first = replace(report.comparisons[0], agree=False)
    one_off = replace(report, comparisons=(first, *report.comparisons[1:]))
    assert build(one_off).comparisons_said == (
        f"{n - 1} of {n} logged values agree with the values recomputed from their predictions; "
        f"{first.cite} disagrees."
    )


def test_the_printed_multiclass_page_gives_the_confusion_counts_once():
    """The heat map prints every count: in print the two count tables would say them again,
    so they are the HTML's (folded in a details element); without the heat map they print."""
    from bs4 import BeautifulSoup

    from reportgen.render.html import render_html

    report = Report.from_json(load("digits-multiclass"))
    svgs = {"confusion": "<svg></svg>"}
    with_map = view.build_view(report, svgs)
    assert with_map.multiclass is not None and with_map.multiclass.confusion_figure is not None
    screen = BeautifulSoup(render_html(with_map, svgs), "html.parser")
    printed = BeautifulSoup(render_html(with_map, svgs, for_print=True), "html.parser")
    assert len(screen.select("details.confusions table")) == 2
    assert not printed.select("details.confusions") and not printed.find(
        "caption", string=lambda t: t is not None and "predicted class" in t
    )
    without = BeautifulSoup(render_html(build(report), {}, for_print=True), "html.parser")
    assert len(without.find_all("th", string="actual \\ predicted")) == 2


def test_a_cross_validated_report_names_its_gap_in_its_check_labels():
    """The seed rule's gap in a cv design is the cross-validation gap, not "validation"."""
    report = Report.from_json(load("breast-cancer-cv"))
    labels = {c.label for r in build(report).evidence for c in r.checks}
    assert "cross-validation gap vs seed sd" in labels
    assert "cross-validation interval excludes zero" in labels
    assert not any(x.startswith("validation gap") for x in labels)
    held_out = {c.label for r in build(load("weekly-churn")).evidence for c in r.checks}
    assert "validation gap vs seed sd" in held_out


def test_the_appendix_lists_each_list_of_files_once():
    """The same 12 test files were listed whole under rung 3's interval and rung 4's slice check;
    the second says whose list it is."""
    rungs = build(load("weekly-churn")).evidence
    shown = [
        (c.label, c.artefacts) for r in rungs for c in [*r.checks, *r.facts] if c.artefacts.groups
    ]
    lists = [tuple((g.head.text, i.text) for g in a.groups for i in g.items) for _, a in shown]
    long = [x for x in lists if len(x) > 1]
    assert len(long) == len(set(long))  # no list of files printed twice
    by_label = {c.label: c.artefacts for r in rungs for c in r.checks}
    assert by_label["not worse on shifted"].groups == []
    assert by_label["not worse on shifted"].more == (
        "the same files as \u201ctest interval excludes zero\u201d above"
    )


def test_recomputed_values_read_as_the_logged_ones_where_they_agree():
    """Issue 31: the logged-against-recomputed table printed logged "0.86" beside recomputed
    "0.8600000"; agreeing values now read alike, and a disagreeing one shows the difference."""
    from reportgen.model.data import Comparison
    from reportgen.view.appendix import comparisons_view

    report = Report.from_json(load("moons-tie"))
    rows = comparisons_view(report)
    agreeing = [c for c in report.comparisons if c.agree]
    assert agreeing and len(rows) == len(report.comparisons)
    for c, row in zip(report.comparisons, rows, strict=True):
        assert row.logged == c.logged_text
        if c.agree:
            assert row.recomputed == c.logged_text, (row.logged, row.recomputed)
    first = report.comparisons[0]
    off: Comparison = replace(
        first, logged_text="0.290", logged=0.29, recomputed=0.2904, agree=False
    )
    [row] = comparisons_view(replace(report, comparisons=(off,)))
    assert (row.logged, row.recomputed) == ("0.290", "0.2904")


def test_before_after_summary_leaves_each_versions_score_to_the_results_table(tuned_no_replay):
    """tuned-replay page 2 printed accuracy before 0.4460 and after 0.8240 in Results at a
    glance and, just below, "accuracy before: 0.446, accuracy after: 0.824" again."""
    v = build(tuned_no_replay)
    labels = [r.label for r in v.before_after.summary]
    assert v.results is not None
    assert "accuracy before" not in labels and "accuracy after" not in labels
    assert labels[0] == "difference (after − before)"
    # without the results table the summary keeps them
    bare = replace(Report.from_json(tuned_no_replay), results=())
    assert [r.label for r in build(bare).before_after.summary][:2] == [
        "accuracy before",
        "accuracy after",
    ]


def test_before_after_intervals_are_named_by_their_method(tuned_no_replay):
    """tuned-replay page 3 said "the other intervals of the test gap (Welch, two-level, per
    network) are tabled ... (noise.block)" for a project with none of them and a null
    noise.block, and the HTML table named the paired t interval "bootstrap"."""
    ba = tuned_no_replay["before_after"]
    n = build(tuned_no_replay).noise
    rows = {r.label.split(" over ")[0]: r for r in n.interval_rows}
    assert set(rows) == {"bootstrap", "paired t"}
    assert rows["bootstrap"].interval.startswith(f"+{ba['bootstrap']['low']:.3f}")
    assert rows["paired t"].interval.startswith(f"+{ba['t']['low']:.3f}")
    method = {"t": "paired t", "bootstrap": "bootstrap"}[ba["primary"]]
    assert [(r.label, r.value) for r in n.block_facts] == [("primary interval", method)]
    assert n.others_keys == "before_after"
    assert f"here the {method}" in n.others_note and "Welch" not in n.others_note
    pair = build(load("weekly-churn")).noise
    assert pair.others_keys == "noise.block, noise.budget" and "Welch" in pair.others_note


def test_a_checks_value_already_in_its_text_is_not_printed_again(tuned_no_replay, weekly_churn):
    """tuned-replay's appendix: "215 questions fixed, 26 questions broken" and under it
    "value 26"; a value with a bar, or one the text does not print, keeps its line."""
    from reportgen.view.appendix import evidence_view, measured
    from reportgen.view.parts import says_number as _says

    checks = {
        c.label: c for r in evidence_view(Report.from_json(tuned_no_replay)) for c in r.checks
    }
    broken = checks["broken questions"]
    assert "24 questions broken" in broken.text and broken.measured == ""
    # a value the text prints is not said again; one it does not print keeps its line
    for report in (weekly_churn, load("minimal"), tuned_no_replay):
        for c in (c for r in build(report).evidence for c in r.checks if c.measured):
            value = c.measured.split(",")[0].split(" against")[0]
            assert not _says(c.text, value), (c.label, c.text, c.measured)
    assert measured(-0.0051, 0.0, str, "useful-effect", False) == (
        "-0.0051, short of the useful effect 0"
    )
    assert _says("215 fixed, 26 broken", "26")
    assert not _says("126 broken", "26") and not _says("0.26 or 26.5", "26")


def test_one_seed_is_said_by_name(tuned_no_replay, weekly_churn):
    """tuned-replay's "What was measured" read "after seeds: 1 (0)"."""
    rows = {r.label: r.value for r in build(tuned_no_replay).bounds.data}
    assert rows["after seeds"] == "1 (seed 0)" and rows["before seeds"] == "1 (seed 0)"
    rows = {r.label: r.value for r in build(weekly_churn).bounds.data}
    seeds = weekly_churn["data"]["seeds"]["candidate"]
    assert rows["MLP (1 x 32) seeds"] == f"{len(seeds)} ({', '.join(map(str, seeds))})"


def test_before_after_results_count_questions(tuned_no_replay, weekly_churn):
    """tuned-replay page 2: "Test · 500 rows" above a page of questions."""
    titles = [p.title for p in build(tuned_no_replay).results.parts]
    assert titles[0] == "Test · 500 questions" and all("rows" not in t for t in titles)
    assert build(weekly_churn).results.parts[0].title.endswith(" rows")


def test_the_useful_effect_once_in_relevance(tuned_no_replay, weekly_churn):
    """tuned-replay page 4: "the interval's lower end +0.327 reaches the useful effect 0.02",
    and under it "smallest useful effect: 0.02"; kept where the sentence does not say it."""
    b = build(tuned_no_replay).bounds
    assert "the useful effect 0.02" in b.relevance_text
    assert "smallest useful effect" not in [r.label for r in b.relevance]
    b = build(weekly_churn).bounds
    assert "useful effect" not in b.relevance_text
    assert b.relevance[0].label == "smallest useful effect"


def test_the_slice_chart_caption_explains_only_the_colours_drawn(tuned_no_replay, weekly_churn):
    """tuned-replay page 4's caption explained red and amber beside five green slices."""
    caption = view.build_view(Report.from_json(tuned_no_replay), {"slices"}).slices.figure.caption
    assert "Red" not in caption and "Amber" not in caption
    caption = view.build_view(Report.from_json(weekly_churn), {"slices"}).slices.figure.caption
    assert "Amber: a required slice" in caption and "Red" not in caption
    worse = copy.deepcopy(weekly_churn)
    worse["slices"][0].update(worse=True, high=-0.001)
    caption = view.build_view(Report.from_json(worse), {"slices"}).slices.figure.caption
    assert "Red: wholly below zero, the candidate is worse." in caption


def test_before_after_says_each_score_and_the_difference_once(tuned_no_replay):
    """tuned-replay's HTML: Results at a glance's gap line "+0.412 (+0.361 to +0.463)" right
    above the before-and-after summary saying the same, and the general set's 0.8420 / 0.8313
    in the results beside "general set before 0.842, after 0.831" in the forgetting facts."""
    v = build(tuned_no_replay)
    assert v.results.gap is None
    assert any(p.title.startswith("General set") for p in v.results.parts)
    labels = [r.label for r in v.before_after.general]
    assert "general set before" not in labels and "general set after" not in labels
    assert "drop" in labels and "interval of the drop" in labels
    assert build(load("weekly-churn")).results.gap is not None


def test_logged_and_recomputed_read_alike_in_ukrainian():
    """In a Ukrainian report both values carry the decimal comma: "0,84" beside "0,84", not
    "0.84" beside "0,84"."""
    from reportgen.view.appendix import comparisons_view
    from reportgen.words.i18n import speaking

    report = Report.from_json(load("moons-tie"))
    with speaking("uk"):
        rows = comparisons_view(report)
    agreeing = [r for r, c in zip(rows, report.comparisons, strict=True) if c.agree]
    assert agreeing and all(r.logged == r.recomputed and "," in r.logged for r in agreeing)


def test_page_one_leaves_a_shown_rungs_numbers_to_the_ladder():
    """tuned-replay page one: the decision said "the general set held (drop 0.0107, upper
    bound 0.0180 within 0.02)" and rung 5, just below it, said the same words."""
    report = load("tuned-replay")
    v = build(report)
    rung5 = report["ladder"][4]["summary"]
    assert rung5 == "the general set held (drop 0.0107, upper bound 0.0180 within 0.02)"
    assert v.ladder[4].summary == rung5
    assert v.decision.page_reasons == [
        "the gain +0.378 is above the useful effect 0.02 and the general set held"
    ]
    # the full reason stays in the decision's reasons (HTML appendix, decision log)
    assert "upper bound 0.0180" in v.decision.reasons[0]
