"""report.json `report`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reportgen.model.base import Model, key
from reportgen.model.before_after import BeforeAfter, General
from reportgen.model.data import Comparison, Data, ReportWarning
from reportgen.model.header import Build, Input, Project, Tool
from reportgen.model.ladder import Check, Claim, Decision, Evidence, FactCheck, Rung
from reportgen.model.multiclass import Multiclass
from reportgen.model.noise import Noise, NoiseBeforeAfter, NoiseWithCv
from reportgen.model.ranking import Calibration, Ranking
from reportgen.model.regression import Regression
from reportgen.model.relevance import Description, Relevance, Slice
from reportgen.model.threshold import Threshold


@dataclass(frozen=True, slots=True)
class Report(Model):
    """report"""

    schema: Literal["evreport/1"]
    tool: Tool
    build: Build
    project: Project
    inputs: tuple[Input, ...]
    ladder: tuple[Rung, ...]
    claim: Claim
    decision: Decision
    checks: tuple[FactCheck | Check, ...]
    fairness: tuple[Evidence, ...]
    noise: NoiseWithCv | NoiseBeforeAfter | Noise
    relevance: Relevance | None
    threshold: Threshold | None
    ranking: Ranking | None
    calibration: Calibration | None
    multiclass: Multiclass | None = key(
        "multi-class tasks: one representative network per model on test; null for other tasks"
    )
    regression: Regression | None = key(
        "regression tasks: one representative network per model on test; null for other tasks"
    )
    descriptions: tuple[Description, ...] | None = key(
        "metrics that are not a mean of per-row values: each model's value and the gap with a block bootstrap that recomputes the metric; never the claim's metric"
    )
    slices: tuple[Slice, ...] | None
    data: Data
    not_tested: tuple[str, ...]
    comparisons: tuple[Comparison, ...]
    before_after: BeforeAfter | None
    general: General | None
    warnings: tuple[ReportWarning, ...]
