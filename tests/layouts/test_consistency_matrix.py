"""The consistency matrix: every cell built through the CLI holds every invariant of
tests/layouts/consistency.py, and every invariant catches a doctored report."""

from __future__ import annotations

import copy

import pytest

from tests.layouts import consistency as inv
from tests.layouts.cells import CONSISTENCY_AXES, consistency_cells
from tests.layouts.conftest import build

CELLS = {c["id"]: c for c in consistency_cells()}

#: (cell id, invariant) -> the sentence the product gets wrong
PRODUCT_BUGS: dict[tuple[str, str], str] = {}


def _params():
    for cid, cell in CELLS.items():
        for name in inv.INVARIANTS:
            reason = PRODUCT_BUGS.get((cid, name))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(cell, name, id=f"{cid}-{name}", marks=marks)


@pytest.fixture(scope="session")
def consistency_built(tmp_path_factory):
    """``consistency_built(cell)``: the cell built once with json, md and html."""
    cache: dict[str, inv.Texts | None] = {}

    def get(cell: dict):
        if cell["id"] not in cache:
            b = build(tmp_path_factory.mktemp(cell["id"][:60]), cell, inv.FORMATS)
            cache[cell["id"]] = inv.texts_of(b) or b
        return cache[cell["id"]]

    return get


def _texts(consistency_built, cid: str) -> inv.Texts:
    t = consistency_built(CELLS[cid])
    if not isinstance(t, inv.Texts):
        pytest.fail(f"{cid} did not build: {t.describe()}", pytrace=False)
    return copy.deepcopy(t)


@pytest.mark.parametrize(("cell", "name"), list(_params()))
def test_consistency_cell_holds_invariant(consistency_built, cell, name):
    t = consistency_built(cell)
    if not isinstance(t, inv.Texts):
        pytest.fail(f"report.json not written: {t.describe()}", pytrace=False)
    violations = inv.INVARIANTS[name](t)
    assert not violations, "\n".join(violations)


def _direction_holds(direction: str, r: dict) -> bool:
    low, high = r["noise"]["interval"]["low"], r["noise"]["interval"]["high"]
    m = r["relevance"]["min_useful_effect"]
    return {
        "better-useful": low > 0 and low >= m,
        "better-not-useful": 0 < low < m,
        "tie": r["relevance"]["finding"] == "equivalent",
        "inconclusive": low <= 0 <= high and r["relevance"]["finding"] == "inconclusive",
        "worse": high < 0,
    }[direction]


@pytest.mark.parametrize("cid", [c for c in CELLS if not c.startswith("cons-conflict")])
def test_consistency_cell_points_its_direction(consistency_built, cid):
    longest_first = sorted(CONSISTENCY_AXES["direction"], key=len, reverse=True)
    direction = next(d for d in longest_first if cid.startswith(f"cons-{d}-"))
    r = _texts(consistency_built, cid).report
    assert _direction_holds(direction, r), (r["noise"]["interval"], r["relevance"]["finding"])


def test_conflict_cells_hold_their_conflicts(consistency_built):
    r = _texts(consistency_built, "cons-conflict-sign-disagreement").report
    assert r["noise"]["sign_disagreement"] is not None
    block = _texts(consistency_built, "cons-conflict-two-level-includes-zero").report["noise"]
    two = block["block"]["two_level"]
    assert block["block"]["low"] > 0 and two["low"] <= 0 <= two["high"]


# --------------------------------------------------------------------------- doctored reports

USEFUL = "cons-better-useful-multiclass-split-column-unpaired"  # rung 5, every line positive
WORSE = "cons-worse-multiclass-split-column-paired"  # the baseline shown better, slices worse
TIE = "cons-inconclusive-multiclass-split-none-unpaired"  # rung 2, the interval holds zero
REGRESSION = "cons-better-not-useful-regression-split-none-unpaired"  # rung 3 in mmHg²


def _primary(t: inv.Texts) -> tuple[str, str, str]:
    """The evaluation interval as printed, flipped, and its gap as printed."""
    iv = t.report["noise"]["interval"]
    d = inv.gap_decimals(iv["gap"], iv["low"], iv["high"])
    right = inv.interval(iv["low"], iv["high"], iv["gap"], d)
    flipped = inv.interval(-iv["high"], -iv["low"], -iv["gap"], d)
    return right, flipped, inv.with_sign(iv["gap"], d)


def test_one_sign_catches_a_flipped_interval_in_the_claim(consistency_built):
    t = _texts(consistency_built, USEFUL)
    right, flipped, _ = _primary(t)
    assert right in t.report["claim"]["rewritten"]
    assert not inv.one_sign(t)
    t.report["claim"]["rewritten"] = t.report["claim"]["rewritten"].replace(right, flipped)
    assert any(flipped in v for v in inv.one_sign(t))


def test_one_sign_catches_a_flipped_interval_in_the_html_and_the_log(consistency_built):
    for field in ("html", "md"):
        t = _texts(consistency_built, WORSE)
        right, flipped, _ = _primary(t)
        setattr(t, field, getattr(t, field).replace(right, flipped))
        assert any(field.replace("md", "decision-log") in v for v in inv.one_sign(t)), field


