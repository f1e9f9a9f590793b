"""The report context: one dataclass per template section, every number formatted once, here.

Templates only print these strings and nothing here builds HTML. Every number goes through
reportgen.words.cells (the report's one number policy; a missing value is a dash). Chart SVG is not part of
the view: a Figure names its chart by key and the page gets the markup beside the view (see
render/html.py).

    parts.py         Figure, Row, Status and helpers the sections share
    summary.py       page one: title, claim, decision, ladder
    results.py       results at a glance: each model's own figures, the gap's interval once
    noise.py         seed noise and evaluation-sample noise
    cv.py            the same for a cross-validated comparison (retraining, resampling)
    threshold.py     threshold, cost and ranking
    calibration.py   reliability bins
    multiclass.py    confusion matrices, per-class recall, top-label and classwise calibration
    regression.py    errors, predicted against actual, residuals by block, errors by slice
    tasks.py         descriptions, and why a binary-only section is absent
    sensitivity.py   how each prediction moves with its inputs (locally)
    slices.py        slices, relevance and what was (never) measured
    before_after.py  before-after projects
    appendix.py      fairness; the appendix: evidence by rung, logged against recomputed,
                     warnings, provenance
    artefacts.py     paths, links to the project's files, artefact lists grouped by folder
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from reportgen.model import Report
from reportgen.model.enums import Kind
from reportgen.view.appendix import (
    ComparisonRow,
    Fact,
    ProvenanceView,
    RungEvidence,
    WarningRow,
    comparisons_sentence,
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
from reportgen.view.results import ResultsView, results_view
from reportgen.view.sensitivity import SensitivityView, sensitivity_view
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
from reportgen.words.i18n import _

__all__ = ["Figure", "ReportView", "Row", "Section", "Status", "build_view"]


def cv_absent() -> AbsentView:
    """What the threshold and calibration sections print in a cross-validated comparison without
    a held-out test part (with one, they say why as in the split design)."""
    return AbsentView(
        threshold=_(
            "Not computed: a cross-validated comparison scores each fold once; the threshold, "
            "cost, ROC and precision-recall are drawn on a held-out test part scored once after "
            "cross-validation, and this project has none."
        ),
        calibration=_(
            "Not computed: calibration is drawn on a held-out test part scored once after "
            "cross-validation, and this project has none."
        ),
    )


@dataclass(frozen=True)
class Section:
    """One section of the page, in page order: its heading's id and words, its partial and
    whether this report prints it."""

    anchor: str
    #: the section's heading (its h2)
    title: str
    partial: str
    present: bool
    #: the section's line in the table of contents when it is shorter than its title
    short: str | None = None
    #: listed in the screen page's table of contents
    listed: bool = True
    #: printed on page one (with the title block and the claim), not after it
    page_one: bool = False

    @property
    def toc(self) -> str:
        """The section's line in the table of contents: its short title, else its title."""
        return self.short or self.title


@dataclass(frozen=True)
class ReportView:
    """Everything templates/report.html prints, in reading order."""

    header: Header
    #: the page's sections in order, with their headings and presence (and the contents)
    sections: tuple[Section, ...]
    claim: ClaimView
    decision: DecisionView
    ladder: list[LadderRow]
    #: the results at a glance: each model's own figures per part and metric, and the gap's
    #: primary interval once (None when report.json's results is empty)
    results: ResultsView | None
    noise: NoiseView
    #: the noise section of a cross-validated comparison (design = "cv"), else None
    cv: CvView | None
    threshold: ThresholdView | None
    calibration: CalibrationView | None
    multiclass: MulticlassView | None
    regression: RegressionView | None
    #: what the threshold and calibration sections print when the report has neither
    absent: AbsentView
    #: each compared model's local input sensitivity (report.json ``sensitivity``); None
    #: without a sensitivity file, and then the section is not printed at all
    sensitivity: SensitivityView | None
    slices: SlicesView | None
    bounds: BoundsView
    fairness: list[Fact]
    #: the appendix's evidence: every rung's checks and all their artefacts
    evidence: list[RungEvidence]
    provenance: ProvenanceView
    before_after: BeforeAfterView | None
    warnings: list[WarningRow]
    comparisons: list[ComparisonRow]
    #: the logged-against-recomputed rows in one sentence, for the printed page: "22 of 22
    #: logged values agree with the values recomputed from their predictions"
    comparisons_said: str | None = None


