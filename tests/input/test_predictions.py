"""Predictions files (CSV and Parquet): checked cells name file, line and column; joins by row_id."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import MINI_CONFIG, make_project, set_runs_cell, with_slug

from reportgen.project import inspect_project
from reportgen.project.files import Reader
from reportgen.project.predictions import join_columns, parse_predictions
from reportgen.project.tables import TableError, read_table


def parse_file(tmp_path, name: str, content, metric="log_loss", builtin=True, block=None):
    """Write content (str for CSV, a DataFrame for Parquet) and parse it: (pred, problems)."""
    path = tmp_path / name
    if isinstance(content, pd.DataFrame):
        content.to_parquet(path, index=False)
    else:
        path.write_text(content, encoding="utf-8")
    frame = read_table(Reader(tmp_path), path)
    problems = []
    pred = parse_predictions(frame, name, "test", metric, builtin, problems, block, None)
    return pred, problems


def test_good_csv(tmp_path):
    pred, problems = parse_file(tmp_path, "p.csv", "row_id,y,p\na,0,0.1\nb,1,0.9\nc,1,1\n")
    assert problems == []
    assert pred.kind == "binary" and len(pred) == 3
    assert list(pred.row_id) == ["a", "b", "c"]
    np.testing.assert_array_equal(pred.y, [0, 1, 1])
    np.testing.assert_allclose(pred.p, [0.1, 0.9, 1.0])


@pytest.mark.parametrize(
    "bad,expect",
    [
        ("1.5", "p = '1.5' must be a number in [0.0, 1.0]"),
        ("-0.01", "p = '-0.01' must be a number in [0.0, 1.0]"),
        ("nan", "p = 'nan' must be a number in [0.0, 1.0]"),
        ("", "p = '' must be a number in [0.0, 1.0]"),
        ("high", "p = 'high' must be a number in [0.0, 1.0]"),
    ],
)
def test_p_outside_unit_interval(tmp_path, bad, expect):
    pred, problems = parse_file(tmp_path, "p.csv", f"row_id,y,p\na,0,0.1\nb,1,{bad}\n")
    assert pred is None
    [p] = problems
    assert str(p) == f"p.csv:3:3: error: {expect} [bad-value]"


@pytest.mark.parametrize("bad", ["2", "-1", "0.5", "yes", "NaN"])
def test_y_not_binary(tmp_path, bad):
    pred, problems = parse_file(tmp_path, "p.csv", f"row_id,p,y\na,0.1,0\nb,0.2,{bad}\n")
    assert pred is None
    [p] = problems
    assert (p.line, p.column, p.slug) == (3, 3, "bad-value")
    assert p.message == f"y = {bad!r} must be 0 or 1"


def test_at_most_five_bad_cells_then_a_count(tmp_path):
    body = "".join(f"r{i},0,7\n" for i in range(8))
    _, problems = parse_file(tmp_path, "p.csv", "row_id,y,p\n" + body)
    assert [p.line for p in problems[:5]] == [2, 3, 4, 5, 6]
    assert problems[5].message == "3 more bad values in column 'p'"
    assert len(problems) == 6


def test_duplicate_row_id_names_both_lines(tmp_path):
    pred, problems = parse_file(tmp_path, "p.csv", "row_id,y,p\na,0,0.1\nb,0,0.1\na,1,0.3\n")
    assert pred is None
    [p] = problems
    assert (p.path, p.line, p.column, p.slug) == ("p.csv", 4, 1, "duplicate-row-id")
    assert p.message == "duplicate row_id 'a' (also at line 2)"


def test_missing_row_id_column(tmp_path):
    pred, problems = parse_file(tmp_path, "p.csv", "id,y,p\na,0,0.1\n")
    assert pred is None
    [p] = problems
    assert (p.line, p.slug) == (1, "missing-column")
    assert p.message.startswith("no row_id column") and p.message.endswith("header: id, y, p")


def test_empty_row_id(tmp_path):
    _, problems = parse_file(tmp_path, "p.csv", "y,row_id,p\n0, ,0.1\n")
    [p] = problems
    assert (p.line, p.column, p.message) == (2, 2, "row_id is empty")


def test_no_rows(tmp_path):
    pred, problems = parse_file(tmp_path, "p.csv", "row_id,y,p\n")
    assert pred is None and [(p.line, p.slug) for p in problems] == [(2, "empty")]


def test_builtin_metric_needs_y_and_p_or_correct(tmp_path):
    pred, problems = parse_file(tmp_path, "p.csv", "row_id,y\na,0\n")
    assert pred is None
    [p] = problems
    assert "needs y and p" in p.message and "compute log_loss" in p.message


def test_question_set_correct_column(tmp_path):
    pred, problems = parse_file(tmp_path, "p.csv", "row_id,correct,category\nq1,1,math\nq2,0,art\n")
    assert problems == [] and pred.kind == "correct"
    np.testing.assert_array_equal(pred.correct, [1, 0])
    assert list(pred.category) == ["math", "art"]
    _, problems = parse_file(tmp_path, "q.csv", "row_id,correct\nq1,2\n")
    assert [(p.line, p.column) for p in problems] == [(2, 2)]


def test_per_row_metric_column(tmp_path):
    pred, problems = parse_file(
        tmp_path, "p.csv", "row_id,latency\na,3.5\nb,4\n", metric="latency", builtin=False
    )
    assert problems == [] and pred.kind == "metric"
    np.testing.assert_allclose(pred.metric, [3.5, 4.0])
    _, problems = parse_file(
        tmp_path, "q.csv", "row_id,speed\na,3.5\n", metric="latency", builtin=False
    )
    [p] = problems
    assert p.message == "no column 'latency' (the claim's per-row metric)"


def test_malformed_csv_too_many_fields(tmp_path):
    with pytest.raises(TableError) as e:
        parse_file(tmp_path, "p.csv", "row_id,y,p\na,0,0.1\nb,0,0.1,9\n")
    assert (e.value.problem.path, e.value.problem.line, e.value.problem.slug) == (
        "p.csv",
        3,
        "bad-csv",
    )


def test_duplicate_csv_header_column(tmp_path):
    with pytest.raises(TableError) as e:
        parse_file(tmp_path, "p.csv", "row_id,y,p,p\na,0,0.1,0.2\n")
    assert e.value.problem.slug == "duplicate-column" and "'p'" in e.value.problem.message


def test_unsupported_suffix_and_not_utf8(tmp_path):
    (tmp_path / "p.txt").write_text("row_id\n")
    with pytest.raises(TableError) as e:
        read_table(Reader(tmp_path), tmp_path / "p.txt")
    assert e.value.problem.slug == "bad-format" and "'.txt'" in e.value.problem.message
    (tmp_path / "q.csv").write_bytes(b"row_id,y,p\na,0,0.1\n\xff,1,0.2\n")
    with pytest.raises(TableError) as e:
        read_table(Reader(tmp_path), tmp_path / "q.csv")
    assert (e.value.problem.line, e.value.problem.slug) == (3, "bad-encoding")


# --------------------------------------------------------------------------- Parquet


def test_parquet_round_trip(tmp_path):
    df = pd.DataFrame(
        {"row_id": ["a", "b", "c"], "y": [0, 1, 1], "p": [0.25, 0.5, 0.75], "week": ["1", "1", "2"]}
    )
    pred, problems = parse_file(tmp_path, "p.parquet", df, block="week")
    assert problems == []
    assert list(pred.row_id) == ["a", "b", "c"]
    np.testing.assert_array_equal(pred.y, [0, 1, 1])
    np.testing.assert_allclose(pred.p, [0.25, 0.5, 0.75])
    assert list(pred.block) == ["1", "1", "2"]


def test_parquet_integer_row_ids_become_strings(tmp_path):
    df = pd.DataFrame({"row_id": [10, 11], "y": [0, 1], "p": [0.1, 0.9]})
    pred, problems = parse_file(tmp_path, "p.parquet", df)
    assert problems == [] and list(pred.row_id) == ["10", "11"]


def test_parquet_bad_values_cite_one_based_rows(tmp_path):
    df = pd.DataFrame({"row_id": ["a", "b", "a"], "y": [0, 3, 1], "p": [0.1, np.nan, 0.3]})
    pred, problems = parse_file(tmp_path, "p.parquet", df)
    assert pred is None
    got = sorted((p.slug, p.line, p.column) for p in problems)
    assert got == [("bad-value", 2, 2), ("bad-value", 2, 3), ("duplicate-row-id", 3, 1)]
    dup = with_slug(problems, "duplicate-row-id")[0]
    assert dup.message == "duplicate row_id 'a' (also at line 1)"


def test_corrupt_parquet(tmp_path):
    (tmp_path / "p.parquet").write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(TableError) as e:
        read_table(Reader(tmp_path), tmp_path / "p.parquet")
    assert e.value.problem.slug == "bad-parquet" and e.value.problem.path == "p.parquet"


# --------------------------------------------------------------------------- joins


@pytest.mark.parametrize(
    "rel,text,row_ids,block,slice_",
    [
        # block and slice joined from the split file by row_id
        ("gbm-s2-test.csv", None, ["t1", "t2", "t3", "t4"], ["3", "3", "4", "4"], "abab"),
        # the join follows row_id, not row order
        (
            "mlp-s1-validation.csv",
            "row_id,y,p\nv4,1,0.8\nv1,0,0.2\nv3,0,0.3\nv2,1,0.7\n",
            ["v4", "v1", "v3", "v2"],
            ["2", "1", "2", "1"],
            "baab",
        ),
    ],
)
def test_block_and_slice_joined_by_row_id(mini, rel, text, row_ids, block, slice_):
    rel = "artefacts/predictions/" + rel
    if text is not None:
        (mini / rel).write_text(text)
    project, problems = inspect_project(mini)
    assert project is not None, [str(p) for p in problems]
    pred = project.predictions[rel]
    assert list(pred.row_id) == row_ids
    assert list(pred.block) == block
    assert list(pred.slice) == list(slice_)


def test_columns_in_predictions_win_over_split_file(mini):
    rel = "artefacts/predictions/mlp-s1-test.csv"
    (mini / rel).write_text("row_id,y,p,week\nt1,0,0.2,w9\nt2,1,0.7,w9\nt3,0,0.2,w8\nt4,1,0.6,w8\n")
    project, _ = inspect_project(mini)
    assert list(project.predictions[rel].block) == ["w9", "w9", "w8", "w8"]


def test_unknown_row_id_cannot_be_joined(mini):
    rel = "artefacts/predictions/mlp-s1-test.csv"
    (mini / rel).write_text("row_id,y,p\nt1,0,0.2\nt2,1,0.7\nzz,0,0.2\n")
    project, problems = inspect_project(mini)
    assert project is None
    [p] = with_slug(problems, "unknown-row-id")
    assert (p.path, p.line) == (rel, 4)
    assert "1 row_id(s) not in the split file for part 'test', e.g. 'zz'" in p.message


def test_block_column_nowhere(tmp_path):
    root = make_project(tmp_path / "p", MINI_CONFIG.replace('block = "week"', 'block = "month"'))
    _, problems = inspect_project(root)
    miss = with_slug(problems, "missing-column")
    assert (
        len(miss) == 4
    )  # the test predictions only: block columns are used on test (2 models x 2 seeds)
    assert all(p.path.endswith("-test.csv") for p in miss)
    assert all(
        "column 'month' is in neither the predictions nor the split file" in p.message for p in miss
    )


def test_no_split_file_to_join_from(mini):
    (mini / "split" / "test.csv").unlink()
    _, problems = inspect_project(mini)
    miss = with_slug(problems, "missing-column")
    assert sorted({p.path for p in miss}) == sorted(
        f"artefacts/predictions/{m}-s{s}-test.csv" for m in ("mlp", "gbm") for s in (1, 2)
    )
    assert all(
        p.message == "no split file for part 'test' to join the block/slice columns from"
        for p in miss
    )


def test_predictions_problem_cites_runs_line(mini):
    set_runs_cell(mini, 4, "predictions", "artefacts/predictions/none.csv")
    _, problems = inspect_project(mini)
    [p] = with_slug(problems, "unreadable")
    assert p.path == "artefacts/predictions/none.csv"
    assert p.message == ("file artefacts/predictions/none.csv does not exist (cited at runs.csv:4)")


def test_one_predictions_file_for_two_splits(mini):
    set_runs_cell(mini, 3, "predictions", "artefacts/predictions/mlp-s1-validation.csv")
    _, problems = inspect_project(mini)
    [p] = with_slug(problems, "predictions-split")
    assert (p.path, p.line) == ("runs.csv", 3)
    assert "for split 'test' here and for 'validation' at line 2" in p.message


@pytest.mark.parametrize(
    "body",
    ["row_id,y,p\na,0,0.1\n\nb,0,1.5\n", 'row_id,y,p,text\na,0,0.1,"two\nlines"\nb,0,1.5,x\n'],
    ids=["blank-line", "quoted-newline"],
)
def test_csv_line_numbers_survive_blank_lines_and_quoted_newlines(tmp_path, body):
    _, problems = parse_file(tmp_path, "p.csv", body)
    [p] = problems
    assert (p.line, p.column) == (4, 3)


def test_unknown_row_id_in_parquet_cites_its_row(tmp_path):
    df = pd.DataFrame({"p": [0.2, 0.3], "y": [0, 1], "row_id": ["zz", "a"]})
    pred, problems = parse_file(tmp_path, "p.parquet", df, block="week")
    assert problems == []
    split = pd.DataFrame({"row_id": ["a", "b"], "week": ["1", "2"]})
    join_columns(pred, split, "row_id", "week", None, "for part 'test'", problems)
    [p] = problems
    assert (p.line, p.column) == (1, 3)


def test_a_row_sum_names_the_row_and_all_its_p_columns(tmp_path):
    """Any column may be the wrong one: the row's columns are named, at the first's number."""
    text = "row_id,y,p_0,p_1,p_2\na,0,0.8,0.1,0.1\nb,1,0.2,0.8,0.2\n"
    _, problems = parse_file(tmp_path, "mc.csv", text)
    [p] = problems
    assert (p.line, p.column) == (3, 3)
    assert p.message.startswith("the row's p_ columns (p_0 to p_2) sum to 1.2; ")


def test_problems_print_by_file_line_and_column(tmp_path):
    from reportgen.errors import Problem, reading_order

    text = "row_id,y,p_0,p_1,p_2\na,0,0.8,0.1,0.1\nb,1,0.2,0.8,0.2\nc,7,0.8,0.1,0.1\n"
    _, problems = parse_file(tmp_path, "mc.csv", text)
    assert [(p.line, p.column) for p in problems] == [(4, 2), (3, 3)]  # labels before sums
    first = Problem("manifest", "split/manifest.json", 9)
    tail = Problem("3 more", "mc.csv")
    warn = Problem("w", "a.csv", 1, severity="warning")
    ordered = reading_order([warn, first, tail, *problems])
    assert [(p.path, p.line, p.column) for p in ordered] == [
        ("split/manifest.json", 9, None),  # files in the order found: the root cause first
        ("mc.csv", 3, 3),
        ("mc.csv", 4, 2),
        ("mc.csv", None, None),
        ("a.csv", 1, None),  # warnings last
    ]


def test_a_file_of_another_task_is_one_mixed_tasks_error(tmp_path):
    """A binary file in a regression project without [claim] task: one [mixed-tasks] error at
    that file, not a "y must be 0 or 1" line per row."""
    root = make_project(tmp_path / "p", MINI_CONFIG.replace('"log_loss"', '"squared_error"'))
    runs = (root / "runs.csv").read_text(encoding="utf-8")
    (root / "runs.csv").write_text(runs.replace("log_loss", "squared_error"), encoding="utf-8")
    preds = sorted((root / "artefacts" / "predictions").glob("*.csv"))
    for path in preds:
        lines = path.read_text(encoding="utf-8").splitlines()
        body = [
            f"{ln.split(',')[0]},{10 + i * 0.5},{11 + i * 0.5}" for i, ln in enumerate(lines[1:])
        ]
        odd = path.name == "mlp-s1-test.csv"
        header = "row_id,y,p" if odd else "row_id,y,y_pred"
        if odd:
            body = [f"{b.rsplit(',', 1)[0]},0.5" for b in body]
        path.write_text("\n".join([header, *body]) + "\n", encoding="utf-8")
    _, problems = inspect_project(root)
    errors = [p for p in problems if p.severity == "error"]
    assert [(p.slug, p.path, p.line) for p in errors] == [
        ("mixed-tasks", "artefacts/predictions/mlp-s1-test.csv", 1)
    ], [str(p) for p in errors]
    assert "mlp-s1-test.csv (binary)" in errors[0].message
