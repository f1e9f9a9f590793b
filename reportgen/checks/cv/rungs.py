"""Rungs 2 and 3 of a cv design: the fairness facts of folds and the corrected interval."""

from __future__ import annotations

from typing import cast

from reportgen.checks.cv.gaps import FoldTable
from reportgen.checks.cv.lines import cv_digits
from reportgen.checks.cv.select import FoldRuns
from reportgen.checks.fairness import (
    PREDICTIONS_COVER_PARTS,
    SAME_COLUMN,
    SAME_METRIC,
    SPLIT_FACTS,
    TEST_OPENED_ONCE,
    TUNING_BUDGET,
)
from reportgen.checks.fairness_runs import run_column_facts
from reportgen.checks.ids import CheckId
from reportgen.checks.ladder import RungResult, rung
from reportgen.checks.model_vs_baseline.rungs import SEED_RULE
from reportgen.checks.orientation import noise_label, side_words, zero_words
from reportgen.checks.types import Check, Evidence, Interval
from reportgen.model.cv import CrossValidation
from reportgen.model.enums import IntervalSource, RungStatus
from reportgen.model.seed import SeedNoise
from reportgen.project import Project
from reportgen.words import count, count_noun, given, ratio, with_sign
from reportgen.words.i18n import _, n_

#: the fairness facts of the folds (report.json ``fairness[].id``), checked here
FOLDS_FROZEN = "folds-frozen"
SAME_FOLDS = "same-folds"
FOLD_PREDICTIONS_COVER_FOLDS = "fold-predictions-cover-folds"
FOLDS_DISJOINT = "folds-disjoint"
FOLDS_COVER_ROWS = "folds-cover-rows"
#: the fairness facts a cv design checks its own way (from the fold runs)
OWN_FACTS = (*SAME_COLUMN.values(), SAME_METRIC, TUNING_BUDGET)
#: split-design facts that hold in a cv design as they are
KEPT_FACTS = tuple(f for f in SPLIT_FACTS if f not in OWN_FACTS)
#: kept only when they checked something (a held-out test part)
ONLY_WHEN_MEASURED = (PREDICTIONS_COVER_PARTS, *TEST_OPENED_ONCE.values())
#: every fact of a cv design, in report.json order
CV_FACTS = (
    *KEPT_FACTS,
    FOLDS_FROZEN,
    SAME_FOLDS,
    FOLD_PREDICTIONS_COVER_FOLDS,
    FOLDS_DISJOINT,
    FOLDS_COVER_ROWS,
    *OWN_FACTS,
)
#: rung 3's check of a cv design beside the seed rule: the corrected interval excludes zero
CV_INTERVAL = CheckId("cv-interval-excludes-zero", 3)


def _fact(id_: str, passed: bool | None, text: str, artefacts: list[str]) -> Evidence:
    return Evidence(id_, passed, text, tuple(artefacts))


def cv_facts(
    project: Project,
    split_facts: list[Evidence],
    cand: FoldRuns,
    base: FoldRuns,
    table: FoldTable,
) -> list[Evidence]:
    """Rung 2 in a cv design: the split facts that apply, then the folds' own facts."""
    kept = [
        f
        for f in split_facts
        if f.id in KEPT_FACTS and not (f.id in ONLY_WHEN_MEASURED and f.passed is None)
    ]
    folds = project.folds
    fpath = folds.path if folds is not None else "split/folds.csv"
    arts = [fpath] if folds is not None else []
    out = kept + [_folds_frozen(project)]
    out.append(_same_folds(project, cand, base, table))
    covers = [g for g in table.gaps if g.covers is not None]
    bad = next((g for g in covers if g.covers is False), None)
    out.append(
        _fact(
            FOLD_PREDICTIONS_COVER_FOLDS,
            None if not covers else bad is None,
            _("no fold predictions checked against split/folds.csv")
            if not covers
            else _(
                "each fold's predictions cover exactly that fold's rows ({folds})",
                folds=count_noun(len(covers), "fold"),
            )
            if bad is None
            else cast(str, bad.cover_problem),  # a fold that does not cover says how
            arts,
        )
    )
    n = folds.rows if folds is not None else None
    out.append(
        _fact(
            FOLDS_DISJOINT,
            None if folds is None else True,
            _(
                "no row in two folds of one repeat ({repeats})",
                repeats=count_noun(len(folds.repeats), "repeat"),
            )
            if folds is not None
            else _("no split/folds.csv: which rows each fold held out is not shown"),
            arts,
        )
    )
    out.append(
        _fact(
            FOLDS_COVER_ROWS,
            None if folds is None else True,
            _("every one of the {rows} is in one fold of each repeat", rows=count_noun(n, "row"))
            if folds is not None
            else _("no split/folds.csv: that every row was held out once per repeat is not shown"),
            arts,
        )
    )
    out += _same_run_columns(project, cand, base)
    out.append(_same_metric(project, table))
    out.append(_tuning_budget(project, cand, base))
    return out


