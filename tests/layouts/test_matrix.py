"""No traceback, ever: every cell of the layout matrix builds with exit 0 or 1.

Exit 1 is an input error printed as one clear line; exit 0 writes a report.json that is
plain JSON (no NaN, no infinity) and validates against the shipped schema. The cells are a
pairwise covering set of the axes (tests/layouts/cells.py) plus the named cells the figure
tests use.
"""

from __future__ import annotations

import re

import pytest

from tests.layouts.cells import MVB_AXES, all_cells, ba_cells, mvb_cells, pairwise
from tests.layouts.conftest import cell_params


def _deepest(error):
    """For anyOf/oneOf failures, the sub-error that got furthest into the value (names the field)."""
    while error.context:
        error = max(error.context, key=lambda c: (len(c.absolute_path), c.validator != "type"))
    return error


ERROR_LINE = re.compile(r"(^|\s)(error: .+|evreport: error: .+)$")


@pytest.mark.parametrize("cell", cell_params(all_cells()))
def test_cell_builds_and_validates(cell, built_cells, validator):
    b = built_cells(cell)
    if b.traceback is not None:
        pytest.fail(f"traceback instead of a clear error: {b.crash()}", pytrace=False)
    assert "Traceback" not in b.stderr, b.describe()
    assert b.exit_code in (0, 1), b.describe()
    if b.exit_code == 1:
        lines = [ln for ln in b.stderr.splitlines() if ln.strip()]
        assert lines, "exit 1 without a message"
        assert any(ERROR_LINE.search(ln) for ln in lines), b.describe()
        return
    assert b.report is not None, "exit 0 but no report.json"
    errors = [_deepest(e) for e in validator.iter_errors(b.report)]
    if errors:
        pytest.fail(
            "report.json does not validate: "
            + "; ".join(
                f"{'/'.join(map(str, e.absolute_path))}: {e.message[:160]}" for e in errors[:5]
            ),
            pytrace=False,
        )


@pytest.mark.parametrize("cell", cell_params(all_cells()))
def test_generator_logs_the_exact_metric(cell, built_cells):
    """The generator's promise: every logged value is the metric of its predictions, to the last bit
    (checked through report.json ``comparisons``, reportgen's own recomputation)."""
    b = built_cells(cell)
    if b.report is None:
        pytest.skip("did not build: see test_cell_builds_and_validates")
    if cell.get("log_digits") is not None:
        return  # this cell logs rounded values on purpose
    for c in b.report.get("comparisons") or []:
        if c.get("recomputed") is None:
            continue
        assert c["agree"], c
        assert c["recomputed"] == pytest.approx(c["logged"], rel=1e-12, abs=1e-15), c
        key = (c["model"], c["seed"], c["split"])
        if c.get("fold") is not None:  # cross-validation: one value per repeat and fold
            key = (c["model"], c["seed"], c["repeat"], c["fold"])
        assert b.gen.logged[key] == c["logged"], (key, b.gen.logged[key], c["logged"])


def test_pairwise_covers_every_pair():
    """The matrix really is pairwise: every pair of axis values shares a cell."""
    rows = mvb_cells()
    names = list(MVB_AXES)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            seen = {(repr(r[a]), repr(r[b])) for r in rows}
            want = {(repr(x), repr(y)) for x in MVB_AXES[a] for y in MVB_AXES[b]}
            assert want <= seen, (a, b, want - seen)
    assert len(ba_cells()) >= 6
    assert len(pairwise({"x": [1, 2], "y": [3]})) == 2
