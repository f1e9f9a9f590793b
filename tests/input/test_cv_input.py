"""Cross-validation inputs: split/folds.csv and the run log's fold rows, every error named by
file, line and column (methods.md section 9)."""

from __future__ import annotations

import time

import pandas as pd
import pytest
from conftest import cfg_problems, runs_problems

from reportgen.project import inspect_project
from reportgen.project.manifest import freeze
from tests.layouts.gen_cv import make_cv_project


def _errors(path):
    project, problems = inspect_project(path)
    return project, [p for p in problems if p.severity == "error"]


def _first_error(path, slug: str):
    """The project's first error of that slug."""
    _, errors = _errors(path)
    return next(p for p in errors if p.slug == slug)


def _set_run_cell(path, row: int, column: str, value: str) -> None:
    """One cell of runs.csv rewritten (row 0 is the file's line 2)."""

    def edit(r):
        r.loc[row, column] = value
        return r

    _edit_runs(path, edit)


def _edit_folds(path, edit) -> None:
    folds = pd.read_csv(path / "split" / "folds.csv", dtype=str)
    edit(folds)
    folds.to_csv(path / "split" / "folds.csv", index=False)
    freeze(path, created="2026-01-01T00:00:00Z")


def _edit_runs(path, edit) -> None:
    runs = pd.read_csv(path / "runs.csv", dtype=str, keep_default_na=False)
    runs = edit(runs) if edit(runs.copy()) is not None else runs
    runs.to_csv(path / "runs.csv", index=False)


@pytest.fixture
def cv(tmp_path):
    make_cv_project(tmp_path / "p", repeats=2, folds=3, rows=30, seeds=(2, 1))
    return tmp_path / "p"


def test_a_clean_cv_project_loads(cv):
    project, errors = _errors(cv)
    assert errors == [] and project is not None
    assert project.folds.repeats == [1, 2] and project.folds.folds == [1, 2, 3]
    assert project.folds.rows == 30
    assert project.folds.n_test(1, 1) == 10 and project.folds.n_train(1, 1) == 20
    fold_rows = [r for r in project.runs if r.split == "fold"]
    assert {(r.repeat, r.fold) for r in fold_rows} == {(r, k) for r in (1, 2) for k in (1, 2, 3)}


def test_design_key_and_kind():
    base = (
        'title = "t"\n[claim]\ntext = "x"\ncandidate = "a"\nbaseline = "b"\nmetric = "log_loss"\n'
    )
    cfg, problems = cfg_problems(base + '[evaluation]\ndesign = "cv"\n')
    assert problems == [] and cfg.design == "cv"
    cfg, problems = cfg_problems(base + '[evaluation]\ndesign = "kfold"\n')
    [p] = problems
    assert (p.line, p.column) == (8, 1)
    assert p.message == "evaluation.design = 'kfold' is not one of split, cv"
    ba = base.replace('metric = "log_loss"', 'metric = "accuracy"\nkind = "before-after"')
    _, problems = cfg_problems(ba + '[evaluation]\ndesign = "cv"\n')
    assert "applies to model-vs-baseline projects" in problems[0].message


def test_runs_columns_repeat_fold_train_rows():
    text = (
        "run_id,model,seed,split,metric,value,repeat,fold,train_rows\n"
        "a,m,1,fold,log_loss,0.3,2,4,400\n"
        "a,m,1,fold,log_loss,0.3,1,4,\n"
        "b,m,1,fold,log_loss,0.3,x,0,\n"
    )
    rows, problems, warnings = runs_problems(text)
    assert [(r.repeat, r.fold, r.train_rows) for r in rows] == [(2, 4, 400), (1, 4, None)]
    assert warnings == []
    assert [(p.line, p.column, p.message) for p in problems] == [
        (4, 7, "repeat = 'x' is not a whole number from 1"),
        (4, 8, "fold = '0' is not a whole number from 1"),
    ]
    # one run id may serve many folds; a second row of the same fold is a duplicate
    dup = "run_id,model,seed,split,metric,value,fold\na,m,1,fold,ll,0.3,1\na,m,1,fold,ll,0.3,1\n"
    _, problems, _ = runs_problems(dup)
    assert problems[0].slug == "duplicate-row" and "in repeat 1 fold 1" in problems[0].message


def test_a_row_in_two_folds_of_one_repeat(cv):
    _edit_folds(cv, lambda f: f.loc.__setitem__((5, "row_id"), f.loc[0, "row_id"]))
    p = _first_error(cv, "row-in-two-folds")
    assert (p.path, p.line, p.column) == ("split/folds.csv", 7, 1)
    assert "of repeat 1 (first at line 2)" in p.message


def test_a_row_in_no_fold(cv):
    def drop(f):
        first = f.index[f["repeat"] == "2"][0]
        f.loc[first, "row_id"] = "r9999"  # repeat 2 holds out another row instead

    _edit_folds(cv, drop)
    _, errors = _errors(cv)
    found = [p for p in errors if p.slug == "row-in-no-fold"]
    assert all(p.path == "split/folds.csv" and p.column == 2 for p in found)
    assert [p.message.split(":")[0] for p in found] == [
        "row_id 'r9999' is in no fold of repeat 1 (it is in repeat 2 here)",
        "row_id 'r0000' is in no fold of repeat 2 (it is in repeat 1 here)",
    ]
    assert found[1].line == 2  # where r0000 is, in repeat 1


