"""Cross-validation inputs: split/folds.csv (row_id, repeat, fold) and the run log's fold rows.

Every problem names its file, line and column: a row in two folds of one repeat, a row in no
fold of a repeat, a fold without rows, fold numbers that differ between the models, a model
missing a fold (methods.md section 9, project-format.md).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

import numpy as np

from reportgen.errors import Problem, said, said_ids
from reportgen.project.runs import RunRow
from reportgen.project.tables import (
    cannot_read_on,
    cell_problem,
    column_of,
    line_of,
    stripped_text,
)
from reportgen.words import count
from reportgen.words.i18n import _, n_, p_

#: the split part of split/folds.csv, and the runs.csv split of a held-out fold's scores
FOLDS_PART = "folds"
FOLD_SPLIT = "fold"
#: problems of one kind reported before the rest are only counted
MAX_EACH = 3


@dataclass
class Folds:
    """split/folds.csv read: which rows each fold of each repeat holds out."""

    path: str
    #: (repeat, fold) -> the row ids it holds out (stripped strings), in file order
    members: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    #: (repeat, fold) -> the file line of its first row
    lines: dict[tuple[int, int], int] = field(default_factory=dict)
    #: distinct row ids over the whole file
    rows: int = 0

    @property
    def repeats(self) -> list[int]:
        return sorted({r for r, _ in self.members})

    @property
    def folds(self) -> list[int]:
        return sorted({k for _, k in self.members})

    def n_test(self, repeat: int, fold: int) -> int:
        return len(self.members.get((repeat, fold), ()))

    def n_train(self, repeat: int, fold: int) -> int:
        """Rows of the repeat outside the fold: what trained the fold's model."""
        return self.rows - self.n_test(repeat, fold)


def _integers(frame, column: str, name: str, problems: list[Problem]) -> np.ndarray | None:
    """A repeat or fold column as int64 (whole numbers from 1), or None after naming bad cells."""
    import pandas as pd

    text = stripped_text(frame[column])
    ok = text.str.fullmatch(r"[0-9]{1,9}")
    values = pd.to_numeric(text.where(ok, "0")).to_numpy(dtype=np.int64)
    bad = np.flatnonzero(values < 1)
    for i in bad[:MAX_EACH]:
        message = _(
            "{column} = {value} is not a whole number from 1",
            column=column,
            value=said(text.iloc[int(i)]),
        )
        problems.append(cell_problem(frame, i, column, message, name, "bad-value"))
    return None if bad.size else values


def parse_folds(frame, name: str, row_id: str, problems: list[Problem]) -> Folds | None:
    """Check split/folds.csv and return its folds: every row in exactly one fold of each repeat,
    folds numbered 1 to K in every repeat."""
    before = len(problems)
    missing = [c for c in (row_id, "fold") if c not in frame.columns]
    message = (
        _(
            "split/folds.csv needs the columns {needed}; missing {missing}",
            needed=said_ids((row_id, "repeat", "fold")),
            missing=said_ids(missing),
        )
        if missing
        else None
    )
    if cannot_read_on(frame, name, message, problems):
        return None
    ids = stripped_text(frame[row_id]).to_numpy(dtype=object)
    for i in np.flatnonzero(ids == "")[:MAX_EACH]:
        problems.append(
            cell_problem(
                frame, i, row_id, _("{column} is empty", column="row_id"), name, "empty-cell"
            )
        )
    fold = _integers(frame, "fold", name, problems)
    repeat = (
        _integers(frame, "repeat", name, problems)
        if "repeat" in frame.columns
        else np.ones(len(frame), dtype=np.int64)
    )
    if len(problems) > before or fold is None or repeat is None:
        return None
    _twice_in_a_repeat(frame, name, row_id, ids, repeat, fold, problems)
    _in_no_fold(frame, name, ids, repeat, problems)
    _fold_numbers(frame, name, repeat, fold, problems)
    if len(problems) > before:
        return None
    out = Folds(name, rows=len(set(ids.tolist())))
    order = np.lexsort((fold, repeat))
    keys = np.stack([repeat[order], fold[order]], axis=1)
    starts = np.flatnonzero(np.r_[True, (keys[1:] != keys[:-1]).any(axis=1)])
    for a, b in zip(starts, np.r_[starts[1:], len(order)], strict=True):
        idx = np.sort(order[a:b])
        key = (int(repeat[idx[0]]), int(fold[idx[0]]))
        out.members[key] = ids[idx]
        out.lines[key] = line_of(frame, int(idx[0]))
    return out


