"""A model against its baseline by cross-validation (``[evaluation] design = "cv"``, methods.md
section 9): fold gaps, the corrected resampled t and the Bayesian correlated t; a held-out
test part, when there is one, is analysed as in the split design and shown as a third line.

select.py  the analysed fold runs of each model
gaps.py    the fold gaps (recomputed from predictions when every network has them)
noise.py   noise.cv and the seed line within folds
lines.py   the noise lines and the planning note, in words
classify.py threshold (cross-fitted), ranking and calibration from out-of-fold predictions
rungs.py   the fairness facts of folds and rung 3 on the corrected interval
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Any

from reportgen.checks.cv.classify import cv_classification
from reportgen.checks.cv.gaps import FoldTable, fold_table
from reportgen.checks.cv.lines import cv_line, planning_note, seed_line
from reportgen.checks.cv.noise import cv_section, cv_seed_section
from reportgen.checks.cv.results import cv_results
from reportgen.checks.cv.rungs import cv_facts, cv_interval, cv_noise_rung
from reportgen.checks.cv.select import FoldRuns, fold_runs
from reportgen.checks.diagnose import diagnose
from reportgen.checks.evaluation import EvalData
from reportgen.checks.ladder import RungResult
from reportgen.checks.model_vs_baseline import NoiseParts, Split, TaskSections, compare
from reportgen.checks.model_vs_baseline import reconsider as rec
from reportgen.checks.multiclass import FOLD_ACCURACY, pooled_class_order
from reportgen.checks.noise_lines import lines as split_lines
from reportgen.checks.recompute import agrees
from reportgen.checks.results import part_rows
from reportgen.checks.select import ModelRuns
from reportgen.checks.types import Evidence, Interval, Rung
from reportgen.errors import Problem
from reportgen.model.block import BlockNoise
from reportgen.model.common import SeedLists
from reportgen.model.cv import CrossValidation as CvSection
from reportgen.model.data import Comparison, Configs, CvData, Data
from reportgen.model.enums import Verdict
from reportgen.model.multiclass import ClassOrder
from reportgen.model.noise import Noise
from reportgen.model.ranking import Calibration, Ranking
from reportgen.model.relevance import Slice
from reportgen.model.results import ResultRow
from reportgen.model.seed import SeedNoise
from reportgen.model.threshold import Threshold
from reportgen.project import Project
from reportgen.words import count, count_noun
from reportgen.words.i18n import _, current, n_


def cv_covers() -> tuple[str, str]:
    """What each noise line of a cv design covers, in the language being written."""
    return (
        _(
            "Seed spread covers retraining within a fold: how much the fold's score moves when "
            "the same model is trained again on the same rows with another seed. It says nothing "
            "about which rows were held out."
        ),
        _(
            "Resampling covers which rows trained and tested each model: every repeat cuts the "
            "rows into folds again. The folds share most of their training rows, so their gaps "
            "are correlated: the corrected interval uses (1/J + n_test/n_train) × sd² where the "
            "naive one uses sd² / J, and the folds are never bootstrapped as if independent."
        ),
    )


def compute(project: Project) -> tuple[dict[str, Any], list[Problem]]:
    """Every section of report.json for a cross-validated comparison, and the warnings found."""
    return compare(project, CrossValidation)


class CrossValidation(Split):
    """The cv design's hooks: fold runs, the corrected interval, the seed line within folds."""

    def __init__(self, project: Project, cand: ModelRuns, base: ModelRuns) -> None:
        super().__init__(project, cand, base)
        self.fc, self.fb = fold_runs(project, "candidate"), fold_runs(project, "baseline")
        self.table = fold_table(project, self.fc, self.fb)

    @cached_property
    def cv(self) -> CvSection:
        """noise.cv with its planning note: computed on first use, whichever hook asks first."""
        cv = cv_section(self.project, self.table)
        return replace(cv, planning=replace(cv.planning, text=planning_note(self.project, cv)))

    def comparisons(self) -> list[Comparison]:
        return fold_comparisons(self.project, self.fc, self.fb)

    def seed(self) -> tuple[SeedNoise, list[Problem]]:
        return cv_seed_section(self.project, self.fc, self.fb, self.table), []

    def facts(self, facts: list[Evidence]) -> list[Evidence]:
        return cv_facts(self.project, facts, self.fc, self.fb, self.table)

    def interval(self, seed: SeedNoise, block: BlockNoise | None) -> Interval | None:
        return cv_interval(self.cv)

    def data(self, data: Data) -> Data:
        project = self.project
        parts = dict(data.parts)
        if project.folds is not None and "folds" in parts:
            parts["folds"] = project.folds.rows  # rows cross-validated, not file lines
        seeds = SeedLists(
            candidate=tuple(sorted({*data.seeds.candidate, *self.fc.seeds()}, key=str)),
            baseline=tuple(sorted({*data.seeds.baseline, *self.fb.seeds()}, key=str)),
        )
        configs = Configs(
            candidate=data.configs.candidate or self.fc.config,
            baseline=data.configs.baseline or self.fb.config,
        )
        cv = _data(project, self.fc, self.fb, self.table)
        return replace(data, parts=parts, seeds=seeds, configs=configs, cv=cv)

    def not_tested(self, ev: EvalData | None) -> list[str]:
        return not_tested(self.project, ev, self.fc, self.fb)

    def results(self, ev: EvalData | None) -> list[ResultRow]:
        """report.json ``results``: each model on the folds, then on a held-out test part."""
        rows = cv_results(self.project, self.fc, self.fb, self.table, self.cv.test_train_ratio)
        if ev is not None:
            rows += part_rows(self.project, (self.cand, self.base), "test", ev)
        return rows

    def classification(
        self, ev: EvalData | None
    ) -> tuple[Threshold | None, Ranking | None, Calibration | None]:
        """A held-out test part's figures as in the split design, else each repeat's
        out-of-fold predictions with the cross-fitted threshold (checks/cv/classify.py)."""
        if ev is not None:
            return super().classification(ev)
        return cv_classification(self.project, self.fc, self.fb)

    def tasks(self, ev: EvalData | None) -> TaskSections:
        """The held-out test part's task sections, as in the split design (none without it)."""
        return super().tasks(ev) if ev is not None else TaskSections()

    def class_orders(self, tasks: TaskSections) -> dict[str, ClassOrder]:
        """The split design's doubts on the test part, else those of the fold predictions."""
        found = super().class_orders(tasks)
        for role, fr in (("candidate", self.fc), ("baseline", self.fb)):
            preds = [n.pred for _, nets in sorted(fr.nets.items()) for n in nets]
            doubt = pooled_class_order(self.project, fr.name, preds, FOLD_ACCURACY)
            if role not in found and doubt is not None:
                found[role] = doubt
        return found

    def noise_rung(self, seed: SeedNoise, iv: Interval | None) -> RungResult:
        return cv_noise_rung(self.project, seed, iv, self.cv)

    def measured(self) -> list[str]:
        return measured(self.project, self.cand, self.base)

    def noise(self, seed: SeedNoise, block: BlockNoise | None) -> NoiseParts:
        project, cv = self.project, self.cv
        lines = [seed_line(project, seed, self.fc, self.fb, cv), cv_line(project, cv)]
        covers = list(cv_covers())
        if block is not None:
            test_lines, test_covers = split_lines(project, seed, block, self.cand, self.base)
            lines.append(test_lines[1])  # today's block line, for the test part scored once
            covers.append(test_covers[1])
        return NoiseParts(
            lines=tuple(lines),
            covers=tuple(covers),
            sign_disagreement=None,
            budget=None,
            budget_reason=_(
                "cross-validation design: the resampling line's planning note says what more "
                "repeats can do"
            ),
            cv=cv,
        )

    def reconsider(
        self,
        ladder: list[Rung],
        seed: SeedNoise,
        iv: Interval | None,
        slices: list[Slice] | None,
        verdict: Verdict,
        noise: Noise,
    ) -> list[str]:
        cv = self.cv
        plan = _plan_item(cv)
        items = rec.reconsider_items(self.project, ladder, seed, iv, slices, verdict, plan)
        return [_no_interval_item(cv) if i.id == rec.ItemId.NO_INTERVAL else i.text for i in items]


