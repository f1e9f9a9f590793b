"""Grading: rubric arithmetic, feedback, copied work (the batch end to end: test_grading_batch.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from reportgen.errors import UsageError
from reportgen.grading.claim import claimed_rung, honest
from reportgen.grading.duplicates import find_duplicates
from reportgen.grading.feedback import feedback_data, md_escape, render_markdown
from reportgen.grading.rubric import TEMPLATE, parse_rubric, score, total
from reportgen.model import Report
from reportgen.model.ladder import Check

from .fakes import fixture_report, with_ladder
from .grading_fakes import RUBRIC


def report(rung: int = 2, claim: str = "A and B are tied.", failing=(), partly_at=None) -> Report:
    """weekly-churn's report with the ladder shown up to ``rung``, the claim and three checks."""
    statuses = ["shown" if i <= rung else "not shown" for i in range(1, 6)]
    if partly_at:
        statuses[partly_at - 1] = "partly"
    base = with_ladder(fixture_report("report-weekly-churn.json"), statuses, artefacts=())
    ladder = tuple(replace(r, missing=None if r.shown else f"thing {r.rung}") for r in base.ladder)
    checks = tuple(
        Check(id=c, rung=1, passed=c not in failing, value=None, bar=None, artefacts=(), text="t")
        for c in ("logged-equals-recomputed", "not-worse-on-a", "not-worse-on-b")
    )
    return replace(
        base,
        ladder=ladder,
        claim=replace(base.claim, supported_rung=rung, original=claim),
        project=replace(base.project, claim=claim),
        checks=checks,
    )


def with_row(rep: Report, rung: int, **changes) -> Report:
    """``rep`` with one ladder row's fields changed."""
    ladder = tuple(replace(r, **changes) if r.rung == rung else r for r in rep.ladder)
    return replace(rep, ladder=ladder)


def points(scores) -> dict:
    return {s.line.column: s.points for s in scores}


# ----------------------------------------------------------------------------- rubric


def test_rubric_lines_and_max():
    r = parse_rubric(RUBRIC)
    assert r.columns == (
        "rung1_correct",
        "rung3_larger_than_noise",
        "check_logged-equals-recomputed",
        "check_not-worse-on-*",
        "honest_claim",
        "warnings",
        "late",
    )
    assert r.max == 2 + 3 + 1.5 + 1 + 2


@pytest.mark.parametrize(
    ("given", "warnings", "started", "expected", "expected_total"),
    [
        pytest.param(  # everything earned, no deductions
            {"rung": 3, "claim": "A beats B."},
            0,
            "2026-02-01T00:00:00Z",
            {
                "rung1_correct": 2,
                "rung3_larger_than_noise": 3,
                "check_logged-equals-recomputed": 1.5,
                "check_not-worse-on-*": 1,
                "honest_claim": 2,
                "warnings": 0,
                "late": 0,
            },
            9.5,
            id="everything-earned",
        ),
        pytest.param(
            # partly, a failing check, one of two pattern checks failing, a dishonest claim,
            # 3 warnings (cap 1), late
            {
                "rung": 1,
                "claim": "A beats B by 5 points.",
                "failing": ("logged-equals-recomputed", "not-worse-on-b"),
                "partly_at": 3,
            },
            3,
            "2026-03-02T10:00:00Z",
            {
                "rung1_correct": 2,
                # partly, but above rung 2, which is not shown: the credited ladder gives it nothing
                "rung3_larger_than_noise": 0,
                "check_logged-equals-recomputed": 0,
                "check_not-worse-on-*": 0,
                "honest_claim": 0,
                "warnings": -1,
                "late": -3,
            },
            0,  # 2 - 4 is floored at 0
            id="deductions",
        ),
    ],
)
def test_rubric_arithmetic_each_line(given, warnings, started, expected, expected_total):
    r = parse_rubric(RUBRIC)
    deadline = datetime(2026, 3, 1, tzinfo=UTC)
    s = score(r, report(**given), warnings=warnings, latest_started_at=started, deadline=deadline)
    assert points(s) == expected
    assert total(s) == expected_total


def test_a_missing_check_earns_nothing_and_one_warning_costs_half():
    r = parse_rubric(RUBRIC)
    # a missing check earns nothing; one warning costs 0.5
    rep = replace(report(rung=0), checks=())
    s = score(r, rep, warnings=1)
    assert points(s)["check_logged-equals-recomputed"] == 0
    assert points(s)["rung1_correct"] == 0
    assert points(s)["warnings"] == -0.5
    assert points(s)["late"] == 0  # no deadline given


def test_rung_given_as_a_number_is_points_for_shown():
    r = parse_rubric({"rungs": {"fair": 4}})
    assert points(score(r, report(rung=2))) == {"rung2_fair": 4}
    assert points(score(r, report(rung=1))) == {"rung2_fair": 0}


