"""Is it larger than noise, the evaluation-sample charts: the per-network and two-level
intervals, and the bootstrap distribution, each with its caption and its words."""

from __future__ import annotations

from collections.abc import Collection

from reportgen.model import Report
from reportgen.model.block import BlockNoise
from reportgen.view.parts import (
    Figure,
    chart_figure,
    metric_name,
    said,
)
from reportgen.words.cells import (
    count,
    interval,
    with_sign,
)
from reportgen.words.i18n import _, n_, p_
from reportgen.words.repeats import repeat_words


def one_network(block: BlockNoise) -> bool:
    """Each model's block line rests on one network."""
    return block.networks.candidate == 1 and block.networks.baseline == 1


def unit_word(unit: str) -> str:
    """One repeat as a noun in a sentence: network, run."""
    return {"network": p_("repeat", "network"), "run": p_("repeat", "run")}.get(unit, unit)


def intervals_figure(
    report: Report, block: BlockNoise, charts: Collection[str], conf: str, d: int
) -> Figure | None:
    """The eval_intervals chart: per-network, seed-averaged and two-level intervals."""
    words = repeat_words(report.project.repeats)
    one = one_network(block)
    lows = [s.low for s in block.per_seed if s.low is not None]
    clear = sum(1 for low in lows if low > 0)
    caption = (
        _(
            "The evaluation interval of the test gap with one {one} per model (black; grey, the "
            "same here: the candidate's one {unit}) and the two-level interval (blue), which "
            "here resamples blocks only: with one {unit} per model there is no seed level, so "
            "nothing here measures {noise}. Look at whether the intervals stay clear of zero.",
            one=words.one,
            unit=unit_word(words.unit),
            noise=words.noise,
        )
        if one
        else _(
            "One evaluation interval per {one} (grey) beside the seed-averaged interval (black) "
            "and the two-level interval that also resamples seeds (blue). Look at how far "
            "{moves} moves the centre, and whether the intervals stay clear of zero.",
            one=words.one_candidate,
            moves=words.moves,
        )
    )
    fields = {
        "metric": metric_name(report),
        "gap": said(with_sign(block.gap, d), _("not measured")),
        "confidence": conf,
        "interval": said(interval(block.low, block.high, digits=d), _("not computed")),
        "clear": count(clear),
    }
    n = len(lows)
    if words.unit == "run":
        description = (
            n_(
                "Dot-and-whisker chart of {metric} gaps on test. Gap {gap}, {confidence} "
                "interval {interval}; {clear} of {n} single-run intervals lie above zero.",
                "Dot-and-whisker chart of {metric} gaps on test. Gap {gap}, {confidence} "
                "interval {interval}; {clear} of {n} single-run intervals lie above zero.",
                n,
                **fields,
            )
            if one
            else n_(
                "Dot-and-whisker chart of {metric} gaps on test. Seed-averaged gap {gap}, "
                "{confidence} interval {interval}; {clear} of {n} single-run intervals lie "
                "above zero.",
                "Dot-and-whisker chart of {metric} gaps on test. Seed-averaged gap {gap}, "
                "{confidence} interval {interval}; {clear} of {n} single-run intervals lie "
                "above zero.",
                n,
                **fields,
            )
        )
    else:
        description = (
            n_(
                "Dot-and-whisker chart of {metric} gaps on test. Gap {gap}, {confidence} "
                "interval {interval}; {clear} of {n} single-network intervals lie above zero.",
                "Dot-and-whisker chart of {metric} gaps on test. Gap {gap}, {confidence} "
                "interval {interval}; {clear} of {n} single-network intervals lie above zero.",
                n,
                **fields,
            )
            if one
            else n_(
                "Dot-and-whisker chart of {metric} gaps on test. Seed-averaged gap {gap}, "
                "{confidence} interval {interval}; {clear} of {n} single-network intervals lie "
                "above zero.",
                "Dot-and-whisker chart of {metric} gaps on test. Seed-averaged gap {gap}, "
                "{confidence} interval {interval}; {clear} of {n} single-network intervals lie "
                "above zero.",
                n,
                **fields,
            )
        )
    return chart_figure(charts, "eval_intervals", caption, description)


def histogram_figure(
    block: BlockNoise, charts: Collection[str], conf: str, d: int
) -> Figure | None:
    """The bootstrap_histogram chart: the resampled mean gap and the quoted interval."""
    boot = block.bootstrap
    primary = block.primary or "bootstrap"
    bins = len(block.distribution.counts) if block.distribution is not None else 0
    both = primary != "bootstrap" and boot.low is not None
    if primary == "bootstrap":
        caption = _(
            "The spread of the resampled mean gap. The dashed lines bound the {confidence} "
            "interval the text quotes (the bootstrap's percentile interval). The red line is "
            "zero. Look at how much of the distribution lies on the wrong side of zero.",
            confidence=conf,
        )
    elif both:
        caption = _(
            "The spread of the resampled mean gap. The dashed lines bound the {confidence} "
            "interval the text quotes (the paired t interval, the wider of the two); the dotted "
            "lines the bootstrap's own percentile interval. The red line is zero. Look at how "
            "much of the distribution lies on the wrong side of zero.",
            confidence=conf,
        )
    else:
        caption = _(
            "The spread of the resampled mean gap. The dashed lines bound the {confidence} "
            "interval the text quotes (the paired t interval, the wider of the two). The red "
            "line is zero. Look at how much of the distribution lies on the wrong side of zero.",
            confidence=conf,
        )
    head = n_(
        "Histogram of {resamples} bootstrap means of the block gap ({n} bins); ",
        "Histogram of {resamples} bootstrap means of the block gap ({n} bins); ",
        bins,
        resamples=count(block.resamples),
    )
    if block.low is None or block.high is None:
        # TRANSLATORS: ends the histogram's description ("Histogram of ...; no interval.")
        tail = _("no interval.")
    else:
        quoted = interval(block.low, block.high, digits=d)
        if both:
            own = interval(boot.low, boot.high, digits=d)
            tail = (
                _(
                    "the quoted interval {quoted}, the bootstrap's {own}; zero outside it.",
                    quoted=quoted,
                    own=own,
                )
                if block.excludes_zero
                else _(
                    "the quoted interval {quoted}, the bootstrap's {own}; zero inside it.",
                    quoted=quoted,
                    own=own,
                )
            )
        else:
            tail = (
                _("the quoted interval {quoted}; zero outside it.", quoted=quoted)
                if block.excludes_zero
                else _("the quoted interval {quoted}; zero inside it.", quoted=quoted)
            )
    return chart_figure(charts, "bootstrap_histogram", caption, head + tail)
