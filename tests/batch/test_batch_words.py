"""The batch index, feedback.md and grades.csv print numbers by the report's one policy
(reportgen.words): the index's test gap as the report prints it, points with a typographic
minus in feedback and a plain number in the grade sheet."""

from __future__ import annotations

from datetime import UTC, datetime

from reportgen.batch.index import _index_row
from reportgen.grading import _gradebook
from reportgen.grading.feedback import feedback_data, render_markdown
from reportgen.grading.overview import _pattern
from reportgen.grading.rubric import parse_rubric, score

from .test_grading import RUBRIC, report

M = "\u2212"


def test_index_row_numbers_follow_the_report():
    row = _index_row(
        {
            "name": "alice",
            "status": "ok",
            "gap": -0.0032,
            "gap_low": -0.0081,
            "gap_high": 0.0017,
            "seed_gap_in_sd": 0.875,
            "seconds": 12.345,
            "supported_rung": 2,
        }
    )
    assert row.gap == f"{M}0.00320 ({M}0.00810 to +0.00170)"
    assert row.seed_gap_in_sd == "+0.88"  # the report's 0.88, never 0.875 beside it
    assert (row.seconds, row.supported_rung) == ("12.3", "2")
    failed = _index_row({"name": "bob", "status": "error", "gap": None, "supported_rung": True})
    assert (failed.gap, failed.seed_gap_in_sd, failed.supported_rung) == ("—", "—", "—")
    assert row.rungs[0].text == "—"


def test_feedback_points_have_a_typographic_minus_and_grades_csv_a_number():
    scores = score(
        parse_rubric(RUBRIC),
        report(rung=1, claim="A beats B."),
        warnings=3,
        latest_started_at="2026-03-02T10:00:00Z",
        deadline=datetime(2026, 3, 1, tzinfo=UTC),
    )
    md = render_markdown(feedback_data("alice", report(rung=1), scores, 0.0, 9.5))
    assert "**Points: 0 of 9.5**" in md
    assert "| check logged equals recomputed | 1.5 | passed |" in md
    assert f"| input warnings | {M}1 | 3 input warnings |" in md
    assert f"| runs after the deadline | {M}3 | a run started at" in md
    assert _gradebook(-3.0) == -3 and _gradebook(1.5) == 1.5 and _gradebook(-0.0) == 0
    assert _gradebook("late") == "late"


def test_common_missing_reads_our_numbers_as_numbers():
    """The class overview groups missing texts with their numbers replaced: every form the
    policy prints (and the older ASCII forms) is one number."""
    new = f"the interval {M}0.0051 to +0.0116 (2,844 rows), difference 4.40 × 10⁻⁵"
    old = "the interval -0.0051 to 0.0116 (2844 rows), difference 4.4e-05"
    assert _pattern(new) == _pattern(old) == "the interval N to N (N rows), difference N"