def _twice_in_a_repeat(frame, name, row_id, ids, repeat, fold, problems) -> None:
    """A row held out twice in one repeat (two folds, or one fold twice)."""
    first: dict[tuple[int, str], int] = {}
    found = 0
    for i, (r, rid) in enumerate(zip(repeat.tolist(), ids.tolist(), strict=True)):
        j = first.setdefault((r, rid), i)
        if j == i:
            continue
        found += 1
        if found > MAX_EACH:
            continue
        words = {"value": said(rid), "repeat": r, "first": line_of(frame, j)}
        message = (
            _(
                "row_id {value} is twice in fold {fold} of repeat {repeat} (first at line "
                "{first}): each row is held out once per repeat",
                fold=fold[i],
                **words,
            )
            if fold[i] == fold[j]
            else _(
                "row_id {value} is in fold {fold} and fold {other} of repeat {repeat} (first at "
                "line {first}): each row is held out once per repeat",
                fold=fold[j],
                other=fold[i],
                **words,
            )
        )
        problems.append(
            Problem(
                message,
                name,
                line_of(frame, i),
                column_of(frame, row_id),
                slug="row-in-two-folds",
            )
        )
    more = found - MAX_EACH
    _and_more(
        found,
        # TRANSLATORS: English keeps "rows" for one row too (the message as it always was)
        n_(
            "(and {n} more rows held out twice in a repeat)",
            "(and {n} more rows held out twice in a repeat)",
            more,
        ),
        name,
        "row-in-two-folds",
        problems,
    )


def _in_no_fold(frame, name, ids, repeat, problems) -> None:
    """A row of the file that some repeat leaves out of every fold."""
    import pandas as pd

    every = pd.Index(ids).unique()
    where = {rid: i for i, rid in reversed(list(enumerate(ids.tolist())))}
    found = 0
    for r in sorted(set(repeat.tolist())):
        absent = every.difference(pd.Index(ids[repeat == r]), sort=False)
        for rid in absent.tolist():
            found += 1
            if found > MAX_EACH:
                continue
            i = where[rid]
            problems.append(
                Problem(
                    _(
                        "row_id {value} is in no fold of repeat {repeat} (it is in repeat "
                        "{here} here): every row is held out once in each repeat",
                        value=said(rid),
                        repeat=r,
                        here=repeat[i],
                    ),
                    name,
                    line_of(frame, i),
                    column_of(frame, "repeat") or column_of(frame, "fold"),
                    slug="row-in-no-fold",
                )
            )
    more = found - MAX_EACH
    _and_more(
        found,
        n_(
            "(and {n} more rows missing from a repeat)",
            "(and {n} more rows missing from a repeat)",
            more,
        ),
        name,
        "row-in-no-fold",
        problems,
    )


def _fold_numbers(frame, name, repeat, fold, problems) -> None:
    """Folds numbered 1 to K in every repeat, the same K: a gap is a fold without rows."""
    counts = {r: sorted(set(fold[repeat == r].tolist())) for r in sorted(set(repeat.tolist()))}
    ks = {r: max(f) for r, f in counts.items()}
    first = min(counts)
    for r, present in counts.items():
        i = int(np.flatnonzero(repeat == r)[0])
        empty = first_gap(present)
        if empty is not None:
            message = _(
                "fold {fold} of repeat {repeat} has no rows (the repeat's folds: {folds}); "
                "number the folds 1 to K",
                fold=empty,
                repeat=r,
                folds=_ranges(present),
            )
            problems.append(cell_problem(frame, i, "fold", message, name, "empty-fold"))
        elif ks[r] != ks[first]:
            # TRANSLATORS: {folds} and {first_folds} count folds (2 or more)
            message = n_(
                "repeat {repeat} has {folds} folds but repeat {first} has {first_folds}: every "
                "repeat cuts the rows into the same number of folds",
                "repeat {repeat} has {folds} folds but repeat {first} has {first_folds}: every "
                "repeat cuts the rows into the same number of folds",
                ks[r],
                repeat=r,
                folds=ks[r],
                first=first,
                first_folds=ks[first],
            )
            problems.append(cell_problem(frame, i, "fold", message, name, "fold-count"))