def test_one_sign_catches_a_gap_of_the_other_sign(consistency_built):
    t = _texts(consistency_built, USEFUL)
    _, _, g = _primary(t)
    line = t.report["noise"]["lines"][1]
    assert f"test gap is {g}" in line
    t.report["noise"]["lines"][1] = line.replace(
        f"test gap is {g}", f"test gap is {inv.MINUS}{g[1:]}"
    )
    assert inv.one_sign(t)


def test_flags_catch_each_flag_against_its_interval(consistency_built):
    doctor = [
        ("noise", "block", "excludes_zero"),
        ("noise", "seed", "passes"),
    ]
    for path in doctor:
        t = _texts(consistency_built, USEFUL)
        d = t.report
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = not d[path[-1]]
        assert inv.flags_agree(t), path
    t = _texts(consistency_built, WORSE)
    t.report["slices"][0]["worse"] = not t.report["slices"][0]["worse"]
    assert inv.flags_agree(t)
    t = _texts(consistency_built, WORSE)
    t.report["slices"][0]["not_worse"] = not t.report["slices"][0]["not_worse"]
    assert inv.flags_agree(t)
    t = _texts(consistency_built, TIE)
    t.report["relevance"]["finding"] = "equivalent"
    assert inv.flags_agree(t)


def test_reconsider_catches_items_already_met(consistency_built):
    t = _texts(consistency_built, USEFUL)
    assert not inv.reconsider_not_met(t)
    right, _, _ = _primary(t)
    for item in (
        f"the test interval lies above zero (now {right} over 20 weeks)",
        "the interval's lower end reaches the useful effect 0.005 (now +0.168)",
        "the validation gap exceeds 2 seed sd with 5 or more seeds of each model "
        "(now +38.8 sd, with 5 of net and 5 of base)",
        "net is shown no worse on slice 'shifted': the interval's worse end stays above −0.005",
    ):
        t.report["claim"]["reconsider_items"] = [item]
        assert inv.reconsider_not_met(t), item


def test_claim_rung_catches_a_claim_above_its_rung(consistency_built):
    t = _texts(consistency_built, TIE)
    assert not inv.claim_within_rung(t)
    for claim in (
        "net beats base by 0.0051 test log loss",
        "base beats net on log loss",
        "the gap is more than retraining noise (+1.54 seed sd)",
        "a gap of +0.0051, at least the useful effect of 0.005",
        "on each of the 3 slices with an interval",
        "net and base are tied on log loss",
    ):
        t.report["claim"]["rewritten"] = claim
        assert inv.claim_within_rung(t), claim


def test_claim_rung_catches_a_slice_called_worse_and_a_wrong_rung_in_the_log(consistency_built):
    t = _texts(consistency_built, USEFUL)
    claim = t.report["claim"]["rewritten"]
    t.report["claim"]["rewritten"] = f"{claim[:-1]}; but net is worse on slice 'a' (gap −0.1)."
    assert any("called worse" in v for v in inv.claim_within_rung(t))
    t = _texts(consistency_built, USEFUL)
    assert "supports the claim up to rung 5" in t.md
    t.md = t.md.replace("supports the claim up to rung 5", "supports the claim up to rung 4")
    assert any("decision-log.md says rung 4" in v for v in inv.claim_within_rung(t))


def test_claim_rung_catches_the_candidate_beating_a_better_baseline(consistency_built):
    t = _texts(consistency_built, WORSE)
    assert not inv.claim_within_rung(t)
    t.report["claim"]["rewritten"] = "net beats base by 0.120 test log loss"
    assert inv.claim_within_rung(t)
    t = _texts(consistency_built, "cons-worse-questions-before-after-column-one")
    t.report["claim"]["rewritten"] = "Tuning raised frozen-set accuracy from 0.500 to 0.412"
    assert inv.claim_within_rung(t)


def test_decision_catches_a_verdict_or_reason_against_the_numbers(consistency_built):
    t = _texts(consistency_built, TIE)
    assert not inv.decision_agrees(t)
    t.report["decision"]["verdict"] = "adopt"
    assert any("adopt at rung 2" in v for v in inv.decision_agrees(t))
    for reason in (
        "the gain is real but not shown to be worth the change: keep base",
        "the baseline is better: the test interval lies below zero",
        "a tie is a finding: the interval lies inside ±0.005, so keep the simpler baseline",
    ):
        t = _texts(consistency_built, TIE)
        t.report["decision"]["reasons"] = [reason]
        assert any("reason says" in v for v in inv.decision_agrees(t)), reason
    t = _texts(consistency_built, TIE)
    claim = t.report["claim"]["rewritten"]
    t.md = t.md.replace(claim, claim.replace("not shown", "shown"))
    assert any("decision-log.md does not print" in v for v in inv.decision_agrees(t))


