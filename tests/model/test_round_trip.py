"""``Report.from_json(d).to_json()`` writes every report back byte for byte: the fixtures
(the examples' reports) and a spread of the layout matrix's cells, built here."""

from __future__ import annotations

import json

import pytest

from reportgen.model import MISSING, Report
from reportgen.model.ladder import FactCheck
from reportgen.model.noise import NoiseBeforeAfter, NoiseWithCv
from tests.layouts.cells import all_cells
from tests.layouts.conftest import built_cells, cell_params  # noqa: F401 (the fixture)
from tests.model.conftest import FIXTURES, dumped

#: every 12th cell of the layout matrix: model-vs-baseline, before-after, tasks and cv cells
CELLS = all_cells()[::12]


def same_text(raw: str, report: dict) -> bool:
    return dumped(report) in (raw, raw.rstrip("\n"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_a_fixture_round_trips_byte_for_byte(path):
    raw = path.read_text(encoding="utf-8")
    report = Report.from_json(json.loads(raw))
    assert same_text(raw, report.to_json())


@pytest.mark.parametrize("cell", cell_params(CELLS))
def test_a_built_cell_round_trips_byte_for_byte(built_cells, cell):  # noqa: F811
    built = built_cells(cell)
    if built.raw is None:
        pytest.skip("the cell writes no report.json (tests/layouts reports why)")
    assert same_text(built.raw, Report.from_json(json.loads(built.raw)).to_json())


def test_the_variants_are_chosen_by_their_discriminators():
    by_name = {
        p.stem: Report.from_json(json.loads(p.read_text(encoding="utf-8"))) for p in FIXTURES
    }
    churn, cv, tuned = (
        by_name["report-weekly-churn"],
        by_name["report-breast-cancer-cv"],
        by_name["report-tuned-replay"],
    )
    assert type(cv.noise) is NoiseWithCv and type(tuned.noise) is NoiseBeforeAfter
    assert tuned.noise.budget is MISSING and tuned.noise.interval.part is None
    assert all(isinstance(c, FactCheck) == c.id.startswith("fair-") for c in churn.checks)


def test_parsed_values_keep_their_json_types():
    report = Report.from_json(json.loads(FIXTURES[0].read_text(encoding="utf-8")))
    assert isinstance(report.checks, tuple) and isinstance(report.build.libraries, dict)
    assert report.ladder[0].status in ("shown", "partly", "not shown")
    assert report.decision.verdict == report.to_json()["decision"]["verdict"]
