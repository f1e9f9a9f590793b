"""The noise lines' words: the block line's label, the test gap in seed sd on the seed line, the
two-level interval's seed level, and [evaluation] repeats."""

from __future__ import annotations

import html
import json
import re

import pytest

from reportgen.charts.specs import chart_specs
from reportgen.checks import compute_report
from reportgen.checks.noise_lines import BLOCK_HEAD
from reportgen.errors import Problem
from reportgen.model import Report
from reportgen.project import load_project
from reportgen.project.config import parse_config
from reportgen.render.html import render_html
from reportgen.view import build_view
from reportgen.words import gap_decimals, ratio, with_sign
from tests.forbidden import USER_SECTIONS, leaves, strings
from tests.layouts.gen import make_project


def _report(tmp_path, samples: bool = False, **cell) -> dict:
    gen = make_project(tmp_path / "p", **cell)
    if samples:
        toml = gen.path / "evreport.toml"
        toml.write_text(
            toml.read_text().replace("[evaluation]", '[evaluation]\nrepeats = "samples"')
        )
    return compute_report(load_project(gen.path))[0]


def _html(report: dict) -> str:
    return render_html(build_view(Report.from_json(report), set()), {})


# ---------------------------------------------------------- the test gap in seed sd


def test_block_line_label_and_the_test_gap_in_seed_sd_on_the_seed_line(tmp_path):
    report = _report(tmp_path)
    seed_line, block_line = report["noise"]["lines"]
    block = report["noise"]["block"]
    assert block_line.startswith(
        "Block bootstrap (which blocks were sampled, for the networks as trained): "
    )
    assert "seed sd" not in block_line  # never mix the two lines
    ratio_ = block["gap"] / report["noise"]["seed"]["sd_used"]
    assert block["gap_in_seed_sd"] == pytest.approx(ratio_, rel=1e-12)
    # the test gap itself is the block line's: the seed line gives it in seed sd only
    d = gap_decimals(block["gap"], block["low"], block["high"])
    assert seed_line.endswith(f" The test gap is {ratio(ratio_, signed=True)} seed sd.")
    assert with_sign(block["gap"], d) not in seed_line
    assert f"the test gap is {with_sign(block['gap'], d)} log loss" in block_line


def test_before_after_uses_the_same_block_label(tmp_path):
    report = _report(tmp_path, kind="ba")
    assert report["noise"]["lines"][1].startswith(BLOCK_HEAD + " accuracy difference ")


# ---------------------------------------------------------------- the block line's label


def _two(report: dict) -> str | None:
    return report["noise"]["block"]["two_level"]["reason"]


def test_one_network_per_model_has_no_seed_level_at_all(tmp_path):
    report = _report(tmp_path, layout="canonical", blocks="weekly52")
    assert report["noise"]["block"]["networks"] == {"candidate": 1, "baseline": 1}
    assert _two(report) == (
        "one network per model: the two-level interval has no seed level at all (it resamples "
        "the blocks only), so it says nothing about retraining noise"
    )
    assert "resampled independently" not in _two(report)
    assert f"Two-level bootstrap: {_two(report)}." in _html(report)


def test_five_seeds_is_coarse_six_is_not(tmp_path):
    five = _report(tmp_path / "5", seeds=5)
    assert _two(five) == (
        "with 5 or fewer seeds on a side (here 5 and 5) the seed level stays coarse"
    )
    assert f"Two-level bootstrap: {_two(five)}." in _html(five)
    six = _report(tmp_path / "6", seeds=6)
    assert _two(six) is None
    assert "Two-level bootstrap:" not in _html(six)


def test_seeds_paired_without_shared_labels_says_so(tmp_path):
    report = _report(tmp_path, paired=True, labels="disjoint")
    assert _two(report) == (
        "seeds_paired, but 0 seed labels are shared by both models: the seeds are resampled "
        "independently; with 5 or fewer seeds on a side (here 5 and 5) the seed level stays coarse"
    )


# ------------------------------------------------------------------ [evaluation] repeats


def _numbers(obj):
    """Every number in a JSON value, with its path (booleans are not numbers here)."""
    return (
        (p, v) for p, v in leaves(obj) if isinstance(v, int | float) and not isinstance(v, bool)
    )


def test_repeats_samples_changes_the_words_and_nothing_else(tmp_path):
    seeds = _report(tmp_path / "seeds", seeds=3)
    samples = _report(tmp_path / "samples", seeds=3, samples=True)
    assert samples["project"]["repeats"] == "samples" and seeds["project"]["repeats"] == "seeds"
    # the same figures, to the last bit (the inputs and their hashes aside)
    drop = re.compile(r"^\.(inputs|build)")
    a = {p: v for p, v in _numbers(seeds) if not drop.match(p)}
    b = {p: v for p, v in _numbers(samples) if not drop.match(p)}
    assert a == b
    assert samples["noise"]["lines"][0].startswith("Seed spread (repeated runs: sampling noise): ")
    ours = [(p, s) for p, s in strings(samples) if not USER_SECTIONS.search(p) and "retrain" in s]
    assert ours == []
    assert "sampling noise of repeated runs is coarsely measured" in " ".join(samples["not_tested"])
    html = _html(samples)
    assert "<h3>1. Repeated runs: sampling noise</h3>" in html
    assert "retrain" not in html.lower()
    # the default still speaks of retraining
    assert seeds["noise"]["lines"][0].startswith("Seed spread (retraining): ")
    assert "<h3>1. Retraining</h3>" in _html(seeds)


