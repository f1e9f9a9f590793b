"""Is it larger than noise? Retraining (seed) noise, or the sampling noise of repeated runs, and
evaluation-sample noise."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from reportgen.model import Report
from reportgen.model.seed import SeedNoise
from reportgen.view.noise_budget import budget_part
from reportgen.view.noise_sample import IntervalRow, block_line_after_results, sample_noise
from reportgen.view.parts import (
    Figure,
    Row,
    chart_figure,
    in_words,
    metric_name,
    names,
    part_word,
    said,
)
from reportgen.words import gap_decimals
from reportgen.words.cells import (
    DASH,
    count,
    gap,
    given,
    interval,
    metric,
    passed_word,
    pvalue,
    ratio,
    spread,
    with_sign,
)
from reportgen.words.i18n import _
from reportgen.words.repeats import repeat_words


@dataclass(frozen=True)
class SeedRow:
    """One model's validation values across seeds, with mean and sd."""

    model: str
    n: str
    mean: str
    sd: str
    values: str


@dataclass(frozen=True)
class NoiseView:
    """partials/_noise.html: the two noise lines, seed noise, then evaluation-sample noise."""

    lines: list[str]
    covers: list[str]
    #: the heading of the seed part: "1. Retraining", or "1. Repeated runs: sampling noise"
    seed_heading: str
    seed_figure: Figure | None
    #: what the page says in place of the seed chart when there is none; None before and
    #: after, whose seed line already says what one tuning run cannot measure
    seed_missing: str | None
    seed_rows: list[SeedRow]
    seed_facts: list[Row]
    seed_reason: str | None
    left_out: list[str]
    interval_figure: Figure | None
    histogram_figure: Figure | None
    interval_rows: list[IntervalRow]
    block_facts: list[Row]
    block_reason: str | None
    #: why the primary interval is the one it is (both widths): the HTML's, beside the table of
    #: intervals; the PDF's block line already names the wider one
    primary_reason: str | None
    #: the PDF's note after the block line: which other intervals the HTML and report.json table
    others_note: str | None
    #: the report.json keys the note names, in code type
    others_keys: str | None
    #: noise.block.two_level.reason, word for word: what its seed level is worth
    two_level_note: str | None
    #: noise.clipping.text: rows clipped to p = 0 or 1 that move the test gap
    clipping_note: str | None
    paired_facts: list[Row]
    #: the paired seeds' facts the seed line does not say (the PDF's): sd and p
    paired_print: list[Row]
    #: the third, model-based line: what it would take; None without a budget
    budget_line: str | None
    budget_rows: list[Row]
    budget_figure: Figure | None
    budget_reason: str | None


def noise_view(report: Report, charts: Collection[str]) -> NoiseView:
    """Both noise sources, each with its line word for word and what it covers."""
    noise = report.noise
    lines = [in_words(x, report) for x in noise.lines]
    short = block_line_after_results(report)
    if short is not None and len(lines) > 1:
        lines[1] = short
    covers = [in_words(x, report) for x in noise.covers]
    words = repeat_words(report.project.repeats)
    reason = noise.seed.reason if noise.seed is not None else None
    return NoiseView(
        lines=lines,
        covers=covers + [DASH] * (len(lines) - len(covers)),
        seed_heading=_("1. {heading}", heading=words.heading),
        # before and after: the line above already says what is not measured (one tuning run)
        seed_missing=None
        if report.before_after is not None
        else _(
            "No seed values to plot: {reason}.",
            reason=reason or _("{noise} is unmeasured", noise=words.noise),
        ),
        **_seed_noise(report, charts),
        **sample_noise(report, charts),
        **budget_part(report, charts),
    )


