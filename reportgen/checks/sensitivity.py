"""report.json ``sensitivity`` (methods, input sensitivity): each compared model's figures from
its sensitivity check file, as the file holds them (a diagnostic; rung 1 cites its agreement)."""

from __future__ import annotations

from reportgen.model.sensitivity import (
    FeatureSensitivity,
    ModelSensitivity,
    SensitivityCheck,
)
from reportgen.project import Project
from reportgen.project.sensitivity import BadFile, Sensitivity, parse_sensitivity

#: the check files' kind
KIND = "sensitivity"


def _section(s: Sensitivity, path: str) -> ModelSensitivity:
    if s.reason is not None or s.check is None:
        return ModelSensitivity(
            rows=None,
            n_rows=None,
            task=None,
            gradient=None,
            features=None,
            check=None,
            reason=s.reason or "",
            artefact=path,
        )
    c = s.check
    return ModelSensitivity(
        rows="validation" if s.rows == "validation" else "test",
        n_rows=s.n_rows or 0,
        task="multiclass"
        if s.task == "multiclass"
        else ("regression" if s.task == "regression" else "binary"),
        gradient=s.gradient,
        features=tuple(
            FeatureSensitivity(
                name=f.name,
                unit=f.unit,
                mean=f.mean,
                median_abs=f.median_abs,
                share_positive=f.share_positive,
                share_saturated=f.share_saturated,
            )
            for f in s.features
        ),
        check=SensitivityCheck(
            eps=c.eps,
            relative_errors=c.relative_errors,
            max_relative_error=c.max_relative_error,
            excluded=c.excluded,
            passed=c.passed,
        ),
        reason=None,
        artefact=path,
    )


def sensitivity_section(project: Project) -> dict[str, ModelSensitivity] | None:
    """Per compared model (candidate first) its sensitivity from every readable sensitivity
    file: the first in path order whose finite differences disagree (the one rung 1 fails
    on, since any failing file fails it), else the first with figures, else the first (a
    tree's reason); None when neither model has one. An unreadable file was warned about when
    it loaded."""
    cfg = project.config
    out: dict[str, ModelSensitivity] = {}
    for model in dict.fromkeys((cfg.candidate, cfg.baseline)):
        read: list[ModelSensitivity] = []
        for c in sorted(project.checks, key=lambda c: c.path):
            if c.check != KIND or c.model != model:
                continue
            try:
                read.append(_section(parse_sensitivity(c.fields), c.path))
            except BadFile:
                continue
        if read:
            failing = [s for s in read if s.check is not None and not s.check.passed]
            figures = [s for s in read if s.features is not None]
            out[model] = (failing or figures or read)[0]
    return out or None
