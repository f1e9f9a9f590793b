"""Every cell's report.json speaks the one number policy (reportgen.words): no ASCII minus
before a number, no exponent, no "batchs", no underscore-joined noun after a count, no
placeholder for a missing number, every count of 1,000 or more with its separator."""

from __future__ import annotations

import pytest

from reportgen.checks import compute_report
from reportgen.model import Report
from reportgen.project import ProjectPaths, load_project
from tests.forbidden import forbidden_forms
from tests.layouts.cells import all_cells
from tests.layouts.conftest import built_report, cell_params
from tests.layouts.gen import make_project


@pytest.mark.parametrize("cell", cell_params(all_cells()))
def test_cell_strings_follow_the_number_policy(cell, built_cells):
    report = built_report(built_cells, cell)
    assert forbidden_forms(report) == []


def test_the_scanner_finds_every_forbidden_form():
    old = {
        "noise": {
            "lines": [
                "the test gap is -0.0039 (row-weighted over 2844 rows), seed term 2.5e-05 "
                "over 2 batchs and 30 visit_months; p n/a, sd None, gap nan"
            ]
        },
        # the user's own words and identifiers are not ours to reformat
        "project": {"claim": "mlp beats gbm by -0.01 over 2844 rows"},
        "inputs": [{"path": "split/test-2024.csv", "sha256": "1e5a"}],
    }
    assert sorted({form for form, _, _ in forbidden_forms(old)}) == sorted(
        [
            "batchs",
            "count without a separator",
            "exponent notation",
            "hyphen-minus before a number",
            "n/a",
            "nan",
            "None",
            "underscore noun after a count",
        ]
    )
    new = "the test gap is \u22120.0039 over 2,844 rows in 2 batches and 30 visit months, week-220"
    assert forbidden_forms({"noise": {"lines": [new]}}) == []


def test_a_user_column_name_reads_as_words(tmp_path):
    gen = make_project(tmp_path / "p", block_col="visit_month", block_kind="group")
    report, _ = compute_report(load_project(gen.path, ProjectPaths()))
    text = " ".join(
        report["noise"]["lines"] + report["not_tested"] + [report["noise"]["interval"]["what"]]
    )
    assert "visit months" in text, text
    assert "visit_month" not in text
    assert forbidden_forms(report) == []


class _EveryChart:
    """Every chart key is drawn: each figure's caption and description gets built."""

    def __contains__(self, key: object) -> bool:
        return True


def _view_strings(v, path: str = ""):
    """Every string of a view dataclass tree with its path."""
    import dataclasses

    if isinstance(v, str):
        yield path, v
    elif dataclasses.is_dataclass(v):
        for f in dataclasses.fields(v):
            yield from _view_strings(getattr(v, f.name), f"{path}.{f.name}")
    elif isinstance(v, list | tuple):
        for i, x in enumerate(v):
            yield from _view_strings(x, f"{path}[{i}]")


@pytest.mark.parametrize("cell", cell_params(all_cells()))
def test_the_view_says_what_is_missing_never_a_placeholder(cell, built_cells):
    """A table cell may be a dash; a sentence (a caption, a note, the
    measured value of a check, a reason) never holds one, nor n/a, None or nan."""
    import re

    from reportgen.view import build_view
    from reportgen.words.cells import DASH

    report = built_report(built_cells, cell)
    found = [
        (path, text)
        for path, text in _view_strings(build_view(Report.from_json(report), _EveryChart()))
        if (DASH in text and text != DASH) or re.search(r"\bn/a\b|\bNone\b|\bnan\b", text)
    ]
    assert found == []


def test_a_check_without_a_value_says_not_measured():
    from reportgen.view.appendix import measured

    # the check's own text says it was not measured and why; its value phrase adds nothing
    assert measured(None, -0.005) == ""
    assert measured(-0.0175, -0.005) == "−0.0175 against −0.005"
    assert measured(-0.0175, -0.005, check_id="not-worse-on-a", passed=False) == (
        "−0.0175, below the no-worse margin −0.005"
    )
