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
    assert view.pvalue(0.0004) == "< 0.001"
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
