"""Which fold runs are analysed: per model, one configuration's networks in each repeat and fold."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from reportgen.checks.select import failed_runs, left_out_line, run_value, threshold_for
from reportgen.project import Project
from reportgen.project.folds import FOLD_SPLIT
from reportgen.project.predictions import Predictions
from reportgen.project.runs import RunRow
from reportgen.words.i18n import _

#: (repeat, fold)
FoldKey = tuple[int, int]


@dataclass
class FoldNet:
    """One network trained on the other folds and scored on the held-out fold."""

    seed: int
    row: RunRow
    pred: Predictions | None
    value: float  # recomputed from the predictions when they exist, else logged
    source: str
    threshold: float


@dataclass
class FoldRuns:
    """One model's analysed fold runs: its networks by (repeat, fold), and what was left out."""

    role: str
    name: str
    config: str | None
    configs: list[str | None] = field(default_factory=list)
    nets: dict[FoldKey, list[FoldNet]] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)
    rows: list[RunRow] = field(default_factory=list)

    def seeds(self) -> list[int]:
        """Every seed label that trained a network on some fold, sorted."""
        return sorted({n.seed for nets in self.nets.values() for n in nets})


def fold_runs(project: Project, role: str) -> FoldRuns:
    """The analysed ``split = "fold"`` runs of one model: the configuration scored on the most
    folds (then the most rows, then the latest), one network per seed in each fold."""
    cfg = project.config
    name = getattr(cfg, role)
    rn = project.runs_name
    rows = [
        r
        for r in project.runs
        if r.model == name and r.metric == cfg.metric and r.split == FOLD_SPLIT
    ]
    out = FoldRuns(role, name, None, rows=rows)
    out.left_out += failed_runs(
        name, rows, lambda r: _fold_place(r.repeat or 1, r.fold, r.cite(rn))
    )
    ok = [r for r in rows if r.ok]
    count = Counter(r.config for r in ok)
    out.configs = sorted(count, key=lambda c: (c is None, str(c)))
    if not ok:
        return out
    folds_of = {c: {(r.repeat or 1, r.fold) for r in ok if r.config == c} for c in count}
    last = {c: max(r.line for r in ok if r.config == c) for c in count}
    out.config = max(count, key=lambda c: (len(folds_of[c]), count[c], last[c]))
    for c in out.configs:
        if c != out.config:
            first = min((r for r in ok if r.config == c), key=lambda r: r.line)
            out.left_out.append(
                _(
                    "{model} config {config} ({rows} fold rows from {first}): not the analysed "
                    "config {analysed}",
                    model=name,
                    config=repr(c),
                    rows=count[c],
                    first=first.cite(rn),
                    analysed=repr(out.config),
                )
            )
    threshold = threshold_for(project, None)  # no validation rows inside a fold
    for r in sorted(ok, key=lambda r: r.line):
        # loading refuses a fold row without its fold, and an ok row without its value
        if r.config != out.config or r.fold is None:
            continue
        key = (r.repeat or 1, r.fold)
        nets = out.nets.setdefault(key, [])
        if any(n.seed == r.seed for n in nets):
            out.left_out.append(
                left_out_line(
                    name,
                    r.seed,
                    _fold_place(key[0], key[1], r.cite(rn)),
                    _("a second network of this seed on this fold"),
                )
            )
            continue
        pred = project.predictions.get(r.predictions) if r.predictions else None
        v = run_value(project, r, pred, threshold)
        if v.value is not None:
            nets.append(FoldNet(r.seed, r, pred, v.value, v.source, threshold))
    return out


def _fold_place(repeat: object, fold: object, cite: str) -> str:
    """Where a fold run is: "repeat 1 fold 3, runs.csv:12"."""
    return _("repeat {repeat} fold {fold}, {cite}", repeat=repeat, fold=fold, cite=cite)
