"""Every layout cell's report lists only check ids its design declares (checks/registry.py), and
every declared id is listed by some cell or report fixture unless it is marked rare."""

from __future__ import annotations

import json

import pytest

from reportgen.checks.registry import DESIGNS, declared, design_of
from reportgen.model import Report
from tests.checks.test_check_registry import FIXTURES, assert_declared, typed
from tests.layouts.cells import all_cells
from tests.layouts.conftest import cell_params

#: the design each kind of cell builds (tests/layouts/gen.py)
CELL_DESIGN = {"cv": "cv", "ba": "before-after"}


def _reports(built_cells) -> list[Report]:
    """The report of every cell that built, then every report fixture."""
    reports = [b.report for b in map(built_cells, all_cells()) if b.report is not None]
    reports += [json.loads(p.read_text(encoding="utf-8")) for p in FIXTURES]
    return [typed(r) for r in reports]


@pytest.mark.parametrize("cell", cell_params(all_cells()))
def test_each_check_a_cell_lists_is_declared_for_its_design(cell, built_cells):
    report = built_cells(cell).report
    if report is None:
        pytest.skip("did not build: see test_matrix")
    typed_report = typed(report)
    assert design_of(typed_report) == CELL_DESIGN.get(cell.get("kind"), "split")
    assert_declared(typed_report, cell["id"])


def test_every_declared_check_is_listed_by_a_report_unless_rare(built_cells):
    """A rare mark is kept only while no cell or fixture lists the check."""
    listed: dict[str, set[str]] = {d: set() for d in DESIGNS}
    for r in _reports(built_cells):
        design = design_of(r)
        listed[design] |= {declared(design, c.id).id for c in r.checks}
    for design, checks in DESIGNS.items():
        never = [c.id for c in checks if c.rare is None and c.id not in listed[design]]
        stale = [c.id for c in checks if c.rare is not None and c.id in listed[design]]
        assert (never, stale) == ([], []), design
