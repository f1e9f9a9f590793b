"""Rung 2, fair, the facts read from the two models' runs: the same rows, features, split and
metric, an equal tuning budget, the test part opened once. checks.fairness gathers them with
the split's facts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import numpy as np

from reportgen.checks.orientation import part_name
from reportgen.checks.select import ModelRuns
from reportgen.checks.types import Evidence
from reportgen.project import Project
from reportgen.project.predictions import Predictions
from reportgen.project.runs import RunRow
from reportgen.words import count, count_noun, ratio
from reportgen.words.i18n import _

#: same rows, by split part
SAME_ROWS = {"validation": "same-rows-validation", "test": "same-rows-test"}
#: the same logged value for both models, by runs.csv column
SAME_COLUMN = {"features": "same-features", "split_id": "same-split-id"}
SAME_METRIC = "same-metric"
TUNING_BUDGET = "tuning-budget"
#: test opened once, by role
TEST_OPENED_ONCE = {
    "candidate": "test-opened-once-candidate",
    "baseline": "test-opened-once-baseline",
}


def _fact(id_: str, passed: bool | None, text: str, artefacts: list[str]) -> Evidence:
    return Evidence(id_, passed, text, tuple(artefacts))


def same_rows(cand: ModelRuns, base: ModelRuns) -> list[Evidence]:
    """Every network of both models scored on the same validation (test) rows."""
    import pandas as pd

    facts = []
    for part in ("validation", "test"):
        preds: dict[str, list[Predictions]] = {}
        for mr in (cand, base):
            scored = (s.val_pred if part == "validation" else s.test_pred for s in mr.seeds)
            preds[mr.role] = [p for p in scored if p is not None]
        if not (preds["candidate"] and preds["baseline"]):
            continue
        first = preds["candidate"][0]
        every = [p for v in preds.values() for p in v]
        keys = [p.keys for p in every]
        part_keys = first.part_keys
        if part_keys is not None and all(
            k is not None and p.part_keys is part_keys for p, k in zip(every, keys, strict=True)
        ):
            in_ref = np.zeros(len(part_keys), dtype=np.bool_)
            in_ref[first.keys] = True
            n_ref = len(first)
            same = all(
                len(p) == n_ref and in_ref[k].all() for p, k in zip(every, keys, strict=True)
            )
        else:
            ref = pd.Index(first.row_id)
            n_ref = len(ref)
            same = all(len(p) == n_ref and (ref.get_indexer(p.row_id) >= 0).all() for p in every)
        facts.append(
            _fact(
                SAME_ROWS[part],
                bool(same),
                _(
                    "both models scored on the same {rows}",
                    rows=count_noun(n_ref, "row", adjective=part_name(part)),
                )
                if same
                else _(
                    "{part} rows differ between the networks of {candidate} and {baseline}",
                    part=part_name(part),
                    candidate=cand.name,
                    baseline=base.name,
                ),
                sorted({p.path for p in every}),  # the files whose rows were compared
            )
        )
    return facts


def same_run_columns(rn: str, cand: ModelRuns, base: ModelRuns) -> list[Evidence]:
    """The run log's feature set and split id are the same for both models."""
    return run_column_facts(
        cand,
        base,
        lambda mr, col: {getattr(r, col) for r in mr.rows if r.ok and r.config == mr.config},
        [r.cite(rn) for mr in (cand, base) for r in mr.rows[:1]],
        _("analysed run"),
    )


class _Named(Protocol):
    """What run_column_facts reads of a model's runs (split ModelRuns or cv FoldRuns)."""

    @property
    def role(self) -> str: ...

    @property
    def name(self) -> str: ...


_Runs = TypeVar("_Runs", bound=_Named)


def run_column_facts(
    cand: _Runs,
    base: _Runs,
    values: Callable[[_Runs, str], set[str | None]],
    lines: list[str],
    what: str,
) -> list[Evidence]:
    """same-features and same-split-id: ``values(model, column)`` is the set of a model's
    logged values of that column over its analysed ``what`` rows, cited by ``lines``."""
    facts = []
    for col in ("features", "split_id"):
        vals = {mr.role: values(mr, col) for mr in (cand, base)}
        fid = SAME_COLUMN[col]
        features = col == "features"
        if any(None in v for v in vals.values()) or not all(vals.values()):
            text = (
                _(
                    "runs.csv has no {column} for every {what}: same feature set not shown",
                    column=col,
                    what=what,
                )
                if features
                else _(
                    "runs.csv has no {column} for every {what}: same split not shown",
                    column=col,
                    what=what,
                )
            )
            facts.append(_fact(fid, None, text, lines))
            continue
        same = vals["candidate"] == vals["baseline"] and len(vals["candidate"]) == 1
        value = next(iter(vals["candidate"]))
        differs = dict(
            candidate=cand.name,
            values_c=sorted(vals["candidate"], key=str),
            baseline=base.name,
            values_b=sorted(vals["baseline"], key=str),
        )
        if same:
            text = (
                _("same feature set for both models: {value}", value=value)
                if features
                else _("same split for both models: {value}", value=value)
            )
        else:
            text = (
                _(
                    "feature set differs: {candidate} {values_c}, {baseline} {values_b}",
                    **differs,
                )
                if features
                else _("split differs: {candidate} {values_c}, {baseline} {values_b}", **differs)
            )
        facts.append(_fact(fid, same, text, lines))
    return facts


