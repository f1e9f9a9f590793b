"""runs.csv: good rows come back with their file line; bad cells name line and column."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import MINI_CONFIG, make_project, runs_problems, with_slug

from reportgen.project import inspect_project

H = "run_id,model,seed,split,metric,value,status,started_at"


def test_good_rows_with_lines_and_types():
    text = (
        H + "\n"
        "r1,mlp,1,validation,log_loss,0.41,ok,2026-03-01T10:00:00Z\n"
        "r1,mlp,1,test,log_loss,0.43,,2026-03-01\n"
        "r2,gbm,2,val,log_loss,0.5,OK,\n"
    )
    rows, problems, warnings = runs_problems(text)
    assert problems == [] and warnings == []
    assert [(r.line, r.run_id, r.split, r.value) for r in rows] == [
        (2, "r1", "validation", 0.41),
        (3, "r1", "test", 0.43),
        (4, "r2", "validation", 0.5),  # `val` is an alias of validation
    ]
    assert rows[0].seed == 1 and isinstance(rows[0].seed, int)
    assert rows[0].started_at == dt.datetime(2026, 3, 1, 10, tzinfo=dt.UTC)
    assert rows[1].started_at == dt.datetime(2026, 3, 1, tzinfo=dt.UTC)  # naive -> UTC
    assert rows[2].started_at is None
    assert [r.status for r in rows] == ["ok", "ok", "ok"]  # empty -> ok, case folded
    assert rows[1].cite() == "runs.csv:3"


def test_only_required_columns():
    rows, problems, _ = runs_problems("run_id,model,seed,split,metric,value\nr,m,0,test,acc,1\n")
    assert problems == []
    [r] = rows
    assert (r.status, r.predictions, r.started_at, r.notes) == ("ok", None, None, None)


def test_missing_required_column():
    rows, problems, _ = runs_problems("run_id,model,seed,split,value\nr,m,1,test,0.3\n")
    assert rows == []
    [p] = problems
    assert (p.path, p.line, p.slug) == ("runs.csv", 1, "missing-column")
    assert p.message == (
        "missing required column(s) metric; the header has run_id, model, seed, split, value"
    )


def test_non_numeric_value_at_line_and_column():
    text = H + "\nr1,mlp,1,test,log_loss,0.4,ok,\nr2,mlp,2,test,log_loss,abc,ok,\n"
    rows, problems, _ = runs_problems(text)
    assert [r.run_id for r in rows] == ["r1"]
    [p] = problems
    assert str(p) == "runs.csv:3:6: error: value = 'abc' is not a finite number [bad-value]"


@pytest.mark.parametrize("v", ["nan", "inf", "-inf"])
def test_non_finite_value_refused(v):
    _, problems, _ = runs_problems(H + f"\nr1,mlp,1,test,log_loss,{v},ok,\n")
    [p] = problems
    assert (p.line, p.column, p.slug) == (2, 6, "bad-value")


def test_empty_value_with_status_ok():
    _, problems, _ = runs_problems(H + "\nr1,mlp,1,test,log_loss,,ok,\n")
    [p] = problems
    assert (p.line, p.column, p.slug) == (2, 6, "empty-cell")
    assert "status=failed" in p.message


def test_failed_run_with_empty_value_is_kept():
    rows, problems, _ = runs_problems(
        H + "\nr1,mlp,1,test,log_loss,,failed,\nr2,mlp,2,test,log_loss,0.4,ok,\n"
    )
    assert problems == []
    assert [(r.line, r.status, r.value, r.ok) for r in rows] == [
        (2, "failed", None, False),
        (3, "ok", 0.4, True),
    ]


def test_bad_status_seed_and_started_at():
    text = (
        H + "\n"
        "r1,mlp,1,test,log_loss,0.4,crashed,\n"
        "r2,mlp,one,test,log_loss,0.4,ok,\n"
        "r3,mlp,3,test,log_loss,0.4,ok,last monday\n"
    )
    rows, problems, _ = runs_problems(text)
    assert rows == []
    got = [(p.line, p.column, p.slug) for p in problems]
    assert got == [(2, 7, "bad-value"), (3, 3, "bad-value"), (4, 8, "bad-time")]
    assert problems[0].message == "status = 'crashed' must be one of ok, failed"
    assert problems[1].message == "seed = 'one' is not a whole number"
    assert problems[2].message.startswith("started_at = 'last monday' is not an ISO 8601 date-time")


def test_empty_required_cells():
    _, problems, _ = runs_problems(H + "\n,,1,,,0.4,ok,\n")
    assert sorted((p.column, p.message) for p in problems) == [
        (1, "run_id is empty"),
        (2, "model is empty"),
        (4, "split is empty"),
        (5, "metric is empty"),
    ]


def test_duplicate_row_names_both_lines():
    text = (
        H + "\n"
        "r1,mlp,1,validation,log_loss,0.4,ok,\n"
        "r1,mlp,1,test,log_loss,0.4,ok,\n"
        "r1,mlp,1,val,log_loss,0.5,ok,\n"  # same as line 2 once `val` is read as validation
    )
    rows, problems, _ = runs_problems(text)
    assert [r.line for r in rows] == [2, 3]
    [p] = problems
    assert (p.line, p.column, p.slug) == (4, 1, "duplicate-row")
    assert "first at line 2" in p.message
    assert "'r1'" in p.message and "'validation'" in p.message and "'log_loss'" in p.message


def test_wrong_field_count():
    text = H + "\nr1,mlp,1,test,log_loss,0.4,ok,\nr2,mlp,2,test,log_loss,0.4\n"
    rows, problems, _ = runs_problems(text)
    assert len(rows) == 1
    [p] = problems
    assert (p.line, p.slug, p.message) == (3, "field-count", "6 fields, but the header has 8")


def test_quoted_newline_keeps_later_line_numbers():
    text = (
        "run_id,model,seed,split,metric,value,notes\n"
        'r1,mlp,1,test,log_loss,0.4,"first line\nsecond line\nthird"\n'
        "r2,mlp,2,test,log_loss,0.5,plain\n"
        "r3,mlp,3,test,log_loss,oops,plain\n"
    )
    rows, problems, _ = runs_problems(text)
    assert [(r.line, r.run_id) for r in rows] == [(2, "r1"), (5, "r2")]
    assert rows[0].notes == "first line\nsecond line\nthird"
    [p] = problems
    assert (p.line, p.column) == (6, 6)


def test_crlf_and_blank_lines_keep_line_numbers():
    text = H + "\r\nr1,mlp,1,test,log_loss,0.4,ok,\r\n\r\nr2,mlp,2,test,log_loss,x,ok,\r\n"
    rows, problems, _ = runs_problems(text)
    assert [r.line for r in rows] == [2]
    assert [(p.line, p.column) for p in problems] == [(4, 6)]


def test_empty_and_header_only():
    _, problems, _ = runs_problems("")
    assert [(p.line, p.slug) for p in problems] == [(1, "empty")]
    _, problems, _ = runs_problems(H + "\n")
    assert [(p.line, p.slug, p.message) for p in problems] == [
        (2, "empty", "the run log has a header but no rows")
    ]


def test_duplicate_header_column():
    _, problems, _ = runs_problems("run_id,model,seed,split,metric,value,model\n")
    [p] = problems
    assert (p.line, p.column, p.slug) == (1, 2, "duplicate-column")


def test_unknown_column_close_to_a_known_one_warns():
    rows, problems, warnings = runs_problems(
        "run_id,model,seed,split,metric,value,stauts\nr,m,1,test,acc,0.9,x\n"
    )
    assert problems == [] and len(rows) == 1
    [w] = warnings
    assert (w.line, w.column, w.severity) == (1, 7, "warning")
    assert "did you mean 'status'?" in w.message


def test_run_changing_model_between_rows():
    text = H + "\nr1,mlp,1,validation,log_loss,0.4,ok,\nr1,gbm,1,test,log_loss,0.4,ok,\n"
    _, problems, _ = runs_problems(text)
    [p] = problems
    assert (p.line, p.column, p.slug) == (3, 2, "inconsistent-run")
    assert "at line 2" in p.message


def test_bom_is_tolerated_through_the_project(tmp_path):
    root = make_project(tmp_path / "p")
    path = root / "runs.csv"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    project, problems = inspect_project(root)
    assert project is not None, [str(p) for p in problems]
    assert project.runs[0].run_id == "mlp-s1" and project.runs[0].line == 2


def test_header_with_quoted_newline_keeps_line_numbers():
    text = 'run_id,model,seed,split,metric,value,"my\nnotes"\nr1,mlp,1,test,log_loss,x,n\n'
    _, problems, _ = runs_problems(text)
    [p] = problems
    assert p.line == 3


def test_header_only_runs_reported_alongside_config_problems(tmp_path):
    root = make_project(tmp_path / "p", MINI_CONFIG.replace("title", "titel"))
    (root / "runs.csv").write_text(H + "\n", encoding="utf-8")
    _, problems = inspect_project(root)
    assert with_slug(problems, "unknown-key")  # the config problem
    assert [p.message for p in problems if p.path == "runs.csv"] == [
        "the run log has a header but no rows"
    ]
