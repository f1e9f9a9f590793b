"""Log-loss clipping on test: rows scored p = 0 or 1 with the wrong label, and what they do to the gap.

Log loss clips p to [eps, 1 - eps] (float64 machine epsilon, as scikit-learn), so a row scored
0 or 1 with the wrong label costs -ln(eps) = 36.04 instead of infinity. Two such rows in 300
add 0.24 to a mean log loss: enough to flip a test gap. report.json ``noise.clipping`` counts
them per model and gives the gap without them; the noise section and a warning say so when
that changes the gap by more than a tenth of the interval's width.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import cast

from reportgen.checks.evaluation import EvalData
from reportgen.checks.noise_lines import repeat_words, test_decimals
from reportgen.checks.select import ModelRuns
from reportgen.errors import Problem
from reportgen.model.block import BlockNoise
from reportgen.model.budget import Clipping
from reportgen.model.common import IntPair
from reportgen.project import Project
from reportgen.stats._util import EPS, BoolArray, FloatArray
from reportgen.stats.metrics import gap as signed_gap
from reportgen.words import count, count_noun, fixed, metric, with_sign
from reportgen.words.i18n import _

#: the log loss of one row scored 0 or 1 with the wrong label, after clipping
CLIPPED_LOSS = -math.log(EPS)
#: clipping matters when it moves the gap by more than this share of the interval's width
SHARE_OF_WIDTH = 0.1


def clipped_rows(values: FloatArray) -> BoolArray:
    """(S, N) per-row log loss -> (S, N) True where the loss is the clipped one (p = 0 or 1 with
    the wrong label: no unclipped score reaches -ln(eps))."""
    return values >= CLIPPED_LOSS * (1 - 1e-12)


def clipping_section(
    project: Project,
    ev: EvalData | None,
    block: BlockNoise | None,
    models: tuple[ModelRuns, ModelRuns],
) -> tuple[Clipping | None, list[Problem]]:
    """report.json ``noise.clipping`` (None unless the metric is log loss on per-row test
    predictions) and the warning when clipping moves the test gap by more than a tenth of the
    interval's width."""
    cfg = project.config
    if cfg.metric != "log_loss" or ev is None or block is None or block.gap is None:
        return None, []
    hit = {role: clipped_rows(ev.values[role]) for role in ("candidate", "baseline")}
    per_model = {role: hit[role].any(axis=0) for role in hit}
    keep = ~(per_model["candidate"] | per_model["baseline"])
    gap = block.gap
    gap_without = (
        gap
        if keep.all()
        else float(
            signed_gap(
                ev.values["candidate"][:, keep].mean(axis=0).mean(),
                ev.values["baseline"][:, keep].mean(axis=0).mean(),
                cfg.higher_is_better,
            )
        )
        if keep.any()
        else None
    )
    low, high = block.low, block.high
    width = high - low if low is not None and high is not None else None
    change = gap_without - gap if gap_without is not None else None
    matters = bool(
        change is not None and width is not None and abs(change) > SHARE_OF_WIDTH * width
    )
    out = Clipping(
        eps=EPS,
        clipped_loss=CLIPPED_LOSS,
        rows=IntPair(
            candidate=int(per_model["candidate"].sum()),
            baseline=int(per_model["baseline"].sum()),
        ),
        rows_total=int(keep.size),
        rows_without=int(keep.sum()),
        gap=gap,
        gap_without=gap_without,
        change=change,
        interval_width=width,
        matters=matters,
        text=None,
    )
    if not matters:
        return out, []
    text = _sentence(project, out, block)
    path = _first_file(models, hit)
    return replace(out, text=text), [
        Problem(text, path, slug="log-loss-clipped", severity="warning")
    ]


def _sentence(project: Project, c: Clipping, block: BlockNoise) -> str:
    """The noise section's sentence when clipping matters (the gap without the clipped rows,
    its change and the interval's width are there)."""
    cfg = project.config
    d = test_decimals(block)
    n_c, n_b = c.rows.candidate, c.rows.baseline
    without, change, width = (
        cast(float, c.gap_without),
        cast(float, c.change),
        cast(float, c.interval_width),
    )
    flips = c.gap * without < 0
    fields = dict(
        rows_c=count_noun(n_c, "test row"),
        candidate=cfg.candidate,
        n_b=count(n_b),
        baseline=cfg.baseline,
        loss=metric(c.clipped_loss),
        rows=count_noun(c.rows_total - c.rows_without, "row"),
        without=with_sign(without, d),
        gap=with_sign(c.gap, d),
        other=_(" (the other sign)") if flips else "",
        change=with_sign(change, d),
        width=fixed(width, d),
    )
    if repeat_words(cfg).unit == "network":
        return _(
            "Log-loss clipping: {rows_c} of {candidate} and {n_b} of {baseline} have p = 0 or 1 "
            "with the wrong label (in at least one network), each clipped to a loss of {loss}; "
            "without those {rows} the test gap is {without} instead of {gap}{other}, a change of "
            "{change}, more than a tenth of the interval's width ({width}).",
            **fields,
        )
    return _(
        "Log-loss clipping: {rows_c} of {candidate} and {n_b} of {baseline} have p = 0 or 1 "
        "with the wrong label (in at least one run), each clipped to a loss of {loss}; "
        "without those {rows} the test gap is {without} instead of {gap}{other}, a change of "
        "{change}, more than a tenth of the interval's width ({width}).",
        **fields,
    )


def _first_file(models: tuple[ModelRuns, ModelRuns], hit: dict[str, BoolArray]) -> str:
    """The first test predictions file with a clipped row (the warning's place)."""
    for mr in models:
        files = [s.test_pred.path for s in mr.seeds if s.test_pred is not None]
        for path, rows in zip(files, hit[mr.role], strict=False):
            if rows.any():
                return path
    return "runs.csv"
