"""Before and after: the rung-2 fact that both versions were evaluated alike, part by part."""

from __future__ import annotations

from reportgen.checks.fairness import SAME_COLUMN
from reportgen.checks.select import ModelRuns
from reportgen.checks.types import Evidence
from reportgen.project import Project
from reportgen.words.i18n import _, p_


def same_evaluation(project: Project, after: ModelRuns, before: ModelRuns) -> list[Evidence]:
    """Before and after: same-features, both versions evaluated alike as the run log records it
    (for imported eval logs the task, dataset, scorer and epochs), part by part: on each part
    both versions logged one and the same value. [] when no run of either version logged
    features: the frozen questions and the recomputed metric are then the comparison's only
    terms, and the fact is not counted."""
    rows = {mr.name: [r for r in mr.rows if r.ok] for mr in (after, before)}
    if not any(r.features for rs in rows.values() for r in rs):
        return []
    fid = SAME_COLUMN["features"]
    lines = [r.cite(project.runs_name) for rs in rows.values() for r in rs[:1]]
    parts = sorted({r.split for rs in rows.values() for r in rs}, key=lambda p: p != "test")
    said: list[tuple[str, str]] = []
    differs: list[str] = []
    unknown: list[str] = []
    for part in parts:
        vals = {name: {r.features for r in rs if r.split == part} for name, rs in rows.items()}
        if any(not v or None in v or "" in v for v in vals.values()):
            unknown.append(part)
        elif vals[after.name] == vals[before.name] and len(vals[after.name]) == 1:
            said.append((part, str(next(iter(vals[after.name])))))
        else:
            differs.append(
                f"{part}: {after.name} {sorted(vals[after.name], key=str)}, "
                f"{before.name} {sorted(vals[before.name], key=str)}"
            )
    if differs:
        text = _("feature set differs on {parts}", parts="; ".join(differs))
        return [Evidence(fid, False, text, tuple(lines))]
    if unknown:
        text = _(
            "runs.csv has no features for every run on {parts}: same feature set not shown",
            parts=", ".join(unknown),
        )
        return [Evidence(fid, None, text, tuple(lines))]
    by_value: dict[str, list[str]] = {}
    for part, value in said:
        by_value.setdefault(value, []).append(part)
    # TRANSLATORS: joins two part names (split names as the user wrote them): "test and general"
    word = p_("joins part names", "and")
    both = f" {word} "
    text = " | ".join(
        _("on {parts}: {features}", parts=both.join(ps), features=v) for v, ps in by_value.items()
    )
    return [
        Evidence(fid, True, _("same feature set for both versions {text}", text=text), tuple(lines))
    ]