def _seed_noise(report: Report, charts: Collection[str]) -> dict[str, Any]:
    """NoiseView's retraining part: seed values, the rule's numbers, paired seeds."""
    seed = report.noise.seed
    if seed is None:
        return {
            "seed_figure": None,
            "seed_rows": [],
            "seed_facts": [],
            "seed_reason": None,
            "left_out": [],
            "paired_facts": [],
            "paired_print": [],
        }
    cand, base = names(report)
    metric_words = metric_name(report)
    rule_word = passed_word(seed.passes)[0]
    seed_facts = [
        Row(_("validation gap (candidate better is positive)"), gap(seed.validation_gap)),
        Row(_("seed sd used by the rule"), spread(seed.sd_used)),
        Row(_("gap in seed sd"), ratio(seed.gap_in_sd, signed=True)),
        Row(_("rule: gap must exceed"), _("{multiple} seed sd", multiple=given(seed.multiple))),
        Row(_("rule result"), rule_word),
        Row(
            _("{candidate} seeds beating the {baseline} mean", candidate=cand, baseline=base),
            _(
                "{k} of {n}",
                k=count(seed.seeds_beating_baseline),
                n=count(seed.n.candidate),
            ),
        ),
    ]
    not_measured = _("not measured")
    rule = (
        _(
            "seed sd used {sd}; the gap is {gap} seed sd, the rule needs more than {multiple}: "
            "{result}.",
            sd=spread(seed.sd_used),
            gap=ratio(seed.gap_in_sd, signed=True),
            multiple=given(seed.multiple),
            result=rule_word,
        )
        if seed.gap_in_sd is not None
        else _("the seed rule is not measured ({reason}).", reason=seed.reason or _("no seed sd"))
    )
    seed_fig = chart_figure(
        charts,
        "seed_strip",
        _(
            "Each circle is one {one}'s validation score; the thick tick is the model's mean. "
            "Look at whether the candidate's mean lies beyond the dashed bar (the shaded band is "
            "the distance the rule asks for) and how far the seeds overlap.",
            one=repeat_words(report.project.repeats).one,
        ),
        # TRANSLATORS: {rule} is "seed sd used ...: pass." or "the seed rule is not measured (...)."
        _(
            "Strip plot of validation {metric} per seed. {candidate} mean {candidate_mean}, "
            "{baseline} mean {baseline_mean}; {rule}",
            metric=metric_words,
            candidate=cand,
            candidate_mean=said(metric(seed.mean.candidate), not_measured),
            baseline=base,
            baseline_mean=said(metric(seed.mean.baseline), not_measured),
            rule=rule,
        ),
    )
    paired = seed.paired
    paired_facts = []
    paired_print: list[Row] = []
    if paired.mean is not None:
        d = gap_decimals(paired.mean, paired.low, paired.high)
        paired_facts = [
            Row(_("paired seeds"), count(paired.n)),
            Row(_("part"), part_word(paired.part) if paired.part else DASH),
            Row(_("mean per-seed difference"), with_sign(paired.mean, d)),
            Row(_("sd of differences"), spread(paired.sd)),
            Row(_("t interval"), interval(paired.low, paired.high, digits=d)),
            Row("p", pvalue(paired.p)),
        ]
        # the seed line says the pairs, the part, the mean and the t interval when there is one
        in_line = {0, 1, 2, 4} if paired.low is not None else set()
        paired_print = [r for i, r in enumerate(paired_facts) if i not in in_line]
    return {
        "seed_figure": seed_fig,
        "seed_rows": seed_rows(report, seed),
        "seed_facts": seed_facts,
        "seed_reason": in_words(seed.reason, report) if seed.reason else None,
        "left_out": [in_words(x, report) for x in seed.left_out],
        "paired_facts": paired_facts,
        "paired_print": paired_print,
    }


def seed_rows(report: Report, seed: SeedNoise | None) -> list[SeedRow]:
    """Each model's seeds: how many, mean, sd and every value."""
    cand, base = names(report)
    labels = (_("{model} (candidate)", model=cand), _("{model} (baseline)", model=base))
    if seed is None:
        return [SeedRow(label, DASH, DASH, DASH, DASH) for label in labels]
    per_model = (
        (
            labels[0],
            seed.values.candidate,
            seed.n.candidate,
            seed.mean.candidate,
            seed.sd.candidate,
        ),
        (labels[1], seed.values.baseline, seed.n.baseline, seed.mean.baseline, seed.sd.baseline),
    )
    return [
        SeedRow(
            model=label,
            n=count(n),
            mean=metric(mean),
            sd=spread(sd),
            values=_list_sep().join(metric(v.value) for v in values) or DASH,
        )
        for label, values, n, mean, sd in per_model
    ]


def _list_sep() -> str:
    """Between the values of a list of numbers: ", " in English; "; " where a decimal comma
    would make a comma ambiguous ("0,4312; 0,4401")."""
    # TRANSLATORS: the separator between the numbers of a list, with its space
    return _(", ")