def test_rung3_label_catches_a_wrong_side_or_seed_outcome(consistency_built):
    t = _texts(consistency_built, WORSE)
    label = t.report["ladder"][2]["summary"]
    assert not inv.rung3_label(t)
    for wrong in (
        label.replace("lies below zero", "lies above zero"),
        label.replace("seed rule fails", "seed rule passes"),
        label.replace("seed rule fails", "seed rule fails (+10.6 sd)"),  # said in its missing text
    ):
        t.report["ladder"][2]["summary"] = wrong
        assert inv.rung3_label(t), wrong
    t = _texts(consistency_built, "cons-worse-questions-before-after-column-one")
    t.report["ladder"][2]["summary"] = "within noise"
    assert inv.rung3_label(t)


def test_rung_labels_catch_a_false_rung_4_or_5_label(consistency_built):
    t = _texts(consistency_built, USEFUL)
    assert not inv.rung_labels(t)
    t.report["ladder"][3]["summary"] = (
        "the gain is positive (lower end +0.168) but below the useful effect 0.005 in part"
    )
    assert inv.rung_labels(t)
    t = _texts(consistency_built, USEFUL)
    t.report["ladder"][3]["summary"] = "no gain worth acting on is shown"
    assert inv.rung_labels(t)
    t = _texts(consistency_built, USEFUL)
    t.report["ladder"][4]["summary"] = "3 slices with intervals; net worse on 'a'"
    assert inv.rung_labels(t)
    t = _texts(consistency_built, USEFUL)
    t.report["fairness"][0]["passed"] = False
    assert any("rung 2 says" in v for v in inv.rung_labels(t))
    t = _texts(consistency_built, WORSE)
    assert not inv.rung_labels(t)
    five = t.report["ladder"][4]["summary"]
    t.report["ladder"][4]["summary"] = five.replace("'a', 'b', 'shifted'", "'a', 'shifted'")
    assert inv.rung_labels(t)


def test_sentences_catch_a_comparison_untrue_for_its_numbers(consistency_built):
    t = _texts(consistency_built, WORSE)
    assert not inv.sentences_true(t)
    reason = t.report["decision"]["reasons"][0]
    for wrong in (
        reason.replace("lies below zero", "lies above zero"),
        reason.replace("lies below zero", "includes zero"),
        reason.replace("beyond 2 on the baseline's side", "beyond 20 on the baseline's side"),
        "the interval's lower end −0.164 reaches the useful effect 0.005",
        "the interval's lower end +0.164 does not reach the useful effect 0.005",
        "the interval's worse end −0.001 is beyond the margin −0.005",
        "the interval's worse end stays above −0.005 (now −0.001: gap −0.147)",
        "−10.6 seed sd, not more than −20",
        "+1.2 seed sd (sd 0.01); the rule needs more than 2, so it passes",
    ):
        t.report["decision"]["reasons"] = [wrong]
        assert inv.sentences_true(t), wrong


def test_unit_catches_a_gap_without_its_unit(consistency_built):
    t = _texts(consistency_built, REGRESSION)
    claim = t.report["claim"]["rewritten"]
    assert "test mean squared error in mmHg²" in claim
    t.report["noise"]["lines"] = []
    t.report["claim"]["rewritten"] = claim.replace(" test mean squared error in mmHg²", "")
    assert any("46.9 without mmHg" in v for v in inv.unit_carried(t))
    t = _texts(consistency_built, REGRESSION)
    t.report["noise"]["lines"] = []
    assert not inv.unit_carried(t)
    t.report["decision"]["reasons"] = ["a tie is a finding: the interval lies inside ±100, so keep"]
    assert any("useful effect 100 without" in v for v in inv.unit_carried(t))


def test_page_one_catches_each_omitted_conflict(consistency_built):
    t = _texts(consistency_built, "cons-conflict-sign-disagreement")
    assert not inv.page_one_names_conflicts(t)
    t.page_one = t.page_one.replace("disagree", "differ")
    assert inv.page_one_names_conflicts(t)
    t = _texts(consistency_built, WORSE)
    assert not inv.page_one_names_conflicts(t)
    t.page_one = t.page_one.replace("'shifted'", "a slice")
    assert inv.page_one_names_conflicts(t)
    t = _texts(consistency_built, USEFUL)
    t.report["noise"]["block"]["two_level"].update(low=-0.01, high=0.4)
    assert inv.page_one_names_conflicts(t)


def test_build_catches_a_traceback_and_an_exit_code(consistency_built):
    t = _texts(consistency_built, USEFUL)
    assert not inv.built_cleanly(t)
    t.traceback = "Traceback (most recent call last):\nKeyError: 'low'"
    t.exit_code = 1
    assert len(inv.built_cleanly(t)) == 2


def test_decision_catches_a_reason_the_page_does_not_print(consistency_built):
    t = _texts(consistency_built, TIE)
    reason = t.report["decision"]["reasons"][0]
    t.report["decision"]["reasons"] = [reason + " and a sentence no page prints"]
    t.md = t.md.replace(reason, reason + " and a sentence no page prints")
    assert any("report.html does not print" in v for v in inv.decision_agrees(t))