def sections(report: Report, v: ReportView) -> tuple[Section, ...]:
    """The page's sections in order: which this report prints (by the sections ``v`` holds),
    with their headings; a comparison of two models prints the threshold and calibration
    sections even without them, saying why (``v.absent``)."""
    model_pair = report.project.kind != Kind.BEFORE_AFTER
    noise = "partials/_cv.html" if v.cv is not None else "partials/_noise.html"

    return (
        Section("h-ladder", _("The claim ladder"), "partials/_ladder.html", True, page_one=True),
        Section(
            "h-results",
            _("Results at a glance"),
            "partials/_results.html",
            v.results is not None,
        ),
        Section(
            "h-before-after",
            _("Before and after"),
            "partials/_before_after.html",
            v.before_after is not None,
        ),
        Section(
            "h-noise",
            _("Is it larger than noise?"),
            noise,
            True,
        ),
        Section(
            "h-threshold",
            _("Threshold, cost and ranking"),
            "partials/_threshold.html",
            model_pair or v.threshold is not None,
        ),
        Section(
            "h-calibration",
            _("Calibration"),
            "partials/_calibration.html",
            model_pair or v.calibration is not None,
        ),
        Section(
            "h-multiclass",
            _("Multi-class: confusion, recall and calibration"),
            "partials/_multiclass.html",
            v.multiclass is not None,
            listed=False,
        ),
        Section(
            "h-regression",
            _("Regression: errors, predicted against actual, residuals"),
            "partials/_regression.html",
            v.regression is not None,
            listed=False,
        ),
        Section(
            "h-slices",
            _("Slices and bounds: where the result stops holding"),
            "partials/_slices.html",
            True,
            short=_("Slices and bounds"),
        ),
        Section(
            "h-fairness",
            _("Fairness of the comparison"),
            "partials/_fairness.html",
            True,
        ),
        Section(
            "h-sensitivity",
            _("How each prediction moves with its inputs (locally)"),
            "partials/_sensitivity.html",
            v.sensitivity is not None,
            short=_("Input sensitivity"),
        ),
        Section(
            "h-appendix",
            _("Appendix: evidence, warnings and provenance"),
            "partials/_appendix.html",
            True,
        ),
    )


def build_view(report: Report, charts: Collection[str], links: str | None = None) -> ReportView:
    """The whole report context from the report and the keys of the charts it can draw.

    links: the relative path from the report's folder to the project's ("../" when the
    report sits in the project's report/ folder); None prints artefacts as plain text.
    """
    links = link_prefix(links)
    cv = cv_view(report, charts)
    view = ReportView(
        header=header_view(report),
        sections=(),
        claim=claim_view(report),
        decision=decision_view(report),
        ladder=ladder_view(report, links),
        results=results_view(report),
        noise=noise_view(report, charts),
        cv=cv,
        threshold=threshold_view(report, charts),
        calibration=calibration_view(report, charts),
        multiclass=multiclass_view(report, charts),
        regression=regression_view(report, charts),
        absent=cv_absent() if cv is not None and cv.test_line is None else absent_view(report),
        sensitivity=sensitivity_view(report, charts),
        slices=slices_view(report, charts),
        bounds=bounds_view(report),
        fairness=facts(report.fairness, report, links),
        evidence=evidence_view(report, links),
        provenance=provenance_view(report, links),
        before_after=before_after_view(report, charts),
        warnings=warnings_view(report),
        comparisons=comparisons_view(report, links),
        comparisons_said=comparisons_sentence(report),
    )
    return replace(view, sections=sections(report, view))