def fold_comparisons(project: Project, *models: FoldRuns) -> list[Comparison]:
    """Each analysed fold row's logged value beside the value recomputed from its predictions;
    one that disagrees carries its ``diagnosis``, as in the split design."""
    out = []
    rn = project.runs_name
    for fr in models:
        for (repeat, fold), nets in sorted(fr.nets.items()):
            for n in nets:
                logged = n.row.value
                if n.pred is None or logged is None or n.value is None:
                    continue
                agree = agrees(logged, n.value)
                out.append(
                    Comparison(
                        model=fr.name,
                        seed=n.seed,
                        split=n.row.split,
                        logged=logged,
                        logged_text=None,
                        recomputed=n.value,
                        agree=agree,
                        cite=n.row.cite(rn),
                        predictions=n.pred.path,
                        repeat=repeat,
                        fold=fold,
                        diagnosis=None
                        if agree
                        else diagnose(
                            project, logged, n.value, n.pred, n.threshold, n.row.value_text
                        ),
                    )
                )
    return out


def _plan_item(cv: CvSection) -> str | None:
    """The reconsider-when item of the planning note: the repeats it asks for, pointing to the
    note for its assumptions; None when no number of repeats is planned."""
    r = cv.planning.repeats_needed
    if r is None:
        return None
    return n_(
        "{n} repeat of {folds} folds is run (now {now}): the planning note in the noise "
        "section estimates the interval would then exclude zero",
        "{n} repeats of {folds} folds are run (now {now}): the planning note in the noise "
        "section estimates the interval would then exclude zero",
        r,
        folds=count(cv.folds),
        now=count(cv.repeats),
    )