@pytest.mark.parametrize(
    "doc, message",
    [
        (
            {"checks": {"fair-test-opened-once-candidat": 1}},
            "did you mean 'fair-test-opened-once-candidate'",
        ),
        ({"checks": {"logged-equal-recomputed": 1}}, "did you mean 'logged-equals-recomputed'"),
        ({"rungs": {"larger-than-noise": 1}}, "did you mean 'larger_than_noise'"),
        ({"rungs": {"fair": {"show": 1}}}, "did you mean 'shown'"),
        ({"claims": {"honest": 1}}, "did you mean '[claim]'"),
        ({"deductions": {"per_warnings": 1}}, "did you mean 'per_warning'"),
        ({"checks": {"useful-effect": -1}}, "is negative"),
        ({"checks": {"useful-effect": "two"}}, "is not a number"),
        ({}, "gives no points"),
    ],
)
def test_rubric_errors_name_the_closest(doc, message):
    with pytest.raises(UsageError) as e:
        parse_rubric(doc)
    assert message in str(e.value)


@pytest.mark.parametrize(
    "doc, value",
    [
        ({"checks": {"useful-effect": 1e308}}, "1e+308"),
        ({"rungs": {"fair": {"shown": 1e308}}}, "1e+308"),
        ({"claim": {"honest": float("inf")}}, "inf"),
        ({"deductions": {"late": 1e308}}, "1e+308"),
        ({"deductions": {"per_warning": 1, "max_warnings": 10**400}}, "inf"),
    ],
)
def test_rubric_points_over_a_million_are_refused_so_the_total_stays_finite(doc, value):
    with pytest.raises(UsageError) as e:
        parse_rubric(doc)
    assert f"= {value} is over the limit of 1e+06; give points from 0 to 1e+06" in str(e.value)


def test_project_specific_check_ids_are_known():
    r = parse_rubric({"checks": {"not-worse-on-shifted": 1, "rung1-overfit-after": 1}})
    assert len(r.lines) == 2


def test_template_parses():
    import tomllib

    r = parse_rubric(tomllib.loads(TEMPLATE))
    assert "honest_claim" in r.columns and r.max > 0


@pytest.mark.parametrize(
    "text, rung",
    [
        ("The MLP beats gradient boosting by 0.007 test log loss.", 4),
        ("The tanh MLP is more accurate than logistic regression.", 3),
        ("Tuning raises accuracy by 38 points without hurting anything else.", 5),
        ("A and B are tied on accuracy.", 2),
        ("A is not shown to be better than B.", 2),
        ("A gives a useful gain.", 4),
        ("We trained two models.", 2),
        ("The MLP is not significantly better than logistic regression.", 2),
        ("A is no better than B.", 2),
        ("A is not better than B, and both are robust everywhere.", 5),
    ],
)
def test_claimed_rung(text, rung):
    assert claimed_rung(text).rung == rung
    assert honest(text, rung) and (rung == 0 or not honest(text, rung - 1))


# ----------------------------------------------------------------------------- feedback


@pytest.mark.parametrize("missing_rung", [1, 2, 3, 4, 5])
def test_feedback_names_the_lowest_rung_not_shown(missing_rung):
    rep = with_row(report(rung=missing_rung - 1), missing_rung, artefacts=("artefacts/x.json",))
    claim = replace(
        rep.claim,
        reconsider_items=("the gap holds on [new data](http://evil)",),
        rewritten="A <b>ties</b> B.",
    )
    rep = replace(rep, claim=claim)
    md = render_markdown(feedback_data("alice", rep))
    names = ("correct", "fair", "larger than noise", "relevant", "bounded")
    assert f"rung {missing_rung} ({names[missing_rung - 1]})" in md
    assert f"What is missing: thing {missing_rung}." in md
    assert "`artefacts/x.json`" in md
    for other in set(range(1, 6)) - {missing_rung}:
        assert f"lowest rung your report does not show is rung {other} " not in md
    assert r"\[new data\](http\[:\]//evil)" in md  # no live link from student text
    assert r"\<b\>ties\</b\>" in md
    assert "**rung**:" in md  # jargon gets its one-line meaning


def test_feedback_all_shown_and_failed_build():
    md = render_markdown(feedback_data("bob", report(rung=5)))
    assert "shows every rung" in md
    md = render_markdown(feedback_data("carol", None, error="=HYPERLINK(x)"))
    assert "could not be built" in md and "> =HYPERLINK(x)" in md


def test_feedback_lists_points_per_line():
    r = parse_rubric(RUBRIC)
    s = score(r, report(rung=3, claim="A beats B."))
    md = render_markdown(feedback_data("dan", report(rung=3), s, total(s), r.max))
    assert "**Points: 9.5 of 9.5**" in md
    assert "| rung 3 (larger than noise) | 3 | shown |" in md


