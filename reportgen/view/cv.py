"""Is it larger than noise, by cross-validation: retraining within folds, then resampling."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen import words
from reportgen.model import Report
from reportgen.model.common import TTest
from reportgen.model.cv import CrossValidation
from reportgen.model.seed import SeedNoise
from reportgen.view.noise import SeedRow, seed_rows
from reportgen.view.noise_sample import IntervalRow
from reportgen.view.parts import Figure, Row, chart_figure, in_words, metric_name, names
from reportgen.words import gap_decimals
from reportgen.words.cells import (
    DASH,
    confidence,
    count,
    fixed,
    given,
    interval,
    passed_word,
    posterior,
    pvalue,
    ratio,
    sig,
    spread,
    with_sign,
    yes_no,
)
from reportgen.words.i18n import _, n_


@dataclass(frozen=True)
class CvIntervalRow(IntervalRow):
    """One t interval on the mean fold gap, with its t statistic (its p is two-sided)."""

    t: str


@dataclass(frozen=True)
class CvView:
    """partials/_cv.html: the seed line within folds, the resampling line, a held-out test part."""

    seed_line: str
    seed_covers: str
    #: per model: seeds per fold, mean over folds, within-fold sd, each seed's mean over folds
    seed_rows: list[SeedRow]
    seed_facts: list[Row]
    #: the seed facts the seed line does not say (the PDF's): none when it states the rule
    seed_facts_print: list[Row]
    seed_reason: str | None
    left_out: list[str]
    line: str
    covers: str
    figure: Figure | None
    #: the corrected and the naive interval on the mean fold gap
    interval_rows: list[CvIntervalRow]
    #: the Bayesian correlated t's three probabilities; empty without min_useful_effect
    bayes_rows: list[Row]
    facts: list[Row]
    #: the resampling line says both intervals with t and p and the three probabilities: the
    #: PDF leaves out the table and rows restating it (the HTML keeps them)
    line_says_all: bool
    #: the design facts the resampling line does not say (the PDF's)
    facts_print: list[Row]
    planning: str | None
    reason: str | None
    #: the third line: a held-out test part scored once after cross-validation (else None)
    test_line: str | None
    test_covers: str | None


def cv_view(report: Report, charts: Collection[str]) -> CvView | None:
    """The cross-validation noise section, or None outside a cv design."""
    noise = report.noise
    cv = noise.cv
    if cv is None:
        return None
    # model ids as their display names, as the held-out design's noise lines
    lines = [in_words(x, report) for x in noise.lines] + [DASH] * (3 - len(noise.lines))
    covers = list(noise.covers) + [DASH] * (3 - len(noise.covers))
    seed = noise.seed
    has_test = noise.block is not None
    seed_facts = _seed_facts(report, cv, seed)
    facts = _facts(cv)
    # the resampling line's full form (checks/cv/lines.py) says the repeats and folds, J, the sd,
    # the ratio and where it is from, df and the confidence; whether the interval excludes zero
    # it leaves to its ends
    says_all = cv.reason is None and cv.corrected.low is not None
    return CvView(
        seed_line=lines[0],
        seed_covers=covers[0],
        seed_rows=seed_rows(report, seed),
        seed_facts=seed_facts,
        # the rule's form of the seed line says every one of them
        seed_facts_print=[] if seed is not None and seed.gap_in_sd is not None else seed_facts,
        seed_reason=seed.reason if seed is not None else None,
        left_out=list(seed.left_out) if seed is not None else [],
        line=lines[1],
        covers=covers[1],
        figure=_figure(report, cv, charts),
        interval_rows=_interval_rows(cv),
        bayes_rows=_bayes_rows(cv),
        facts=facts,
        line_says_all=says_all,
        facts_print=facts[-1:] if says_all else facts,
        planning=in_words(cv.planning.text, report) if cv.planning.text else cv.planning.text,
        reason=cv.reason,
        test_line=lines[2] if has_test else None,
        test_covers=covers[2] if has_test else None,
    )


def _seed_facts(report: Report, cv: CrossValidation, seed: SeedNoise | None) -> list[Row]:
    """The seed rule within folds: the gap, the sd it uses, the result."""
    cand, base = names(report)
    corrected = cv.corrected
    beating = _("{candidate} seeds beating the {baseline} mean", candidate=cand, baseline=base)
    if seed is None:
        return [
            Row(_("cross-validation gap (candidate better is positive)"), DASH),
            Row(_("within-fold seed sd used by the rule"), DASH),
            Row(_("gap in seed sd"), DASH),
            Row(_("rule: gap must exceed"), _("{multiple} seed sd", multiple=given(None))),
            Row(_("rule result"), passed_word(None)[0]),
            Row(beating, DASH),
        ]
    return [
        Row(
            _("cross-validation gap (candidate better is positive)"),
            with_sign(
                seed.validation_gap,
                gap_decimals(cv.gap, corrected.low, corrected.high),
            ),
        ),
        Row(_("within-fold seed sd used by the rule"), spread(seed.sd_used)),
        Row(_("gap in seed sd"), ratio(seed.gap_in_sd, signed=True)),
        Row(_("rule: gap must exceed"), _("{multiple} seed sd", multiple=given(seed.multiple))),
        Row(_("rule result"), passed_word(seed.passes)[0]),
        Row(
            beating,
            _(
                "{k} of {n}",
                k=count(seed.seeds_beating_baseline),
                n=count(len(seed.values.candidate)),
            ),
        ),
    ]


def _interval_rows(cv: CrossValidation) -> list[CvIntervalRow]:
    """The corrected and the naive t interval on the mean fold gap, each with its t statistic
    and two-sided p."""
    c = cv.corrected
    if c.low is None:
        return []
    d = gap_decimals(cv.gap, c.low, c.high)
    parts: tuple[tuple[str, str, TTest], ...] = (
        (
            _("corrected resampled t (Nadeau and Bengio)"),
            _("a t interval on the fold gaps, widened because the folds share training rows"),
            c,
        ),
        (
            _("naive paired t over folds (too narrow)"),
            _("treats the fold gaps as independent, which they are not: for comparison only"),
            cv.naive,
        ),
    )
    return [
        CvIntervalRow(
            label,
            gloss,
            with_sign(cv.gap, d),
            interval(part.low, part.high, digits=d),
            pvalue(part.p),
            fixed(part.se, d),
            ratio(
                cv.gap / part.se if cv.gap is not None and part.se else None,
                signed=True,
            ),
        )
        for label, gloss, part in parts
    ]


def _bayes_rows(cv: CrossValidation) -> list[Row]:
    """The Bayesian correlated t's three probabilities; none without min_useful_effect."""
    b = cv.bayes
    if b is None:
        return []
    rope = given(b.rope)
    return [
        Row(_("P(gap < −{rope}): the candidate is worse", rope=rope), posterior(b.p_worse)),
        Row(
            _("P(−{rope} ≤ gap ≤ {rope}): practically equivalent", rope=rope),
            posterior(b.p_equivalent),
        ),
        Row(_("P(gap > {rope}): the candidate is better", rope=rope), posterior(b.p_better)),
    ]


