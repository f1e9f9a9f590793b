"""`evreport import mlflow`: one MLflow run (one trained network) -> runs.csv rows and predictions.

A run with a fold param or tag (``--fold-key``; ``--repeat-key``, default repeat 1) is one
network trained on the other folds: its held-out scores become ``split = "fold"`` rows
(methods.md section 9), from its ``fold_<metric>`` metrics, else its ``test_<metric>``, else
its ``validation_<metric>`` ones, and its predictions from ``predictions/fold.*`` (else test,
else validation). MLflow is imported lazily (the `[mlflow]` extra); the store is read with MLflow's own client,
the artifacts with evreport's confined, size-capped readers (mlflow_artifacts.py).
Re-importing adds only runs whose MLflow run id is not yet in runs.csv (kept in `notes`).
A run that cannot become rows is skipped with one warning (an error with ``strict``).
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from reportgen.errors import clean_text
from reportgen.importers import mlflow_store
from reportgen.importers.mlflow_artifacts import Artifacts, Refused, for_run, time_limits
from reportgen.importers.mlflow_store import (  # noqa: F401  (re-exported for callers)
    MlflowImportError,
    MlflowMissing,
    MlflowUsage,
    sentence,
)
from reportgen.project.folds import FOLD_SPLIT
from reportgen.safe import fsync_folder, safe_file_name

METRIC_RE = re.compile(r"^(validation|valid|val|test|fold)_(.+)$")
PART = {
    "validation": "validation",
    "valid": "validation",
    "val": "validation",
    "test": "test",
    "fold": FOLD_SPLIT,
}
PRED_DIR = "predictions"
#: artifact name -> split part, in order of preference within a part
PRED_NAMES = {
    f"{stem}.{ext}": PART[stem]
    for stem in ("validation", "val", "test", "fold")
    for ext in ("parquet", "csv")
}
#: a fold run's held-out scores: the first of these parts that the run has (metrics, then
#: predictions) becomes its split = "fold" rows
FOLD_SOURCES = (FOLD_SPLIT, "test", "validation")
NOTE_RE = re.compile(r"mlflow_run_id=([0-9a-fA-F-]+)")
RUN_ID_RE = re.compile(r"[0-9a-fA-F-]{8,64}")
STATUS = {"FINISHED": "ok", "FAILED": "failed", "KILLED": "failed"}


@dataclass
class ImportedRun:
    mlflow_id: str
    run_id: str
    model: str
    seed: int
    status: str
    name: str = ""
    rows: list[dict] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # artifact path -> project path
    sizes: dict[str, int | None] = field(default_factory=dict)  # artifact path -> listed size
    artifacts: Artifacts | None = None  # where its artifacts are read
    #: a fold run's runs.csv cells repeat, fold and train_rows (None: not a fold run)
    cv: dict[str, int | None] | None = None

    def describe(self) -> str:
        rows = ", ".join(f"{r['split']} {r['metric']}" for r in self.rows)
        where = "" if self.cv is None else f" repeat {self.cv['repeat']} fold {self.cv['fold']}"
        return (
            f"{self.run_id}: {self.model} seed {self.seed}{where} ({self.status}; mlflow run "
            f"{self.mlflow_id}): {len(self.rows)} row(s) [{rows}], "
            f"{len(self.files)} predictions file(s)"
        )


@dataclass
class ImportResult:
    experiment: str
    new: list[ImportedRun] = field(default_factory=list)
    already: int = 0
    unfinished: list[str] = field(default_factory=list)
    #: one message per run that cannot become rows: which run, what is missing or refused
    skipped: list[str] = field(default_factory=list)
    #: what the user should know about how the store was read (e.g. MLFLOW_ALLOW_FILE_STORE)
    notes: list[str] = field(default_factory=list)
    #: what was not read in full (a limit reached), printed as warnings
    warnings: list[str] = field(default_factory=list)
    dry_run: bool = False
    strict: bool = False


class Skip(Exception):
    """This run cannot become rows; the message says why."""


def _value(run, key: str) -> str | None:
    v = run.data.params.get(key)
    if v is None:
        v = run.data.tags.get(key)
    return v.strip() if isinstance(v, str) and v.strip() else None


def _seed(text: str) -> int | None:
    try:
        f = float(text)
    except ValueError:
        return None
    return int(f) if f.is_integer() else None


def _fold_cells(run, keys: tuple[str, str]) -> dict[str, int | None] | None:
    """A fold run's repeat, fold and train_rows from its params or tags (None: not a fold run)."""
    repeat_key, fold_key = keys
    texts = {
        "repeat": _value(run, repeat_key),
        "fold": _value(run, fold_key),
        "train_rows": _value(run, "train_rows"),
    }
    if texts["fold"] is None:
        if texts["repeat"] is not None:
            raise Skip(
                f"{repeat_key} = {clean_text(texts['repeat'], 80)!r} but no {fold_key!r} param "
                "or tag; a cross-validation run needs both (or name the key with --fold-key)"
            )
        return None
    out: dict[str, int | None] = {"repeat": 1, "fold": None, "train_rows": None}
    for cell, key in (("repeat", repeat_key), ("fold", fold_key), ("train_rows", "train_rows")):
        text = texts[cell]
        if text is None:
            continue
        v = _seed(text)
        if v is None or v < 1:
            raise Skip(f"{key} = {clean_text(text, 80)!r} is not a whole number from 1")
        out[cell] = v
    return out


