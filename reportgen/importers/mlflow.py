"""`evreport import mlflow`: one MLflow run (one trained network) -> runs.csv rows and predictions.

MLflow is imported lazily (the `[mlflow]` extra); the store is read with MLflow's own client.
Re-importing adds only runs whose MLflow run id is not yet in runs.csv (kept in `notes`).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlparse

from reportgen.errors import EXIT_USAGE, EvreportError
from reportgen.safe import safe_file_name

METRIC_RE = re.compile(r"^(validation|valid|val|test)_(.+)$")
PART = {"validation": "validation", "valid": "validation", "val": "validation", "test": "test"}
PRED_NAMES = {
    f"predictions/{stem}.{ext}": PART[stem]
    for stem in ("validation", "val", "test")
    for ext in ("parquet", "csv")
}
NOTE_RE = re.compile(r"mlflow_run_id=([0-9a-fA-F-]+)")
STATUS = {"FINISHED": "ok", "FAILED": "failed", "KILLED": "failed"}


class MlflowImportError(EvreportError):
    """The MLflow store cannot be imported (unknown experiment, unreachable, bad run)."""

    slug = "mlflow-import"


class MlflowMissing(MlflowImportError):
    """MLflow is not installed: a usage problem (install the extra), not bad input."""

    slug = "mlflow-missing"
    exit_code = EXIT_USAGE


@dataclass
class ImportedRun:
    mlflow_id: str
    run_id: str
    model: str
    seed: int
    status: str
    rows: list[dict] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # artifact path -> project path

    def describe(self) -> str:
        rows = ", ".join(f"{r['split']} {r['metric']}" for r in self.rows)
        return (
            f"{self.run_id}: {self.model} seed {self.seed} ({self.status}; mlflow run "
            f"{self.mlflow_id}): {len(self.rows)} row(s) [{rows}], "
            f"{len(self.files)} predictions file(s)"
        )


@dataclass
class ImportResult:
    experiment: str
    new: list[ImportedRun] = field(default_factory=list)
    already: int = 0
    unfinished: list[str] = field(default_factory=list)
    dry_run: bool = False


@contextlib.contextmanager
def _mlflow_env(uri: str) -> Iterator[None]:
    """Fail fast on an unreachable server; allow reading a file store (MLflow 3 asks for an opt-in)."""
    wanted = {"MLFLOW_HTTP_REQUEST_MAX_RETRIES": "0", "MLFLOW_HTTP_REQUEST_TIMEOUT": "10"}
    if _file_path(uri) is not None:
        wanted["MLFLOW_ALLOW_FILE_STORE"] = "true"
    old = {k: os.environ.get(k) for k in wanted}
    for k, v in wanted.items():
        os.environ.setdefault(k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _file_path(uri: str) -> Path | None:
    """The folder of a file store URI (``file:...`` or a plain path), else None."""
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        return Path(parsed.path)
    if parsed.scheme == "" or (len(parsed.scheme) == 1 and os.name == "nt"):
        return Path(uri)
    return None


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return (text[0] if text else type(e).__name__)[:300]


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


def _order(key: tuple[str, str]) -> tuple:
    """validation before test before other parts, then by metric name."""
    part, metric = key
    return ({"validation": 0, "test": 1}.get(part, 2), part, metric)


def _iso_ms(ms: int | None) -> str | None:
    if ms is None:
        return None
    t = datetime.fromtimestamp(ms / 1000.0, tz=UTC).replace(microsecond=0)
    return t.isoformat().replace("+00:00", "Z")


def _imported_ids(runs_csv: Path) -> set[str]:
    if not runs_csv.exists():
        return set()
    return set(NOTE_RE.findall(runs_csv.read_text(encoding="utf-8-sig")))


def _client(uri: str):
    try:
        from mlflow.tracking import MlflowClient
    except ImportError:
        raise MlflowMissing(
            "MLflow is not installed; install the extra: pip install 'evreport[mlflow]'"
        ) from None
    path = _file_path(uri)
    if path is not None and not path.is_dir():
        raise MlflowImportError(f"no MLflow store at {uri}: {path} is not a folder")
    try:
        return MlflowClient(tracking_uri=uri)
    except Exception as e:  # MLflow raises several types for bad URIs
        raise MlflowImportError(f"cannot open the tracking store {uri}: {_first_line(e)}") from None


def _all_runs(client, experiment_id: str) -> list:
    runs, token = [], None
    while True:
        page = client.search_runs(
            [experiment_id],
            max_results=1000,
            order_by=["attributes.start_time ASC"],
            page_token=token,
        )
        runs.extend(page)
        token = page.token
        if not token:
            return runs


def import_mlflow(
    project: str | Path,
    tracking_uri: str,
    experiment: str,
    *,
    model_key: str = "model",
    seed_key: str = "seed",
    dry_run: bool = False,
) -> ImportResult:
    """Import the experiment's finished and failed runs that runs.csv does not have yet."""
    from reportgen.project.files import MAX_FILE_BYTES

    root = Path(project)
    with _mlflow_env(tracking_uri):
        client = _client(tracking_uri)
        try:
            exp = client.get_experiment_by_name(experiment)
            if exp is None:
                names = sorted(e.name for e in client.search_experiments())
                raise MlflowImportError(
                    f"unknown experiment {experiment!r} at {tracking_uri}; experiments there: "
                    f"{', '.join(map(repr, names)) or 'none'}"
                )
            runs = _all_runs(client, exp.experiment_id)
        except MlflowImportError:
            raise
        except Exception as e:
            raise MlflowImportError(
                f"cannot read the tracking store {tracking_uri}: {_first_line(e)}"
            ) from None

        result = ImportResult(experiment, dry_run=dry_run)
        done = _imported_ids(root / "runs.csv")
        pairs = sorted(
            {
                (PART[m.group(1)], m.group(2))
                for r in runs
                for k in r.data.metrics
                if (m := METRIC_RE.match(k))
            }
        )
        problems: list[str] = []
        for run in runs:
            rid = run.info.run_id
            if rid in done:
                result.already += 1
                continue
            status = STATUS.get(run.info.status)
            if status is None:
                result.unfinished.append(f"{rid} ({run.info.status})")
                continue
            model, seed_text = _value(run, model_key), _value(run, seed_key)
            name = run.info.run_name or rid
            if model is None or seed_text is None:
                missing = " and ".join(
                    repr(k) for k, v in ((model_key, model), (seed_key, seed_text)) if v is None
                )
                problems.append(
                    f"run {rid} ({name}) has no {missing} param or tag; log it, or name the key "
                    "with --model-key/--seed-key"
                )
                continue
            seed = _seed(seed_text)
            if seed is None:
                problems.append(
                    f"run {rid} ({name}): {seed_key} = {seed_text!r} is not a whole number"
                )
                continue
            stem = safe_file_name(model, sep="-", empty=None)
            ir = ImportedRun(rid, f"{stem}-s{seed}-{rid[:8]}", model, seed, status)
            metrics = {}
            for k, v in run.data.metrics.items():
                m = METRIC_RE.match(k)
                if m:
                    metrics[(PART[m.group(1)], m.group(2))] = v
            keys = sorted(metrics or (pairs if status == "failed" else []), key=_order)
            if not keys:
                problems.append(
                    f"run {rid} ({name}) has no validation_<metric> or test_<metric> metric"
                )
                continue
            if status == "ok":
                try:
                    arts = {a.path: a for a in client.list_artifacts(rid, "predictions")}
                except Exception as e:
                    raise MlflowImportError(
                        f"cannot list the artifacts of run {rid}: {_first_line(e)}"
                    ) from None
                for path, part in PRED_NAMES.items():
                    a = arts.get(path)
                    if a is None or a.is_dir or part in {PRED_NAMES[f] for f in ir.files}:
                        continue
                    if a.file_size is not None and a.file_size > MAX_FILE_BYTES:
                        problems.append(
                            f"run {rid}: artifact {path} is {a.file_size:,} bytes, over the "
                            f"{MAX_FILE_BYTES:,}-byte limit (EVREPORT_MAX_FILE_BYTES)"
                        )
                        continue
                    ext = path.rsplit(".", 1)[1]
                    ir.files[path] = f"artefacts/predictions/{ir.run_id}-{part}.{ext}"
            by_part = {PRED_NAMES[src]: dest for src, dest in ir.files.items()}
            fit = None
            if run.info.end_time and run.info.start_time:
                fit = round((run.info.end_time - run.info.start_time) / 1000.0, 3)
            for part, metric in keys:
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
                    }
                )
            result.new.append(ir)
        if problems:
            raise MlflowImportError(
                problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
            )
        if dry_run or not result.new:
            return result
        _write(root, client, result.new)
    return result


