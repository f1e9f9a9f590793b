"""Before and after: the summary, fixed and broken questions, the forgetting set."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.view.parts import Figure, Row, Status, chart_figure, metric_name, outcome, said
from reportgen.view.slices import READINGS as SPLIT_READINGS
from reportgen.view.slices import slice_reading
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
    yes_no,
)


@dataclass(frozen=True)
class BrokenRow:
    """A question that was right before and is wrong after."""

    id: str
    category: str
    text: str


@dataclass(frozen=True)
class SliceScoreRow:
    """One slice's accuracy before and after, its fixed and broken questions, and its reading."""

    slice: str
    questions: str
    before: str
    after: str
    fixed: str
    broken: str
    reading: str
    css: str
    required: str


@dataclass(frozen=True)
class BeforeAfterView:
    """partials/_before_after.html: summary, interval, slices, fixed/broken questions, forgetting."""

    summary: list[Row]
    interval_figure: Figure | None
    categories_figure: Figure | None
    forgetting_figure: Figure | None
    category_sentence: str | None
    broken: list[BrokenRow]
    general: list[Row]
    general_status: Status | None
    slices: list[SliceScoreRow]


def before_after_view(report: dict, charts: Collection[str]) -> BeforeAfterView | None:
    ba = report.get("before_after")
    if not ba:
        return None
    general = report.get("general")
    metric = metric_name(report)
    d = gap_decimals(ba.get("difference"), ba.get("low"), ba.get("high"))
    summary = [
        Row(f"{metric} before", prob(ba.get("before"))),
        Row(f"{metric} after", prob(ba.get("after"))),
        Row("difference (after − before)", with_sign(ba.get("difference"), d)),
        Row("interval", interval(ba.get("low"), ba.get("high"), digits=d)),
        _questions_row(ba.get("coverage"), ba.get("questions")),
        Row("fixed (wrong before, right after)", count(ba.get("fixed"))),
        Row("broken (right before, wrong after)", count(ba.get("broken"))),
        Row("McNemar exact p", pvalue(ba.get("mcnemar_p"))),
    ]
    broken = [
        BrokenRow(str(b.get("id")), str(b.get("category") or DASH), str(b.get("text") or DASH))
        for b in ba.get("broken_rows") or []
    ]
    if not broken:
        broken = [BrokenRow(str(i), DASH, DASH) for i in ba.get("broken_ids") or []]
    general_rows: list[Row] = []
    general_status = None
    if general:
        # the drop and its interval share one decimal count, as the check's sentence has them
        dg = gap_decimals(general.get("drop"), general.get("low"), general.get("high"))
        general_rows = [
            Row("general set before", prob(general.get("before"))),
            Row("general set after", prob(general.get("after"))),
            *_answered_rows(general.get("coverage")),
            Row("drop", change(general.get("drop"), dg)),
            Row(
                "interval of the drop", interval(general.get("low"), general.get("high"), digits=dg)
            ),
            Row("largest drop allowed", given(general.get("max_drop"))),
        ]
        n_general = ((report.get("data") or {}).get("parts") or {}).get(
            str(general.get("split") or "general")
        )
        if n_general:
            general_rows.append(Row("general-set rows", count(n_general)))
        if general.get("status") == "not shown":
            general_status = outcome(
                None,
                "held",
                "did not hold",
                "holding not shown: " + str(general.get("reason") or ""),
            )
        else:
            general_status = outcome(general.get("held"), "held", "did not hold", "not checked")
    interval_fig = chart_figure(
        charts,
        "before_after_interval",
        "The change in the frozen set's score with its interval. Look at whether the interval "
        "clears zero (and the smallest useful effect, when one is set).",
        f"Interval chart: difference {with_sign(ba.get('difference'), d)}, interval "
        f"{interval(ba.get('low'), ba.get('high'), digits=d)}.",
    )
    cat_fig = chart_figure(
        charts,
        "fixed_broken",
        "Questions fixed and broken, by category. Look at whether the broken ones are all one "
        "kind: that points to a specific regression rather than noise.",
        f"Bar chart: {count(ba.get('fixed'))} fixed, {count(ba.get('broken'))} broken; "
        + "".join(
            f"{what} by category: {_by_category(counts)}; "
            for what, counts in (
                ("fixed", ba.get("fixed_by_category")),
                ("broken", ba.get("broken_by_category")),
            )
            if counts is not None
        ).removesuffix("; ")
        + ".",
    )
    forget_fig = None
    if general:
        forget_fig = chart_figure(
            charts,
            "forgetting",
            "The general (forgetting) set before and after, each with its value, the rows it "
            "rests on and (for a proportion) its 95% interval; the dashed red line is the "
            "lowest score the allowed drop permits. Look at whether the after bar reaches it.",
            f"Bar chart: general set {said(prob(general.get('before')), 'not scored')} before, "
            f"{said(prob(general.get('after')), 'not scored')} after; allowed drop "
            f"{said(given(general.get('max_drop')), 'not set')}; "
            f"{general_status.word if general_status else 'not checked'}.",
        )
    return BeforeAfterView(
        summary=summary,
        interval_figure=interval_fig,
        categories_figure=cat_fig,
        forgetting_figure=forget_fig,
        category_sentence=ba.get("category_sentence"),
        broken=broken,
        general=general_rows,
        general_status=general_status,
        slices=[_slice_row(x) for x in report.get("slices") or []],
    )


def _questions_row(cov: dict | None, questions) -> Row:
    """How many questions the accuracies are on: "290 of 300" when a version left some out."""
    if not cov or cov.get("complete"):
        return Row("questions", count(questions))
    return Row(
        "questions both versions answered", f"{count(cov['both'])} of {count(cov['questions'])}"
    )


def _answered_rows(cov: dict | None) -> list[Row]:
    """Each version's general questions when they differ: its score is on these ("500 of 750")."""
    if not cov or cov.get("complete"):
        return []
    return [
        Row(
            f"general questions answered {role}",
            f"{count(cov[role]['answered'])} of {count(cov['questions'])}"
            + (f", and {count(cov[role]['outside'])} outside" if cov[role]["outside"] else ""),
        )
        for role in ("before", "after")
    ]


#: a slice's reading after tuning, by view.slices.slice_reading's key
READINGS = {
    **SPLIT_READINGS,
    "worse": ("worse after tuning", "not-shown"),
    "unshown": ("no worse: not shown", "not-shown"),
    "better": ("better after tuning", "shown"),
    "unclear": ("no clear change", "neutral"),
}


def _slice_row(s: dict) -> SliceScoreRow:
    """A slice in before-after words: worse or better after tuning, no worse within the margin."""
    reading, css = slice_reading(s, READINGS)
    return SliceScoreRow(
        slice=str(s["slice"]),
        questions=count(s.get("rows")),
        before=prob(s.get("before")),
        after=prob(s.get("after")),
        fixed=count(s.get("fixed")),
        broken=count(s.get("broken")),
        reading=reading,
        css=css,
        required=yes_no(s.get("required")),
    )


def _by_category(counts: dict) -> str:
    """{category: n} as "a 3, b 1", categories by name; "none" when empty (a sentence)."""
    return ", ".join(f"{k} {count(v)}" for k, v in sorted(counts.items())) or "none"
