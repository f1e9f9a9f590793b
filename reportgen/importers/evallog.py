"""Language-model eval logs (Inspect AI, lm-evaluation-harness) into a project: what both
importers share.

A reader (`inspect_log`, `lm_eval_log`) turns its logs into `EpochRun`s: one model's per-question
scores on one part for one epoch (one repeated evaluation). `import_runs` checks them all
against each other and against the frozen split, then writes them through `Recorder`: one
predictions file and one runs.csv row per model, epoch and metric, seed = epoch. Nothing is
written unless every log and every check passes (validate everything, then write).

The questions a log must answer (the frozen part, or the split file written from the log) are
importers/questions.py's.

Logs are untrusted input: files are capped in size, nothing in them is executed, no network
is used, and every message names the file and, where there is one, the sample id.
"""

from __future__ import annotations

import math
import re
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportgen.errors import EXIT_USAGE, clean_text
from reportgen.importers.questions import (
    EvalLogError,
    PartQuestions,
    check_frozen,
    frozen_before_runs,
    logged,
    part_questions,
    shown,
    write_split,
)

#: the parts an eval log can fill: the frozen question set, or the general set of the
#: forgetting check (methods.md section 8)
PARTS = ("test", "general")
#: a runs.csv ``notes`` cell of an imported epoch starts with this
NOTE_PREFIX = "evallog"
NOTE_RE = re.compile(r"^evallog (?P<harness>\S+) ")


class EvalLogUsage(EvalLogError):
    """The harness's reader is not installed, or an option cannot be used."""

    slug = "evallog-usage"
    exit_code = EXIT_USAGE


class LogProblems(EvalLogError):
    """Several logs cannot be imported: one line each (file, sample id)."""

    def __init__(self, lines: Sequence[str]):
        self.lines = list(lines)
        super().__init__(
            self.lines[0] if len(self.lines) == 1 else f"{len(self.lines)} logs cannot be imported"
        )


def checked_size(path: Path, cap: int) -> int:
    """``path``'s size in bytes, once it is a readable file within ``cap``; else an
    EvalLogError naming the file (a log is untrusted input: its size is checked first)."""
    try:
        size = path.stat().st_size
    except OSError as e:
        raise EvalLogError(f"{path}: cannot be read ({e.strerror or e})") from None
    if not path.is_file():
        raise EvalLogError(f"{path}: not a file")
    if size > cap:
        raise EvalLogError(
            f"{path}: {size:,} bytes, over the {cap:,}-byte limit (EVREPORT_MAX_FILE_BYTES)"
        )
    return size


def to_score(value: Any) -> float | None:
    """A per-question score as Inspect's ``value_to_float`` reads it (C = 1, P = 0.5, I and
    N = 0, yes/true = 1, no/false = 0, numbers as they are), or None when it is not one score
    (a list, a dict, other text, NaN or infinity)."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        f = float(value)
        return f if math.isfinite(f) else None
    if isinstance(value, str):
        text = value.strip()
        named = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}
        if text in named:
            return named[text]
        low = text.lower()
        if low in ("yes", "true"):
            return 1.0
        if low in ("no", "false"):
            return 0.0
        try:
            f = float(text)
        except ValueError:
            return None
        return f if math.isfinite(f) else None
    return None


@dataclass
class EpochRun:
    """One model's scores on one part for one epoch of one log."""

    source: str  # the log file as the user named it
    harness: str  # "inspect" or "lm-eval"
    epoch: int  # from 1, the runs.csv seed
    ids: list[Any]  # question ids (int or str), in log order
    scores: list[float]
    #: the metric it is recorded as: "accuracy" when every score is 0 or 1, else the scorer's
    #: (metric's) name as a per-row column metric
    scorer: str
    started_at: str | None = None
    config: str | None = None
    #: what must be the same for both models: task, dataset, scorer, epochs
    features: str | None = None
    #: question id -> {slice key: label}
    labels: dict[str, list[Any]] = field(default_factory=dict)
    detail: str = ""  # for the notes cell: eval id, task version ...
    note: str | None = None  # what the user should know about how the log was read
    env: str | None = None  # the harness's packages, as the log names them

    @property
    def metric(self) -> str:
        return "accuracy" if all(s in (0.0, 1.0) for s in self.scores) else _column(self.scorer)