def _write(root: Path, client, new: list[ImportedRun]) -> None:
    """Copy the predictions (atomically, before the rows naming them), then append the rows."""
    from reportgen.project.files import MAX_FILE_BYTES
    from reportgen.record import Recorder, _locked
    from reportgen.safe import atomic_write

    rec = Recorder(root)
    with tempfile.TemporaryDirectory(prefix="evreport-mlflow-") as tmp:
        for ir in new:
            for src, dest in ir.files.items():
                try:
                    local = Path(client.download_artifacts(ir.mlflow_id, src, tmp))
                except Exception as e:
                    raise MlflowImportError(
                        f"cannot download {src} of run {ir.mlflow_id}: {_first_line(e)}"
                    ) from None
                if local.is_symlink() or not local.is_file():
                    raise MlflowImportError(f"{src} of run {ir.mlflow_id} is not a regular file")
                if local.stat().st_size > MAX_FILE_BYTES:
                    raise MlflowImportError(
                        f"{src} of run {ir.mlflow_id} is over the {MAX_FILE_BYTES:,}-byte limit"
                    )
                target = root / dest
                if target.exists():
                    raise MlflowImportError(f"{dest} already exists; not overwritten")
                atomic_write(target, local.read_bytes())
                shutil.rmtree(tmp, ignore_errors=True)
                os.makedirs(tmp, exist_ok=True)
        with _locked(root):
            header, rows = rec._read_rows()
            already = set(NOTE_RE.findall(" ".join(r.get("notes", "") for r in rows)))
            fresh = [r for ir in new if ir.mlflow_id not in already for r in ir.rows]
            rec._append(header, rows, fresh, drop=[])
