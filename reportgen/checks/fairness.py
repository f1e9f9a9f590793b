"""Rung 2, fair: the frozen split verified, same rows, features, split and metric, equal tuning, test opened once."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import numpy as np

from reportgen.checks.fairness_runs import (
    SAME_COLUMN as SAME_COLUMN,
)
from reportgen.checks.fairness_runs import (
    SAME_METRIC as SAME_METRIC,
)
from reportgen.checks.fairness_runs import (
    SAME_ROWS as SAME_ROWS,
)
from reportgen.checks.fairness_runs import (
    TEST_OPENED_ONCE as TEST_OPENED_ONCE,
)
from reportgen.checks.fairness_runs import (
    TUNING_BUDGET as TUNING_BUDGET,
)
from reportgen.checks.fairness_runs import (
    same_metric,
    same_rows,
    same_run_columns,
    test_opened_once,
    tuning_budget,
)
from reportgen.checks.orientation import part_name
from reportgen.checks.select import ModelRuns
from reportgen.checks.types import Evidence
from reportgen.project import Project
from reportgen.project.runs import RunRow
from reportgen.words import count, count_noun
from reportgen.words.i18n import _, local_number

#: the fairness facts this module checks (report.json ``fairness[].id``; ladder.fair_rung makes
#: each the rung-2 check ``fair-<fact>``)
MANIFEST_VERIFIED = "manifest-verified"
FROZEN_BEFORE_RUNS = "frozen-before-runs"
RULE_BEFORE_RUNS = "rule-before-runs"
PARTS_DISJOINT = "parts-disjoint"
PREDICTIONS_COVER_PARTS = "predictions-cover-parts"
#: every fact of a model against its baseline on a split, in report.json order
SPLIT_FACTS = (
    MANIFEST_VERIFIED,
    FROZEN_BEFORE_RUNS,
    RULE_BEFORE_RUNS,
    PARTS_DISJOINT,
    PREDICTIONS_COVER_PARTS,
    *SAME_ROWS.values(),
    *SAME_COLUMN.values(),
    SAME_METRIC,
    TUNING_BUDGET,
    *TEST_OPENED_ONCE.values(),
)
#: the facts of one model against its own earlier version: one tuning run per version, so no
#: features, split ids, tuning budget or test-opened-once facts
BEFORE_AFTER_FACTS = (
    MANIFEST_VERIFIED,
    FROZEN_BEFORE_RUNS,
    RULE_BEFORE_RUNS,
    PARTS_DISJOINT,
    PREDICTIONS_COVER_PARTS,
    SAME_ROWS["test"],
    SAME_METRIC,
)


#: the first run: its start and its run-log row, or None when no run logs a start
FirstRun = tuple[datetime, RunRow] | None


def _fact(id_: str, passed: bool | None, text: str, artefacts: list[str]) -> Evidence:
    return Evidence(id_, passed, text, tuple(artefacts))


def fairness_facts(project: Project, cand: ModelRuns, base: ModelRuns) -> list[Evidence]:
    """Each rung-2 fact with its evidence (split/manifest.json, runs.csv:LINE), in a fixed order."""
    m, rn = project.manifest, project.runs_name
    mpath = m.path if m else project.paths.manifest
    starts = [(r.started_at, r) for r in project.runs if r.started_at is not None]
    first = min(starts, key=lambda t: (t[0], t[1].line)) if starts else None
    facts = [
        _manifest_verified(project, mpath),
        _frozen_before_runs(project, mpath, first),
        _rule_before_runs(project, first),
    ]
    ids_by_part = _SplitIds(project)
    if m is not None:
        facts.append(_parts_disjoint(ids_by_part, mpath))
    facts.append(_predictions_cover_parts(project, ids_by_part))
    facts += same_rows(cand, base)
    facts += same_run_columns(rn, cand, base)
    facts.append(same_metric(project, cand, base))
    facts.append(tuning_budget(rn, cand, base))
    facts += test_opened_once(rn, cand, base)
    return facts


def _manifest_verified(project: Project, mpath: str) -> Evidence:
    """Every split file matches the frozen manifest (sha256 and row count)."""
    m = project.manifest
    if m is None:
        return _fact(
            MANIFEST_VERIFIED,
            False,
            _(
                "no frozen-split manifest: the split was never frozen "
                "(run `evreport freeze` before training)"
            ),
            [],
        )
    bad = [f for f in m.files if not (f.hash_ok and f.rows_ok)]
    text = (
        _(
            "all {files} match the manifest (sha256 and row counts)",
            files=count_noun(len(m.files), "split file"),
        )
        if not bad
        else "; ".join(
            f"{f.path}: "
            + (
                _("sha256 differs (edited after freezing)")
                if not f.hash_ok
                else _(
                    "{rows}, manifest says {n}",
                    rows=count_noun(f.actual_rows, "row"),
                    n=count(f.rows),
                )
            )
            for f in bad
        )
    )
    return _fact(
        MANIFEST_VERIFIED,
        not bad and bool(m.files),
        text,
        [mpath] + [f.path for f in m.files],
    )


def _frozen_before_runs(project: Project, mpath: str, first: FirstRun) -> Evidence:
    """The split was frozen before the first run started (``first``: (start, run row) or None).

    Each time stands for the interval its precision leaves open (``10:00:00Z`` is some
    instant of that second): the order is shown only when the intervals do not overlap, so
    times cut to the same second never pass, and never fail, as if they were ordered.
    """
    m = project.manifest
    if m is None or m.created is None:
        return _fact(
            FROZEN_BEFORE_RUNS, None, _("no manifest creation time to compare with the runs"), []
        )
    if first is None:
        return _fact(
            FROZEN_BEFORE_RUNS,
            None,
            _("runs.csv has no started_at: cannot show the split was frozen before the first run"),
            [mpath],
        )
    start, row = first
    start_text = start.isoformat().replace("+00:00", "Z")
    arts = [mpath, row.cite(project.runs_name)]
    res_run = row.started_resolution or timedelta(0)
    if m.created + m.created_resolution <= start:
        ok = True
    elif start + res_run <= m.created:
        ok = False
    else:
        coarse = max(m.created_resolution, res_run)
        return _fact(
            FROZEN_BEFORE_RUNS,
            None,
            _(
                "split frozen {frozen} and the first run started {start}: written to "
                "{resolution}, these times do not show which came first (evreport freeze "
                "and Recorder write microseconds)",
                frozen=m.created_text,
                start=start_text,
                resolution=_duration(coarse),
            ),
            arts,
        )
    return _fact(
        FROZEN_BEFORE_RUNS,
        ok,
        _(
            "split frozen {frozen}, before the first run ({start})",
            frozen=m.created_text,
            start=start_text,
        )
        if ok
        else _(
            "split frozen {frozen}, AFTER the first run ({start})",
            frozen=m.created_text,
            start=start_text,
        ),
        arts,
    )


def _duration(d: timedelta) -> str:
    """A time resolution in words: "the second", "the millisecond", "0.01 s"."""
    # TRANSLATORS: a time resolution, after "written to" ("written to the second")
    named = {
        timedelta(days=1): _("the day"),
        timedelta(hours=1): _("the hour"),
        timedelta(minutes=1): _("the minute"),
        timedelta(seconds=1): _("the second"),
        timedelta(milliseconds=1): _("the millisecond"),
        timedelta(microseconds=1): _("the microsecond"),
    }
    if d in named:
        return named[d]
    return _("{seconds} s", seconds=local_number(f"{d.total_seconds():g}"))


def _rule_before_runs(project: Project, first: FirstRun) -> Evidence:
    """The decision rule was written on or before the first run's day (methods.md section 1): its
    order with the freeze does not matter, and a rule written before the split was frozen is
    pre-registered even earlier (said, never held against it)."""
    cfg, m = project.config, project.manifest
    if cfg.written is None:
        return _fact(
            RULE_BEFORE_RUNS,
            None,
            _("[rule] written is not set: the rule cannot be shown to predate the runs"),
            [],
        )
    wl = f"{project.paths.config}:{cfg.lines.get('rule.written', 1)}"
    if first is None:
        return _fact(
            RULE_BEFORE_RUNS,
            None,
            _(
                "decision rule written {written}, but runs.csv has no started_at: the rule "
                "cannot be shown to predate the first run",
                written=cfg.written,
            ),
            [wl],
        )
    ok = cfg.written <= first[0].date()
    text = (
        _(
            "decision rule written {written}, on or before the first run ({first})",
            written=cfg.written,
            first=first[0].date(),
        )
        if ok
        else _(
            "decision rule written {written}, AFTER the first run ({first})",
            written=cfg.written,
            first=first[0].date(),
        )
    )
    if m is not None and m.created is not None and cfg.written < m.created.date():
        text += _(
            "; it also predates the freeze ({frozen}): fixed even earlier, which is "
            "stronger, not a fairness failure",
            frozen=m.created.date(),
        )
    return _fact(RULE_BEFORE_RUNS, ok, text, [wl, first[1].cite(project.runs_name)])


def _parts_disjoint(ids_by_part: _SplitIds, mpath: str) -> Evidence:
    """No row_id sits in two parts of the split (the first clash named)."""
    clash = None
    parts = list(ids_by_part.parts)
    for a in range(len(parts)):
        for b in range(a + 1, len(parts)):
            if clash is None and ids_by_part.overlap(parts[a], parts[b]):
                hit = ids_by_part.index(parts[a]).intersection(ids_by_part.index(parts[b]))
                clash = (hit[0], parts[a], parts[b])
    return _fact(
        PARTS_DISJOINT,
        clash is None,
        _("no row_id sits in two parts")
        if clash is None
        else _(
            "row_id {id} is in both {a} and {b}",
            id=repr(clash[0]),
            a=repr(clash[1]),
            b=repr(clash[2]),
        ),
        [mpath],
    )


def _predictions_cover_parts(project: Project, ids_by_part: _SplitIds) -> Evidence:
    """Each predictions file scores exactly the rows of its split part."""
    cover_bad, cover_n = [], 0
    for pred in project.predictions.values():
        if pred.part not in ids_by_part.parts:
            continue
        cover_n += 1
        part_keys = pred.part_keys
        if (
            pred.keys is not None
            and part_keys is ids_by_part.keys.get(pred.part)
            and part_keys is not None
        ):
            wanted = len(part_keys)  # keys: unique ids, every one in the part
            found = len(pred)
        else:
            want = ids_by_part.index(pred.part)
            wanted = len(want)
            found = int((want.get_indexer(pred.row_id) >= 0).sum())  # row_ids are unique in both
        if found != wanted or found != len(pred):
            cover_bad.append(
                _(
                    "{path}: {rows} missing, {n} not in the part",
                    path=pred.path,
                    rows=count_noun(wanted - found, "row", adjective=part_name(pred.part)),
                    n=count(len(pred) - found),
                )
            )
    return _fact(
        PREDICTIONS_COVER_PARTS,
        (not cover_bad) if cover_n else None,
        (
            _(
                "each of {files} covers exactly its part's rows",
                files=count_noun(cover_n, "predictions file"),
            )
            if not cover_bad
            else "; ".join(cover_bad[:3])
        )
        if cover_n
        else _("no predictions checked against split files"),
        sorted({p.path for p in project.predictions.values()}),
    )


def fair_status(facts: list[Evidence]) -> tuple[str, str | None]:
    """shown when every fact passes; not shown without a verified manifest; partly otherwise."""
    manifest = next((f for f in facts if f.id == MANIFEST_VERIFIED), None)
    if manifest is None or not manifest.passed:
        return "not shown", manifest.text if manifest else _("no verified manifest")
    failing = [f for f in facts if f.passed is False]
    unknown = [f for f in facts if f.passed is None]
    if not failing and not unknown:
        return "shown", None
    return "partly", (failing or unknown)[0].text


class _SplitIds:
    """row_ids of each split part: keys where the part has them, else a hashed pandas Index (unique)."""

    def __init__(self, project: Project):
        self.rid = project.manifest.row_id if project.manifest else "row_id"
        self.frames = {p: f for p, f in project.split_frames.items() if self.rid in f.columns}
        self.parts = list(self.frames)
        self.keys = {p: k for p, k in project.part_keys.items() if k is not None}
        self._index: dict[str, Any] = {}

    def index(self, part: str) -> Any:
        """The part's ids as a unique pandas Index of stripped strings (built on first use)."""
        import pandas as pd

        if part not in self._index:
            col = self.frames[part][self.rid].astype(str).str.strip()
            self._index[part] = pd.Index(col.to_numpy(dtype=object)).unique()
        return self._index[part]

    def overlap(self, a: str, b: str) -> bool:
        """Whether an id sits in both parts."""
        if a in self.keys and b in self.keys:
            import pyarrow.compute as pc

            small, large = sorted((self.keys[a], self.keys[b]), key=len)
            if small.int_sorted is not None and large.int_sorted is not None:
                pos = np.searchsorted(large.int_sorted, small.int_sorted)
                pos = np.minimum(pos, len(large) - 1)
                return bool(len(large) and (large.int_sorted[pos] == small.int_sorted).any())
            # hash the smaller part's ids, look up the larger's
            return bool(pc.any(pc.is_in(large.sorted_text, value_set=small.sorted_text)).as_py())
        return len(self.index(a).intersection(self.index(b))) > 0
