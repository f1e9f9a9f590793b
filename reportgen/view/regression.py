"""Regression: MSE with RMSE beside it, MAE and R² per model, predicted against actual,
residuals by block and the errors by slice, every value in the target's unit with the
decimals of its scale (reportgen.words.target)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.view.parts import Figure, Row, chart_figure, names
from reportgen.view.tasks import description_rows
from reportgen.words import count_noun
from reportgen.words.cells import DASH, count, prob, target

#: most blocks the residual table lists (the chart draws every block)
MAX_BLOCK_ROWS = 40


@dataclass(frozen=True)
class ErrorRow:
    """One model's errors on test (the representative network, and the mean over seeds)."""

    model: str
    seed: str
    mse: str
    rmse: str
    mae: str
    r2: str
    mean_residual: str
    seeds_mse: str


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


def _unit(sec: dict, squared: bool = False) -> str:
    u = sec.get("unit")
    return f" {u}{'²' if squared else ''}" if u else ""


def _groups(sec: dict, key: str, scale: float | None) -> list[GroupRow]:
    c, b = sec["candidate"].get(f"by_{key}"), sec["baseline"].get(f"by_{key}")
    if not c or not b:
        return []
    other = {g[key]: g for g in b}
    rows = []
    for g in c:
        h = other.get(g[key], {})
        rows.append(
            GroupRow(
                str(g[key]),
                count(g["rows"]),
                target(g.get("mae"), scale),
                target(g.get("rmse"), scale),
                target(g.get("mean_residual"), scale),
                target(h.get("mae"), scale),
                target(h.get("rmse"), scale),
                target(h.get("mean_residual"), scale),
            )
        )
    return rows


def regression_view(report: dict, charts: Collection[str]) -> RegressionView | None:
    sec = report.get("regression")
    if not sec:
        return None
    cand, base = names(report)
    scale = (sec.get("target") or {}).get("sd") or 1.0
    models = []
    for role, name in (("candidate", cand), ("baseline", base)):
        m = sec[role]
        seeds = [s["mse"] for s in m.get("per_seed") or [] if s.get("mse") is not None]
        models.append(
            ErrorRow(
                f"{name} ({role})",
                str(m["seed"]),
                target(m.get("mse"), scale, squared=True),
                target(m.get("rmse"), scale),
                target(m.get("mae"), scale),
                prob(m.get("r2")),
                target(m.get("mean_residual"), scale),
                target(sum(seeds) / len(seeds), scale, squared=True) if seeds else DASH,
            )
        )
    u, u2 = _unit(sec), _unit(sec, squared=True)
    t = sec.get("target") or {}
    blocks = _groups(sec, "block", scale)
    shown = sec["candidate"]["points"]["shown"]
    return RegressionView(
        scatter_figure=chart_figure(
            charts,
            "predicted_actual",
            f"Predicted against actual on test{' (' + u.strip() + ')' if u else ''}: the dashed "
            "diagonal is a perfect prediction; points above it are predicted too high. "
            + (
                f"{count_noun(shown, 'row')} per model drawn, evenly spaced in the order of the "
                "actual value. "
                if shown < t.get("rows", shown)
                else ""
            )
            + "Look for a bend away from the diagonal at the ends: a model that shrinks "
            "towards the mean.",
            f"Scatter plots of predicted against actual values for {cand} and {base}.",
        ),
        residual_figure=chart_figure(
            charts,
            "residuals_by_block",
            "Mean residual (actual minus predicted) per block on test; zero is no bias. Look for "
            "a drift or a block far from zero: where a model is biased.",
            f"Mean residual per block for {cand} and {base}.",
        ),
        models=models,
        unit_note=(
            f"MSE in{u2}, the others in{u}"
            if u
            else "MSE in squared target units, the others in target units"
        )
        + "; residual = actual minus predicted.",
        slices=_groups(sec, "slice", scale),
        slice_column=sec.get("slice_column"),
        blocks=blocks[:MAX_BLOCK_ROWS],
        block_column=sec.get("block_column"),
        blocks_note=(
            f"The first {count(MAX_BLOCK_ROWS)} of {count_noun(len(blocks), 'block')}; the chart "
            "shows them all."
            if len(blocks) > MAX_BLOCK_ROWS
            else None
        ),
        summary=[
            Row(
                "target on test",
                f"mean {target(t.get('mean'), scale)}{u}, sd {target(t.get('sd'), scale)}{u}, "
                f"{target(t.get('min'), scale)} to {target(t.get('max'), scale)}{u} over "
                f"{count_noun(t.get('rows'), 'row')}",
            )
        ],
        descriptions=description_rows(report),
    )
