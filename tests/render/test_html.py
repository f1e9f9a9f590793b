"""The HTML page: content, safety, determinism and a golden copy."""

from __future__ import annotations

import copy
import os
import re

import pytest
from bs4 import BeautifulSoup

from reportgen.model import Report
from reportgen.render import render_outputs
from reportgen.render.html import render_html
from reportgen.view import build_view
from tests.render.shown import in_words

from .conftest import GOLDEN, load, scrubbed
from .make_fixtures import EXAMPLES as FIXTURE_EXAMPLES

HOSTILE_CLAIM = "The MLP beats gradient boosting <script>alert(1)</script> & is ready."

EXTERNAL = re.compile(r"(https?:|file:|^//)", re.I)


def soup_of(files) -> BeautifulSoup:
    return BeautifulSoup(files["report.html"].decode("utf-8"), "html.parser")


def norm(text: str) -> str:
    return " ".join(text.split())


def test_ladder_has_five_rungs_with_words(weekly_churn_files, weekly_churn):
    soup = soup_of(weekly_churn_files)
    rows = soup.select("table.ladder-table tbody tr")
    assert len(rows) == 5
    words = [norm(r.select_one(".status").get_text()) for r in rows]
    # rung 5 is shown but rung 3 is not: its own neutral badge, never the green one
    assert words == ["✓ shown", "✓ shown", "✗ not shown", "✗ not shown", "○ shown, not credited"]
    classes = [r.select_one(".status")["class"][1] for r in rows]
    assert classes == [
        "status-shown",
        "status-shown",
        "status-not-shown",
        "status-not-shown",
        "status-not-credited",
    ]
    # grouped by folder: "artefacts/predictions/ r03-mlp-s1-validation.csv, ..."
    first = weekly_churn["ladder"][2]["artefacts"][0]
    folder, name = first.rsplit("/", 1)
    assert folder + "/" in rows[2].get_text() and name in rows[2].get_text()


def noise_lines(report: dict) -> list[str]:
    """The report's two noise lines and, when it has a variance budget, the budget's line; in a
    cv design the planning note follows the resampling line (before a test part's line)."""
    noise = report["noise"]
    budget = noise.get("budget")
    lines = noise["lines"] + ([budget["line"]] if budget else [])
    plan = ((noise.get("cv") or {}).get("planning") or {}).get("text")
    lines = lines[:2] + [plan] + lines[2:] if plan else lines
    if report.get("results") and (noise.get("interval") or {}).get("source") == "block":
        lines[1] = after_results(lines[1])
    return [in_words(x, report) for x in lines]  # model ids as their display names


#: the block line of report.json: the test gap, its primary interval, which interval that is
BLOCK_LINE = re.compile(
    r"(?P<head>.*?: )the test gap is \S+ .*? \((?P<basis>row-weighted over [^)]*)\), "
    r"(?P<conf>\S+) interval \S+ to \S+ over (?P<what>.*?)"
    r"(?P<rows> \(no block column: the bootstrap resamples rows\))?: (?P<which>.*)"
)


def after_results(line: str) -> str:
    """The block line as the noise section prints it after Results at a glance, which says the
    test gap and its primary interval: the same line without them."""
    m = BLOCK_LINE.fullmatch(line)
    assert m, line
    return (
        f"{m['head']}the test gap and its {m['conf']} interval over {m['what']}{m['rows'] or ''}, "
        f"as in Results at a glance ({m['basis']}): {m['which']}"
    )


def test_both_noise_lines_word_for_word(weekly_churn_files, weekly_churn):
    lines = [norm(p.get_text()) for p in soup_of(weekly_churn_files).select("p.noise-line")]
    assert lines == noise_lines(weekly_churn) and len(lines) == 3


def test_charts_are_inline_svg_figures(weekly_churn_files):
    soup = soup_of(weekly_churn_files)
    figures = soup.select("figure.chart")
    assert len(figures) >= 4
    for f in figures:
        assert f.find("svg") is not None
        assert f.select_one('[role="img"]')["aria-label"].strip()
        assert f.find("figcaption").get_text().strip()


def test_no_external_urls_and_no_script(weekly_churn_files):
    html = weekly_churn_files["report.html"].decode("utf-8")
    soup = BeautifulSoup(html, "html.parser")
    assert soup.find("script") is None
    for tag in soup.find_all(True):
        for attr in ("src", "href", "xlink:href"):
            value = tag.get(attr)
            if value:
                assert not EXTERNAL.search(value), (tag.name, attr, value)
    for url in re.findall(r"url\(([^)]*)\)", html):
        assert not EXTERNAL.search(url.strip("'\"")), url


