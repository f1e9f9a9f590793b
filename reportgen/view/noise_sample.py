"""Is it larger than noise, the evaluation-sample part: the intervals of the test gap (the
HTML's table of every one, the PDF's note on where they are), the block line as printed after
Results at a glance, and the interval and bootstrap charts."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from reportgen.model import Report
from reportgen.model.before_after import BeforeAfter
from reportgen.model.block import BlockNoise, SeedGap, TwoLevel, Welch
from reportgen.model.budget import Budget, Clipping
from reportgen.model.common import Bounds, MaybeBounds, TTest
from reportgen.model.enums import IntervalSource
from reportgen.model.noise import Interval
from reportgen.view.noise_figures import histogram_figure, intervals_figure, one_network, unit_word
from reportgen.view.parts import (
    Row,
    as_sentence,
    in_words,
    names,
)
from reportgen.words import count_noun, gap_decimals, plural_noun
from reportgen.words.cells import (
    DASH,
    confidence,
    count,
    fixed,
    interval,
    pvalue,
    with_sign,
    yes_no,
)
from reportgen.words.i18n import _, current, p_
from reportgen.words.intervals import wider_of_two
from reportgen.words.repeats import repeat_words


@dataclass(frozen=True)
class IntervalRow:
    """One interval for the test gap (bootstrap, paired t, Welch, per seed)."""

    label: str
    #: what the interval is, in one line, for a reader who does not know the name
    gloss: str
    gap: str
    interval: str
    p: str
    se: str


#: the sections a row of the interval table is read from: each has a lower and an upper end
Ends = MaybeBounds | TTest | Welch | TwoLevel | SeedGap | Interval | Bounds


def block_line_after_results(report: Report) -> str | None:
    """The block line as the noise section prints it after Results at a glance, which says
    the test gap and its primary interval: which of the two intervals that one is and the other
    one's ends, not the gap and its ends again. None when the results do not say them (no
    results table, or a primary interval that is not the block line's): the line as written."""
    noise = report.noise
    block, iv = noise.block, noise.interval
    if (
        not report.results
        or block is None
        or block.low is None
        or iv is None
        or iv.source != IntervalSource.BLOCK
    ):
        return None
    words = repeat_words(report.project.repeats)
    nets = block.networks
    n_c, n_b = count(nets.candidate), count(nets.baseline)
    networks = words.unit == "network"
    if nets.candidate > 1 or nets.baseline > 1:
        seeds = (
            _("seed-averaged over {n_c} and {n_b} networks", n_c=n_c, n_b=n_b)
            if networks
            else _("seed-averaged over {n_c} and {n_b} runs", n_c=n_c, n_b=n_b)
        )
    else:
        seeds = _("one network per model") if networks else _("one run per model")
    d = gap_decimals(block.gap, block.low, block.high)
    t, bs = block.t, block.bootstrap
    fields = dict(
        head=_("Block bootstrap (which blocks were sampled, for the networks as trained):"),
        conf=confidence(block.confidence),
        what=iv.what,
        section=_("Results at a glance"),
        rows=count_noun(block.rows, "row"),
        seeds=seeds,
        which=wider_of_two(
            block.primary, (t.low, t.high, t.p), (bs.low, bs.high), block.resamples, d
        ),
    )
    if report.data.block_column:
        text = _(
            "{head} the test gap and its {conf} interval over {what}, as in {section} "
            "(row-weighted over {rows}, {seeds}): {which}.",
            **fields,
        )
    else:
        text = _(
            "{head} the test gap and its {conf} interval over {what} (no block column: the "
            "bootstrap resamples rows), as in {section} (row-weighted over {rows}, {seeds}): "
            "{which}.",
            **fields,
        )
    return in_words(text, report)


def sample_noise(report: Report, charts: Collection[str]) -> dict[str, Any]:
    """NoiseView's evaluation-sample part: the intervals on test and their charts."""
    noise = report.noise
    block = noise.block
    out: dict[str, Any] = {
        "interval_figure": None,
        "histogram_figure": None,
        "block_facts": [],
        "primary_reason": None,
    }
    if block is not None:
        out.update(_block_part(report, block, charts))
    elif report.before_after is not None and noise.interval is not None:
        out.update(_versions_part(report, report.before_after, noise.interval))
    elif noise.interval is not None:
        other = noise.interval
        what = other.what or other.source or _("the evaluation sample")
        d = gap_decimals(other.gap, other.low, other.high)
        row = _interval_row(
            _("bootstrap over {what}", what=what),
            _("resamples the evaluation sample"),
            other.gap,
            other,
            d,
        )
        out["interval_rows"] = [row]
        out["block_reason"] = (
            _("The interval's chart is in the before-and-after section.")
            if report.before_after
            else None
        )
    else:
        out["interval_rows"] = []
        out["block_reason"] = _("No per-row predictions: the evaluation interval was not computed.")
    clipping = noise.clipping
    return {
        "interval_figure": out["interval_figure"],
        "histogram_figure": out["histogram_figure"],
        "interval_rows": out["interval_rows"],
        "block_facts": out["block_facts"],
        "block_reason": out["block_reason"],
        "primary_reason": out["primary_reason"],
        "others_note": out.get("others_note", _others_note(report))
        if out["interval_rows"]
        else None,
        "others_keys": out.get("others_keys", _others_keys(report))
        if out["interval_rows"]
        else None,
        "two_level_note": block.two_level.reason if block is not None else None,
        "clipping_note": clipping.text if isinstance(clipping, Clipping) else None,
    }