def test_a_fold_without_rows(cv):
    _edit_folds(cv, lambda f: f.__setitem__("fold", f["fold"].replace({"2": "4"})))
    p = _first_error(cv, "empty-fold")
    assert (p.path, p.column) == ("split/folds.csv", 3)
    assert p.message.startswith("fold 2 of repeat 1 has no rows (the repeat's folds: 1, 3 to 4)")


def test_a_run_on_a_fold_that_does_not_exist(cv):
    _set_run_cell(cv, 0, "fold", "7")
    p = _first_error(cv, "unknown-fold")
    assert (p.path, p.line, p.column) == ("runs.csv", 2, 14)
    assert p.message == (
        "fold 7 of repeat 1 is not in split/folds.csv (its folds: 1 to 3): this fold has no rows"
    )


def test_fold_numbers_that_differ_between_the_models(cv):
    def edit(r):
        base = r["model"] == "base"
        r.loc[base, "fold"] = (r.loc[base, "fold"].astype(int) + 10).astype(str)
        return r

    (cv / "split" / "folds.csv").unlink()  # a run-log-only project: no split file to check against
    (cv / "split" / "manifest.json").unlink()
    _edit_runs(cv, edit)
    p = _first_error(cv, "fold-numbers-differ")
    assert (p.path, p.column) == ("runs.csv", 14)
    assert "net has folds 1 to 3 in repeats 1 to 2, base has folds 11 to 13" in p.message


def test_a_model_missing_a_fold(cv):
    def edit(r):
        return r[~((r["model"] == "base") & (r["repeat"] == "2") & (r["fold"] == "3"))]

    _edit_runs(cv, edit)
    _, errors = _errors(cv)
    [p] = [p for p in errors if p.slug == "missing-fold"]
    assert (p.path, p.column) == ("runs.csv", 14)
    assert p.message.startswith("base has no row for repeat 2 fold 3 (this row of net has it)")
    row = pd.read_csv(cv / "runs.csv").iloc[p.line - 2]
    assert (row["model"], row["repeat"], row["fold"]) == ("net", 2, 3)


def test_a_fold_row_without_its_fold(cv):
    _set_run_cell(cv, 3, "fold", "")
    p = _first_error(cv, "empty-cell")
    assert (p.line, p.column) == (5, 14)


def test_no_fold_rows_in_a_cv_project(cv):
    def edit(r):
        r["split"] = "validation"
        r["repeat"] = r["fold"] = ""
        return r

    _edit_runs(cv, edit)
    p = _first_error(cv, "no-fold-rows")
    assert p.path == "evreport.toml" and p.line is not None and p.column == 1


def test_folds_file_in_a_split_design_is_a_warning(cv):
    toml = (cv / "evreport.toml").read_text().replace('design = "cv"', 'design = "split"')
    (cv / "evreport.toml").write_text(toml)
    _, problems = inspect_project(cv)
    assert any(p.slug == "folds-unused" and p.severity == "warning" for p in problems)


def test_runs_not_covering_every_fold_is_a_warning(cv):
    _edit_runs(cv, lambda r: r[r["repeat"] != "2"])
    project, problems = inspect_project(cv)
    assert project is not None
    [w] = [p for p in problems if p.slug == "folds-not-run"]
    assert "cover 3 of the 6 folds" in w.message


def test_a_fold_numbered_999999999_is_an_empty_fold_found_without_listing_every_number(cv):
    def edit(f):
        f.loc[f.index[-1], "fold"] = "999999999"

    _edit_folds(cv, edit)
    start = time.perf_counter()
    p = _first_error(cv, "empty-fold")
    assert time.perf_counter() - start < 5
    assert (p.path, p.column) == ("split/folds.csv", 3)
    assert p.message.startswith(
        "fold 4 of repeat 2 has no rows (the repeat's folds: 1 to 3, 999999999)"
    )


def test_a_gap_in_the_fold_numbers_of_a_run_log_only_project_is_an_error_at_its_line(cv):
    (cv / "split" / "folds.csv").unlink()
    (cv / "split" / "manifest.json").unlink()
    runs = pd.read_csv(cv / "runs.csv", dtype=str, keep_default_na=False)
    last = runs[(runs["repeat"] == "2") & (runs["fold"] == "3")].index
    runs.loc[last, "fold"] = str(10**17)
    runs.to_csv(cv / "runs.csv", index=False)
    p = _first_error(cv, "fold-gap")
    assert (p.path, p.line, p.column) == ("runs.csv", int(last[0]) + 2, 14)
    assert p.message.startswith(
        f"fold {10**17} of repeat 2 leaves a gap: there is no fold 3 (the repeat's folds: "
        f"1 to 2, {10**17})"
    )


def test_the_fold_count_is_the_number_of_folds_not_the_largest_number():
    from reportgen.checks.cv.gaps import FoldGap, FoldTable

    def gap(fold):
        return FoldGap(1, fold, 0.1, None, None, None, "run log", {})

    table = FoldTable(gaps=[gap(k) for k in (1, 2, 3, 4, 5, 10**17)])
    assert table.folds == 6
