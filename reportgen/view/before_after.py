"""Before and after: the summary, fixed and broken questions, the forgetting set."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.before_after import BeforeAfter as BeforeAfterModel
from reportgen.model.before_after import Coverage, General
from reportgen.model.enums import GeneralStatus
from reportgen.view.parts import Figure, Row, Status, chart_figure, metric_name, outcome, said
from reportgen.words import gap_decimals
from reportgen.words.cells import (
    DASH,
    change,
    count,
    given,
    interval,
    prob,
    pvalue,
    with_sign,
)
from reportgen.words.i18n import _, p_


@dataclass(frozen=True)
class BrokenRow:
    """A question that was right before and is wrong after."""

    id: str
    category: str
    text: str


@dataclass(frozen=True)
class BeforeAfterView:
    """partials/_before_after.html: summary, interval, fixed/broken questions, forgetting (each
    slice's scores are in the slices section's one table, view.slices)."""

    summary: list[Row]
    interval_figure: Figure | None
    categories_figure: Figure | None
    forgetting_figure: Figure | None
    category_sentence: str | None
    broken: list[BrokenRow]
    general: list[Row]
    general_status: Status | None
    #: the project has slices: the section points to their table
    slices: bool


def _general_rows(report: Report, general: General) -> tuple[list[Row], Status]:
    """The general (forgetting) set before and after (unless Results at a glance has them), its
    drop against the allowed one, and whether it held."""
    # the drop and its interval share one decimal count, as the check's sentence has them
    dg = gap_decimals(general.drop, general.low, general.high)
    scores = [
        Row(_("general set before"), prob(general.before)),
        Row(_("general set after"), prob(general.after)),
    ]
    rows = [
        *([] if _in_results(report, "general") else scores),
        *_answered_rows(general.coverage),
        Row(_("drop"), change(general.drop, dg)),
        Row(_("interval of the drop"), interval(general.low, general.high, digits=dg)),
        Row(_("largest drop allowed"), given(general.max_drop)),
    ]
    n_general = report.data.parts.get(general.split)
    if n_general:
        rows.append(Row(_("general-set rows"), count(n_general)))
    held, failed = p_("general set", "held"), p_("general set", "did not hold")
    if general.status == GeneralStatus.NOT_SHOWN:
        status = outcome(
            None, held, failed, _("holding not shown: {reason}", reason=general.reason or "")
        )
    else:
        status = outcome(general.held, held, failed, p_("general set", "not checked"))
    return rows, status


def _answer_rows(ba: BeforeAfterModel) -> list[Row]:
    """Fixed, broken and McNemar's p; with repeated evaluations (epochs) each question's score is
    its mean over them, fixed and broken are the means that crossed one half, and no McNemar."""
    if ba.repeats is None:
        return [
            Row(_("fixed (wrong before, right after)"), count(ba.fixed)),
            Row(_("broken (right before, wrong after)"), count(ba.broken)),
            Row(_("McNemar exact p"), pvalue(ba.mcnemar_p)),
        ]
    reps = _(
        "{before} before, {after} after",
        before=count(ba.repeats.get("before", 1)),
        after=count(ba.repeats.get("after", 1)),
    )
    return [
        Row(_("epochs per question (score: their mean)"), reps),
        Row(_("fixed (mean below one half before, above after)"), count(ba.fixed)),
        Row(_("broken (mean above one half before, below after)"), count(ba.broken)),
        Row(_("McNemar exact p"), _("not computed: questions answered more than once")),
    ]


def before_after_view(report: Report, charts: Collection[str]) -> BeforeAfterView | None:
    """The before-after section; None for a model-vs-baseline project."""
    ba = report.before_after
    if ba is None:
        return None
    general = report.general
    metric = metric_name(report)
    d = gap_decimals(ba.difference, ba.low, ba.high)
    # each version's score on the frozen set is Results at a glance's, just above: not again
    scored = _in_results(report, "test")
    scores = [
        Row(_("{metric} before", metric=metric), prob(ba.before)),
        Row(_("{metric} after", metric=metric), prob(ba.after)),
    ]
    summary = [
        *([] if scored else scores),
        Row(_("difference (after − before)"), with_sign(ba.difference, d)),
        Row(_("interval"), interval(ba.low, ba.high, digits=d)),
        _questions_row(ba.coverage, ba.questions),
        *_answer_rows(ba),
    ]
    broken = [BrokenRow(b.id, b.category or DASH, b.text or DASH) for b in ba.broken_rows]
    if not broken:
        broken = [BrokenRow(i, DASH, DASH) for i in ba.broken_ids]
    general_rows: list[Row] = []
    general_status = None
    if general is not None:
        general_rows, general_status = _general_rows(report, general)
    interval_fig = chart_figure(
        charts,
        "before_after_interval",
        _(
            "The change in the frozen set's score with its interval. Look at whether the "
            "interval clears zero (and the smallest useful effect, when one is set)."
        ),
        _(
            "Interval chart: difference {difference}, interval {interval}.",
            difference=with_sign(ba.difference, d),
            interval=interval(ba.low, ba.high, digits=d),
        ),
    )
    by_category = []
    if ba.fixed_by_category is not None:
        by_category.append(
            _("fixed by category: {counts}", counts=_by_category(ba.fixed_by_category))
        )
    if ba.broken_by_category is not None:
        by_category.append(
            _("broken by category: {counts}", counts=_by_category(ba.broken_by_category))
        )
    bars = _(
        "Bar chart: {fixed} fixed, {broken} broken", fixed=count(ba.fixed), broken=count(ba.broken)
    )
    cat_fig = chart_figure(
        charts,
        "fixed_broken",
        _(
            "Questions fixed and broken, by category. Look at whether the broken ones are all "
            "one kind: that points to a specific regression rather than noise."
        ),
        "; ".join([bars, *by_category]) + ".",
    )
    forget_fig = None
    if general is not None:
        # said before the caption: Babel does not extract a message nested in another
        # function's call inside a message's arguments
        not_scored, not_set = _("not scored"), _("not set")
        forget_fig = chart_figure(
            charts,
            "forgetting",
            _(
                "The general (forgetting) set's drop after tuning (positive: worse) with its "
                "interval; the dashed red line is the allowed drop. It holds only when the whole "
                "interval lies left of that line."
            ),
            _(
                "Bar chart: general set {before} before, {after} after; allowed drop {allowed}; "
                "{status}.",
                before=said(prob(general.before), not_scored),
                after=said(prob(general.after), not_scored),
                allowed=said(given(general.max_drop), not_set),
                status=general_status.word if general_status else p_("general set", "not checked"),
            ),
        )
    return BeforeAfterView(
        summary=summary,
        interval_figure=interval_fig,
        categories_figure=cat_fig,
        forgetting_figure=forget_fig,
        category_sentence=ba.category_sentence,
        broken=broken,
        general=general_rows,
        general_status=general_status,
        slices=bool(report.slices),
    )


def _in_results(report: Report, part: str) -> bool:
    """Results at a glance gives each version's score on ``part`` in the claim's metric."""
    return any(r.part == part and r.metric == report.project.metric for r in report.results)


def _questions_row(cov: Coverage, questions: int) -> Row:
    """How many questions the accuracies are on: "290 of 300" when a version left some out."""
    if cov.complete:
        return Row(_("questions"), count(questions))
    return Row(
        _("questions both versions answered"),
        _("{k} of {n}", k=count(cov.both), n=count(cov.questions)),
    )


def _answered_rows(cov: Coverage | None) -> list[Row]:
    """Each version's general questions when they differ: its score is on these ("500 of 750")."""
    if cov is None or cov.complete:
        return []
    rows = []
    for label, side in (
        (_("general questions answered before"), cov.before),
        (_("general questions answered after"), cov.after),
    ):
        answered = _("{k} of {n}", k=count(side.answered), n=count(cov.questions))
        if side.outside:
            answered = _("{answered}, and {n} outside", answered=answered, n=count(side.outside))
        rows.append(Row(label, answered))
    return rows


def _by_category(counts: dict[str, int]) -> str:
    """{category: n} as "a 3, b 1", categories by name; "none" when empty (a sentence)."""
    return ", ".join(f"{k} {count(v)}" for k, v in sorted(counts.items())) or _("none")