def _scores(run, cv, pairs, status: str) -> tuple[dict, list[tuple[str, str]]]:
    """{(part, metric): value} of the run's metrics and the (part, metric) rows it gets.

    A fold run's rows are its held-out fold's: the first of FOLD_SOURCES it logged, as split
    "fold"; a failed run without metrics gets the experiment's (part, metric) pairs.
    """
    metrics = {}
    for k, v in run.data.metrics.items():
        m = METRIC_RE.match(k)
        if m:
            metrics[(PART[m.group(1)], m.group(2))] = v
    if cv is not None:
        source = next((s for s in FOLD_SOURCES if any(p == s for p, _ in metrics)), None)
        metrics = {(FOLD_SPLIT, m): v for (p, m), v in metrics.items() if p == source}
        pairs = sorted({(FOLD_SPLIT, m) for p, m in pairs if p == FOLD_SPLIT})
    else:
        metrics = {k: v for k, v in metrics.items() if k[0] != FOLD_SPLIT}
        pairs = [k for k in pairs if k[0] != FOLD_SPLIT]
    cols = sorted(metrics or (pairs if status == "failed" else []), key=_order)
    return metrics, cols


def _predictions(ir: ImportedRun, listed: dict, cap: int) -> None:
    """Choose the run's predictions artifacts (one per part) into ``ir.files`` and ``ir.sizes``."""
    if ir.cv is not None:  # the held-out fold's: fold.*, else test.*, else validation.*
        order = [n for s in FOLD_SOURCES for n, part in PRED_NAMES.items() if part == s]
        names = {n: FOLD_SPLIT for n in order}
    else:
        names = {n: part for n, part in PRED_NAMES.items() if part != FOLD_SPLIT}
    taken: set[str] = set()
    for name, part in names.items():
        item = listed.get(name)
        if item is None or part in taken:
            continue
        if item.size is not None and item.size > cap:
            raise Skip(
                f"artifact {PRED_DIR}/{name} is {item.size:,} bytes, over the {cap:,}-byte "
                "limit (EVREPORT_MAX_FILE_BYTES)"
            )
        taken.add(part)
        ext = name.rsplit(".", 1)[1]
        ir.files[f"{PRED_DIR}/{name}"] = f"artefacts/predictions/{ir.run_id}-{part}.{ext}"
        ir.sizes[f"{PRED_DIR}/{name}"] = item.size


def _order(key: tuple[str, str]) -> tuple:
    """validation before test before other parts, then by metric name."""
    part, metric = key
    return ({"validation": 0, "test": 1}.get(part, 2), part, metric)