def same_metric(project: Project, cand: ModelRuns, base: ModelRuns) -> Evidence:
    """The metric was recomputed by evreport for both models (not taken from the run log)."""
    metric = project.config.metric
    recomputed = all(any(s.test_pred or s.val_pred for s in mr.seeds) for mr in (cand, base))
    # what the metric was recomputed from: every predictions file of both models
    scored = {
        p.path for mr in (cand, base) for s in mr.seeds for p in (s.val_pred, s.test_pred) if p
    }
    return _fact(
        SAME_METRIC,
        True if recomputed else None,
        _("{metric} recomputed by evreport for both models from their predictions", metric=metric)
        if recomputed
        else _("{metric} taken from the run log: not recomputed for both models", metric=metric),
        sorted(scored) if recomputed else [],
    )


def tuning_budget(rn: str, cand: ModelRuns, base: ModelRuns) -> Evidence:
    """Both models tried a comparable number of configurations on validation (ratio at most 2)."""
    nc, nb = len(cand.val_configs), len(base.val_configs)
    if not (nc and nb):
        return _fact(TUNING_BUDGET, None, _("no validation rows to count configurations"), [])
    r = max(nc, nb) / min(nc, nb)
    lines = [r.cite(rn) for mr in (cand, base) for r in mr.rows if r.split == "validation"]
    return _fact(
        TUNING_BUDGET,
        r <= 2,
        tuning_words(nc, cand.name, nb, base.name, r),
        lines,
    )


def tuning_words(nc: int, cand: str, nb: int, base: str, r: float) -> str:
    """ "tuning budget: 3 configs for mlp, 2 for gbm on validation (ratio 1.50)"."""
    fields = dict(
        configs=count_noun(nc, "config"), candidate=cand, n_b=count(nb), baseline=base, r=ratio(r)
    )
    if r > 2:
        return _(
            "tuning budget: {configs} for {candidate}, {n_b} for {baseline} on validation "
            "(ratio {r}, unequal: above 2)",
            **fields,
        )
    return _(
        "tuning budget: {configs} for {candidate}, {n_b} for {baseline} on validation (ratio {r})",
        **fields,
    )


def test_opened_once(rn: str, cand: ModelRuns, base: ModelRuns) -> list[Evidence]:
    """Each model scored one configuration on test, each of its networks once (a second test
    row of one seed and config, a re-run after a tweak, is the test reused)."""
    facts = []
    for mr in (cand, base):
        n = len(mr.test_configs)
        tests = [r for r in mr.rows if r.split == "test" and r.ok]
        again = _reused(tests)
        if not n:
            text = _("{model} has no test rows", model=mr.name)
        elif n == 1 and not again:
            text = _("test opened once for {model} (one config scored)", model=mr.name)
        else:
            parts = (
                [
                    _(
                        "test opened {n} times for {model} ({configs} scored on test)",
                        n=count(n),
                        model=mr.name,
                        configs=count_noun(n, "config"),
                    )
                ]
                if n > 1
                else []
            )
            if again:
                first = again[0]
                others = (
                    _(
                        " and {networks} scored again",
                        networks=count_noun(len(again) - 1, "other network"),
                    )
                    if len(again) > 1
                    else ""
                )
                parts.append(
                    _(
                        "seed {seed} of {model} scored on test {n} times ({lines}){others}",
                        seed=first[0].seed,
                        model=mr.name,
                        n=count(len(first)),
                        lines=", ".join(r.cite(rn) for r in first),
                        others=others,
                    )
                )
            text = _("{problems}: the test number is validation-level", problems="; ".join(parts))
        facts.append(
            _fact(
                TEST_OPENED_ONCE[mr.role],
                (n == 1 and not again) if n else None,
                text,
                [r.cite(rn) for r in tests],
            )
        )
    return facts


def _reused(tests: list[RunRow]) -> list[list[RunRow]]:
    """The test rows of each network (one seed of one config) scored on test more than once,
    in file order, the earliest network first."""
    by_net: dict[tuple[str | None, int], list[RunRow]] = {}
    for r in sorted(tests, key=lambda r: r.line):
        by_net.setdefault((r.config, r.seed), []).append(r)
    return [rows for rows in by_net.values() if len(rows) > 1]
