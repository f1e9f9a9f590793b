"""The rules on every generated cell (g) and the figures beyond test_figures.py:
(l) deterministic baseline (8), (m) before-after ladder (7), (n) logged precision (11),
(o, p) block columns only where used (12). Expectations come from the generator's truth.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from tests.layouts import cells as C
from tests.layouts.conftest import (
    built_ok,
    built_report,
    cell_params,
    expected_test_gap,
    strings,
    useful_band,
)
from tests.layouts.gen import BASE, CAND

TOL = 1e-12


# --------------------------------------------------------------------------- (g) the rules, on every cell


def _margin(report: dict, cell: dict) -> float | None:
    m = cell.get("not_worse_margin")
    return m if m is not None else useful_band(report, {"min_useful_effect": 0.005, **cell})


@pytest.mark.parametrize("cell", cell_params(C.all_cells()))
def test_g_required_slice_passes_only_within_its_margin(cell, built_cells):
    """Non-inferiority: a not_worse_on slice holds only when its worse end stays within the margin."""
    report = built_report(built_cells, cell)
    m = _margin(report, cell)
    slices = {s["slice"]: s for s in report.get("slices") or []}
    for c in report["checks"]:
        name = next((n for n, s in slices.items() if s.get("required") and n in c["id"]), None)
        if name is None or c["passed"] is not True:
            continue
        low = slices[name]["low"]
        assert low is not None and m is not None and low >= -m, (
            f"slice {name!r} passes with interval low {low} against margin {m}"
        )


@pytest.mark.parametrize("cell", cell_params(C.all_cells()))
def test_g_general_set_held_only_when_its_bound_is_within_max_drop(cell, built_cells):
    b = built_cells(cell)
    if b.report is None or not b.report.get("general"):
        return  # no general set (a cell that did not build is test_matrix's to report)
    g = b.report["general"]
    if g.get("held") is True:
        assert g.get("high") is not None and g["high"] <= g["max_drop"], g


@pytest.mark.parametrize("cell", cell_params(C.all_cells()))
def test_g_adopt_needs_every_piece_of_evidence(cell, built_cells):
    """Adopt: rungs 1 and 2 shown (both modes), the primary interval above zero (and above
    min_useful_effect when given), required slices held, the general set held."""
    b = built_cells(cell)
    if b.report is None or b.report["decision"]["verdict"] != "adopt":
        return  # nothing to check unless adopted
    r = b.report
    status = {row["rung"]: row["status"] for row in r["ladder"]}
    assert status[1] == "shown" and status[2] == "shown", status
    if r["project"]["kind"] == "before-after":
        ba = r["before_after"]
        m = (r.get("relevance") or {}).get("min_useful_effect") or 0.0
        assert ba["low"] is not None and ba["low"] > 0 and ba["low"] >= m, ba
        assert (r.get("general") or {}).get("held") is True
        assert ba["coverage"]["complete"] is True, ba["coverage"]  # same questions
        for s in r.get("slices") or []:  # required slices apply in before/after too
            if s.get("required"):
                assert s.get("not_worse") is True, s
    else:
        iv = r["noise"]["interval"]
        m = useful_band(r, {"min_useful_effect": 0.005, **cell}) or 0.0
        assert iv and iv["low"] > 0 and iv["low"] >= m, iv
        for s in r.get("slices") or []:
            if s.get("required"):
                margin = _margin(r, cell)
                assert s["low"] is not None and s["low"] >= -margin, s


# --------------------------------------------------------------------------- deterministic baseline (item 8)

DETERMINISTIC_WORDS = re.compile(
    r"determinis|zero (seed )?(spread|sd)|no seed spread|sd (of |is )?0\b|does not vary", re.I
)


def test_l_deterministic_baseline_uses_the_candidates_sd(built_cells):
    b = built_ok(built_cells, C.DETERMINISTIC_BASE)
    gen, seed = b.gen, b.report["noise"]["seed"]
    cand = [gen.logged[(CAND, s, "validation")] for s in gen.seeds(CAND, "validation")]
    base = [gen.logged[(BASE, s, "validation")] for s in gen.seeds(BASE, "validation")]
    assert len(set(base)) == 1  # precondition: zero spread
    sd = float(np.std(cand, ddof=1))
    assert seed["sd"]["baseline"] == 0
    assert seed["sd_used"] == pytest.approx(sd, rel=1e-9)
    gap = gen.sign(float(np.mean(cand)), float(np.mean(base)))
    assert seed["gap_in_sd"] == pytest.approx(gap / sd, rel=1e-9)
    said = [t for _, t in strings(b.report["noise"])]
    assert any(DETERMINISTIC_WORDS.search(t) for t in said), (
        "never says the baseline has no seed spread"
    )


def test_l_both_deterministic_seed_rule_is_trivially_met(built_cells):
    b = built_ok(built_cells, C.DETERMINISTIC_BOTH)
    seed = b.report["noise"]["seed"]
    assert seed["sd"] == {"candidate": 0, "baseline": 0}
    assert seed["validation_gap"] > 0  # precondition
    assert seed["passes"] is True, seed
    said = [t for _, t in strings(b.report)]
    assert any(re.search(r"trivial", t, re.I) for t in said), "never says the rule is trivially met"


# --------------------------------------------------------------------------- before-after ladder (item 7)


def test_m_edited_frozen_set_cannot_be_adopted(built_cells, tmp_path):
    b = built_ok(built_cells, C.BA_EDITED)
    status = {row["rung"]: row["status"] for row in b.report["ladder"]}
    assert status[2] != "shown"
    assert b.report["decision"]["verdict"] != "adopt", b.report["decision"]
    result = CliRunner().invoke(
        main,
        ["build", str(b.gen.path), "--format", "json", "--out", str(tmp_path / "o"), "--strict"],
    )
    assert result.exit_code == 3, (result.exit_code, result.stderr[-300:])


# --------------------------------------------------------------------------- logged precision (item 11)


def test_n_validate_names_rounded_logged_values(built_cells):
    b = built_cells(C.ROUNDED)
    gen = b.gen
    diffs = [abs(round(v, 4) - v) for v in gen.logged.values()]
    largest = max(diffs)
    result = CliRunner().invoke(main, ["validate", str(gen.path)])
    assert result.exit_code == 0, result.output[-400:]
    out = (result.stdout + result.stderr).replace(str(gen.path), "PROJECT")
    lines = [ln for ln in out.splitlines() if ": warning:" in ln and re.search(r"round", ln, re.I)]
    assert lines, f"validate does not warn about rounded logged values:\n{out[-600:]}"
    # the largest difference as the number policy writes it: 3 figures, a power of ten
    pattern = re.compile(r"largest difference is (\d\.\d\d) × 10⁻([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
    found = [pattern.search(ln) for ln in lines]
    numbers = [
        float(m.group(1))
        * 10.0 ** -int(m.group(2).translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")))
        for m in found
        if m
    ]
    assert numbers, lines
    assert any(x == pytest.approx(largest, rel=0.01) for x in numbers), (largest, lines)


# --------------------------------------------------------------------------- block and slice columns (item 12)


def test_o_empty_block_values_give_a_warning_with_their_count(built_cells):
    b = built_ok(built_cells, C.EMPTY_BLOCKS)
    msgs = [w["message"] for w in b.report.get("warnings") or []] + b.stderr.splitlines()
    hits = [
        m for m in msgs if re.search(r"empty|blank|missing", m, re.I) and re.search(r"\b3\b", m)
    ]
    assert hits, f"no warning counts the 3 rows with an empty block value: {msgs[:5]}"


def test_p_validation_needs_no_block_column_when_blocks_are_used_on_test(built_cells):
    b = built_ok(built_cells, C.NO_VAL_BLOCK)
    assert b.report["noise"]["block"]["gap"] == pytest.approx(expected_test_gap(b.gen), abs=TOL)