def test_script_claim_is_escaped_text(weekly_churn):
    report = copy.deepcopy(weekly_churn)
    report["project"]["claim"] = report["claim"]["original"] = HOSTILE_CLAIM
    html = render_html(build_view(Report.from_json(report), ()))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>" not in html
    soup = BeautifulSoup(html, "html.parser")
    quote = norm(soup.select_one(".claim-original blockquote").get_text())
    assert quote == HOSTILE_CLAIM


def test_page_one_content(weekly_churn_files, weekly_churn):
    soup = soup_of(weekly_churn_files)
    page_one = soup.select_one("section.page-one")
    text = norm(page_one.get_text())
    assert weekly_churn["project"]["title"] in text
    assert "A. Student" in text and "built 2025-12-01" in text and "evreport 0.1.0" in text
    assert in_words(weekly_churn["claim"]["rewritten"], weekly_churn) in text
    assert "Keep gradient boosting" in text and "recommended model: gradient boosting" in text
    # each reason is said once on page one: a rung's in the ladder's "one thing missing", every
    # one with the primary interval's ends left to the claim and the reconsider-when line
    said = "−0.0051 to +0.0116"
    for reason in weekly_churn["decision"]["reasons"]:
        words = in_words(reason, weekly_churn).split(" is not shown: ")[-1]
        words = words.replace(f" {said} over 30 weeks", "").replace(f" {said}", "")
        assert words in text
        assert text.count(words) == 1, words


def test_size_under_one_megabyte(rendered):
    for name in ("weekly-churn", "tuned-no-replay", "moons-tie"):
        assert len(rendered(name)["report.html"]) < 1_000_000, name


def test_deterministic(weekly_churn):
    a, _ = render_outputs(Report.from_json(weekly_churn), ("html",))
    b, _ = render_outputs(Report.from_json(weekly_churn), ("html",))
    assert a["report.html"] == b["report.html"]


def test_minimal_explains_empty_sections(minimal_files):
    soup = soup_of(minimal_files)
    absent = [norm(p.get_text()) for p in soup.select("p.absent")]
    assert any("no per-row predictions" in a for a in absent)
    assert any("no slice column" in a for a in absent)
    assert [f["id"] for f in soup.select("figure.chart")] == ["fig-seed_strip"]


def test_before_after_section(tuned_no_replay_files, tuned_no_replay):
    soup = soup_of(tuned_no_replay_files)
    section = soup.select_one("section.before-after")
    assert section is not None
    ids = [td.get_text() for td in section.select("table.broken tbody tr td:first-child")]
    assert ids == tuned_no_replay["before_after"]["broken_ids"]
    assert {f["id"] for f in section.select("figure")} == {
        "fig-before_after_interval",
        "fig-fixed_broken",
        "fig-forgetting",
    }
    assert soup.select_one("section.threshold") is None


def test_question_text_with_markup_is_shown_as_text(tuned_no_replay):
    report = copy.deepcopy(tuned_no_replay)
    report["before_after"]["broken_rows"][0]["text"] = 'Who wrote "<b>Middlemarch</b>"?'
    soup = BeautifulSoup(render_html(build_view(Report.from_json(report), ())), "html.parser")
    section = soup.select_one("section.before-after")
    assert '"<b>Middlemarch</b>"' in section.get_text()
    assert section.find("b") is None


@pytest.mark.parametrize("name", ["weekly_churn", "tuned_no_replay", "minimal"])
def test_golden_html(name, request):
    """Compare with tests/render/golden/; EVREPORT_UPDATE_GOLDEN=1 (make golden) rewrites it."""
    report = scrubbed(request.getfixturevalue(name))
    files, _ = render_outputs(Report.from_json(report), ("html",))
    html = files["report.html"].decode("utf-8")
    path = GOLDEN / f"report-{name.replace('_', '-')}.html"
    if os.environ.get("EVREPORT_UPDATE_GOLDEN"):
        path.write_text(html, encoding="utf-8")
    assert path.exists(), f"{path} missing: run make golden"
    assert html == path.read_text(encoding="utf-8"), (
        f"HTML differs from {path}; if the change is intended, run make golden and review the diff"
    )


