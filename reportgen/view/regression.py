"""Regression: MSE with RMSE beside it, MAE and R² per model, predicted against actual,
residuals by block and the errors by slice, every value in the target's unit with the
decimals of its scale (reportgen.words.target)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.regression import BlockRow, Regression, RegressionModel, SliceRow
from reportgen.view.parts import Figure, Row, chart_figure, names
from reportgen.view.tasks import description_rows
from reportgen.words import count_noun
from reportgen.words.cells import count, target
from reportgen.words.i18n import _

#: most blocks the residual table lists (the chart draws every block)
MAX_BLOCK_ROWS = 40


@dataclass(frozen=True)
class ErrorRow:
    """One model's errors on test, of its representative network (the means over networks are
    in Results at a glance, R² in the descriptions line: each figure once)."""

    model: str
    seed: str
    mse: str
    rmse: str
    mae: str
    mean_residual: str


@dataclass(frozen=True)
class GroupRow:
    """One block or slice: rows and each model's MAE, RMSE and mean residual."""

    name: str
    rows: str
    candidate_mae: str
    candidate_rmse: str
    candidate_residual: str
    baseline_mae: str
    baseline_rmse: str
    baseline_residual: str


@dataclass(frozen=True)
class RegressionView:
    """partials/_regression.html: the regression section."""

    scatter_figure: Figure | None
    residual_figure: Figure | None
    models: list[ErrorRow]
    unit_note: str
    slices: list[GroupRow]
    slice_column: str | None
    blocks: list[GroupRow]
    block_column: str | None
    blocks_note: str | None
    summary: list[Row]
    descriptions: list[Row]


def _unit(sec: Regression, squared: bool = False) -> str:
    u = sec.unit
    return f" {u}{'²' if squared else ''}" if u else ""


def _name(g: BlockRow | SliceRow) -> str:
    """A group's name: its block or its slice."""
    return g.block if isinstance(g, BlockRow) else g.slice


def _groups(
    c: Sequence[BlockRow | SliceRow] | None,
    b: Sequence[BlockRow | SliceRow] | None,
    scale: float | None,
) -> list[GroupRow]:
    """Both models' errors per block (or slice), in the candidate's order."""
    if not c or not b:
        return []
    other = {_name(g): g for g in b}
    rows = []
    for g in c:
        h = other.get(_name(g))
        rows.append(
            GroupRow(
                _name(g),
                count(g.rows),
                target(g.mae, scale),
                target(g.rmse, scale),
                target(g.mean_residual, scale),
                target(h.mae if h else None, scale),
                target(h.rmse if h else None, scale),
                target(h.mean_residual if h else None, scale),
            )
        )
    return rows


def _error_row(label: str, m: RegressionModel, scale: float) -> ErrorRow:
    """One model's errors on test, of its representative network."""
    return ErrorRow(
        label,
        str(m.seed),
        target(m.mse, scale, squared=True),
        target(m.rmse, scale),
        target(m.mae, scale),
        target(m.mean_residual, scale),
    )


def regression_view(report: Report, charts: Collection[str]) -> RegressionView | None:
    """The regression section; None for other tasks."""
    sec = report.regression
    if sec is None:
        return None
    cand, base = names(report)
    t = sec.target
    scale = t.sd or 1.0
    models = [
        _error_row(_("{model} (candidate)", model=cand), sec.candidate, scale),
        _error_row(_("{model} (baseline)", model=base), sec.baseline, scale),
    ]
    u, u2 = _unit(sec), _unit(sec, squared=True)
    blocks = _groups(sec.candidate.by_block, sec.baseline.by_block, scale)
    shown = sec.candidate.points.shown
    head = (
        _("Predicted against actual on test ({unit})", unit=u.strip())
        if u
        else _("Predicted against actual on test")
    )
    # TRANSLATORS: after "Predicted against actual on test (mmHg)"
    scatter = head + _(
        ": the dashed diagonal is a perfect prediction; points above it are predicted too high. "
    )
    if shown < t.rows:
        scatter += _(
            "{rows} per model drawn, evenly spaced in the order of the actual value. ",
            rows=count_noun(shown, "row"),
        )
    scatter += _(
        "Look for a bend away from the diagonal at the ends: a model that shrinks towards the mean."
    )
    return RegressionView(
        scatter_figure=chart_figure(
            charts,
            "predicted_actual",
            scatter,
            _(
                "Scatter plots of predicted against actual values for {candidate} and {baseline}.",
                candidate=cand,
                baseline=base,
            ),
        ),
        residual_figure=chart_figure(
            charts,
            "residuals_by_block",
            _(
                "Mean residual (actual minus predicted) per block on test; zero is no bias. Look "
                "for a drift or a block far from zero: where a model is biased."
            ),
            _(
                "Mean residual per block for {candidate} and {baseline}.",
                candidate=cand,
                baseline=base,
            ),
        ),
        models=models,
        unit_note=(
            _(
                "MSE in {squared}, the others in {unit}; residual = actual minus predicted.",
                squared=u2.strip(),
                unit=u.strip(),
            )
            if u
            else _(
                "MSE in squared target units, the others in target units; residual = actual "
                "minus predicted."
            )
        ),
        slices=_groups(sec.candidate.by_slice, sec.baseline.by_slice, scale),
        slice_column=sec.slice_column,
        blocks=blocks[:MAX_BLOCK_ROWS],
        block_column=sec.block_column,
        blocks_note=(
            _(
                "The first {shown} of {blocks}; the chart shows them all.",
                shown=count(MAX_BLOCK_ROWS),
                blocks=count_noun(len(blocks), "block"),
            )
            if len(blocks) > MAX_BLOCK_ROWS
            else None
        ),
        summary=[
            Row(
                _("target on test"),
                _(
                    "mean {mean}, sd {sd} (n − 1), {low} to {high} over {rows}",
                    mean=target(t.mean, scale) + u,
                    sd=target(t.sd, scale) + u,
                    low=target(t.min, scale),
                    high=target(t.max, scale) + u,
                    rows=count_noun(t.rows, "row"),
                ),
            )
        ],
        descriptions=description_rows(report),
    )
