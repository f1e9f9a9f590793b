"""The fold gaps: per repeat and fold, the seed-averaged candidate against the seed-averaged baseline
on that fold's held-out rows (recomputed from predictions when every network has them)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from reportgen.checks.cv.select import FoldKey, FoldNet, FoldRuns
from reportgen.checks.select import row_metric
from reportgen.project import Project
from reportgen.project.predictions import Predictions
from reportgen.stats._util import FloatArray, IntArray
from reportgen.stats.cv import fold_gap
from reportgen.stats.metrics import gap as signed_gap
from reportgen.words.i18n import _


@dataclass
class FoldGap:
    """One fold's gap and what it rests on."""

    repeat: int
    fold: int
    gap: float | None
    #: rows the gap is measured on (the rows every network scored), None from the run log
    rows: int | None
    #: held-out rows (split/folds.csv, else the scored rows) and training rows of the fold
    n_test: int | None
    n_train: float | None
    source: str  # "predictions" or "run log"
    values: dict[str, list[float]]  # role -> the fold metric of each network
    #: every network of both models scored the same rows (None without predictions)
    same_rows: bool | None = None
    #: each predictions file holds exactly the fold's rows of split/folds.csv (None: unknown)
    covers: bool | None = None
    #: the first predictions file that does not, and how
    cover_problem: str | None = None
    #: where n_train comes from: "train_rows" (the run log), "folds.csv", or None (unknown)
    n_train_from: str | None = None


@dataclass
class FoldTable:
    """Every analysed fold gap, in (repeat, fold) order, and the folds left out."""

    gaps: list[FoldGap] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)

    @property
    def repeats(self) -> int:
        return len({g.repeat for g in self.gaps})

    @property
    def folds(self) -> int:
        """K: the folds of a repeat (the number of distinct fold numbers analysed)."""
        return len({g.fold for g in self.gaps})

    @property
    def source(self) -> str | None:
        kinds = {g.source for g in self.gaps}
        return None if not kinds else kinds.pop() if len(kinds) == 1 else "mixed"


def _positions(pred: Predictions, ids: list[str]) -> IntArray:
    """Row of each id in one predictions file (every id is there): plain dicts, folds are small."""
    where = {rid: i for i, rid in enumerate(pred.row_id.tolist())}
    return np.fromiter((where[i] for i in ids), dtype=np.int64, count=len(ids))


def _aligned(
    project: Project, nets: list[tuple[FoldNet, Predictions]], ids: list[str]
) -> FloatArray:
    """(S, n) per-row metric of the networks on the rows ``ids`` (every network has them)."""
    return np.vstack(
        [row_metric(project, pred, n.threshold)[_positions(pred, ids)] for n, pred in nets]
    ).astype(float)


def _from_predictions(
    project: Project, nets: dict[str, list[tuple[FoldNet, Predictions]]]
) -> tuple[float | None, int, bool]:
    """(gap, rows, same_rows) of one fold from every network's predictions."""
    every = [pred for v in nets.values() for _, pred in v]
    first = every[0].row_id.tolist()
    common = set(first)
    for pred in every[1:]:
        common &= set(pred.row_id.tolist())
    same = all(len(pred) == len(common) for pred in every)
    if not common:
        return None, 0, same
    ids = [i for i in first if i in common]  # the first file's order
    c = _aligned(project, nets["candidate"], ids)
    b = _aligned(project, nets["baseline"], ids)
    return fold_gap(c, b, higher_is_better=project.config.higher_is_better), len(ids), same


def _coverage(
    project: Project, key: FoldKey, nets: list[FoldNet]
) -> tuple[bool | None, str | None]:
    """Each predictions file of the fold holds exactly the fold's rows (split/folds.csv)."""
    folds = project.folds
    if folds is None or key not in folds.members:
        return None, None
    want = set(folds.members[key].tolist())
    for n in nets:
        if n.pred is None:
            continue
        got = set(n.pred.row_id.tolist())
        found = len(want & got)
        if found != len(want) or found != len(n.pred):
            return False, _(
                "{path}: {missing} of the {want} rows of repeat {repeat} fold {fold} missing, "
                "{extra} rows not in that fold",
                path=n.pred.path,
                missing=len(want) - found,
                want=len(want),
                repeat=key[0],
                fold=key[1],
                extra=len(n.pred) - found,
            )
    return True, None


def fold_table(project: Project, cand: FoldRuns, base: FoldRuns) -> FoldTable:
    """The fold gaps of the folds both models have networks on."""
    cfg = project.config
    out = FoldTable()
    keys = sorted(set(cand.nets) | set(base.nets))
    for key in keys:
        nets = {"candidate": cand.nets.get(key) or [], "baseline": base.nets.get(key) or []}
        if not nets["candidate"] or not nets["baseline"]:
            who = cand.name if not nets["candidate"] else base.name
            out.left_out.append(
                _(
                    "repeat {repeat} fold {fold}: no analysed network of {model} (failed or "
                    "another config), so the fold is left out for both models",
                    repeat=key[0],
                    fold=key[1],
                    model=who,
                )
            )
            continue
        every = nets["candidate"] + nets["baseline"]
        values = {role: [n.value for n in v] for role, v in nets.items()}
        covers, problem = _coverage(project, key, every)
        scored = {role: [(n, n.pred) for n in v if n.pred is not None] for role, v in nets.items()}
        gap: float | None
        rows: int | None
        same: bool | None
        if all(n.pred is not None for n in every):
            gap, rows, same = _from_predictions(project, scored)
            source = "predictions"
        else:
            means = {role: float(np.mean(v)) for role, v in values.items()}
            gap = float(signed_gap(means["candidate"], means["baseline"], cfg.higher_is_better))
            rows, same, source = None, None, "run log"
        n_test = project.folds.n_test(*key) if project.folds is not None else rows
        logged = [n.row.train_rows for n in every if n.row.train_rows is not None]
        if logged:
            n_train, n_train_from = float(np.mean(logged)), "train_rows"
        elif project.folds is not None:
            n_train, n_train_from = float(project.folds.n_train(*key)), "folds.csv"
        else:
            n_train, n_train_from = None, None
        out.gaps.append(
            FoldGap(
                key[0],
                key[1],
                gap,
                rows,
                n_test,
                n_train,
                source,
                values,
                same,
                covers,
                problem,
                n_train_from,
            )
        )
    return out