def _no_interval_item(cv: CvSection) -> str:
    """What would give a cv design its corrected interval, and what it has now."""
    return _(
        "at least 3 fold gaps with spread give a corrected interval (now {gaps}: {why})",
        gaps=count_noun(cv.J, "fold gap"),
        why=cv.reason or _("no spread"),
    )


def _data(project: Project, fc: FoldRuns, fb: FoldRuns, table: FoldTable) -> CvData:
    """data.cv: the rows cross-validated, repeats, folds and seeds per model."""
    folds = project.folds
    return CvData(
        rows=folds.rows if folds is not None else None,
        repeats=table.repeats,
        folds=table.folds,
        fold_gaps=len(table.gaps),
        folds_file=folds.path if folds is not None else None,
        seeds=SeedLists(candidate=tuple(fc.seeds()), baseline=tuple(fb.seeds())),
        configs=Configs(candidate=fc.config, baseline=fb.config),
    )


def measured(project: Project, cand: ModelRuns, base: ModelRuns) -> list[str]:
    """The split files and predictions the bounds were measured on."""
    out = []
    for part in ("folds", "test"):
        found = project.manifest.part(part) if project.manifest else None
        if found is not None:
            out.append(found.path)
    for mr in (cand, base):
        out += [s.test_pred.path for s in mr.seeds if s.test_pred is not None][:1]
    return out


def not_tested(project: Project, ev: EvalData | None, fc: FoldRuns, fb: FoldRuns) -> list[str]:
    """What a cross-validated comparison never tested, most important first."""
    cfg = project.config
    rows = project.folds.rows if project.folds is not None else None
    out = [
        _(
            "data beyond the {rows} cross-validated: every fold is drawn from the same sample, "
            "so a later period or another population was never tested",
            rows=count_noun(rows, "row"),
        )
        if rows
        else _(
            "data beyond the cross-validated rows: every fold is drawn from the same sample, so "
            "a later period or another population was never tested"
        )
    ]
    if ev is None:
        out.append(_("no held-out test part scored once after cross-validation"))
    elif ev.slices is None:
        out.append(_("no slice column: performance on segments was never tested"))
    per_fold = min(
        (len(v) for fr in (fc, fb) for v in fr.nets.values()),
        default=0,
    )
    if per_fold < 5:
        out.append(
            _(
                "fewer than 5 seeds per fold ({smaller} for the smaller): retraining noise is "
                "coarsely measured",
                smaller=count(per_fold),
            )
        )
    if cfg.block:
        block = repr(cfg.block) if current() == "en" else "«" + cfg.block + "»"
        out.append(
            _("the block column {block} is used on the held-out test part only", block=block)
        )
    return out
