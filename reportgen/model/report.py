"""report.json as one typed object: ``Report.from_json(data)`` and ``report.to_json()``."""

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
from reportgen.model.results import ResultRow
from reportgen.model.sensitivity import ModelSensitivity
from reportgen.model.threshold import Threshold


@dataclass(frozen=True, slots=True)
class Report(Model):
    """The whole report.json (schema evreport/1): the 27 top-level keys; a section that does not apply is None."""

    schema: Literal["evreport/1"] = key("the contract's version, always evreport/1")
    tool: Tool = key("the program that wrote the report")
    build: Build = key("when and how it was built")
    project: Project = key("what was compared")
    inputs: tuple[Input, ...] = key("every file read, sorted by path")
    ladder: tuple[Rung, ...] = key("the five rungs of the claim ladder, in order")
    claim: Claim = key("the claim as written and as supported")
    decision: Decision = key("the verdict and its reasons")
    results: tuple[ResultRow, ...] = key(
        "each model's own figures per part and metric: the results at a glance"
    )
    checks: tuple[FactCheck | Check, ...] = key("every individual check behind the ladder")
    fairness: tuple[Evidence, ...] = key("the rung-2 facts, in a fixed order")
    noise: NoiseWithCv | NoiseBeforeAfter | Noise = key(
        "seed and evaluation noise and the evaluation interval"
    )
    relevance: Relevance | None = key(
        "the interval against the useful effect; null without an evaluation interval"
    )
    threshold: Threshold | None = key(
        "per model; null without y/p predictions (always for multi-class and regression)"
    )
    ranking: Ranking | None = key("per model; null without y/p predictions")
    calibration: Calibration | None = key("per model; null without y/p predictions")
    multiclass: Multiclass | None = key(
        "multi-class tasks: one representative network per model on test; null for other tasks"
    )
    regression: Regression | None = key(
        "regression tasks: one representative network per model on test; null for other tasks"
    )
    descriptions: tuple[Description, ...] | None = key(
        "metrics that are not a mean of per-row values: each model's value and the gap with a block bootstrap that recomputes the metric; never the claim's metric"
    )
    slices: tuple[Slice, ...] | None = key("the gap per slice; null without a slice column")
    sensitivity: dict[str, ModelSensitivity] | None = key(
        "input sensitivity per model with a sensitivity check file, or null when none has one"
    )
    data: Data = key("what was measured")
    not_tested: tuple[str, ...] = key("what the evidence never tested")
    comparisons: tuple[Comparison, ...] = key(
        "every analysed run-log value beside its recomputed value (rung 1)"
    )
    before_after: BeforeAfter | None = key("before-after mode only, else null")
    general: General | None = key("before-after mode with a general set, else null")
    warnings: tuple[ReportWarning, ...] = key(
        "non-fatal input findings, in the order the build found them"
    )
    language: Literal["en", "uk"] = key(
        "the language of every text field; keys, ids, slugs and numbers never change with it"
    )