@pytest.mark.parametrize("name", FIXTURE_EXAMPLES)
def test_every_example_renders(name, rendered):
    """Every example's fixture: every section renders, nothing leaks."""
    report, files = load(name), rendered(name)
    soup = BeautifulSoup(files["report.html"].decode("utf-8"), "html.parser")
    assert len(soup.select("table.ladder-table tbody tr")) == 5
    assert [norm(p.get_text()) for p in soup.select("p.noise-line")] == noise_lines(report)
    # a cv design without a test part has one chart (the fold gaps): no threshold, ROC or
    # calibration without a part scored once
    cv_only = report["noise"].get("cv") is not None and report["noise"]["block"] is None
    assert len(soup.select("figure.chart svg")) >= (1 if cv_only else 3)
    if cv_only:
        [fig] = soup.select("div.chart-svg[aria-label^='Dot plot of']")
        assert f"{report['noise']['cv']['J']} fold gaps" in fig["aria-label"]
    assert soup.find("script") is None
    md = files["decision-log.md"].decode("utf-8")
    assert in_words(report["claim"]["reconsider_items"][0], report)[:40] in md


def test_control_characters_in_user_text_are_shown_as_escapes():
    from reportgen.render.html import environment

    out = environment().from_string("{{ x }}|{{ y }}").render(x="mlp\x1b[31m\x00\u0085", y="a\tb")
    assert out == "mlp\\x1b[31m\\x00\\x85|a\tb"


def _slice_table(soup: BeautifulSoup) -> tuple[list[str], list[list[str]]]:
    """The slice table's column heads and its rows' cells, as text."""
    table = soup.select_one("section.slices table.slice-table")
    assert table is not None
    heads = [th.get_text() for th in table.select("thead th")]
    rows = [[c.get_text() for c in tr.select("th, td")] for tr in table.select("tbody tr")]
    return heads, rows


def test_before_after_slices_are_one_table_in_its_words(tuned_no_replay_files, tuned_no_replay):
    """Issue 31: the before/after design printed its slices twice ("By slice" in the
    before-and-after section, "Slices and bounds" with Rows, Blocks equal to Rows and "candidate
    better"); now one table, in the design's words, without a column that repeats another."""
    soup = soup_of(tuned_no_replay_files)
    assert len(soup.select("table.slice-table")) == 1
    assert soup.select_one("section.before-after table.numeric") is None
    assert "By slice" not in soup.get_text()
    heads, rows = _slice_table(soup)
    assert heads == [
        "Slice",
        "Questions",
        "Before",
        "After",
        "Fixed",
        "Broken",
        "After − before",
        "95% interval",
        "Reading",
    ]
    for s, cells in zip(tuned_no_replay["slices"], rows, strict=True):
        assert cells[:2] == [s["slice"], str(s["rows"])]
        assert cells[2:4] == [f"{s['before']:.3f}", f"{s['after']:.3f}"]
        assert cells[4:6] == [str(s["fixed"]), str(s["broken"])]
    section = soup.select_one("section.slices")
    text = section.get_text()
    assert "candidate better" not in text and "candidate worse" not in text
    # every block is one question and no slice is required: each said once, in the caption
    # outside the table's scrolling wrapper: on a phone it wraps at the screen's width
    [caption_p] = section.select("p.table-caption")
    assert caption_p.find_parent(class_="table-wrap") is None
    table = section.select_one("table.slice-table")
    assert table["aria-describedby"] == caption_p["id"]
    caption = caption_p.get_text()
    assert "Each question is its own block" in caption
    assert "No slice is required to be no worse after tuning" in caption
    assert text.count("its own block") == 1 and "blocks on test" not in text


def test_model_pair_slice_table_keeps_blocks_and_the_required_column(weekly_churn_files):
    heads, rows = _slice_table(soup_of(weekly_churn_files))
    assert heads == [
        "Slice",
        "Rows",
        "Blocks",
        "Gap",
        "95% interval",
        "Reading",
        "Must not be worse",
    ]
    assert soup_of(weekly_churn_files).select_one("section.slices p.table-caption") is None


def test_before_after_pages_speak_of_after_and_before(tuned_no_replay_files):
    """tuned-replay: the noise section's lead said "the candidate against the baseline" and
    the relevance row "test gap" in a report of one model before and after tuning."""
    soup = soup_of(tuned_no_replay_files)
    lead = norm(soup.select_one("section.noise p.lead").get_text())
    assert "after minus before" in lead and "candidate" not in lead
    facts = [norm(dt.get_text()) for dt in soup.select("section.slices dl.facts dt")]
    assert "difference (after − before) and interval" in facts
    assert "test gap and interval" not in facts


def test_interval_table_has_no_column_of_dashes(tuned_no_replay_files, weekly_churn_files):
    """The before/after interval table printed a Standard error column of dashes only."""
    heads = [
        th.get_text()
        for th in soup_of(tuned_no_replay_files).select("table.intervals th[scope=col]")
    ]
    assert heads == ["Interval", "After − before", "Interval", "p"]
    heads = [
        th.get_text() for th in soup_of(weekly_churn_files).select("table.intervals th[scope=col]")
    ]
    assert "Standard error" in heads and "Gap" in heads