def first_gap(present: list[int]) -> int | None:
    """The smallest whole number from 1 missing below the largest of ``present`` (sorted,
    distinct), or None when they are 1 to K; never lists the numbers in between."""
    for expected, have in enumerate(present, 1):
        if have != expected:
            return expected
    return None


def _ranges(values: list[int]) -> str:
    """1, 2, 4 to 9: sorted whole numbers with runs shortened."""
    out, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            out.append(
                str(start)
                if start == v
                else p_("fold numbers", "{low} to {high}", low=start, high=v)
            )
            start = None
    return ", ".join(out)


# --------------------------------------------------------------------------- the run log


def runs_columns(text: str) -> dict[str, int]:
    """Column name -> 1-based position in the run log's header (for messages)."""
    header = next(csv.reader(io.StringIO(text, newline="")), [])
    return {h.strip(): i + 1 for i, h in enumerate(header)}


def check_fold_runs(
    config,
    runs: list[RunRow],
    folds: Folds | None,
    names: tuple[str, str],
    cols: dict[str, int],
    problems: list[Problem],
    warnings: list[Problem],
) -> None:
    """The run log of a cv project: fold rows name their fold, the fold is in split/folds.csv,
    and both models scored the same folds. ``names``: the run log's and evreport.toml's."""
    rname, cname = names
    fold_rows = [r for r in runs if r.split == FOLD_SPLIT and r.metric == config.metric]
    if not fold_rows:
        problems.append(
            Problem(
                _(
                    'evaluation.design = "cv" but {path} has no split = "fold" rows for metric '
                    '{metric}; log each held-out fold\'s score with split = "fold", repeat and '
                    "fold",
                    path=rname,
                    metric=said(config.metric),
                ),
                cname,
                config.lines.get("evaluation.design"),
                1,
                slug="no-fold-rows",
            )
        )
        return
    named = []
    for r in fold_rows:
        if r.fold is None:
            problems.append(
                Problem(
                    _('fold is empty in a split = "fold" row: say which fold (1 to K) it held out'),
                    rname,
                    r.line,
                    cols.get("fold"),
                    slug="empty-cell",
                )
            )
        elif folds is not None and (r.repeat or 1, r.fold) not in folds.members:
            problems.append(_unknown_fold(r, folds, rname, cols))
        else:
            named.append(r)
    if len(named) == len(fold_rows):
        before = len(problems)
        _same_folds(config, named, rname, cols, problems)
        if folds is None and len(problems) == before:
            _run_fold_gaps(named, rname, cols, problems)
    if folds is not None and not problems:
        done = {(r.repeat or 1, r.fold) for r in named}
        unrun = [k for k in folds.members if k not in done]
        if unrun:
            warnings.append(
                Problem(
                    n_(
                        "the runs cover {covered} of the {n} fold of {path}; the others are not "
                        "analysed (e.g. repeat {repeat} fold {fold})",
                        "the runs cover {covered} of the {n} folds of {path}; the others are not "
                        "analysed (e.g. repeat {repeat} fold {fold})",
                        len(folds.members),
                        covered=count(len(folds.members) - len(unrun)),
                        path=folds.path,
                        repeat=count(unrun[0][0]),
                        fold=count(unrun[0][1]),
                    ),
                    rname,
                    slug="folds-not-run",
                    severity="warning",
                )
            )


def _run_fold_gaps(rows: list[RunRow], rname: str, cols, problems: list[Problem]) -> None:
    """Without split/folds.csv, the fold numbers of each repeat are 1 to K: K, the fold count
    behind the correction's 1/(K - 1), is the number of folds, never the largest number."""
    by_repeat: dict[int, dict[int, RunRow]] = {}
    for r in sorted(rows, key=lambda x: x.line):
        assert r.fold is not None  # check_fold_runs passes only the rows that name a fold
        by_repeat.setdefault(r.repeat or 1, {}).setdefault(r.fold, r)
    for repeat, first in sorted(by_repeat.items()):
        present = sorted(first)
        gap = first_gap(present)
        if gap is None:
            continue
        r = first[next(k for k in present if k > gap)]
        problems.append(
            Problem(
                _(
                    "fold {fold} of repeat {repeat} leaves a gap: there is no fold {gap} (the "
                    "repeat's folds: {folds}); number the folds 1 to K, K the number of folds, "
                    "as the correction reads K from them",
                    fold=r.fold,
                    repeat=repeat,
                    gap=gap,
                    folds=_ranges(present),
                ),
                rname,
                r.line,
                cols.get("fold"),
                slug="fold-gap",
            )
        )
        return


