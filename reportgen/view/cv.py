"""Is it larger than noise, by cross-validation: retraining within folds, then resampling."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen import words
from reportgen.view.noise import IntervalRow, SeedRow, seed_rows
from reportgen.view.parts import Figure, Row, chart_figure, metric_name, names
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


@dataclass(frozen=True)
class CvView:
    """partials/_cv.html: the seed line within folds, the resampling line, a held-out test part."""

    seed_line: str
    seed_covers: str
    #: per model: seeds per fold, mean over folds, within-fold sd, each seed's mean over folds
    seed_rows: list[SeedRow]
    seed_facts: list[Row]
    seed_reason: str | None
    left_out: list[str]
    line: str
    covers: str
    figure: Figure | None
    #: the corrected and the naive interval on the mean fold gap
    interval_rows: list[IntervalRow]
    #: the Bayesian correlated t's three probabilities; empty without min_useful_effect
    bayes_rows: list[Row]
    facts: list[Row]
    planning: str | None
    reason: str | None
    #: the third line: a held-out test part scored once after cross-validation (else None)
    test_line: str | None
    test_covers: str | None


def cv_view(report: dict, charts: Collection[str]) -> CvView | None:
    """The cross-validation noise section, or None outside a cv design."""
    noise = report["noise"]
    cv = noise.get("cv")
    if not cv:
        return None
    lines = [str(x) for x in noise.get("lines") or []]
    covers = [str(x) for x in noise.get("covers") or []]
    lines += [DASH] * (3 - len(lines))
    covers += [DASH] * (3 - len(covers))
    seed = noise.get("seed") or {}
    has_test = noise.get("block") is not None
    return CvView(
        seed_line=lines[0],
        seed_covers=covers[0],
        seed_rows=seed_rows(report, seed),
        seed_facts=_seed_facts(report, seed),
        seed_reason=seed.get("reason"),
        left_out=[str(x) for x in seed.get("left_out") or []],
        line=lines[1],
        covers=covers[1],
        figure=_figure(report, cv, charts),
        interval_rows=_interval_rows(cv),
        bayes_rows=_bayes_rows(cv),
        facts=_facts(cv),
        planning=(cv.get("planning") or {}).get("text"),
        reason=cv.get("reason"),
        test_line=lines[2] if has_test else None,
        test_covers=covers[2] if has_test else None,
    )


def _seed_facts(report: dict, seed: dict) -> list[Row]:
    cand, base = names(report)
    cv = report["noise"]["cv"]
    corrected = cv.get("corrected") or {}
    beating = seed.get("seeds_beating_baseline")
    n_seeds = len((seed.get("values") or {}).get("candidate") or [])
    return [
        Row(
            "cross-validation gap (candidate better is positive)",
            with_sign(
                seed.get("validation_gap"),
                gap_decimals(cv.get("gap"), corrected.get("low"), corrected.get("high")),
            ),
        ),
        Row("within-fold seed sd used by the rule", spread(seed.get("sd_used"))),
        Row("gap in seed sd", ratio(seed.get("gap_in_sd"), signed=True)),
        Row("rule: gap must exceed", f"{given(seed.get('multiple'))} seed sd"),
        Row("rule result", passed_word(seed.get("passes"))[0]),
        Row(
            f"{cand} seeds beating the {base} mean",
            DASH if beating is None else f"{count(beating)} of {count(n_seeds)}",
        ),
    ]


def _interval_rows(cv: dict) -> list[IntervalRow]:
    c, n = cv.get("corrected") or {}, cv.get("naive") or {}
    if c.get("low") is None:
        return []
    d = gap_decimals(cv.get("gap"), c.get("low"), c.get("high"))
    return [
        IntervalRow(
            label,
            gloss,
            with_sign(cv.get("gap"), d),
            interval(part.get("low"), part.get("high"), digits=d),
            pvalue(part.get("p")),
            fixed(part.get("se"), d),
        )
        for label, gloss, part in (
            (
                "corrected resampled t (Nadeau and Bengio)",
                "a t interval on the fold gaps, widened because the folds share training rows",
                c,
            ),
            (
                "naive paired t over folds (too narrow)",
                "treats the fold gaps as independent, which they are not: for comparison only",
                n,
            ),
        )
    ]


def _bayes_rows(cv: dict) -> list[Row]:
    b = cv.get("bayes")
    if not b:
        return []
    rope = given(b.get("rope"))
    return [
        Row(f"P(gap < −{rope}): the candidate is worse", posterior(b.get("p_worse"))),
        Row(f"P(−{rope} ≤ gap ≤ {rope}): practically equivalent", posterior(b.get("p_equivalent"))),
        Row(f"P(gap > {rope}): the candidate is better", posterior(b.get("p_better"))),
    ]


def _facts(cv: dict) -> list[Row]:
    c = cv.get("corrected") or {}
    return [
        Row("repeats × folds", f"{count(cv.get('repeats'))} × {count(cv.get('folds'))}"),
        Row("fold gaps (J)", count(cv.get("J"))),
        Row("sd of the fold gaps", spread(cv.get("sd"))),
        Row("n_test / n_train", sig(cv.get("test_train_ratio"), 3)),
        Row("ratio from", str(cv.get("ratio_from") or DASH)),
        Row("degrees of freedom", count(c.get("df"))),
        Row("confidence", confidence(cv.get("confidence"))),
        Row("corrected interval excludes zero", yes_no(cv.get("excludes_zero"))),
    ]


def _figure(report: dict, cv: dict, charts: Collection[str]) -> Figure | None:
    c = cv.get("corrected") or {}
    d = gap_decimals(cv.get("gap"), c.get("low"), c.get("high"))
    gaps = [g["gap"] for g in cv.get("fold_gaps") or [] if g.get("gap") is not None]
    above = sum(1 for g in gaps if g > 0)
    return chart_figure(
        charts,
        "cv_fold_gaps",
        "Each dot is one fold's gap, one row per repeat; the bars below are the intervals on "
        "their mean. Look at how far the corrected interval (black) reaches beyond the naive one "
        "(grey): the naive one treats the folds as independent, though they share most of "
        "their training rows.",
        _description(report, cv, len(gaps), above, d),
    )


def _description(report: dict, cv: dict, n: int, above: int, d: int) -> str:
    """The fold-gap chart in words (a sentence: no dash where an interval is missing)."""
    c, nv = cv.get("corrected") or {}, cv.get("naive") or {}
    s = (
        f"Dot plot of {words.count_noun(n, 'fold gap')} in {metric_name(report)} over "
        f"{words.count_noun(cv.get('repeats') or 0, 'repeat')}, {words.count(above)} of them "
        "above zero"
    )
    if cv.get("gap") is not None:
        s += f"; mean {words.with_sign(cv['gap'], d)}"
    if c.get("low") is not None and nv.get("low") is not None:
        s += (
            f", corrected interval {words.interval(c['low'], c['high'], digits=d)}, naive "
            f"interval {words.interval(nv['low'], nv['high'], digits=d)}"
        )
    else:
        s += f"; no interval: {cv.get('reason') or 'the fold gaps have no spread'}"
    return s + "."
