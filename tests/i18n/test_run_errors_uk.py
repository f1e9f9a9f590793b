"""The errors of a bad run log, predictions file or split/folds.csv are written in the build's
language (issue 34).

Copies of two examples, each broken in one way (runs.csv: a duplicate column, a missing
required column, a row with too few fields, a run's row twice, an empty cell, a cell over
the csv module's field limit; a predictions file with a row id not in its split file;
split/folds.csv with a row in two folds of a repeat, a fold number that is not a whole number,
a missing column), are built in English and in
Ukrainian: both raise InputError with the same problems (slugs, places), and no Ukrainian
problem holds English prose (tests/i18n/english.py), the project's own inputs aside.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from reportgen.api import build_report
from reportgen.errors import InputError
from tests.i18n.english import english_runs, user_phrases, user_words

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _lines(path: Path, edit: Callable[[list[str]], list[str]]) -> None:
    text = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(edit(text)) + "\n", encoding="utf-8")


def _cells(line: str, col: int, value: str) -> str:
    cells = line.split(",")
    cells[col] = value
    return ",".join(cells)


def _predictions_of_test(root: Path) -> Path:
    for line in (root / "runs.csv").read_text(encoding="utf-8").splitlines()[1:]:
        cells = line.split(",")
        if cells[3] == "test" and cells[11]:
            return root / cells[11]
    raise AssertionError("no test predictions")


def _unknown_row_id(root: Path) -> None:
    _lines(_predictions_of_test(root), lambda t: [t[0], _cells(t[1], 0, "zz-not-in-split"), *t[2:]])


#: case -> (example, edit of the copy, the slug the build must raise)
CASES: dict[str, tuple[str, Callable[[Path], None], str]] = {
    "duplicate-column": (
        "weekly-churn",
        lambda r: _lines(r / "runs.csv", lambda t: [t[0].replace("notes", "seed"), *t[1:]]),
        "duplicate-column",
    ),
    "missing-column": (
        "weekly-churn",
        lambda r: _lines(r / "runs.csv", lambda t: [t[0].replace(",metric,", ",metrik,"), *t[1:]]),
        "missing-column",
    ),
    "field-count": (
        "weekly-churn",
        lambda r: _lines(r / "runs.csv", lambda t: [*t[:3], "r99,mlp,1,test", *t[3:]]),
        "field-count",
    ),
    "duplicate-row": (
        "weekly-churn",
        lambda r: _lines(r / "runs.csv", lambda t: [*t[:3], t[2], *t[3:]]),
        "duplicate-row",
    ),
    "empty-cell": (
        "weekly-churn",
        lambda r: _lines(r / "runs.csv", lambda t: [t[0], _cells(t[1], 2, ""), *t[2:]]),
        "empty-cell",
    ),
    "bad-value": (
        "weekly-churn",
        lambda r: _lines(r / "runs.csv", lambda t: [t[0], _cells(t[1], 5, "lots"), *t[2:]]),
        "bad-value",
    ),
    "bad-csv": (
        "weekly-churn",
        lambda r: _lines(r / "runs.csv", lambda t: [*t, '"' + "x" * 200_000 + '",1']),
        "bad-csv",
    ),
    "unknown-row-id": ("weekly-churn", _unknown_row_id, "unknown-row-id"),
    "row-in-two-folds": (
        "breast-cancer-cv",
        lambda r: _lines(r / "split" / "folds.csv", lambda t: [*t, _cells(t[1], 2, "9")]),
        "row-in-two-folds",
    ),
    "folds-bad-number": (
        "breast-cancer-cv",
        lambda r: _lines(r / "split" / "folds.csv", lambda t: [t[0], _cells(t[1], 2, "x"), *t[2:]]),
        "bad-value",
    ),
    "folds-missing-column": (
        "breast-cancer-cv",
        lambda r: _lines(
            r / "split" / "folds.csv",
            lambda t: [line.rsplit(",", 1)[0] for line in t],
        ),
        "missing-column",
    ),
}


def _problems(root: Path, out: Path, language: str) -> list:
    with pytest.raises(InputError) as caught:
        build_report(root, out, ("json",), language=language)
    return [p for p in caught.value.problems if p.severity == "error"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_run_errors_speak_ukrainian(tmp_path: Path, case: str) -> None:
    example, edit, slug = CASES[case]
    root = tmp_path / example
    shutil.copytree(EXAMPLES / example, root)
    edit(root)
    en = _problems(root, tmp_path / "out-en", "en")
    uk = _problems(root, tmp_path / "out-uk", "uk")
    assert slug in {p.slug for p in en}, [str(p) for p in en]
    assert [(p.slug, p.path, p.line, p.column) for p in uk] == [
        (p.slug, p.path, p.line, p.column) for p in en
    ]
    haystack, phrases = user_words(root), user_phrases(root)
    for p in uk:
        assert p.message != next(q.message for q in en if q.slug == p.slug and q.line == p.line)
        assert not english_runs(p.message, haystack, phrases), p.message


#: an input-sensitivity check file, each broken in one field
SENSITIVITY_EDITS = {
    "n_rows": lambda d: {**d, "n_rows": 0},
    "rows": lambda d: {**d, "rows": "everything"},
    "features": lambda d: {**d, "features": []},
    "feature": lambda d: {**d, "features": [{**d["features"][0], "share_positive": 2}]},
    "eps": lambda d: {**d, "finite_differences": {**d["finite_differences"], "eps": "small"}},
}


@pytest.mark.parametrize("field", sorted(SENSITIVITY_EDITS))
def test_a_bad_sensitivity_file_is_said_in_ukrainian(tmp_path: Path, field: str) -> None:
    """The warning of a sensitivity file with a wrong field names the field in Ukrainian."""
    import json

    root = tmp_path / "breast-cancer"
    shutil.copytree(EXAMPLES / "breast-cancer", root)
    path = root / "artefacts" / "checks" / "sensitivity-mlp.json"
    path.write_text(json.dumps(SENSITIVITY_EDITS[field](json.loads(path.read_text()))))
    warnings = {}
    for lang in ("en", "uk"):
        res = build_report(root, tmp_path / lang, ("json",), language=lang)
        doc = json.loads((tmp_path / lang / "report.json").read_text(encoding="utf-8"))
        assert res is not None
        warnings[lang] = [
            w
            for w in doc["warnings"]
            if w["slug"] == "bad-check" and "sensitivity-mlp" in w["path"]
        ]
    assert len(warnings["uk"]) == len(warnings["en"]) == 1, warnings
    message = warnings["uk"][0]["message"]
    assert message != warnings["en"][0]["message"]
    assert not english_runs(message, user_words(root), user_phrases(root)), message