def _same_run_columns(project: Project, cand: FoldRuns, base: FoldRuns) -> list[Evidence]:
    """The run log's feature set and split id are the same for both models' analysed fold runs."""
    return run_column_facts(
        cand,
        base,
        lambda fr, col: {getattr(n.row, col) for nets in fr.nets.values() for n in nets},
        [r.cite(project.runs_name) for fr in (cand, base) for r in fr.rows[:1]],
        "analysed fold run",
    )


def _folds_frozen(project: Project) -> Evidence:
    """split/folds.csv is in the frozen-split manifest and matches it."""
    m, folds = project.manifest, project.folds
    if folds is None:
        return _fact(
            FOLDS_FROZEN,
            None,
            _(
                "no split/folds.csv: the fold assignment is not shown frozen before the runs "
                "(write it, `evreport freeze`, then train)"
            ),
            [],
        )
    entry = m.part("folds") if m is not None else None
    if m is None or entry is None:
        return _fact(
            FOLDS_FROZEN,
            False,
            _(
                "{path} is not in the frozen-split manifest: the fold assignment was not frozen",
                path=folds.path,
            ),
            [folds.path],
        )
    ok = bool(entry.hash_ok and entry.rows_ok)
    return _fact(
        FOLDS_FROZEN,
        ok,
        _(
            "the fold assignment {path} is frozen in the manifest ({created})",
            path=entry.path,
            created=m.created_text,
        )
        if ok
        else _("{path} differs from the frozen manifest (edited after freezing)", path=entry.path),
        [m.path, entry.path],
    )


def _same_folds(project: Project, cand: FoldRuns, base: FoldRuns, table: FoldTable) -> Evidence:
    """Both models on the same folds (checked on load) and, with predictions, the same rows."""
    rn = project.runs_name
    lines = [r.cite(rn) for fr in (cand, base) for r in fr.rows[:1]]
    measured = [g for g in table.gaps if g.same_rows is not None]
    bad = next((g for g in measured if not g.same_rows), None)
    folds = count_noun(len(table.gaps), "fold")
    if bad is not None:
        return _fact(
            SAME_FOLDS,
            False,
            _(
                "the networks of {candidate} and {baseline} scored different rows on repeat "
                "{repeat} fold {fold}",
                candidate=cand.name,
                baseline=base.name,
                repeat=bad.repeat,
                fold=bad.fold,
            ),
            lines,
        )
    text = (
        _("both models scored on the same {folds}, each fold on the same rows", folds=folds)
        if measured and len(measured) == len(table.gaps)
        else _(
            "both models scored on the same {folds} (rows not compared: the run log has no "
            "predictions for every fold)",
            folds=folds,
        )
    )
    return _fact(SAME_FOLDS, bool(table.gaps), text, lines)


def _same_metric(project: Project, table: FoldTable) -> Evidence:
    """The fold metric recomputed by evreport for both models from their fold predictions."""
    metric = project.config.metric
    from_pred = bool(table.gaps) and all(g.source == "predictions" for g in table.gaps)
    return _fact(
        SAME_METRIC,
        True if from_pred else None,
        _(
            "{metric} recomputed by evreport for both models from their fold predictions",
            metric=metric,
        )
        if from_pred
        else _(
            "{metric} taken from the run log for some folds: not recomputed for both models",
            metric=metric,
        ),
        [],
    )


