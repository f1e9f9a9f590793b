"""lm-evaluation-harness ``--log_samples`` files -> `EpochRun`s, read as plain JSON lines.

``lm_eval --log_samples`` writes ``samples_<task>_<time>.jsonl`` (one JSON object per document
and filter: ``doc_id``, ``doc``, ``target``, ``arguments``, ``resps``, ``filtered_resps``,
``filter``, ``metrics`` (the metric names) and one value per metric) beside
``results_<time>.json`` (``config`` with the model and its arguments, ``n-shot``, ``versions``,
``higher_is_better``, ``date``). lm-eval itself is not needed: each line is parsed with
``json`` under a size cap; nothing in a file is executed. Each samples file is one run of the
model over the questions (seed 1, 2, ... in the order given).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
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
)

#: samples_<task>_<time>.jsonl, the time as lm-eval writes it (2024-05-13T12-34-56.123456)
SAMPLES_RE = re.compile(
    r"^samples_(?P<task>.+)_(?P<stamp>\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl$"
)
#: the keys of a logged sample that are not metric values
BOOKKEEPING = {
    "doc_id",
    "doc",
    "target",
    "arguments",
    "resps",
    "filtered_resps",
    "filter",
    "metrics",
    "doc_hash",
    "prompt_hash",
    "target_hash",
}


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _loads(text: str) -> Any:
    return json.loads(text, parse_constant=_reject_constant)


def _results(path: Path, stamp: str | None, cap: int) -> tuple[dict | None, str | None]:
    """results_<time>.json beside the samples file (same time), parsed; (None, note) without."""
    if stamp is None:
        return (
            None,
            f"{path.name}: not named samples_<task>_<time>.jsonl, so no results file is read",
        )
    res = path.with_name(f"results_{stamp}.json")
    if not res.is_file():
        return None, f"{path.name}: no {res.name} beside it: the model's arguments are not recorded"
    if res.stat().st_size > cap:
        raise EvalLogError(f"{res}: over the {cap:,}-byte limit (EVREPORT_MAX_FILE_BYTES)")
    try:
        doc = _loads(res.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise EvalLogError(f"{res}: not a readable lm-eval results file ({e})") from None
    if not isinstance(doc, dict):
        raise EvalLogError(f"{res}: not a readable lm-eval results file (not a JSON object)")
    return doc, None


def _pick(what: str, flag: str, names: list[str], wanted: str | None, path: Path) -> str:
    if wanted is not None:
        if wanted not in names:
            raise EvalLogError(f"{path}: no {what} {quote(wanted)}; its {what}s are {names}")
        return wanted
    if len(names) != 1:
        raise EvalLogError(
            f"{path}: the samples have {len(names)} {what}s {names}; name one with {flag}"
        )
    return names[0]


def _obj(doc: dict, key: str) -> dict:
    """``doc[key]`` when it is a JSON object, else an empty one."""
    v = doc.get(key)
    return v if isinstance(v, dict) else {}


def _metric_names(rec: dict) -> list:
    """The metrics a sample logs: its ``metrics`` list, else its keys that are not bookkeeping."""
    named = rec.get("metrics")
    return named if isinstance(named, list) else [k for k in rec if k not in BOOKKEEPING]


def _config(results: dict | None, task: str) -> tuple[str | None, dict[str, Any]]:
    """(the config cell: model and model arguments, what the features cell adds)."""
    if results is None:
        return None, {}
    cfg = _obj(results, "config")
    model = cfg.get("model_name") or results.get("model_name") or cfg.get("model")
    args = cfg.get("model_args")
    if isinstance(args, dict):
        args = ",".join(f"{k}={v}" for k, v in sorted(args.items()))
    config = " ".join(clean_text(x, 200) for x in (model, args) if x) or None
    nshot = _obj(results, "n-shot").get(task)
    version = _obj(results, "versions").get(task)
    return config, {"n_shot": nshot, "task_version": version}


def _started(results: dict | None, stamp: str | None) -> str | None:
    date = results.get("date") if results else None
    if isinstance(date, int | float) and not isinstance(date, bool) and 0 < date < 1e11:
        t = datetime.fromtimestamp(float(date), tz=UTC)
        return t.isoformat(timespec="microseconds").replace("+00:00", "Z")
    if stamp:
        try:
            t = datetime.strptime(stamp.split(".")[0], "%Y-%m-%dT%H-%M-%S").replace(tzinfo=UTC)
        except ValueError:
            return None
        return t.isoformat().replace("+00:00", "Z")
    return None


def _records(path: Path, cap: int) -> list[tuple[int, dict]]:
    checked_size(path, cap)
    out: list[tuple[int, dict]] = []
    with open(path, "rb") as f:
        for line_no, raw in enumerate(f, start=1):
            if not raw.strip():
                continue
            try:
                rec = _loads(raw.decode("utf-8"))
            except (ValueError, UnicodeDecodeError) as e:
                raise EvalLogError(
                    f"{path}:{line_no}: not a JSON line of lm-eval samples (truncated or another "
                    f"format: {clean_text(e, 120)})"
                ) from None
            if not isinstance(rec, dict) or "doc_id" not in rec:
                raise EvalLogError(
                    f"{path}:{line_no}: not an lm-eval sample (a JSON object with doc_id); "
                    "Inspect logs are imported with `evreport import inspect`"
                )
            out.append((line_no, rec))
    if not out:
        raise EvalLogError(f"{path}: holds no samples")
    return out


def read_lm_eval(
    paths: Sequence[str | Path],
    *,
    metric: str | None = None,
    filter_name: str | None = None,
    slice_keys: Sequence[str] = (),
) -> list[EpochRun]:
    """One EpochRun per samples file (epochs 1, 2, ... in the order given), or LogProblems with
    one line per bad file (file, line or doc_id)."""
    from reportgen.project.files import ENV_PROBLEM, MAX_FILE_BYTES

    if ENV_PROBLEM:
        raise EvalLogUsage(ENV_PROBLEM)
    runs: list[EpochRun] = []
    problems: list[str] = []
    for k, p in enumerate(paths, start=1):
        try:
            runs.append(_read_one(Path(p), k, metric, filter_name, slice_keys, MAX_FILE_BYTES))
        except EvalLogError as e:
            problems.append(str(e))
    if problems:
        raise LogProblems(problems)
    return runs


def _read_one(
    path: Path,
    epoch: int,
    wanted_metric: str | None,
    wanted_filter: str | None,
    slice_keys: Sequence[str],
    cap: int,
) -> EpochRun:
    records = _records(path, cap)
    m = SAMPLES_RE.match(path.name)
    stamp = m.group("stamp") if m else None
    results, note = _results(path, stamp, cap)
    task = m.group("task") if m else None
    if (
        task is None
        and results
        and isinstance(results.get("configs"), dict)
        and len(results["configs"]) == 1
    ):
        task = next(iter(results["configs"]))
    filters = sorted({str(r.get("filter", "none")) for _, r in records})
    flt = _pick("filter", "--filter", filters, wanted_filter, path)
    records = [(n, r) for n, r in records if str(r.get("filter", "none")) == flt]
    names = sorted({str(x) for _, r in records for x in _metric_names(r)})
    name = _pick("metric", "--metric", names, wanted_metric, path)
    ids, scores = [], []
    labels: dict[str, list[Any]] = {k: [] for k in slice_keys}
    for line_no, r in records:
        doc_id = r["doc_id"]
        if isinstance(doc_id, bool) or not isinstance(doc_id, int | str):
            raise EvalLogError(f"{path}:{line_no}: doc_id {quote(doc_id, 40)} is not an id")
        where = f"{path}:{line_no}: doc_id {doc_id}"
        if name not in r:
            raise EvalLogError(f"{where}: no value for the metric {quote(name)}")
        v = r[name]
        if isinstance(v, bool):
            v = float(v)
        if not isinstance(v, int | float) or v != v or v in (float("inf"), float("-inf")):
            raise EvalLogError(
                f"{where}: the {quote(name)} value {quote(v, 60)} is not one number per question "
                "(lm-eval aggregates such metrics over the whole set); choose another --metric"
            )
        ids.append(doc_id)
        scores.append(float(v))
        doc = _obj(r, "doc")
        for key in slice_keys:
            if key not in doc:
                raise EvalLogError(
                    f"{where}: its doc has no key {quote(key)} (--slice-key); its keys are "
                    f"{sorted(map(str, doc))[:10]}"
                )
            labels[key].append(clean_text(doc[key], 120))
    config, extra = _config(results, task or "")
    hib = None
    if results and isinstance(results.get("higher_is_better"), dict):
        hib = (results["higher_is_better"].get(task or "") or {}).get(name)
    if hib is False:
        raise EvalLogError(
            f"{path}: lm-eval says lower {name} is better; import a metric where higher is "
            "better (the report compares correct answers)"
        )
    features = features_text(task=task, filter=flt, metric=name, **extra)
    return EpochRun(
        source=str(path),
        harness="lm-eval",
        epoch=epoch,
        ids=ids,
        scores=scores,
        scorer=name,
        started_at=_started(results, stamp),
        config=config,
        features=features,
        labels=labels,
        detail=f"filter={flt}",
        env=f"lm_eval={clean_text(results['lm_eval_version'], 40)}"
        if results and isinstance(results.get("lm_eval_version"), str)
        else None,
        note=note,
    )