def _iso_ms(ms: int | None) -> str | None:
    """MLflow's start time (integer milliseconds) as ISO 8601 UTC, keeping the milliseconds:
    the frozen-before-runs check orders two times only as far as their precision allows."""
    if ms is None:
        return None
    t = datetime.fromtimestamp(int(ms) // 1000, tz=UTC).replace(microsecond=int(ms) % 1000 * 1000)
    return t.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _imported_ids(runs_csv: Path) -> set[str]:
    if not runs_csv.exists():
        return set()
    return set(NOTE_RE.findall(runs_csv.read_text(encoding="utf-8-sig")))


#: the most pages of runs (1,000 runs each) read from a store; a server that answers with
#: a next-page token forever is stopped here, with a warning
MAX_PAGES = 1000


def _all_runs(client, experiment_id: str, filter_string: str | None, warnings: list[str]) -> list:
    runs, token = [], None
    for _ in range(MAX_PAGES):
        page = client.search_runs(
            [experiment_id],
            filter_string=filter_string or "",
            max_results=1000,
            order_by=["attributes.start_time ASC"],
            page_token=token,
        )
        runs.extend(page)
        token = page.token
        if not token:
            return runs
    warnings.append(
        f"the store still had more runs after {MAX_PAGES:,} pages ({len(runs):,} runs); "
        "only those are read (narrow the search with --filter)"
    )
    return runs


def _filter_error(e: BaseException) -> bool:
    """An MLflow error about a parameter of the search (with a --filter: the filter)."""
    return str(getattr(e, "error_code", "")) == "INVALID_PARAMETER_VALUE"


def _label(run) -> str:
    name = run.info.run_name
    rid = clean_text(run.info.run_id, 80)
    return f"run {rid} ({clean_text(name, 80)})" if name and name != rid else f"run {rid}"


def _plan(
    run, keys: tuple[str, ...], pairs, store, allow_remote: bool, cap: int, limits: tuple
) -> ImportedRun:
    """The rows (and predictions to copy) of one finished or failed run; Skip says why not."""
    model_key, seed_key, *fold_keys = keys
    rid = run.info.run_id
    if not RUN_ID_RE.fullmatch(rid):
        raise Skip("its run id is not an MLflow run id (hexadecimal)")
    status = STATUS[run.info.status]
    model, seed_text = _value(run, model_key), _value(run, seed_key)
    if model is None or seed_text is None:
        missing = " and ".join(
            repr(k) for k, v in ((model_key, model), (seed_key, seed_text)) if v is None
        )
        raise Skip(
            f"no {missing} param or tag; log it, or name the key with --model-key/--seed-key"
        )
    seed = _seed(seed_text)
    if seed is None:
        raise Skip(f"{seed_key} = {clean_text(seed_text, 80)!r} is not a whole number")
    try:
        safe_model = safe_file_name(model, sep="-", empty=None)
    except ValueError:
        raise Skip(f"{model_key} = {clean_text(model, 80)!r} gives an empty file name") from None
    repeat_key, fold_key = fold_keys or ("repeat", "fold")
    cv = _fold_cells(run, (repeat_key, fold_key))
    where = "" if cv is None else f"-r{cv['repeat']}-f{cv['fold']}"
    ir = ImportedRun(
        rid, f"{safe_model}-s{seed}{where}-{rid[:8]}", model, seed, status, _label(run), cv=cv
    )
    metrics, cols = _scores(run, cv, pairs, status)
    if not cols:
        wanted = (
            "fold_<metric>, test_<metric> or validation_<metric>"
            if cv
            else "validation_<metric> or test_<metric>"
        )
        raise Skip(f"no {wanted} metric")
    if status == "ok":
        try:
            ir.artifacts = for_run(store, run, allow_remote, *limits)
            listed = ir.artifacts.list(PRED_DIR)
        except Refused as e:
            raise Skip(str(e)) from None
        except OSError as e:
            raise Skip(f"cannot list its {PRED_DIR}/ artifacts: {e.strerror or e}") from None
        _predictions(ir, listed, cap)
    by_part = {dest.rsplit("-", 1)[1].split(".")[0]: dest for dest in ir.files.values()}
    fit = None
    if run.info.end_time and run.info.start_time:
        fit = round((run.info.end_time - run.info.start_time) / 1000.0, 3)
    for part, metric in cols:
        value = metrics.get((part, metric)) if status == "ok" else None
        ir.rows.append(
            {
                "run_id": ir.run_id,
                "model": model,
                "seed": seed,
                "split": part,
                "metric": metric,
                "value": None if value is None else float(value),
                "status": status,
                "started_at": _iso_ms(run.info.start_time),
                "config": _value(run, "config"),
                "features": _value(run, "features"),
                "split_id": _value(run, "split_id"),
                "predictions": by_part.get(part, ""),
                "fit_seconds": fit,
                "env": _value(run, "env"),
                "notes": f"mlflow_run_id={rid}",
                **(cv or {}),
            }
        )
    return ir


def import_mlflow(
    project: str | Path,
    tracking_uri: str,
    experiment: str,
    *,
    model_key: str = "model",
    seed_key: str = "seed",
    repeat_key: str = "repeat",
    fold_key: str = "fold",
    filter_string: str | None = None,
    dry_run: bool = False,
    strict: bool = False,
    allow_remote_artifacts: bool = False,
) -> ImportResult:
    """Import the experiment's finished and failed runs that runs.csv does not have yet.

    Runs that cannot become rows are listed in ``skipped``; with ``strict`` nothing is
    written when there is one. ``filter_string`` is MLflow's search syntax.
    """
    from reportgen.project.files import ENV_PROBLEM, MAX_FILE_BYTES

    if ENV_PROBLEM:
        raise MlflowUsage(ENV_PROBLEM)
    try:
        per_artifact, per_import = time_limits()
    except ValueError as e:
        raise MlflowUsage(str(e)) from None
    root = Path(project)
    mlflow_store.require_mlflow()
    store = mlflow_store.parse(tracking_uri)
    mlflow_store.check_file_store(store)
    result = ImportResult(experiment, dry_run=dry_run, strict=strict, notes=list(store.notes))
    limits = (per_artifact, time.monotonic() + per_import)
    with mlflow_store.reading(store), mlflow_store.read_only(store) as store:
        client = mlflow_store.open_client(store)
        try:
            exp = client.get_experiment_by_name(experiment)
            if exp is None:
                names = sorted(e.name for e in client.search_experiments())
                shown = ", ".join(repr(clean_text(n, 80)) for n in names[:20])
                more = f" and {len(names) - 20} more" if len(names) > 20 else ""
                hint = "" if names else mlflow_store.artifacts_only_hint(store)
                raise MlflowImportError(
                    f"unknown experiment {clean_text(experiment, 80)!r} at {store.uri}; "
                    f"experiments there: {shown + more or 'none'}{hint}"
                )
            runs = _all_runs(client, exp.experiment_id, filter_string, result.warnings)
        except MlflowImportError:
            raise
        except Exception as e:
            if filter_string and _filter_error(e):
                raise MlflowUsage(
                    f"--filter {clean_text(filter_string, 120)!r} is not valid MLflow search "
                    f"syntax: {sentence(e)}"
                ) from None
            raise mlflow_store.store_error(store, e) from None

        done = _imported_ids(root / "runs.csv")
        pairs = sorted(
            {
                (PART[m.group(1)], m.group(2))
                for r in runs
                for k in r.data.metrics
                if (m := METRIC_RE.match(k))
            }
        )
        for run in runs:
            rid = run.info.run_id
            if rid in done:
                result.already += 1
                continue
            if run.info.status not in STATUS:
                result.unfinished.append(f"{rid} ({run.info.status})")
                continue
            try:
                ir = _plan(
                    run,
                    (model_key, seed_key, repeat_key, fold_key),
                    pairs,
                    store,
                    allow_remote_artifacts,
                    MAX_FILE_BYTES,
                    limits,
                )
            except Skip as e:
                result.skipped.append(f"{_label(run)}: {e}")
                continue
            result.new.append(ir)
        if dry_run or (strict and result.skipped) or not result.new:
            return result
        created = not root.exists()
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".evreport-mlflow-", dir=root) as tmp:
            staged = _fetch(result, Path(tmp), MAX_FILE_BYTES)
            if result.new and not (strict and result.skipped):
                _write(root, result.new, staged)
                return result
        if created:
            with contextlib.suppress(OSError):
                root.rmdir()
    return result