def _column(name: str) -> str:
    """A per-row column metric named after the scorer; never a built-in metric's name."""
    from reportgen.stats.metrics import HIGHER_IS_BETTER

    safe = re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_") or "score"
    return f"{safe}_score" if safe in HIGHER_IS_BETTER else safe


def features_text(**parts: Any) -> str:
    """The runs.csv ``features`` cell: "task=gpqa; dataset=gpqa_diamond; scorer=choice; epochs=5"."""
    return "; ".join(f"{k}={clean_text(v, 120)}" for k, v in parts.items() if v not in (None, ""))


@dataclass
class Imported:
    """What an import wrote (or would write)."""

    model: str
    part: str
    metric: str
    epochs: list[int]
    questions: int
    #: mean score per epoch, as logged in runs.csv
    means: list[float]
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    dry_run: bool = False


def check_epochs(runs: list[EpochRun]) -> list[str]:
    """Problems of one model's epochs among themselves: duplicated ids within an epoch,
    epochs of different questions, two logs with the same epoch, mixed scorers."""
    problems = []
    for r in runs:
        dup = sorted((i for i, n in Counter(map(str, r.ids)).items() if n > 1), key=str)
        if dup:
            problems.append(
                f"{r.source}: epoch {r.epoch} has the sample id(s) {shown(dup)} more than once; "
                "each question is answered once per epoch"
            )
    if problems:
        return problems
    first = runs[0]
    ref = {str(i) for i in first.ids}
    for r in runs[1:]:
        ids = {str(i) for i in r.ids}
        if ids != ref:
            missing = sorted(ref - ids, key=str)
            extra = sorted(ids - ref, key=str)
            said = []
            if missing:
                said.append(f"lacks {shown(missing)}")
            if extra:
                said.append(f"has {shown(extra)} that epoch {first.epoch} of {first.source} lacks")
            problems.append(
                f"{r.source}: epoch {r.epoch} answers other questions than epoch {first.epoch} "
                f"of {first.source}: it {' and '.join(said)}; every epoch must answer the same "
                "questions"
            )
    seen: dict[int, str] = {}
    for r in runs:
        if r.epoch in seen:
            problems.append(
                f"{r.source}: epoch {r.epoch} is also in {seen[r.epoch]}; import logs of "
                "different epochs, or one log per command"
            )
        seen[r.epoch] = r.source
    kinds = {r.scorer for r in runs}
    if len(kinds) > 1:
        problems.append(
            f"the logs are scored by different scorers ({', '.join(sorted(kinds))}); one "
            "import is one scorer"
        )
    return problems


def _says_samples(root: Path) -> bool:
    """evreport.toml already says the repeats are samples (or will: it is written here)."""
    import tomllib

    path = root / "evreport.toml"
    if not path.exists():
        return True
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (ValueError, OSError):
        return False
    ev = doc.get("evaluation")
    return isinstance(ev, dict) and ev.get("repeats") == "samples"


def run_id_for(model: str, epoch: int) -> str:
    from reportgen.safe import safe_file_name

    return f"{safe_file_name(model, sep='-', empty='model')}-e{epoch}"


def _already(rows: list[dict[str, str]], model: str, part: str, runs: list[EpochRun]) -> str | None:
    """A sentence when runs.csv already has one of these epochs on this part."""
    from reportgen.project.manifest import canonical_part

    wanted = {run_id_for(model, r.epoch) for r in runs}
    for line, row in enumerate(rows, start=2):
        rid = (row.get("run_id") or "").strip()
        if rid in wanted and canonical_part((row.get("split") or "").strip()) == part:
            return (
                f"runs.csv:{line} already has {model} epoch {row.get('seed')} on {part} "
                f"(run {rid}); remove its rows and predictions file to import it again"
            )
        if rid in wanted and (row.get("model") or "") != model:
            return f"runs.csv:{line}: run id {rid} names model {row.get('model')!r}, not {model!r}"
    return None


