"""The claim's names against the run log: its candidate, baseline and metric must be there,
and a near miss is named ("did you mean ...")."""

from __future__ import annotations

import difflib

from reportgen.errors import Problem, said, said_ids
from reportgen.project.config import Config
from reportgen.project.runs import RunRow
from reportgen.words.i18n import _


def check_claim_names(
    config: Config, runs: list[RunRow], cname: str, rname: str, problems: list[Problem]
) -> None:
    """The claim's models and metric must be in the run log (with the closest name if not)."""
    models = sorted({r.model for r in runs})
    for role in ("candidate", "baseline"):
        m = getattr(config, role)
        if m not in models:
            close = difflib.get_close_matches(m, models, n=1)
            words = {"key": f"claim.{role}", "value": said(m), "path": rname}
            models_there = said_ids(models)
            problems.append(
                Problem(
                    _(
                        "{key} = {value} is not a model in {path}; did you mean {close}? models "
                        "there: {models}",
                        close=said(close[0]),
                        models=models_there,
                        **words,
                    )
                    if close
                    else _(
                        "{key} = {value} is not a model in {path}; models there: {models}",
                        models=models_there,
                        **words,
                    ),
                    cname,
                    config.lines.get(f"claim.{role}"),
                    1,
                    slug="unknown-model",
                )
            )

    metrics = sorted({r.metric for r in runs})
    if config.metric not in metrics:
        close = difflib.get_close_matches(config.metric, metrics, n=1, cutoff=0.5)
        words = {"value": said(config.metric), "path": rname}
        metrics_there = ", ".join(said(m) for m in metrics[:20])
        problems.append(
            Problem(
                _(
                    "claim.metric = {value} is not a metric of any row in {path}; did you mean "
                    "{close}? metrics there: {metrics}",
                    close=said(close[0]),
                    metrics=metrics_there,
                    **words,
                )
                if close
                else _(
                    "claim.metric = {value} is not a metric of any row in {path}; metrics there: "
                    "{metrics}",
                    metrics=metrics_there,
                    **words,
                ),
                cname,
                config.lines.get("claim.metric"),
                1,
                slug="unknown-metric",
            )
        )