def _unknown_fold(r: RunRow, folds: Folds, rname: str, cols: dict[str, int]) -> Problem:
    repeat = r.repeat or 1
    if repeat not in folds.repeats:
        msg = _(
            "repeat {repeat} is not in {path} (its repeats: {repeats}): this fold has no rows",
            repeat=repeat,
            path=folds.path,
            repeats=_ranges(folds.repeats),
        )
        col = cols.get("repeat") or cols.get("fold")
    else:
        present = sorted(k for rr, k in folds.members if rr == repeat)
        msg = _(
            "fold {fold} of repeat {repeat} is not in {path} (its folds: {folds}): this fold has "
            "no rows",
            fold=r.fold,
            repeat=repeat,
            path=folds.path,
            folds=_ranges(present),
        )
        col = cols.get("fold")
    return Problem(msg, rname, r.line, col, slug="unknown-fold")


def _same_folds(config, rows: list[RunRow], rname, cols, problems: list[Problem]) -> None:
    """Candidate and baseline scored the same (repeat, fold) pairs (failed runs count as scored)."""
    first: dict[str, dict[tuple[int, int], RunRow]] = {"candidate": {}, "baseline": {}}
    for r in rows:
        assert r.fold is not None  # check_fold_runs passes only the rows that name a fold
        for role in first:
            if r.model == getattr(config, role):
                first[role].setdefault((r.repeat or 1, r.fold), r)
    cand, base = first["candidate"], first["baseline"]
    if not cand or not base:
        return  # a model without fold rows is named by the claim's model check
    if not set(cand) & set(base):
        r = min(base.values(), key=lambda x: x.line)
        problems.append(
            Problem(
                _(
                    "the fold numbers differ between the models: {candidate} has {cand_folds}, "
                    "{baseline} has {base_folds}; both models must be scored on the same folds "
                    "(numbered as in split/folds.csv, from 1)",
                    candidate=config.candidate,
                    cand_folds=_fold_list(cand),
                    baseline=config.baseline,
                    base_folds=_fold_list(base),
                ),
                rname,
                r.line,
                cols.get("fold"),
                slug="fold-numbers-differ",
            )
        )
        return
    found = []
    for have, lack, name in ((cand, base, config.baseline), (base, cand, config.candidate)):
        for key in sorted(set(have) - set(lack)):
            r = have[key]
            found.append(
                Problem(
                    _(
                        "{model} has no row for repeat {repeat} fold {fold} (this row of "
                        "{other} has it): both models must be scored on every fold",
                        model=name,
                        repeat=key[0],
                        fold=key[1],
                        other=r.model,
                    ),
                    rname,
                    r.line,
                    cols.get("fold"),
                    slug="missing-fold",
                )
            )
    problems += sorted(found, key=lambda p: p.line or 0)[:MAX_EACH]
    _and_more(
        len(found),
        n_(
            "(and {n} more folds scored by one model only)",
            "(and {n} more folds scored by one model only)",
            len(found) - MAX_EACH,
        ),
        rname,
        "missing-fold",
        problems,
    )


def _and_more(found: int, message: str, name: str, slug: str, problems: list[Problem]) -> None:
    """The count of the problems of one kind past the first MAX_EACH: ``message``, "(and 4 more
    rows ...)", is built by the caller with that count."""
    if found > MAX_EACH:
        problems.append(Problem(message, name, slug=slug))


def _fold_list(rows: dict[tuple[int, int], RunRow]) -> str:
    """'folds 1 to 10 of repeat 1' or '20 folds in repeats 1 to 2'."""
    repeats = sorted({r for r, _ in rows})
    if len(repeats) == 1:
        return _(
            "folds {folds} of repeat {repeat}",
            folds=_ranges(sorted(k for _r, k in rows)),
            repeat=repeats[0],
        )
    return _(
        "folds {folds} in repeats {repeats}",
        folds=_ranges(sorted({k for _r, k in rows})),
        repeats=_ranges(repeats),
    )