def _facts(cv: CrossValidation) -> list[Row]:
    """The design's numbers: repeats, folds, the ratio, degrees of freedom."""
    return [
        Row(_("repeats × folds"), f"{count(cv.repeats)} × {count(cv.folds)}"),
        Row(_("fold gaps (J)"), count(cv.J)),
        Row(_("sd of the fold gaps"), spread(cv.sd)),
        Row("n_test / n_train", sig(cv.test_train_ratio, 3)),
        Row(_("ratio from"), cv.ratio_from or DASH),
        Row(_("degrees of freedom"), count(cv.corrected.df)),
        Row(_("confidence"), confidence(cv.confidence)),
        Row(_("corrected interval excludes zero"), yes_no(cv.excludes_zero)),
    ]


def _figure(report: Report, cv: CrossValidation, charts: Collection[str]) -> Figure | None:
    """The fold-gap chart: each fold's gap and the intervals on their mean."""
    c = cv.corrected
    d = gap_decimals(cv.gap, c.low, c.high)
    gaps = [g.gap for g in cv.fold_gaps if g.gap is not None]
    above = sum(1 for g in gaps if g > 0)
    return chart_figure(
        charts,
        "cv_fold_gaps",
        _(
            "Each dot is one fold's gap, one row per repeat; the bars below are the intervals on "
            "their mean. Look at how far the corrected interval (black) reaches beyond the naive "
            "one (grey): the naive one treats the folds as independent, though they share most "
            "of their training rows."
        ),
        _description(report, cv, len(gaps), above, d),
    )


def _description(report: Report, cv: CrossValidation, n: int, above: int, d: int) -> str:
    """The fold-gap chart in words (a sentence: no dash where an interval is missing)."""
    c, nv = cv.corrected, cv.naive
    s = n_(
        "Dot plot of {gaps} in {metric} over {repeats}, {above} of them above zero",
        "Dot plot of {gaps} in {metric} over {repeats}, {above} of them above zero",
        above,
        gaps=words.count_noun(n, "fold gap"),
        metric=metric_name(report),
        repeats=words.count_noun(cv.repeats or 0, "repeat"),
        above=words.count(above),
    )
    # TRANSLATORS: the next three continue "Dot plot of 50 fold gaps ... above zero"
    if cv.gap is not None:
        s += _("; mean {gap}", gap=words.with_sign(cv.gap, d))
    if c.low is not None and c.high is not None and nv.low is not None and nv.high is not None:
        s += _(
            ", corrected interval {corrected}, naive interval {naive}",
            corrected=words.interval(c.low, c.high, digits=d),
            naive=words.interval(nv.low, nv.high, digits=d),
        )
    else:
        s += _("; no interval: {reason}", reason=cv.reason or _("the fold gaps have no spread"))
    return s + "."
