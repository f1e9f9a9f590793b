"""A model against its baseline (kind = "model-vs-baseline"): the sections, the ladder, the decision.

compare() assembles them for any evaluation design; Split holds the split design's hooks and a
design that differs (checks/cv) overrides the ones it does its own way."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from reportgen.checks.classify import classification
from reportgen.checks.clipping import clipping_section
from reportgen.checks.data import data_section
from reportgen.checks.descriptions import descriptions_section
from reportgen.checks.evaluation import EvalData, build_eval
from reportgen.checks.fairness import fairness_facts
from reportgen.checks.ladder import RungResult, climb, fair_rung, supported
from reportgen.checks.model_vs_baseline import decision as dec
from reportgen.checks.model_vs_baseline import reconsider as rec
from reportgen.checks.model_vs_baseline.correct import correct_rung
from reportgen.checks.model_vs_baseline.rungs import (
    bounded_rung,
    noise_rung,
    primary_interval,
    relevant_rung,
)
from reportgen.checks.multiclass import class_order_warnings, class_orders, multiclass_section
from reportgen.checks.noise import budget_section, seed_section, slices_section
from reportgen.checks.noise_block import block_section
from reportgen.checks.noise_lines import (
    blocks_noun,
    lines,
    plan_sentence,
    repeat_words,
    test_decimals,
)
from reportgen.checks.recompute import comparisons, recompute_warnings
from reportgen.checks.regression import regression_section
from reportgen.checks.relevance import relevance
from reportgen.checks.report import claim
from reportgen.checks.results import split_results
from reportgen.checks.select import ModelRuns, select_runs
from reportgen.checks.sensitivity import sensitivity_section
from reportgen.checks.types import Evidence, Interval, Rung
from reportgen.errors import Problem
from reportgen.model.block import BlockNoise
from reportgen.model.budget import Budget
from reportgen.model.cv import CrossValidation as CvSection
from reportgen.model.data import Comparison, Data
from reportgen.model.enums import Verdict
from reportgen.model.multiclass import ClassOrder, Multiclass
from reportgen.model.noise import Noise, NoiseWithCv, SignDisagreement
from reportgen.model.ranking import Calibration, Ranking
from reportgen.model.regression import Regression
from reportgen.model.relevance import Description, Slice
from reportgen.model.results import ResultRow
from reportgen.model.seed import SeedNoise
from reportgen.model.threshold import Threshold
from reportgen.project import Project
from reportgen.words import count, gap, singular_noun, with_sign
from reportgen.words.i18n import _


def compute(project: Project) -> tuple[dict[str, Any], list[Problem]]:
    """Every section of report.json for a model against its baseline, and the warnings found."""
    return compare(project, Split)


@dataclass(frozen=True, slots=True)
class NoiseParts:
    """The parts of ``noise`` a design words its own way: its lines and what each covers, the
    sign disagreement, the budget (or why there is none) and, in a cv design, ``noise.cv``."""

    lines: tuple[str, ...]
    covers: tuple[str, ...]
    sign_disagreement: SignDisagreement | None
    budget: Budget | None
    budget_reason: str | None
    cv: CvSection | None = None


@dataclass(frozen=True, slots=True)
class TaskSections:
    """The sections of a multi-class or a regression task (None for the others)."""

    multiclass: Multiclass | None = None
    regression: Regression | None = None
    descriptions: list[Description] | None = None


class Split:
    """The split design's hooks into compare(); a design that differs overrides them (checks/cv)."""

    def __init__(self, project: Project, cand: ModelRuns, base: ModelRuns) -> None:
        self.project, self.cand, self.base = project, cand, base

    def comparisons(self) -> list[Comparison]:
        """The comparisons beyond each model's logged against recomputed values."""
        return []

    def seed(self) -> tuple[SeedNoise, list[Problem]]:
        """noise.seed and its warnings."""
        return seed_section(self.project, self.cand, self.base)

    def facts(self, facts: list[Evidence]) -> list[Evidence]:
        """The fairness facts, from the split design's."""
        return facts

    def interval(self, seed: SeedNoise, block: BlockNoise | None) -> Interval | None:
        """The interval rung 3 and relevance rest on."""
        return primary_interval(seed, block)

    def data(self, data: Data) -> Data:
        """The data section, from the split design's."""
        return data

    def not_tested(self, ev: EvalData | None) -> list[str]:
        """What the evidence never tested."""
        return not_tested(self.project, ev, self.cand, self.base)

    def results(self, ev: EvalData | None) -> list[ResultRow]:
        """report.json ``results``: each model's own figures on test and validation."""
        return split_results(self.project, self.cand, self.base, ev)

    def classification(
        self, ev: EvalData | None
    ) -> tuple[Threshold | None, Ranking | None, Calibration | None]:
        """The threshold, ranking and calibration sections (each model's test predictions)."""
        return classification(self.project, self.cand, self.base)

    def tasks(self, ev: EvalData | None) -> TaskSections:
        """The task sections (multi-class, regression, descriptions)."""
        return task_sections(self.project, ev, self.cand, self.base)

    def class_orders(self, tasks: TaskSections) -> dict[str, ClassOrder]:
        """Per role, the doubt that its p_ columns are named in the wrong order (rung 1)."""
        return class_orders(tasks.multiclass)

    def noise_rung(self, seed: SeedNoise, iv: Interval | None) -> RungResult:
        """Rung 3."""
        return noise_rung(self.project, seed, iv, self.scored)

    @cached_property
    def scored(self) -> list[str]:
        """The test split file and every test predictions file of both models: what the block
        interval and the slices were computed from."""
        test = self.project.manifest.part("test") if self.project.manifest else None
        return ([test.path] if test else []) + [
            s.test_pred.path for mr in (self.cand, self.base) for s in mr.seeds if s.test_pred
        ]

    def measured(self) -> list[str]:
        """The artefacts rung 5's bounds were measured on."""
        return measured_artefacts(self.project, self.cand, self.base)

    def noise(self, seed: SeedNoise, block: BlockNoise | None) -> NoiseParts:
        """noise's lines, covers, sign disagreement and budget (and noise.cv in a cv design)."""
        budget, budget_reason = budget_section(self.project, seed, block)
        noise_lines, covers = lines(self.project, seed, block, self.cand, self.base)
        return NoiseParts(
            lines=tuple(noise_lines),
            covers=tuple(covers),
            sign_disagreement=sign_disagreement(seed, block, self.project.config.unit_after),
            budget=budget,
            budget_reason=budget_reason,
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
        """What would reopen the decision."""
        budget = noise.budget if isinstance(noise.budget, Budget) else None
        plan = plan_sentence(self.project, budget, noise.block)
        return rec.reconsider(self.project, ladder, seed, iv, slices, verdict, plan, noise.block)


def compare(project: Project, design: type[Split]) -> tuple[dict[str, Any], list[Problem]]:
    """The sections and warnings of a candidate against its baseline in ``design``."""
    cfg = project.config
    cand, base = select_runs(project, "candidate"), select_runs(project, "baseline")
    d = design(project, cand, base)
    ev = build_eval(project, cand, base)
    comps = comparisons(project, [cand, base]) + d.comparisons()
    warnings = recompute_warnings(project, comps)
    seed, seed_warnings = d.seed()
    warnings += seed_warnings
    facts = d.facts(fairness_facts(project, cand, base))
    block = block_section(project, ev, seed)
    clipping, clip_warnings = clipping_section(project, ev, block, (cand, base))
    warnings += clip_warnings
    th, rk, cal = d.classification(ev)
    slices = slices_section(project, ev)
    iv = d.interval(seed, block)
    rel = relevance(project, iv, th)
    data = d.data(data_section(project, cand, base, ev))
    untested = d.not_tested(ev)
    tasks = d.tasks(ev)
    doubts = d.class_orders(tasks)
    warnings += class_order_warnings(doubts)
    doubt = doubts.get("candidate")
    ladder, checks = climb(
        correct_rung(project, cfg.candidate, comps, doubt.text if doubt else None),
        fair_rung(project, facts),
        d.noise_rung(seed, iv),
        relevant_rung(project, rel, slices, d.scored),
        bounded_rung(project, slices, data, untested, d.measured()),
    )
    sup = supported(ladder)
    decision = dec.decide(project, ladder, iv, sup, seed, rel)
    parts = d.noise(seed, block)
    noise = (Noise if parts.cv is None else NoiseWithCv)(
        seed=seed,
        block=block,
        lines=parts.lines,
        covers=parts.covers,
        interval=iv,
        sign_disagreement=parts.sign_disagreement,
        budget=parts.budget,
        budget_reason=parts.budget_reason,
        clipping=clipping,
        cv=parts.cv,
    )
    if parts.sign_disagreement is not None:
        reasons = (*decision.reasons, parts.sign_disagreement.text)
        decision = replace(decision, reasons=reasons)
    items = d.reconsider(ladder, seed, iv, slices, decision.verdict, noise)
    rewritten = dec.rewrite_claim(project, ladder, sup, iv, seed, rel, slices, data)
    sections = {
        "ladder": ladder,
        "claim": claim(project, rewritten, sup, items),
        "decision": decision,
        "results": d.results(ev),
        "checks": checks,
        "fairness": facts,
        "noise": noise,
        "relevance": rel,
        "threshold": th,
        "ranking": rk,
        "calibration": cal,
        "multiclass": tasks.multiclass,
        "regression": tasks.regression,
        "descriptions": tasks.descriptions,
        "slices": slices,
        "sensitivity": sensitivity_section(project),
        "data": data,
        "not_tested": untested,
        "comparisons": comps,
    }
    return sections, warnings


def task_sections(
    project: Project, ev: EvalData | None, cand: ModelRuns, base: ModelRuns
) -> TaskSections:
    """The sections of a multi-class or a regression task (None for the others)."""
    return TaskSections(
        multiclass=multiclass_section(project, cand, base),
        regression=regression_section(project, cand, base),
        descriptions=descriptions_section(project, ev, cand, base),
    )


def not_tested(
    project: Project, ev: EvalData | None, cand: ModelRuns, base: ModelRuns
) -> list[str]:
    """What the evidence never tested, most important first (rung 5's missing when nothing was)."""
    cfg = project.config
    out = []
    if ev is None:
        out.append(
            _("no per-row test predictions: the evaluation sample's noise was never measured")
        )
    else:
        if not cfg.block:
            out.append(
                _(
                    "no block column: every row is treated as an independent block (time or "
                    "group dependence untested)"
                )
            )
        elif cfg.block_kind == "period":
            out.append(
                _(
                    "{blocks} after {last} (drift beyond the test period)",
                    blocks=blocks_noun(cfg.block),
                    last=ev.blocks[-1],
                )
            )
        else:
            out.append(
                _(
                    "{blocks} other than the {n} measured (a new {block} may behave differently)",
                    blocks=blocks_noun(cfg.block),
                    n=count(len(ev.blocks)),
                    block=singular_noun(cfg.block),
                )
            )
        if ev.slices is None:
            out.append(_("no slice column: performance on segments was never tested"))
    if len(cand.seeds) < 5 or len(base.seeds) < 5:
        out.append(
            _(
                "fewer than 5 seeds per model ({n_c} and {n_b}): {noise} is coarsely measured",
                n_c=count(len(cand.seeds)),
                n_b=count(len(base.seeds)),
                noise=repeat_words(cfg).noise,
            )
        )
    if not any(r.split not in ("train", "validation", "test") for r in project.runs):
        out.append(_("no other evaluation set (e.g. a later period or another population)"))
    return out


def measured_artefacts(project: Project, cand: ModelRuns, base: ModelRuns) -> list[str]:
    """The test split and test predictions the slices and the period were measured on."""
    out = []
    test = project.manifest.part("test") if project.manifest else None
    if test is not None:
        out.append(test.path)
    for mr in (cand, base):
        out += [s.test_pred.path for s in mr.seeds if s.test_pred is not None][:1]
    return out


def sign_disagreement(
    seed: SeedNoise, block: BlockNoise | None, u: str = ""
) -> SignDisagreement | None:
    """The validation (seed-line) gap and the test (block-line) gap point in opposite directions
    (``u``: the unit after a number, Config.unit_after)."""
    v = seed.validation_gap
    t = block.gap if block is not None else None
    if seed.part != "validation" or v is None or t is None or v * t >= 0:
        return None
    return SignDisagreement(
        validation_gap=v,
        test_gap=t,
        text=(
            _(
                "validation and test disagree: the validation gap is {v}{unit} and the test gap "
                "{t}{unit} (opposite signs), so validation favours the candidate and test the "
                "baseline",
                v=gap(v),
                t=with_sign(t, test_decimals(block)),
                unit=u,
            )
            if v > 0
            else _(
                "validation and test disagree: the validation gap is {v}{unit} and the test gap "
                "{t}{unit} (opposite signs), so validation favours the baseline and test the "
                "candidate",
                v=gap(v),
                t=with_sign(t, test_decimals(block)),
                unit=u,
            )
        ),
    )