def _other_features(rows: list[dict[str, str]], model: str, part: str, features: str) -> list[str]:
    """Warnings when another imported model's log on this part differs in task, dataset,
    scorer or epochs (the same-features fact will fail and name it)."""
    from reportgen.project.manifest import canonical_part

    out, seen = [], set()
    for row in rows:
        other = row.get("model") or ""
        f = (row.get("features") or "").strip()
        if (
            other == model
            or other in seen
            or not NOTE_RE.match(row.get("notes") or "")
            or canonical_part((row.get("split") or "").strip()) != part
        ):
            continue
        seen.add(other)
        if f != features:
            out.append(
                f"{model}'s log differs from {other}'s on {part}: {features!r} against {f!r}; "
                "the report's same-features fact fails until both come from the same task, "
                "dataset, scorer and epochs"
            )
    return out


EVAL_TEMPLATE = """\
# evreport.toml: the claim and the decision rule, written by `evreport import {harness}`.
# Fix the claim and the rule BEFORE the runs you compare (docs/format.md).

title  = "{task}: a candidate model against {model}"

[claim]
text      = "The candidate answers more {task} questions correctly than {model}."
kind      = "model-vs-baseline"   # or "before-after": {model} before tuning, the candidate after
candidate = "candidate"           # the --model name of the other model's import
baseline  = "{model}"
metric    = "{metric}"
{direction}
[evaluation]
repeats   = "samples"             # the epochs are repeated samples of one model, not retraining
{slice}
# [general]                       # before-after: the general set of the forgetting check
# split    = "general"            # imported with --part general
# max_drop = 0.02
"""


def _template(harness: str, run: EpochRun, model: str, slice_key: str | None) -> str:
    metric = run.metric
    task = re.search(r"task=([^;]+)", run.features or "")
    return EVAL_TEMPLATE.format(
        harness=harness,
        task=(task.group(1) if task else "the eval").replace('"', "'"),
        model=model.replace('"', "'"),
        metric=metric,
        direction="" if metric == "accuracy" else "higher_is_better = true\n",
        slice=f'slice     = "{slice_key}"' if slice_key else '# slice   = "category"',
    )


def import_runs(
    project: str | Path,
    runs: list[EpochRun],
    *,
    model: str,
    part: str,
    harness: str,
    slice_keys: Sequence[str] = (),
    dry_run: bool = False,
) -> Imported:
    """Check one model's epochs on one part against each other, the frozen split and runs.csv,
    then write them (nothing when a check fails: EvalLogError). Without a frozen split the
    questions of the log become split/<part>.csv, frozen now: after the runs, as rung 2 says."""
    if part not in PARTS:
        raise EvalLogUsage(f"--part {part!r} is not valid. It should be one of {list(PARTS)}")
    if not model.strip():
        raise EvalLogUsage("--model must name the model (the name runs.csv and evreport.toml use)")
    if not runs:
        raise EvalLogError("the logs hold no samples")
    problems = check_epochs(runs)
    if problems:
        raise LogProblems(problems)
    root = Path(project)
    if root.exists() and not root.is_dir():
        raise EvalLogUsage(f"{root} is not a folder")
    have = part_questions(root, part) if root.exists() else PartQuestions(None, None, None, False)
    first = runs[0]
    if have.manifest is not None and not have.frozen and frozen_before_runs(root, have.manifest):
        raise EvalLogError(
            f"the frozen split (split/manifest.json) has no {part} part; write "
            f"split/{part}.csv with the questions' ids (column row_id) and freeze again before "
            "importing, or the report cannot pair the versions on frozen questions"
        )
    result = Imported(
        model=model,
        part=part,
        metric=first.metric,
        epochs=[r.epoch for r in runs],
        questions=len(first.ids),
        means=[math.fsum(r.scores) / len(r.scores) for r in runs],
        dry_run=dry_run,
    )
    if have.ids is not None:
        what = f"the {'frozen ' if have.frozen else ''}{part} part ({have.where})"
        for r in runs:
            bad = check_frozen(r.ids, have.ids, what, r.source)
            if bad:
                raise EvalLogError(bad)
    metrics = {r.metric for r in runs}
    if len(metrics) > 1:
        raise EvalLogError(
            f"some epochs score only 0 or 1 and others partial credit ({', '.join(sorted(metrics))}); "
            "one import is recorded as one metric"
        )
    rows = logged(root)
    clash = _already(rows, model, part, runs)
    if clash:
        raise EvalLogError(clash)
    result.notes += [r.note for r in runs if r.note]
    result.warnings += _other_features(rows, model, part, first.features or "")
    if len(runs) > 1 and not _says_samples(root):
        result.notes.append(
            f"{len(runs)} epochs are recorded as seeds {', '.join(map(str, result.epochs))}: "
            'set [evaluation] repeats = "samples" in evreport.toml so the report calls them '
            "repeated samples, not retraining"
        )
    if dry_run:
        if not have.frozen:
            result.notes.append(
                f"no frozen {part} part: "
                + (
                    f"split/{part}.csv would be written from the log and "
                    if have.ids is None
                    else f"{have.where} would be "
                )
                + "frozen now, after the runs"
            )
        return result
    _write(root, runs, result, model, part, harness, list(slice_keys), have)
    return result