def _versions_part(report: Report, ba: BeforeAfter, iv: Interval) -> dict[str, Any]:
    """A before/after project's evaluation-sample part: its bootstrap and paired t intervals,
    each under its own name, which one is primary, and the printed page's note saying so (the
    noise line's label is the spec's "Block bootstrap" whichever is wider)."""
    d = gap_decimals(ba.difference, ba.low, ba.high)
    what = iv.what or _("the evaluation sample")
    bootstrap_gloss = (
        _("resamples whole blocks, both versions' answers kept together")
        if report.data.block_column
        else _("resamples the questions, both versions' answers kept together")
    )
    rows = []
    if ba.bootstrap.low is not None:
        rows.append(
            _interval_row(
                _("bootstrap over {what}", what=what),
                bootstrap_gloss,
                ba.difference,
                ba.bootstrap,
                d,
            )
        )
    if ba.t.low is not None:
        rows.append(
            IntervalRow(
                _("paired t over {what}", what=what),
                _("a t interval on the after − before differences"),
                with_sign(ba.difference, d),
                interval(ba.t.low, ba.t.high, digits=d),
                pvalue(ba.t.p),
                DASH,
            )
        )
    names = {"bootstrap": p_("interval method", "bootstrap"), "t": _("paired t")}
    method = names.get(ba.primary or "")
    if ba.primary == "exact" or not rows:
        # no question changed: the exact bound is the only interval, and the line says so
        rows.append(
            _interval_row(
                _("exact binomial bound"), ba.interval_reason or DASH, ba.difference, iv, d
            )
        )
    return {
        "interval_rows": rows,
        "block_facts": [Row(_("primary interval"), method)] if method else [],
        "block_reason": _("The interval's chart is in the before-and-after section."),
        "others_keys": "before_after",
        # TRANSLATORS: followed by the report.json key before_after in parentheses; {method}
        # is "paired t" or "bootstrap"
        "others_note": _(
            "The primary interval is the wider of the bootstrap and the paired t, here the "
            "{method}; both are tabled in the HTML report and report.json",
            method=method,
        )
        if method and len(rows) > 1
        else None,
    }


def _boot_label(report: Report) -> str:
    """The bootstrap's name: over blocks with a block column, else over rows."""
    column = report.data.block_column
    return _("block bootstrap (paired)") if column else _("bootstrap over rows (paired)")


def _boot_name(report: Report) -> str:
    """The bootstrap's name without "(paired)", as the primary interval's row names it."""
    column = report.data.block_column
    return _("block bootstrap") if column else _("bootstrap over rows")


def _block_part(report: Report, block: BlockNoise, charts: Collection[str]) -> dict[str, Any]:
    """The evaluation-sample part when there is a block line: its table, facts and charts."""
    conf = confidence(block.confidence)
    # one decimal count for the whole table: the primary interval's
    d = gap_decimals(block.gap, block.low, block.high)
    primary = block.primary or "bootstrap"
    return {
        "interval_rows": _block_rows(report, block, d) + _model_based_row(report, block, d),
        "block_facts": [
            Row(_("blocks"), count(block.blocks)),
            Row(_("confidence"), conf),
            Row(_("resamples"), count(block.resamples)),
            Row(
                _("primary interval"),
                _boot_name(report) if primary == "bootstrap" else _("paired t"),
            ),
            Row(_("interval excludes zero"), yes_no(block.excludes_zero)),
        ],
        "block_reason": None,
        "primary_reason": as_sentence(block.primary_reason) if block.primary_reason else None,
        "interval_figure": intervals_figure(report, block, charts, conf, d),
        "histogram_figure": histogram_figure(block, charts, conf, d),
    }


def _model_based_row(report: Report, block: BlockNoise, d: int) -> list[IntervalRow]:
    """The model-based interval (noise.budget.combined) as a row of the table of intervals:
    its ends are said there only, the budget line gives its plus or minus and terms."""
    b = report.noise.budget
    if not isinstance(b, Budget):
        return []
    return [
        _interval_row(
            _("model-based (seed and block terms)"),
            _(
                "the gap plus or minus the half-width of the seed and block terms together: a "
                "planning model, not a measurement"
            ),
            block.gap,
            b.combined,
            d,
        )
    ]


