"""The view: numbers formatted once, optional sections tolerated."""

from __future__ import annotations

from reportgen import view


def test_num_fixed_decimals_and_typographic_minus():
    assert view.num(0.0085) == "0.0085"
    assert view.num(-0.006) == "\u22120.0060"
    assert view.num(-0.00001) == "0.0000"  # no sign on a rounded zero
    assert view.num(None) == "—"
    assert view.num(2600, 0) == "2,600"


def test_signed_interval_pvalue_count():
    assert view.signed(0.0029) == "+0.0029"
    assert view.signed(-0.0104) == "\u22120.0104"
    assert view.interval(0.0029, 0.0139) == "+0.0029 to +0.0139"
    assert view.interval(None, 0.1) == "—"
    assert view.pvalue(0.0004) == "<\u00a00.001"
    assert view.pvalue(0.0294) == "0.029"
    assert view.count(10000) == "10,000"
    assert view.pct(0.95) == "95%"


def test_passed_word_has_three_outcomes():
    assert view.passed_word(True) == ("pass", "shown")
    assert view.passed_word(False) == ("fail", "not-shown")
    assert view.passed_word(None) == ("not checked", "neutral")


def test_sample_view_has_every_section(sample):
    v = view.build_view(sample, {})
    assert [r.status.word for r in v.ladder] == ["shown", "shown", "partly", "not shown", "partly"]
    assert v.decision.verdict == "Keep gbm"
    assert v.decision.recommend_role == "baseline"
    assert v.threshold is not None and len(v.threshold.models) == 2
    assert v.threshold.models[0].tn.replace(",", "").isdigit()
    assert v.calibration is not None and len(v.calibration.bins) == 10
    assert [s.reading for s in v.slices.rows] == [
        "candidate better",
        "no clear difference",
        "candidate worse",
    ]
    assert v.before_after is None
    assert v.noise.lines == sample["noise"]["lines"]
    # no chart SVG given: every figure is absent, not broken
    assert v.noise.seed_figure is None and v.threshold.figure is None


def test_reconsider_label_not_repeated(sample):
    v = view.build_view(sample, {})
    assert not v.claim.reconsider_when.lower().startswith("reconsider when")
    assert v.claim.reconsider_when.startswith("The validation gap exceeds 2 seed sd")


def test_minimal_view_tolerates_null_sections(minimal):
    v = view.build_view(minimal, {})
    assert v.threshold is None and v.calibration is None and v.slices is None
    assert v.before_after is None
    assert v.noise.interval_rows == []
    assert v.noise.block_reason.startswith("No per-row predictions")
    assert v.bounds.relevance == []
    assert v.header.author is None
    assert v.decision.reasons == []


def test_before_after_view(before_after):
    v = view.build_view(before_after, {})
    ba = v.before_after
    assert ba is not None
    assert [q.id for q in ba.broken] == before_after["before_after"]["broken_ids"]
    assert ba.general_status.word == "did not hold"
    assert v.decision.verdict == "Roll back to before"
    assert v.threshold is None


def test_format_policy_by_quantity():
    from reportgen.view import format as f

    assert f.metric(0.447447) == "0.4474"
    assert f.metric(12.3456) == "12.35"
    assert f.cost(85.7946) == "85.8" and f.cost(0.456962) == "0.457"
    assert f.prob(0.26912) == "0.269"
    # a gap and its interval share one decimal count, from the widest of the three
    assert (
        f.gap_with_interval(-0.00698, -0.0154, 0.0020) == "\u22120.0070 (\u22120.0154 to +0.0020)"
    )
    assert f.gap_with_interval(0.398, 0.344, 0.45) == "+0.398 (+0.344 to +0.450)"
    assert f.given(0.005) == "0.005" and f.given(2.0) == "2" and f.given(-1.5) == "\u22121.5"
    assert f.signed(0.00001) == "0.0000"  # a rounded zero has no sign
    assert f.count(200.0) == "200" and f.count(10000.0) == "10,000" and f.count(None) == "—"


def test_timestamps_all_in_utc_with_z():
    from reportgen.view.format import timestamp, timestamps_in

    assert timestamp("2026-03-03T09:00:00+00:00") == "2026-03-03T09:00:00Z"
    assert timestamp("2026-03-03T10:00:00+01:00") == "2026-03-03T09:00:00Z"
    assert timestamp("2026-03-02T09:00:00Z") == "2026-03-02T09:00:00Z"
    assert timestamp("2026-12-01") == "2026-12-01"
    assert (
        timestamps_in("frozen 2026-03-02T09:00:00Z, before (2026-03-03T09:00:00+00:00)")
        == "frozen 2026-03-02T09:00:00Z, before (2026-03-03T09:00:00Z)"
    )


def test_page_one_numbers_behind_unshown_rungs(weekly_churn):
    rows = {r.name: r for r in view.build_view(weekly_churn, {}).ladder}
    assert rows["correct"].numbers == []
    assert rows["larger than noise"].numbers[0] == "validation gap in seed sd: 0.875, bar 2"
    assert rows["relevant"].numbers == [
        "lower end against the useful effect: \u22120.00389, bar 0.005"
    ]


def test_artefacts_counted_not_silently_capped(weekly_churn):
    import copy

    report = copy.deepcopy(weekly_churn)
    report["ladder"][2]["artefacts_total"] = 30
    row = view.build_view(report, {}).ladder[2]
    assert row.artefacts_more == "2 of 30 shown; all in Evidence by rung"
    assert row.artefacts_note == "6 of 30 cited artefacts listed; all in report.json"
    assert view.build_view(weekly_churn, {}).ladder[2].artefacts_note is None


def test_decision_in_its_units(weekly_churn):
    d = view.build_view(weekly_churn, {}).decision
    assert d.in_units == (
        "At each model's chosen threshold, mlp saves 85.8 per week of 10,000 cases on test, "
        "counted in retention-offer costs (EUR 20 each); a point estimate, without an interval."
    )


def test_sign_flip_said_on_page_one(weekly_churn):
    import copy

    report = copy.deepcopy(weekly_churn)
    assert view.build_view(report, {}).decision.sign_flip is None
    # the view prints the checks' noise.sign_disagreement, never its own reading of the gaps
    report["noise"]["seed"]["validation_gap"] = -0.0045
    assert view.build_view(report, {}).decision.sign_flip is None
    gap = report["noise"]["block"]["gap"]
    report["noise"]["sign_disagreement"] = {"validation_gap": -0.0045, "test_gap": gap, "text": "x"}
    assert view.build_view(report, {}).decision.sign_flip == (
        "Validation and test disagree: on validation gbm is better (gap \u22120.00450), on test "
        "mlp (gap +0.0039 (\u22120.0039 to +0.0120))."
    )
    report["noise"]["sign_disagreement"] = None
    assert view.build_view(report, {}).decision.sign_flip is None


def test_pdf_inputs_short_hashes_html_full(weekly_churn):
    p = view.build_view(weekly_churn, {}).provenance
    f = p.inputs[0]
    assert len(f.sha256) == 64 and f.sha256_short == f.sha256[:12]
    assert "".join(f.sha256_groups) == f.sha256 and {len(g) for g in f.sha256_groups} == {16}
    assert f.path.parts[-1] == f.path.text.rsplit("/", 1)[-1]
