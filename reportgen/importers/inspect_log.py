"""Inspect AI ``.eval`` (and ``.json``) logs -> `EpochRun`s, read with Inspect's own
``inspect_ai.log.read_eval_log`` (the `[inspect]` extra), never by unzipping by hand.

Each log is opened by evreport and handed to Inspect as a file object, so a name is never read
as a URL (no network); its size, and a ``.eval`` archive's stated unpacked size, are capped
first. One sample's score is its ``--scorer``'s value as Inspect's ``value_to_float`` reads it
(C = 1, P = 0.5, I = 0, numbers as they are).
"""

from __future__ import annotations

import importlib.util
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reportgen.errors import clean_text, quote
from reportgen.importers.evallog import (
    EpochRun,
    EvalLogError,
    EvalLogUsage,
    LogProblems,
    checked_size,
    features_text,
    to_score,
)

INSTALL = "pip install 'evreport[inspect]'"
FORMATS = {".eval": "eval", ".json": "json"}


def require_inspect() -> None:
    if importlib.util.find_spec("inspect_ai") is None:
        raise EvalLogUsage(f"reading Inspect logs needs inspect-ai: {INSTALL}")


def _sentence(e: BaseException) -> str:
    text = clean_text(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__, 200)
    return f"{type(e).__name__}: {text}" if type(e).__name__ not in text else text


def _open(path: Path, cap: int):
    """The log as Inspect's EvalLog, or EvalLogError naming the file."""
    from inspect_ai.log import read_eval_log

    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise EvalLogError(
            f"{path}: not an Inspect log (.eval or .json); lm-evaluation-harness samples are "
            "imported with `evreport import lm-eval`"
        )
    checked_size(path, cap)
    if fmt == "eval":
        try:
            with zipfile.ZipFile(path) as z:
                unpacked = sum(i.file_size for i in z.infolist())
        except (zipfile.BadZipFile, OSError, EOFError) as e:
            raise EvalLogError(
                f"{path}: not a readable .eval log (truncated or another format: {_sentence(e)})"
            ) from None
        if unpacked > cap:
            raise EvalLogError(
                f"{path}: unpacks to {unpacked:,} bytes, over the {cap:,}-byte limit "
                "(EVREPORT_MAX_FILE_BYTES)"
            )
    try:
        with open(path, "rb") as f:
            return read_eval_log(f, format=fmt)  # type: ignore[arg-type]
    except Exception as e:  # Inspect's own errors for a broken or foreign file
        raise EvalLogError(
            f"{path}: not a readable Inspect log (truncated or another format: {_sentence(e)})"
        ) from None


def _config(log: Any) -> str:
    """The model and the generation settings it was run with: "openai/gpt-4o temperature=0.7"."""
    spec = log.eval
    gen = spec.model_generate_config
    items = gen.model_dump(exclude_none=True) if gen is not None else {}
    args = spec.model_args or {}
    parts = [str(spec.model)]
    parts += [f"{k}={v}" for k, v in sorted(items.items()) if not isinstance(v, dict | list)]
    parts += [f"{k}={v}" for k, v in sorted(args.items()) if not isinstance(v, dict | list)]
    return clean_text(" ".join(parts), 300)


def _env(spec: Any) -> str | None:
    """The packages the eval ran with, as the log names them: "inspect_ai=0.3.285"."""
    packages = spec.packages or {}
    return ";".join(f"{k}={clean_text(v, 40)}" for k, v in sorted(packages.items())) or None


def _scorer(log: Any, path: Path, wanted: str | None) -> str:
    names = [s.name for s in (log.eval.scorers or [])]
    if not names and log.samples:
        names = sorted({k for s in log.samples for k in (s.scores or {})})
    if wanted is not None:
        if wanted not in names:
            raise EvalLogError(
                f"{path}: no scorer {quote(wanted)}; its scorers are {names or 'none'}"
            )
        return wanted
    if len(names) != 1:
        raise EvalLogError(
            f"{path}: the log has {len(names)} scorers {names}; name one with --scorer"
            if names
            else f"{path}: the log has no scorer"
        )
    return names[0]