def test_md_escape_flattens_lines():
    assert md_escape("a\n# b*") == r"a # b\*"
    assert md_escape("# b\nc") == r"\# b c"


# ----------------------------------------------------------------------------- duplicates


def fp(pred=None, split=None, runs=None, values=()):
    return {
        "predictions": pred or {},
        "split": split or {},
        "runs_sorted": runs,
        "values": list(values),
    }


def test_duplicates_identical_copy_one_file_none():
    groups, common = find_duplicates(
        {
            "alice": fp(
                {"p/a.csv": "h1", "p/b.csv": "h2"},
                {"split/t.csv": "s1"},
                "r1",
                ["0.1", "0.2", "0.3", "0.4", "0.5"],
            ),
            "bob": fp(
                {"p/x.csv": "h1", "p/y.csv": "h2"},
                {"split/t.csv": "s1"},
                "r1",
                ["0.1", "0.2", "0.3", "0.4", "0.5"],
            ),
            "carol": fp(
                {"p/c.csv": "h3"}, {"split/t.csv": "s9"}, "r3", ["0.1", "0.2", "0.3", "0.4", "0.9"]
            ),
            "dan": fp({"p/c.csv": "h3", "p/d.csv": "h4"}, {}, "r4", ["1"]),
            "erin": fp({"p/e.csv": "h5"}, {}, "r5", ["2"]),
        }
    )
    assert common == []
    assert groups == [
        {
            "names": ["alice", "bob"],
            "shares": [
                "2 byte-identical predictions files: p/a.csv, p/b.csv",
                "1 byte-identical split file: split/t.csv",
                "an identical runs.csv (after sorting its rows)",
                "5 run-log values identical to 6 significant digits",
            ],
        },
        {"names": ["carol", "dan"], "shares": ["1 byte-identical predictions file: p/c.csv"]},
    ]
    # 4 shared values (carol with alice) are not enough; erin shares nothing
    assert not any("erin" in g["names"] for g in groups)
    assert not any(set(g["names"]) == {"alice", "carol"} for g in groups)


def test_duplicates_none_and_course_material():
    groups, common = find_duplicates(
        {n: fp({f"p/{n}.csv": n}, {"split/t.csv": "given"}) for n in "abcde"}
    )
    assert groups == [] and common == ["split file split/t.csv"]


def test_html_feedback_section_is_escaped_and_replaced_on_regrade():
    from reportgen.grading.feedback import (
        feedback_data,
        render_html_section,
        with_feedback_section,
    )

    rep = with_row(
        report(rung=1), 2, missing="<script>alert(1)</script> <!-- /evreport-feedback -->"
    )
    r = parse_rubric(RUBRIC)
    s = score(r, rep)
    section = render_html_section(feedback_data("alice", rep, s, total(s), r.max))
    assert "<script>" not in section and "&lt;script&gt;" in section
    assert "rung 2 (fair)" in section and "Points: " in section
    page = "<!doctype html><html><head></head><body>\n<h1>Report</h1></body></html>"
    once = with_feedback_section(page, section)
    assert once.index("evreport-feedback") < once.index("<h1>Report</h1>")
    twice = with_feedback_section(once, section)
    assert twice == once  # a re-grade replaces the section, never stacks a second one
    assert with_feedback_section("<p>no body</p>", section) is None


def test_html_feedback_for_a_failed_build_gives_the_reason():
    from reportgen.grading.feedback import feedback_data, render_html_section

    html = render_html_section(feedback_data("bob", None, error="report.pdf: <i>boom</i>"))
    assert "could not be built" in html and "&lt;i&gt;boom&lt;/i&gt;" in html
    assert "shows every rung" not in html


def test_student_text_in_duplicates_and_overview_has_no_control_characters():
    from reportgen.grading.overview import common_missing

    groups, _ = find_duplicates({n: fp({"p/\x1b[31mred.csv": "h"}) for n in ("a", "b")})
    assert "\x1b" not in groups[0]["shares"][0] and "\\x1b" in groups[0]["shares"][0]
    missing = common_missing({"a": {"missing": {"3": "gap\x07 of 0.5 on slice 'x\x00'"}}})
    assert missing["3"] == [
        {
            "text": "gap\\x07 of 0.5 on slice 'x\\x00'",
            "count": 1,
            "check": None,
            "numbers_vary": False,
        }
    ]
    missing = common_missing({"a": {"missing": {"3": "x"}, "unmet": {"3": [["a\x1b[31m", False]]}}})
    assert "\x1b" not in missing["3"][0]["text"] and missing["3"][0]["count"] == 1