def _write(
    root: Path,
    runs: list[EpochRun],
    result: Imported,
    model: str,
    part: str,
    harness: str,
    slice_keys: list[str],
    have: PartQuestions,
) -> None:
    from reportgen.project.manifest import canonical_part, split_fingerprint
    from reportgen.record import Recorder
    from reportgen.record.frozen import read_manifest
    from reportgen.safe import atomic_write

    first = runs[0]
    root.mkdir(parents=True, exist_ok=True)
    toml = root / "evreport.toml"
    if not toml.exists():
        key = next(iter(slice_keys), None)
        atomic_write(toml, _template(harness, first, model, key).encode("utf-8"))
        result.notes.append(
            "wrote evreport.toml for this eval: set the candidate's name (and kind = "
            '"before-after" for a model against its earlier version) before building'
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the split is frozen below, before any log
        rec = Recorder(root)
    if not have.frozen:
        if have.ids is None:
            write_split(root, part, first.ids, {k: first.labels[k] for k in slice_keys})
        rec.freeze()
        made = (
            f"split/{part}.csv was written from the log and"
            if have.ids is None
            else f"{have.where} was"
        )
        result.notes.append(
            f"{made} frozen now, after the runs: rung 2 will say the split was frozen after the "
            "runs. Freeze the questions before the next eval (docs/recording.md, From eval logs)"
        )
    manifest = read_manifest(rec.root)
    assert manifest is not None  # frozen above, or checked by import_runs
    entry = next(f for f in manifest["files"] if canonical_part(str(f["part"])) == part)
    # the part's own fingerprint: the same whatever other parts are frozen later
    split_id = split_fingerprint(
        str(manifest.get("row_id") or "row_id"), [(part, str(entry["sha256"]))]
    )
    for r in runs:
        labels = {k: r.labels[k] for k in slice_keys}
        kind = r.metric
        given: dict[str, Any] = (
            {"correct": [int(s) for s in r.scores]}
            if kind == "accuracy"
            else {"values": {kind: r.scores}}
        )
        if kind == "accuracy" and "category" in labels:
            given["category"] = labels.pop("category")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rec.log(
                model=model,
                seed=r.epoch,
                split=part,
                metric=kind,
                row_id=list(r.ids),
                columns=labels or None,
                run_id=run_id_for(model, r.epoch),
                config=r.config,
                features=r.features,
                split_id=split_id,
                started_at=r.started_at,
                env=r.env,
                notes=f"{NOTE_PREFIX} {harness} {Path(r.source).name}; epoch {r.epoch}"
                + (f"; {r.detail}" if r.detail else ""),
                **given,
            )
        result.warnings += [str(w.message) for w in caught]