def read_inspect(
    paths: Sequence[str | Path],
    *,
    scorer: str | None = None,
    slice_keys: Sequence[str] = (),
) -> list[EpochRun]:
    """Every epoch of every log, or LogProblems with one line per bad log (file, sample id).

    Several logs of one model are its epochs in the order given: a second log's epoch 1
    follows the first log's last epoch."""
    from reportgen.project.files import ENV_PROBLEM, MAX_FILE_BYTES

    if ENV_PROBLEM:
        raise EvalLogUsage(ENV_PROBLEM)
    require_inspect()
    runs: list[EpochRun] = []
    problems: list[str] = []
    for p in paths:
        path = Path(p)
        try:
            epochs = _read_one(path, scorer, slice_keys, MAX_FILE_BYTES)
        except EvalLogError as e:
            problems.append(str(e))
            continue
        offset = len(runs)  # several logs of one model: their epochs are numbered on
        for r in epochs:
            r.epoch += offset
        runs += epochs
    if problems:
        raise LogProblems(problems)
    return runs


def _read_one(
    path: Path, wanted: str | None, slice_keys: Sequence[str], cap: int
) -> list[EpochRun]:
    log = _open(path, cap)
    status = str(log.status)
    if status != "success":
        why = f" ({_sentence(Exception(log.error.message))})" if log.error is not None else ""
        raise EvalLogError(
            f"{path}: the eval's status is {status!r}{why}, not 'success'; a log of an eval that "
            "did not finish is not a comparison of all its questions"
        )
    if not log.samples:
        raise EvalLogError(f"{path}: the log holds no samples")
    name = _scorer(log, path, wanted)
    spec = log.eval
    epochs = spec.config.epochs or 1
    dataset = spec.dataset.name if spec.dataset is not None else None
    features = features_text(
        task=spec.task, dataset=dataset, scorer=name, epochs=epochs, task_version=spec.task_version
    )
    started = (log.stats.started_at if log.stats is not None else None) or spec.created
    by_epoch: dict[int, EpochRun] = {}
    for s in log.samples:
        score = (s.scores or {}).get(name)
        value = to_score(score.value) if score is not None else None
        if value is None:
            what = (
                f"no score for the scorer {quote(name)}"
                if score is None
                else f"the {quote(name)} score {quote(score.value, 60)} is not one number"
            )
            raise EvalLogError(f"{path}: sample {quote(s.id)} epoch {s.epoch}: {what}")
        run = by_epoch.get(s.epoch)
        if run is None:
            run = by_epoch[s.epoch] = EpochRun(
                source=str(path),
                harness="inspect",
                epoch=int(s.epoch),
                ids=[],
                scores=[],
                scorer=name,
                started_at=str(started) if started else None,
                config=_config(log),
                features=features,
                labels={k: [] for k in slice_keys},
                detail=f"eval_id={clean_text(spec.eval_id, 40)}",
                env=_env(spec),
            )
        run.ids.append(s.id)
        run.scores.append(value)
        meta = s.metadata or {}
        for k in slice_keys:
            if k not in meta:
                keys = sorted(meta)
                raise EvalLogError(
                    f"{path}: sample {quote(s.id)} has no metadata key {quote(k)} "
                    f"(--slice-key); its keys are {keys[:10]}"
                )
            run.labels[k].append(clean_text(meta[k], 120))
    if sorted(by_epoch) != list(range(1, epochs + 1)):
        raise EvalLogError(
            f"{path}: the eval ran {epochs} epoch(s) but the log holds samples of epochs "
            f"{sorted(by_epoch)}"
        )
    return [by_epoch[e] for e in sorted(by_epoch)]
