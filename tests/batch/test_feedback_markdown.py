"""feedback.md: student text escaped only where Markdown could make something of it (checked
with GitHub's own renderer, cmark-gfm), each sentence said once, times without microseconds."""

from __future__ import annotations

import html
import re
import tomllib
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime

import cmarkgfm
import pytest

from reportgen.grading.feedback import feedback_data, md_escape, render_markdown, sentences
from reportgen.grading.rubric import TEMPLATE, parse_rubric, score, total

from .fakes import FIXTURES, fixture_report

#: what GitHub would make of Markdown: links, images, HTML, code, emphasis, strike, headings,
#: lists inside the line, table cells
FORMED = re.compile(r"<(a|img|code|em|strong|del|h\d|script|b|i|ol|ul|li|table|td)\b", re.I)

HOSTILE = [
    "see [my notes](https://evil.example/x) for more",
    "![tracker](https://evil.example/p.png)",
    "<script>alert(1)</script> and <b>bold</b>",
    "*really* better, __much__ better, _a bit_ better",
    "use `rm -rf` here, or ``x``",
    "~~struck~~ and ~one~",
    "# heading",
    "1. numbered",
    "- bullet",
    "a | b | c",
    r"a \*b\* and \[c\](d)",
    "&lt;b&gt; and &#60;i&#62;",
    "[ref]: https://evil.example",
    "<https://evil.example>",
]

PLAIN = [
    "the validation gap is +0.88 seed sd, not more than 2 (5 seeds)",
    "the interval −0.0051 to +0.0116 includes zero!",
    "rung #3 failed; log_loss and r03-mlp-s1 are ids",
    "Tom & Jerry's model: 95% of rows, 2+2=4",
    "a = b, c - d, e + f, 3.5 / 7",
]


def rendered(md: str) -> str:
    return cmarkgfm.github_flavored_markdown_to_html(md)


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page)).strip()


@pytest.mark.parametrize("raw", HOSTILE)
@pytest.mark.parametrize("where", ["{}", "- {}", "> {}", "| line | 1 | {} |\n|---|---|---|"])
def test_student_text_forms_nothing_in_any_place_feedback_puts_it(raw, where):
    md = where.format(md_escape(raw))
    if where.startswith("|"):  # a table: the row must stay one row of three cells
        md = "| a | b | c |\n|---|---|---|\n" + where.format(md_escape(raw)).split("\n")[0]
        page = rendered(md)
        assert page.count("<td") == 3, page
        page = page.split("<tbody>")[1]
        assert not FORMED.sub("", page).count("<a ") and "<img" not in page
        inner = re.findall(r"<td>(.*?)</td>", page, re.S)[2]
        assert not FORMED.search(inner), inner
        return
    page = rendered(md)
    body = re.sub(
        r"^<(p|ul|blockquote)>\s*(<li>|<p>)?|(</li>|</p>)?\s*</(p|ul|blockquote)>\s*$",
        "",
        page.strip(),
    )
    assert not FORMED.search(body), page


@pytest.mark.parametrize("raw", [h for h in HOSTILE if "://" not in h and "<https" not in h])
def test_student_text_renders_as_itself(raw):
    assert text_of(rendered(md_escape(raw))) == raw


@pytest.mark.parametrize("raw", PLAIN)
def test_plain_punctuation_is_not_escaped(raw):
    assert md_escape(raw) == raw
    assert text_of(rendered(md_escape(raw))) == raw


def test_a_bare_link_is_broken_visibly_not_escaped_away():
    assert md_escape("see https://evil.example") == r"see https\[:\]//evil.example"
    assert "<a" not in rendered(md_escape("see https://evil.example or www.evil.example"))


EXAMPLES = sorted(p.name for p in FIXTURES.glob("report-*.json"))


def repeated_sentences(md: str) -> list[str]:
    """Sentences (of the prose, not the points table) said more than once in feedback.md."""
    prose = [ln.lstrip("-> ").strip() for ln in md.splitlines() if ln and not ln.startswith("|")]
    keys = Counter(s.rstrip(" .").casefold() for ln in prose for s in sentences(ln) if len(s) > 20)
    return [k for k, n in keys.items() if n > 1]


@pytest.mark.parametrize("name", EXAMPLES)
def test_feedback_for_each_example_says_each_sentence_once(name):
    rep = fixture_report(name)
    rubric = parse_rubric(tomllib.loads(TEMPLATE))
    s = score(
        rubric,
        rep,
        latest_started_at="2026-04-10T11:45:00.000000Z",
        deadline=datetime(2026, 4, 8, 23, 59, tzinfo=UTC),
    )
    md = render_markdown(feedback_data("alice", rep, s, total(s), 14))
    assert repeated_sentences(md) == []