def _fetch(result: ImportResult, tmp: Path, cap: int) -> dict[str, Path]:
    """Read every predictions artifact into the staging folder ``tmp`` (inside the project).

    A run whose artifact cannot be read moves from ``new`` to ``skipped``. Returns
    "<mlflow id>/<artifact path>" -> staged file.
    """
    staged: dict[str, Path] = {}
    keep = []
    for i, ir in enumerate(result.new):
        try:
            for k, src in enumerate(ir.files):
                assert ir.artifacts is not None  # _plan lists files from the run's artifacts
                data = ir.artifacts.read(src, cap)
                path = tmp / f"{i}-{k}"
                with open(path, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                staged[f"{ir.mlflow_id}/{src}"] = path
        except (Refused, OSError) as e:
            result.skipped.append(f"{ir.name}: {e}")
            continue
        keep.append(ir)
    result.new = keep
    return staged


def _same_bytes(a: Path, b: Path) -> bool:
    with contextlib.suppress(OSError):
        return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()
    return False


def _write(root: Path, new: list[ImportedRun], staged: dict[str, Path]) -> None:
    """Move the predictions into place (before the rows naming them), then append the rows."""
    from reportgen.record import Recorder
    from reportgen.record.io import locked

    rec = Recorder(root)
    with locked(root):
        header, rows = rec._read_rows()
        already = set(NOTE_RE.findall(" ".join(r.get("notes", "") for r in rows)))
        fresh = [ir for ir in new if ir.mlflow_id not in already]
        moves = [
            (staged[f"{ir.mlflow_id}/{src}"], root / dest, dest)
            for ir in fresh
            for src, dest in ir.files.items()
        ]
        for tmp, target, dest in moves:
            if target.exists() and not _same_bytes(target, tmp):
                raise MlflowImportError(
                    f"{dest} already exists with other content; not overwritten (remove it "
                    "if an earlier import was interrupted)"
                )
        for tmp, target, _ in moves:
            os.replace(tmp, target)
        if moves:
            fsync_folder(moves[0][1].parent)
        rec._append(header, rows, [r for ir in fresh for r in ir.rows], drop=[])