def _others_keys(report: Report) -> str:
    """The report.json keys of the intervals the PDF's note points to."""
    if report.noise.block is None:
        return "noise.interval"
    if isinstance(report.noise.budget, Budget):
        return "noise.block, noise.budget"
    return "noise.block"


def _others_note(report: Report) -> str:
    """The PDF's note under the evaluation line: where the other intervals of the test gap are
    (the line names the primary one and why)."""
    block = report.noise.block
    if block is None:
        return _("The interval's table is in the HTML report and report.json.")
    if isinstance(report.noise.budget, Budget):
        return _(
            "The other intervals of the test gap (Welch, two-level, model-based, per network) "
            "are tabled in the HTML report and report.json"
        )
    return _(
        "The other intervals of the test gap (Welch, two-level, per network) are tabled in the "
        "HTML report and report.json"
    )


def _block_rows(report: Report, block: BlockNoise, d: int) -> list[IntervalRow]:
    """The block line's intervals of the test gap, then one per candidate seed."""
    cand, base = names(report)
    words = repeat_words(report.project.repeats)
    column = report.data.block_column
    # the evaluation blocks as a plural noun in a gloss: "weeks"; in another language the
    # column's name stays as written, after the word for blocks ("блоки «week»")
    if column:
        blocks = plural_noun(column) if current() == "en" else _("blocks '{name}'", name=column)
    else:
        blocks = _("rows")
    glosses: list[tuple[str, str, Ends, bool, bool]] = [
        (
            _boot_label(report),
            _("resamples whole {blocks} with both models' rows kept together", blocks=blocks),
            block.bootstrap,
            block.bootstrap.low is not None,
            False,
        ),
        (
            _("paired t on block gaps"),
            _("a t interval on the gap of each of the {blocks}", blocks=blocks),
            block.t,
            block.t.low is not None,
            True,
        ),
        (
            _("unpaired Welch (what pairing buys)"),
            _(
                "treats the two models' scores as independent samples; how much wider it is "
                "than the paired t is what pairing buys"
            ),
            block.welch,
            block.welch.se is not None,
            True,
        ),
        (
            _("two-level bootstrap (blocks only: no seed level)")
            if one_network(block)
            else _("two-level bootstrap (seeds and blocks)"),
            _(
                "resamples {blocks} only: with one {unit} per model there is no seed level to "
                "resample",
                blocks=blocks,
                unit=unit_word(words.unit),
            )
            if one_network(block)
            else _(
                "resamples the {units}, then {blocks}: {moves} and the sample at once",
                units=_units_word(words.unit),
                blocks=blocks,
                moves=words.moves,
            ),
            block.two_level,
            block.two_level.low is not None,
            False,
        ),
    ]
    rows = [
        _interval_row(label, gloss, block.gap, part, d, tested)
        for label, gloss, part, present, tested in glosses
        if present
    ]
    one_base = block.networks.baseline == 1
    return rows + [
        _interval_row(
            _seed_label(words.unit, cand, base, str(s.seed), one_base),
            _("one {one}: the sample's noise only", one=words.one),
            s.gap,
            s,
            d,
        )
        for s in block.per_seed
    ]


def _units_word(unit: str) -> str:
    """The repeats as a plural noun in a sentence: networks, runs."""
    return {"network": p_("repeat", "networks"), "run": p_("repeat", "runs")}.get(
        unit, plural_noun(unit)
    )


def _seed_label(unit: str, cand: str, base: str, seed: str, one_base: bool) -> str:
    """The row of one candidate network: "mlp network seed 3 against the gbm seed mean"."""
    if unit == "run":
        if one_base:
            return _(
                "{candidate} run seed {seed} against the {baseline} run",
                candidate=cand,
                seed=seed,
                baseline=base,
            )
        return _(
            "{candidate} run seed {seed} against the {baseline} seed mean",
            candidate=cand,
            seed=seed,
            baseline=base,
        )
    if one_base:
        return _(
            "{candidate} network seed {seed} against the {baseline} network",
            candidate=cand,
            seed=seed,
            baseline=base,
        )
    return _(
        "{candidate} network seed {seed} against the {baseline} seed mean",
        candidate=cand,
        seed=seed,
        baseline=base,
    )


def _interval_row(
    label: str, gloss: str, gap: float | None, part: Ends, digits: int, tested: bool = False
) -> IntervalRow:
    """One interval for the test gap; p and standard error for the t-based (tested) ones."""
    return IntervalRow(
        label,
        gloss,
        with_sign(gap, digits),
        interval(part.low, part.high, digits=digits),
        pvalue(part.p) if isinstance(part, TTest | Welch) and tested else DASH,
        fixed(part.se, digits) if isinstance(part, TTest | Welch) and tested else DASH,
    )