def test_a_repeated_sentence_is_said_once():
    rep = fixture_report("report-weekly-churn.json")
    claim = rep.claim

    said_twice = "More test weeks narrow the interval."
    rep = replace(rep, claim=replace(claim, reconsider_items=(said_twice, said_twice.lower(), "x")))
    md = render_markdown(feedback_data("alice", rep))
    assert md.count("ore test weeks narrow the interval") == 1
    assert "- x" in md


def test_the_missing_thing_is_not_restated_when_the_advice_opens_with_it():
    # weekly-churn: "What is missing: the validation gap is +0.88 seed sd, not more than 2."
    # and the advice "The validation gap is +0.88 seed sd and the rule needs more than 2 ..."
    md = render_markdown(feedback_data("alice", fixture_report("report-weekly-churn.json")))
    fix_first = md.split("## What to fix first")[1].split("## ")[0].casefold()
    assert fix_first.count("the validation gap is +0.88 seed sd") == 1
    assert "what is missing" not in fix_first


def test_late_line_gives_the_time_without_microseconds():
    rubric = parse_rubric(tomllib.loads(TEMPLATE))
    s = score(
        rubric,
        fixture_report("report-weekly-churn.json"),
        latest_started_at="2026-04-10T11:45:00.000000Z",
        deadline=datetime(2026, 4, 8, 23, 59, tzinfo=UTC),
    )
    late = next(x for x in s if x.line.kind == "late")
    assert late.points == -2
    assert (
        late.why == "a run started at 2026-04-10T11:45:00Z, after the deadline 2026-04-08T23:59:00Z"
    )


def test_feedback_names_the_models_by_their_display_names():
    # weekly-churn's evreport.toml [models]: mlp = "MLP (1 x 32)", gbm = "gradient boosting"
    md = render_markdown(feedback_data("alice", fixture_report("report-weekly-churn.json")))
    assert "MLP (1 x 32) is not shown to be better than gradient boosting on log loss" in md
    assert not re.search(r"\b(mlp|gbm)\b", md.split("## Words used here")[0].replace("-mlp-", ""))


@pytest.mark.parametrize("name", ["report-breast-cancer-cv.json", "report-cv-test-part.json"])
def test_cross_validated_feedback_says_the_seed_rule_once_in_cv_words(name):
    # breast-cancer-cv: the ladder's "cross-validation gap +0.0036 is +0.81 seed sd (within
    # folds); the rule needs more than 2" was followed by the advice "The validation gap is
    # +0.81 seed sd ..." and "The test interval ...: more test rows (more blocks) narrow it"
    md = render_markdown(feedback_data("bob", fixture_report(name)))
    fix_first = md.split("## What to fix first")[1].split("## ")[0]
    low = fix_first.casefold()
    assert low.count("seed sd") == 1, fix_first
    assert "what is missing" not in low
    assert "the cross-validation gap is" in low and "the cross-validation interval" in low
    assert "validation gap" not in low.replace("cross-validation gap", "")
    assert "test interval" not in low and "block" not in low and "test rows" not in low
    assert "more data" in low
    glossary = md.split("## Words used here")[1]
    assert "**validation**" not in glossary and "**block**" not in glossary


def test_cross_validated_advice_follows_the_repeat_planning():
    from reportgen.grading.advice import advice

    rep = fixture_report("report-breast-cancer-cv.json")
    cv = rep.noise.cv
    # today: more repeats cannot settle it (the gap lies inside the floor half-width)
    assert "more repeats cannot narrow it enough" in advice(rep, 3)
    settle = replace(cv.planning, repeats_cannot=False, repeats_needed=40)
    said = advice(replace(rep, noise=replace(rep.noise, cv=replace(cv, planning=settle))), 3)
    assert "about 40 repeats of the same cross-validation" in said
    unplanned = replace(rep, noise=replace(rep.noise, cv=replace(cv, planning=None)))
    assert "more repeats of the cross-validation, more folds or more data" in advice(unplanned, 3)
    harm = replace(rep.noise.interval, low=-0.03, high=-0.01, gap=-0.02)
    said = advice(replace(rep, noise=replace(rep.noise, interval=harm)), 3)
    assert "lies wholly below zero" in said and "across the folds" in said


def test_advice_s_seed_rule_id_is_the_checks_own():
    from reportgen.checks.model_vs_baseline.rungs import SEED_RULE
    from reportgen.grading import advice

    assert advice.SEED_RULE == SEED_RULE.id
