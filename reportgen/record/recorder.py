"""The input side for users' code: `Recorder` appends runs.csv rows and writes predictions.

The logged value is computed by the same functions the report uses to recompute it
(`reportgen.stats.metrics.per_row_metric`, the threshold rule of
`reportgen.checks.select`), from exactly the arrays written to the predictions file,
so rung 1's "logged equals recomputed" holds by construction.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import warnings
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from reportgen.project.folds import FOLD_SPLIT
from reportgen.project.manifest import (
    MANIFEST,
    canonical_part,
    split_fingerprint,
)
from reportgen.project.runs import REQUIRED
from reportgen.record.folds import (
    FOLDS_FILE,
    check_fold_rows,
    fold_members,
    same_fold,
    write_folds,
)
from reportgen.record.frozen import PartIds, read_manifest
from reportgen.record.inputs import BinaryRows, HeldOutFold, Run, TaskRows, fold_cells
from reportgen.record.io import (
    csv_bytes,
    env_string,
    locked,
    parquet_bytes,
    read_predictions,
    utc_now,
)
from reportgen.record.rows import (
    COLUMNS,
    THRESHOLD_METRICS,
    append_rows,
    predictions_frame,
)
from reportgen.safe import atomic_write, safe_file_name
from reportgen.stats.metrics import per_row_metric

if TYPE_CHECKING:
    from reportgen.project.config import Config

PREDICTIONS_DIR = "artefacts/predictions"


class Recorder:
    """Log training runs into an evreport project folder: one call per run and split.

    ``Recorder("project/")`` creates the layout of ``evreport init`` where it is missing
    (never overwriting a file). Predictions are Parquet, or CSV with ``predictions="csv"``
    (floats written with round-trip precision). See docs/recording.md.
    """

    def __init__(
        self, project: str | os.PathLike, *, runs: str = "runs.csv", predictions: str = "parquet"
    ) -> None:
        from reportgen.scaffold import TEMPLATE

        if predictions not in ("parquet", "csv"):
            raise ValueError(
                f"predictions={predictions!r} is not valid. It should be one of ['parquet', 'csv']"
            )
        self.predictions_format = predictions
        self.root = Path(project)
        for d in ("split", "artefacts/checks", PREDICTIONS_DIR):
            (self.root / d).mkdir(parents=True, exist_ok=True)
        self.runs_path = self.root / runs
        with locked(self.root):
            if not self.runs_path.exists():
                atomic_write(self.runs_path, (",".join(COLUMNS) + "\n").encode())
            toml = self.root / "evreport.toml"
            if not toml.exists():
                atomic_write(toml, TEMPLATE.encode())
        self._env = env_string()
        self._part_ids = PartIds(self.root)
        self._folds_cache: dict = {}

    # ---- reading the project ------------------------------------------------------------

    def _read_rows(self) -> tuple[list[str], list[dict[str, str]]]:
        text = self.runs_path.read_text(encoding="utf-8-sig")
        reader = csv.reader(io.StringIO(text, newline=""))
        header = [h.strip() for h in next(reader, [])]
        rows = [dict(zip(header, r, strict=False)) for r in reader if any(c.strip() for c in r)]
        return header, rows

    def _config(self) -> Config:
        from reportgen.errors import Problem
        from reportgen.project.config import parse_config

        problems: list[Problem] = []
        path = self.root / "evreport.toml"
        cfg = parse_config(path.read_text(encoding="utf-8-sig"), "evreport.toml", problems)
        errors = [p for p in problems if p.severity == "error"]
        if cfg is None or errors:
            raise ValueError(
                f"evreport.toml has errors ({errors[0] if errors else 'unreadable'}); the "
                "threshold and costs it sets are needed to compute this metric"
            )
        return cfg

    def _threshold(self, run_id: str, part: str, y, p, rows: list[dict[str, str]]) -> float:
        """The threshold the report will use for this run (checks.select.threshold_for)."""
        from reportgen.stats.threshold import choose_threshold

        cfg = self._config()
        if isinstance(cfg.threshold, float):
            return cfg.threshold
        if part == FOLD_SPLIT:  # no validation rows inside a fold (checks.cv.select)
            return 0.5
        if part == "validation":
            vy, vp = y, p
        else:
            vy = vp = None
            for r in rows:
                if (
                    r.get("run_id") == run_id
                    and canonical_part(r.get("split", "")) == "validation"
                    and r.get("predictions")
                    and r.get("status", "ok").strip().lower() != "failed"
                ):
                    frame = read_predictions(self.root / r["predictions"])
                    if {"y", "p"} <= set(frame.columns):
                        vy = frame["y"].to_numpy(dtype=float)
                        vp = frame["p"].to_numpy(dtype=float)
                    break
            if vp is None:
                warnings.warn(
                    f"run {run_id!r} has no validation predictions yet: the {part} value is "
                    "computed at threshold 0.5; log validation before test so the report "
                    "recomputes the same value",
                    stacklevel=5,  # _threshold, _logged, _record, Recorder.log, the caller
                )
                return 0.5
        chosen = choose_threshold(vp, vy, cfg.false_positive, cfg.false_negative)
        if chosen is None:  # an empty validation file: the same TypeError as float(None)
            raise TypeError("the validation predictions have no rows to choose a threshold on")
        return float(chosen)

    # ---- the public API -----------------------------------------------------------------

    def log(
        self,
        *,
        model: str,
        seed: int,
        split: str,
        metric: str | Sequence[str],
        row_id: Any = None,
        y: Any = None,
        p: Any = None,
        y_pred: Any = None,
        classes: Any = None,
        correct: Any = None,
        category: Any = None,
        text: Any = None,
        values: Any = None,
        columns: dict[str, Any] | None = None,
        run_id: str | None = None,
        config: str | None = None,
        features: str | None = None,
        split_id: str | None = None,
        fit_seconds: float | None = None,
        started_at: datetime | str | None = None,
        status: str = "ok",
        notes: str | None = None,
        env: str | None = None,
        replace: bool = False,
        repeat: int | None = None,
        fold: int | None = None,
        train_rows: int | None = None,
    ) -> dict[str, float | None]:
        """Append one runs.csv row per metric and write this run's predictions on ``split``.

        Give ``y`` and ``p`` (binary: the class-1 probability; multi-class: predict_proba's
        (N, K) output, with ``classes`` naming its columns), ``y`` and ``y_pred``
        (regression), ``correct`` (question sets, with optional ``category``/``text``), or
        ``values`` (a per-row metric column; a dict ``{metric: values}`` for several). ``columns`` adds per-row columns (block, slice).
        Returns ``{metric: logged value}``. Bad input raises ValueError naming the argument.
        Cross-validation: ``split="fold"`` with ``repeat`` (default 1) and ``fold`` (from 1),
        and ``train_rows`` when the model trained on fewer rows than the other folds hold.
        """
        run = Run.of(
            model=model,
            seed=seed,
            split=split,
            metric=metric,
            status=status,
            run_id=run_id,
            config=config,
            features=features,
            split_id=split_id,
            fit_seconds=fit_seconds,
            started_at=started_at,
            notes=notes,
            env=env,
        )
        held_out = HeldOutFold.of(run.split, repeat, fold, train_rows)
        manifest = self._frozen(split, run.split)
        rows, frame, per_row = None, None, dict[str, Any]()
        if run.status == "ok":
            given = {
                "y": y,
                "p": p,
                "y_pred": y_pred,
                "classes": classes,
                "correct": correct,
                "category": category,
                "text": text,
                "values": values,
                "columns": columns,
            }
            rows, frame, per_row = predictions_frame(run.metrics, row_id, given, self._multiclass)
            if manifest is not None and held_out is not None:
                members = fold_members(self.root, manifest, self._folds_cache)
                if members is not None:
                    check_fold_rows(members, fold_cells(held_out), frame["row_id"], FOLDS_FILE)
            elif manifest is not None:
                self._part_ids.check(manifest, run.split, frame["row_id"])
        return self._record(run, held_out, manifest, rows, frame, per_row, replace)

    def write_folds(
        self, splitter: Any, X: Any, y: Any = None, groups: Any = None, row_id: Any = None
    ):
        """Write split/folds.csv from a scikit-learn k-fold splitter and return its folds
        (``Fold(repeat, fold, train, test)``, index arrays into ``X``); freeze afterwards."""
        return write_folds(self.root, splitter, X, y, groups, row_id)

    def freeze(self, created: str | None = None) -> dict:
        """Write split/manifest.json from the files under split/ (as `evreport freeze`)."""
        from reportgen.project.manifest import freeze

        return freeze(self.root, created)

    # ---- the steps of log ----------------------------------------------------------------

    def _frozen(self, split: str, part: str) -> dict | None:
        """The manifest, with ``part`` one of its parts (or a warning that there is none yet)."""
        manifest = read_manifest(self.root)
        parts = None if manifest is None else {f["part"] for f in manifest["files"]}
        if parts is None:
            warnings.warn(
                f"{self.root / MANIFEST} does not exist: freeze the split (rec.freeze()) before "
                "the runs, or rung 2 cannot be shown",
                stacklevel=3,
            )
        elif (part if part != FOLD_SPLIT else "folds") not in parts:
            raise ValueError(
                f"split={split!r} is not a part of the frozen split. It should be one of "
                f"{sorted(parts)}"
            )
        return manifest

    def _record(
        self,
        run: Run,
        held_out: HeldOutFold | None,
        manifest: dict | None,
        rows: TaskRows | None,
        frame: dict | None,
        per_row: dict,
        replace: bool,
    ) -> dict[str, float | None]:
        """Write the predictions and append one runs.csv row per metric; the logged values."""
        split_id = run.split_id
        if split_id is None and manifest is not None:
            split_id = split_fingerprint(
                str(manifest.get("row_id") or "row_id"),
                [(f["part"], str(f["sha256"])) for f in manifest["files"]],
            )
        cv = fold_cells(held_out)
        run_id = run.id_for(held_out)
        cells = {
            "run_id": run_id,
            "model": run.model,
            "seed": run.seed,
            "split": run.split,
            "status": run.status,
            "config": run.config,
            "features": run.features,
            "split_id": split_id,
            "fit_seconds": run.fit_seconds,
            "env": self._env if run.env is None else run.env,
            "notes": run.notes,
            **cv,
        }
        metrics = list(run.metrics)
        fold_id = held_out.id if held_out is not None else None
        with locked(self.root):
            header, logged_rows = self._read_rows()
            same_run, on_part = self._claim(logged_rows, header, cells, cv, metrics, replace)
            started = run.started_at
            if started is None:
                old = [r.get("started_at") for r in same_run if r.get("started_at")]
                started = old[0] if old else utc_now()
            pred_rel = self._write_predictions(
                run_id, fold_id, run.split, frame, replace, logged_rows
            )
            logged = self._logged(metrics, rows, per_row, run_id, run.split, logged_rows)
            new = [
                {**cells, "metric": m, "value": v, "started_at": started, "predictions": pred_rel}
                for m, v in logged.items()
            ]
            # replace=True replaces every row of this run on this split (they share the file)
            self._append(header, logged_rows, new, drop=on_part if replace else [])
        return logged

    def _claim(
        self,
        rows: list[dict[str, str]],
        header: list[str],
        cells: dict[str, Any],
        cv: dict,
        metrics: list[str],
        replace: bool,
    ) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
        """The run's rows already logged, and those on this part and fold; ValueError when the
        run id names another network or a row would be logged twice without ``replace``."""
        missing = [c for c in REQUIRED if c not in header]
        if missing:
            raise ValueError(f"{self.runs_path} lacks the required column(s) {missing}")
        run_id, model, seed, part = (cells[k] for k in ("run_id", "model", "seed", "split"))
        same_run = [r for r in rows if r.get("run_id") == run_id]
        for r in same_run:
            if r.get("model") != model or str(r.get("seed", "")).strip() != str(seed):
                raise ValueError(
                    f"run_id={run_id!r} is already used by model {r.get('model')!r} seed "
                    f"{r.get('seed')}; a run_id names one trained network"
                )
        on_part = [
            r for r in same_run if canonical_part(r.get("split", "")) == part and same_fold(r, cv)
        ]
        clash = [r for r in on_part if r.get("metric") in metrics]
        if clash and not replace:
            raise ValueError(
                f"run_id={run_id!r} already has a {part} row for metric "
                f"{clash[0].get('metric')!r} in {self.runs_path.name}; pass replace=True to "
                "replace it"
            )
        return same_run, on_part

    def _write_predictions(
        self,
        run_id: str,
        fold_id: str | None,
        part: str,
        frame: dict | None,
        replace: bool,
        logged_rows: list[dict[str, str]],
    ) -> str:
        """Write the predictions file (before the row that names it); its project path or "".

        One file name per run id: a run id that is not already a safe file name (``x/y``,
        ``../x``) gets a short hash of itself, so it never shares ``x-y``'s file; and a file
        that runs.csv names for another run id is never written, replace or not."""
        if frame is None:
            return ""
        ext = self.predictions_format
        stem = safe_file_name(run_id, sep="-", empty=None)
        if stem != run_id:
            stem += "-" + hashlib.sha256(run_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        if fold_id is not None and not stem.endswith(fold_id):
            stem += f"-{fold_id}"  # one run id for many folds: a file per fold
        pred_rel = f"{PREDICTIONS_DIR}/{stem}-{part}.{ext}"
        other = next(
            (
                r.get("run_id")
                for r in logged_rows
                if r.get("predictions") == pred_rel and r.get("run_id") != run_id
            ),
            None,
        )
        if other is not None:
            raise ValueError(
                f"{pred_rel} holds the predictions of run_id={other!r} in "
                f"{self.runs_path.name}; run_id={run_id!r} cannot write it (replace=True "
                "replaces only this run's own file): give this run another run_id"
            )
        target = self.root / pred_rel
        data = parquet_bytes(frame) if ext == "parquet" else csv_bytes(frame)
        if target.exists() and not replace and target.read_bytes() != data:
            raise ValueError(
                f"{pred_rel} already exists with other predictions; pass replace=True "
                "to overwrite it"
            )
        atomic_write(target, data)
        return pred_rel

    def _logged(
        self,
        metrics: list[str],
        rows: TaskRows | None,
        per_row: dict,
        run_id: str,
        part: str,
        logged_rows: list[dict[str, str]],
    ) -> dict[str, float | None]:
        """Each metric's logged value: the mean of its per-row values (None for a failed run),
        threshold metrics of a binary run at the threshold the report will use."""
        logged: dict[str, float | None] = {}
        for m in metrics:
            value = None
            if rows is not None:
                if m in THRESHOLD_METRICS and isinstance(rows, BinaryRows):
                    t = self._threshold(run_id, part, rows.y, rows.p, logged_rows)
                    per_row[m] = _metric_rows(m, rows, t, self)
                value = float(np.mean(per_row[m]))
            logged[m] = value
        return logged

    # ---- helpers ------------------------------------------------------------------------

    def _multiclass(self, p) -> bool:
        """A 2-D ``p`` is multi-class: with 3 or more columns, or 2 under [claim] task = "multiclass"."""
        shape = np.shape(p)
        if len(shape) != 2 or shape[1] < 2:
            return False
        return shape[1] > 2 or self._config().task == "multiclass"

    def _append(self, header, rows, new, drop) -> None:
        append_rows(self.runs_path, header, rows, new, drop)


def _metric_rows(m: str, rows: BinaryRows, threshold: float, rec: Recorder) -> np.ndarray:
    cfg = rec._config()
    return per_row_metric(
        m,
        y=rows.y,
        p=rows.p,
        threshold=threshold,
        c_fp=cfg.false_positive,
        c_fn=cfg.false_negative,
    )
