"""Copied work: what each submission's files look like, and the groups that share them.

``fingerprint`` runs in the worker right after a build (``fingerprint_row`` is the batch's
after-build hook; it reads runs.csv once more, as confined as the build read it);
``find_duplicates`` compares the fingerprints of a whole class. A group is reported, never graded: the instructor decides.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
from collections import Counter, defaultdict
from collections.abc import Mapping
from itertools import combinations
from pathlib import Path
from typing import Any

from reportgen.errors import clean_text
from reportgen.model import Report
from reportgen.words.i18n import _, n_

#: run-log values shared to 6 significant digits on at least this many rows flag a pair
MIN_SHARED_VALUES = 5
#: a value logged by more submissions than this (or a tenth of the class) is not compared
MAX_VALUE_SHARERS = 10
#: at most this many run-log rows are compared per submission
MAX_VALUES = 100_000
#: in a class of at least this many, a file every submission shares is course material
COMMON_MIN_CLASS = 5


def _value_key(text: str | None) -> str | None:
    if text is None:
        return None
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return f"{v:.6g}" if math.isfinite(v) else None


def fingerprint(project: Path, report: Report) -> dict[str, Any]:
    """The parts of one submission that copied work would share (JSON-able).

    ``predictions`` and ``split``: {path: sha256} from report.json ``inputs``;
    ``runs_sorted``: sha256 of runs.csv with its data rows sorted; ``values``: the
    run-log values to 6 significant digits; ``latest_started_at``: the latest
    ``started_at`` as written (for a deadline); ``missing``: {rung: ladder missing text}
    for the rungs not shown, and ``unmet``: {rung: [[check id, passed], ...]}, their checks
    that did not pass (false: failed, null: not checked), for the class overview.
    """
    from reportgen.project.files import decode_text, read_confined

    fp: dict[str, Any] = {
        "predictions": {},
        "split": {},
        "runs_sorted": None,
        "values": [],
        "latest_started_at": None,
        "missing": {
            str(r.rung): r.missing for r in report.ladder if not r.shown and r.missing is not None
        },
        "unmet": {
            str(r.rung): [
                [c.id, c.passed] for c in report.checks if c.rung == r.rung and not c.passed
            ]
            for r in report.ladder
            if not r.shown
        },
    }
    pred_paths: set[str] = set()
    try:
        text = decode_text(read_confined(project, project / "runs.csv", "runs.csv"))
    except Exception:  # the build read it; if it cannot be read again, nothing is compared
        text = None
    if text is not None:
        lines = [ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n")]
        lines = [ln for ln in lines if ln]
        if lines:
            body = "\n".join([lines[0], *sorted(lines[1:])])
            fp["runs_sorted"] = hashlib.sha256(body.encode("utf-8", "replace")).hexdigest()
        latest = None
        from reportgen.project.manifest import parse_time

        for i, row in enumerate(csv.DictReader(io.StringIO(text))):
            if i >= MAX_VALUES:
                break
            key = _value_key(row.get("value"))
            if key is not None:
                fp["values"].append(key)
            pred = row.get("predictions")
            if isinstance(pred, str) and pred.strip():
                pred_paths.add(pred.strip().replace("\\", "/").removeprefix("./"))
            started = row.get("started_at")
            if isinstance(started, str) and started.strip():
                try:
                    t = parse_time(started)
                except (ValueError, TypeError):
                    continue
                if latest is None or t > latest[0]:
                    latest = (t, started.strip())
        fp["latest_started_at"] = latest[1] if latest else None
    for item in report.inputs:
        path, sha = item.path, item.sha256
        if path in pred_paths or "/predictions/" in f"/{path}":
            fp["predictions"][path] = sha
        elif path.startswith("split/"):
            fp["split"][path] = sha
    return fp


def safe_fingerprint(project: Path, report: Report) -> dict[str, Any] | None:
    """``fingerprint`` that never fails a build: None when anything goes wrong."""
    try:
        return fingerprint(project, report)
    except Exception:
        return None


def fingerprint_row(project: Path, report: Report) -> dict[str, Any]:
    """The batch's after-build hook (run in each worker): the row's ``fingerprint``."""
    return {"fingerprint": safe_fingerprint(project, report)}


def find_duplicates(fingerprints: Mapping[str, dict | None]) -> tuple[list[dict], list[str]]:
    """Groups of submissions that share files or run-log values, and the course material.

    Returns ``(groups, common)``: each group is ``{"names": [...], "shares": [...]}``
    (names sorted, one sentence per shared thing), sorted by names; ``common`` lists
    the files that every submission of a class of at least COMMON_MIN_CLASS shares
    (given out by the course, so not flagged).
    """
    fps = {n: fp for n, fp in fingerprints.items() if isinstance(fp, dict)}
    by_key: dict[tuple[str, str], set[str]] = defaultdict(set)
    paths: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for name, fp in fps.items():
        for kind in ("predictions", "split"):
            for path, sha in (fp.get(kind) or {}).items():
                by_key[(kind, sha)].add(name)
                paths[(kind, sha)][name] = path
        if fp.get("runs_sorted"):
            by_key[("runs", fp["runs_sorted"])].add(name)
    common: list[str] = []
    shared: defaultdict[frozenset[str], defaultdict[str, list[str]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for key, names in by_key.items():
        if len(names) < 2:
            continue
        kind = key[0]
        if kind != "runs":
            path = paths[key][min(names)]
            if len(fps) >= COMMON_MIN_CLASS and len(names) == len(fps):
                common.append(
                    _("predictions file {path}", path=path)
                    if kind == "predictions"
                    else _("split file {path}", path=path)
                )
                continue
            shared[frozenset(names)][kind].append(path)
        else:
            shared[frozenset(names)][kind].append("runs.csv")
    # run-log values: pairs sharing at least MIN_SHARED_VALUES values (counted as multisets)
    counts = {n: Counter(fp.get("values") or []) for n, fp in fps.items()}
    index: dict[str, set[str]] = defaultdict(set)
    for name, c in counts.items():
        for v in c:
            index[v].add(name)
    pair_values: Counter = Counter()
    for v, names in index.items():
        if not 2 <= len(names) <= max(MAX_VALUE_SHARERS, len(fps) // 10):
            continue  # a value much of the class logs (0.5, 1.0) says nothing about copying
        for a, b in combinations(sorted(names), 2):
            pair_values[(a, b)] += min(counts[a][v], counts[b][v])
    for (a, b), n in pair_values.items():
        if n >= MIN_SHARED_VALUES:
            shared[frozenset((a, b))]["values"].append(str(n))
    groups = []
    for pair, kinds in shared.items():
        groups.append(
            {"names": sorted(pair, key=lambda s: (s.casefold(), s)), "shares": _describe(kinds)}
        )
    groups.sort(key=lambda g: ([n.casefold() for n in g["names"]], g["shares"]))
    return groups, sorted(common)


def _describe(kinds: defaultdict[str, list[str]]) -> list[str]:
    out = []
    for kind in ("predictions", "split"):
        items = sorted(kinds[kind])
        if items:
            named = ", ".join(clean_text(i, 200) for i in items[:3])
            if len(items) > 3:
                named = _("{files} and {n} more", files=named, n=str(len(items) - 3))
            # the count as Python prints it (no thousands separator), as before
            n = str(len(items))
            out.append(
                n_(
                    "{n} byte-identical predictions file: {files}",
                    "{n} byte-identical predictions files: {files}",
                    len(items),
                    n=n,
                    files=named,
                )
                if kind == "predictions"
                else n_(
                    "{n} byte-identical split file: {files}",
                    "{n} byte-identical split files: {files}",
                    len(items),
                    n=n,
                    files=named,
                )
            )
    if kinds["runs"]:
        out.append(_("an identical runs.csv (after sorting its rows)"))
    if kinds["values"]:
        shared = int(kinds["values"][0])
        out.append(_("{n} run-log values identical to 6 significant digits", n=str(shared)))
    return out