def _tuning_budget(project: Project, cand: FoldRuns, base: FoldRuns) -> Evidence:
    """Both models tried a comparable number of configurations (fold and validation rows)."""
    rn = project.runs_name

    def configs(fr: FoldRuns) -> int:
        val = {
            r.config
            for r in project.runs
            if r.model == fr.name and r.split == "validation" and r.metric == project.config.metric
        }
        return len(set(fr.configs) | val)

    nc, nb = configs(cand), configs(base)
    if not (nc and nb):
        return _fact(TUNING_BUDGET, None, _("no fold rows to count configurations"), [])
    r = max(nc, nb) / min(nc, nb)
    fields = dict(
        configs=count_noun(nc, "config"),
        candidate=cand.name,
        n_b=count(nb),
        baseline=base.name,
        r=ratio(r),
    )
    return _fact(
        TUNING_BUDGET,
        r <= 2,
        _(
            "tuning budget: {configs} for {candidate}, {n_b} for {baseline} on the folds (ratio "
            "{r}, unequal: above 2)",
            **fields,
        )
        if r > 2
        else _(
            "tuning budget: {configs} for {candidate}, {n_b} for {baseline} on the folds (ratio "
            "{r})",
            **fields,
        ),
        [fr.rows[0].cite(rn) for fr in (cand, base) if fr.rows],
    )


def cv_interval(cv: CrossValidation) -> Interval | None:
    """The evidence of rung 3 in a cv design: the corrected resampled t interval."""
    c = cv.corrected
    if c.low is None or c.high is None or cv.gap is None:
        return None
    # English has always said "repeats" whatever the count: both English forms are the same
    what = n_(
        "{folds} in {n} repeats of {k}-fold cross-validation",
        "{folds} in {n} repeats of {k}-fold cross-validation",
        cv.repeats,
        folds=count_noun(cv.J, "held-out fold"),
        k=count(cv.folds),
    )
    return Interval(cv.gap, c.low, c.high, IntervalSource.CV_CORRECTED, "cross-validation", what)


def cv_noise_rung(
    project: Project, seed: SeedNoise, iv: Interval | None, cv: CrossValidation
) -> RungResult:
    """Rung 3: the mean fold gap clears the seed rule (within folds) and the corrected interval
    excludes zero in the candidate's favour."""
    cfg = project.config
    rule_ok = seed.passes
    excl = iv is not None and iv.above_zero
    arts = [project.folds.path] if project.folds is not None else [project.runs_name]
    arts += project.evidence.get("larger_than_noise", [])
    g = seed.validation_gap
    gap_text = _("no gap") if g is None else with_sign(g, cv_digits(cv))
    if seed.trivial:
        seed_text = (
            _(
                "cross-validation gap {gap}: both models have zero seed spread within folds, so "
                "the rule is trivially met",
                gap=gap_text,
            )
            if rule_ok
            else _(
                "cross-validation gap {gap}: both models have zero seed spread within folds, so "
                "the rule is trivially failed (the gap is not positive)",
                gap=gap_text,
            )
        )
    elif seed.gap_in_sd is not None:
        seed_text = _(
            "cross-validation gap {gap} is {sd} seed sd (within folds); the rule needs more "
            "than {bar}",
            gap=gap_text,
            sd=ratio(seed.gap_in_sd, signed=True),
            bar=given(cfg.seed_sd_multiple),
        )
    else:
        seed_text = _("seed rule not measured: {why}", why=seed.reason)
    measured = seed.gap_in_sd is not None or seed.trivial
    checks = [
        Check(
            SEED_RULE.id,
            3,
            rule_ok if measured else None,
            seed.gap_in_sd,
            cfg.seed_sd_multiple,
            tuple(arts[:1]),
            seed_text,
        ),
        Check(
            CV_INTERVAL.id,
            3,
            excl if iv is not None else None,
            iv.low if iv is not None else None,
            0.0,
            tuple(arts[:1]),
            _(
                "cross-validation interval {ends} over {what} {side}",
                ends=iv.ends,
                what=iv.what,
                side=side_words(iv),
            )
            if iv is not None
            else _(
                "no corrected interval: {why}",
                why=cv.reason or _("the fold gaps have no spread"),
            ),
        ),
    ]
    if rule_ok and excl:
        return rung(
            3,
            RungStatus.SHOWN,
            arts,
            None,
            _(
                "the gap clears the seed rule and the corrected cross-validation interval lies "
                "above zero"
            ),
        ), checks
    if not measured:
        missing = seed.reason or _("retraining noise unmeasured: fewer than 2 seeds per fold")
    elif not rule_ok:
        missing = checks[0].text
    elif iv is None:
        missing = _(
            "no corrected cross-validation interval ({why})", why=cv.reason or _("no spread")
        )
    else:
        missing = _(
            "the corrected cross-validation interval {ends} {where}",
            ends=iv.ends,
            where=zero_words(iv),
        )
    summary = noise_label(seed, iv, _("corrected interval"))
    return rung(
        3, RungStatus.PARTLY if (rule_ok or excl) else RungStatus.NOT_SHOWN, arts, missing, summary
    ), checks