def test_repeats_is_validated_with_its_line():
    problems: list[Problem] = []
    text = 'title = "t"\n[claim]\ntext = "x"\ncandidate = "a"\nbaseline = "b"\nmetric = "brier"\n'
    text += '[evaluation]\nrepeats = "epochs"\n'
    assert parse_config(text, "evreport.toml", problems) is None
    (p,) = problems
    assert p.line == 8
    assert p.message == "evaluation.repeats = 'epochs' is not one of seeds, samples"
    ok: list[Problem] = []
    cfg = parse_config(text.replace("epochs", "samples"), "evreport.toml", ok)
    assert ok == [] and cfg.repeats == "samples"
    assert parse_config(text.replace('repeats = "epochs"\n', ""), "x", []).repeats == "seeds"


# ----------------------------------------------------------------- the words on the page


def _page(report: dict) -> tuple[str, dict]:
    """The page's words: its text with every chart's spec (their legends are words too) in
    place of the drawing, its style sheet left out; and the chart keys."""
    specs = chart_specs(Report.from_json(report))
    svgs = {key: f"<svg><desc>{json.dumps(spec)}</desc></svg>" for key, spec in specs.items()}
    page = render_html(build_view(Report.from_json(report), set(svgs)), svgs)
    return html.unescape(re.sub(r"<style.*?</style>", "", page, flags=re.S)), svgs


def test_repeats_samples_leaves_no_retraining_word_on_the_page(tmp_path):
    """Captions, table labels and chart legends follow [evaluation] repeats, not only the lines."""
    samples = _report(tmp_path / "samples", effect="tie", samples=True)
    page, svgs = _page(samples)
    assert {"seed_strip", "eval_intervals", "budget"} <= set(svgs)
    # the block line's label is the spec's, fixed whatever the repeats ("for the networks as
    # trained": a model evaluated over sampling epochs is still the network as trained)
    assert page.count(BLOCK_HEAD) >= 1
    low = page.replace(BLOCK_HEAD, "").lower()
    for word in ("retrain", "trained", "network"):
        assert word not in low, word
    for said in (
        "seed term (sampling noise)",
        "Each circle is one evaluation run's validation score",
        "One evaluation interval per candidate evaluation run (grey)",
        "one evaluation run",
        "each model's run with the median validation score, a typical run rather than the best",
        "for the runs as evaluated (seed-averaged)",
        "the per-run intervals and the two-level interval show that",
    ):
        assert said in page, said
    assert samples["noise"]["lines"][1].startswith(BLOCK_HEAD + " ")
    assert "seed-averaged over 5 and 5 runs" in samples["noise"]["lines"][1]
    # the default keeps every retraining word
    seeds, _ = _page(_report(tmp_path / "seeds", effect="tie"))
    for said in (
        "seed term (retraining)",
        "Each circle is one trained network's validation score",
        "One evaluation interval per trained candidate network (grey)",
        "one trained network",
        "each model's network with the median validation score, a typical network rather",
        "for the networks as trained (seed-averaged)",
    ):
        assert said in seeds, said


def test_one_network_per_model_is_labelled_as_one_network(tmp_path):
    """No seed averaging and no seed level: the labels say so, never "(seeds and blocks)"."""
    report = _report(tmp_path, layout="canonical", blocks="weekly52")
    page, svgs = _page(report)
    assert "eval_intervals" in svgs
    for false in ("(seeds and blocks)", "both noise sources", "seed-averaged", "seed mean"):
        assert false not in page, false
    assert report["noise"]["covers"][1] == (
        "The block bootstrap covers the evaluation sample: which weeks happened to be in the "
        "test set, for the networks as trained, one per model (no seed averaging). It says "
        "nothing about retraining noise, and with one network per model nothing on this page "
        "measures it."
    )
    assert "two-level bootstrap (blocks only: no seed level)" in page
    assert "blocks only (no seed level)" in page and "one network per model" in page
    assert f"{report['project']['candidate']} network seed" in page
    assert f"against the {report['project']['baseline']} network" in page


def test_one_test_block_names_the_block_as_the_cause(tmp_path):
    """Predictions exist, but the test rows fall in one week: the reason is the week, and the
    two-level interval says why there is none (not that its seed level is coarse)."""
    report = _report(tmp_path, blocks="one")
    block = report["noise"]["block"]
    assert block["blocks"] == 1 and block["low"] is None
    assert block["two_level"]["low"] is None
    assert block["two_level"]["reason"] == (
        "there is no two-level interval, because the block line has none (1 block: an "
        "interval needs at least 2)"
    )
    items = report["claim"]["reconsider_items"]
    assert (
        "the test rows fall in at least 2 weeks, so that the test gap gets an evaluation "
        "interval (now 1 week)" in items
    )
    assert not any("per-row test predictions" in i for i in items)


# ---------------------------------------------------------- without a block column


def test_without_a_block_column_the_noise_words_count_rows_not_blocks(tmp_path):
    report = _report(tmp_path, layout="canonical", blocks="none")
    assert report["data"]["block_column"] is None
    block = report["noise"]["block"]
    line = next(x for x in report["noise"]["lines"] if x.startswith(BLOCK_HEAD))
    rows = f"{block['blocks']:,} rows"
    assert f"over {rows} (no block column: the bootstrap resamples rows)" in line, line
    assert report["noise"]["interval"]["what"] == rows
    assert not [p for p, v in strings(report) if "single-row" in v]
