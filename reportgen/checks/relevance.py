"""Relevance: is the gap worth acting on (the useful effect, equivalence, costs per period)."""

from __future__ import annotations

from reportgen.checks.present import required
from reportgen.checks.types import Interval
from reportgen.model.enums import Finding
from reportgen.model.relevance import CostPerCase, Relevance
from reportgen.model.threshold import Threshold
from reportgen.project import Project
from reportgen.words import cost, gap_decimals, given, with_sign
from reportgen.words.i18n import _


def _finding(iv: Interval, m: float | None) -> str:
    """Where the interval lies against zero and the useful effect ``m``."""
    low, high = iv.low, iv.high
    if m is None:
        return "positive-not-useful" if low > 0 else ("worse" if high < 0 else "inconclusive")
    # m = 0: any gain that clears zero is useful; equivalence needs m > 0
    if low >= m and low > 0:
        return "useful-gain-shown"
    if low > 0:
        return "positive-not-useful"
    if m > 0 and -m < low and high < m:
        return "equivalent"
    if high < 0:
        return "worse"
    # the interval reaches -m or below, so it is no tie, but it rules out a useful gain
    if m > 0 and high < m:
        return "no-useful-gain"
    return "inconclusive"


def _finding_text(iv: Interval, m: float | None, finding: str, unit: str | None = None) -> str:
    """The finding in words, with the interval's decimals and the useful effect as written
    (with the metric's ``unit``, when [claim] unit gives one)."""
    low = iv.signed(iv.low)
    if finding == "useful-gain-shown":
        return _(
            "the interval's lower end {low} reaches the useful effect {effect}",
            low=low,
            effect=given(m, unit),
        )
    if finding == "positive-not-useful":
        if not m:
            return _(
                "the gain is positive (lower end {low}) but no min_useful_effect was fixed, so "
                "usefulness is not established",
                low=low,
            )
        if iv.high < m:
            return _(
                "the gain is positive (lower end {low}) but below the useful effect {effect}: "
                "the whole interval {ends} lies below it",
                low=low,
                effect=given(m, unit),
                ends=iv.ends,
            )
        return _(
            "the gain is positive (lower end {low}) but below the useful effect {effect} in part",
            low=low,
            effect=given(m, unit),
        )
    if finding == "equivalent":
        return _(
            "the interval {ends} lies inside ±{effect}: practically equivalent, a tie",
            ends=iv.ends,
            effect=given(m, unit),
        )
    if finding == "worse":
        return _(
            "the interval {ends} lies below zero: it favours the baseline, so no gain is there",
            ends=iv.ends,
        )
    if finding == "no-useful-gain":
        return _(
            "the interval {ends} lies below the useful effect {effect}: no useful gain is there "
            "(its upper end {high} rules one out), but it is no tie either: its lower end {low} "
            "reaches beyond {minus}",
            ends=iv.ends,
            effect=given(m, unit),
            high=iv.signed(iv.high),
            low=low,
            minus=given(-required(m, "the useful effect"), unit),
        )
    if m and -m < iv.low and iv.high >= m:
        # one end only reaches the useful effect: say which, so a high chance of a tie
        # beside it (a cv design's Bayesian view) does not read as a contradiction
        return _(
            "the interval {ends} holds zero and its upper end {high} reaches the useful effect "
            "{effect}: neither a gain nor a tie is shown",
            ends=iv.ends,
            high=iv.signed(iv.high),
            effect=given(m, unit),
        )
    return _("the interval {ends} is too wide to decide", ends=iv.ends)


def ruled_out_words(rel: Relevance | None) -> str:
    """ "a useful gain of 0.02 is ruled out (upper end +0.0188)" when report.json ``relevance``
    says so, else ""."""
    if rel is None or rel.finding != Finding.NO_USEFUL_GAIN:
        return ""
    high = with_sign(rel.high, gap_decimals(rel.gap, rel.low, rel.high))
    return _(
        "a useful gain of {effect} is ruled out (upper end {high})",
        effect=given(rel.min_useful_effect),
        high=high,
    )


def relevance(project: Project, iv: Interval | None, th: Threshold | None) -> Relevance | None:
    """report.json ``relevance``: the finding against min_useful_effect, per period and, with
    thresholds ``th``, in costs."""
    cfg = project.config
    if iv is None:
        return None
    m = cfg.min_useful_effect
    finding = _finding(iv, m)
    per_case = per_period = None
    if th is not None:
        c, b = th.candidate.mean_test_cost, th.baseline.mean_test_cost
        per_case = CostPerCase(candidate=c, baseline=b, difference=b - c)
        if cfg.cases_per_period:
            per_period = (b - c) * cfg.cases_per_period
    finding_text = _finding_text(iv, m, finding, cfg.metric_unit)
    text = finding_text
    if per_period is not None:
        fields = dict(cost=cost(abs(per_period)), unit=cfg.unit, period=cfg.period or _("period"))
        text += (
            _(
                "; at each model's validation-chosen threshold the candidate saves {cost} {unit} "
                "per {period}",
                **fields,
            )
            if per_period >= 0
            else _(
                "; at each model's validation-chosen threshold the candidate costs {cost} {unit} "
                "per {period}",
                **fields,
            )
        )
    return Relevance(
        min_useful_effect=m,
        finding=Finding(finding),
        gap=iv.gap,
        low=iv.low,
        high=iv.high,
        per_period=iv.gap * cfg.cases_per_period if cfg.cases_per_period else None,
        cases_per_period=cfg.cases_per_period,
        period=cfg.period,
        unit=cfg.unit,
        metric_unit=cfg.metric,
        cost_per_case=per_case,
        cost_per_period=per_period,
        finding_text=finding_text,
        text=text,
    )
