"""The report context: one dataclass per template section, every number formatted once, here.

Templates only print these strings and nothing here builds HTML. Every number goes through
reportgen.words.cells (the report's one number policy; a missing value is a dash). Chart SVG is not part of
the view: a Figure names its chart by key and the page gets the markup beside the view (see
render/html.py).

    parts.py         Figure, Row, Status and helpers the sections share
    summary.py       page one: title, claim, decision, ladder
    noise.py         seed noise and evaluation-sample noise
    cv.py            the same for a cross-validated comparison (retraining, resampling)
    threshold.py     threshold, cost and ranking
    calibration.py   reliability bins
    multiclass.py    confusion matrices, per-class recall, top-label and classwise calibration
    regression.py    errors, predicted against actual, residuals by block, errors by slice
    tasks.py         descriptions, and why a binary-only section is absent
    slices.py        slices, relevance and what was (never) measured
    before_after.py  before-after projects
    appendix.py      fairness; the appendix: evidence by rung, logged against recomputed,
                     warnings, provenance
    artefacts.py     paths, links to the project's files, artefact lists grouped by folder
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.view.appendix import (
    ComparisonRow,
    Fact,
    ProvenanceView,
    RungEvidence,
    WarningRow,
    comparisons_view,
    evidence_view,
    facts,
    provenance_view,
    warnings_view,
)
from reportgen.view.artefacts import link_prefix
from reportgen.view.before_after import BeforeAfterView, before_after_view
from reportgen.view.calibration import CalibrationView, calibration_view
from reportgen.view.cv import CvView, cv_view
from reportgen.view.multiclass import MulticlassView, multiclass_view
from reportgen.view.noise import NoiseView, noise_view
from reportgen.view.parts import Figure, Row, Status
from reportgen.view.regression import RegressionView, regression_view
from reportgen.view.slices import BoundsView, SlicesView, bounds_view, slices_view
from reportgen.view.summary import (
    ClaimView,
    DecisionView,
    Header,
    LadderRow,
    claim_view,
    decision_view,
    header_view,
    ladder_view,
)
from reportgen.view.tasks import AbsentView, absent_view
from reportgen.view.threshold import ThresholdView, threshold_view

__all__ = ["Figure", "ReportView", "Row", "Status", "build_view"]


@dataclass(frozen=True)
class TocEntry:
    """One line of the screen page's table of contents: a section's heading and its id."""

    anchor: str
    title: str


@dataclass(frozen=True)
class ReportView:
    """Everything templates/report.html prints, in reading order."""

    header: Header
    #: the sections of this report, for the screen page's table of contents (not printed)
    contents: list[TocEntry]
    claim: ClaimView
    decision: DecisionView
    ladder: list[LadderRow]
    noise: NoiseView
    #: the noise section of a cross-validated comparison (design = "cv"), else None
    cv: CvView | None
    threshold: ThresholdView | None
    calibration: CalibrationView | None
    multiclass: MulticlassView | None
    regression: RegressionView | None
    absent: AbsentView
    slices: SlicesView | None
    bounds: BoundsView
    fairness: list[Fact]
    #: the appendix's evidence: every rung's checks and all their artefacts
    evidence: list[RungEvidence]
    provenance: ProvenanceView
    before_after: BeforeAfterView | None
    warnings: list[WarningRow]
    comparisons: list[ComparisonRow]


def contents(report: dict) -> list[TocEntry]:
    """The sections the page prints, in order (the conditions of templates/report.html)."""
    model_pair = report["project"].get("kind") != "before-after"
    entries = [
        ("h-ladder", "The claim ladder", True),
        ("h-before-after", "Before and after", bool(report.get("before_after"))),
        ("h-noise", "Is it larger than noise?", True),
        ("h-threshold", "Threshold, cost and ranking", model_pair or bool(report.get("threshold"))),
        ("h-calibration", "Calibration", model_pair or bool(report.get("calibration"))),
        ("h-slices", "Slices and bounds", True),
        ("h-fairness", "Fairness of the comparison", True),
        ("h-appendix", "Appendix: evidence, warnings and provenance", True),
    ]
    return [TocEntry(a, t) for a, t, shown in entries if shown]


def build_view(report: dict, charts: Collection[str], links: str | None = None) -> ReportView:
    """The whole report context from the report dict and the keys of the charts it can draw.

    links: the relative path from the report's folder to the project's ("../" when the
    report sits in the project's report/ folder); None prints artefacts as plain text.
    """
    links = link_prefix(links)
    return ReportView(
        header=header_view(report),
        contents=contents(report),
        claim=claim_view(report),
        decision=decision_view(report),
        ladder=ladder_view(report, links),
        noise=noise_view(report, charts),
        cv=cv_view(report, charts),
        threshold=threshold_view(report, charts),
        calibration=calibration_view(report, charts),
        multiclass=multiclass_view(report, charts),
        regression=regression_view(report, charts),
        absent=absent_view(report),
        slices=slices_view(report, charts),
        bounds=bounds_view(report),
        fairness=facts(report.get("fairness") or [], report, links),
        evidence=evidence_view(report, links),
        provenance=provenance_view(report, links),
        before_after=before_after_view(report, charts),
        warnings=warnings_view(report),
        comparisons=comparisons_view(report, links),
    )
