"""Load a whole project folder, collecting every problem at once."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from reportgen.errors import InputError, Problem, display_name, quote
from reportgen.project.checkfiles import CheckFile, parse_checkfile
from reportgen.project.config import TASK_METRICS, Config, parse_config
from reportgen.project.files import Reader, Refused, confine_dir
from reportgen.project.manifest import Manifest, canonical_part, load_manifest
from reportgen.project.predictions import (
    Predictions,
    empty_labels,
    join_columns,
    parse_predictions,
)
from reportgen.project.rowkeys import duplicate_id_problems, part_keys
from reportgen.project.runs import RunRow, parse_runs
from reportgen.project.tables import TABLE_SUFFIXES, TableError, read_table
from reportgen.project.task_columns import detect


@dataclass(frozen=True)
class ProjectPaths:
    """Where the inputs are, relative to the project folder (each can be overridden on the CLI)."""

    config: str = "evreport.toml"
    runs: str = "runs.csv"
    manifest: str = "split/manifest.json"
    artefacts: str = "artefacts"


@dataclass
class Project:
    root: Path
    paths: ProjectPaths
    config: Config
    runs: list[RunRow]
    manifest: Manifest | None
    predictions: dict[str, Predictions]
    split_frames: dict[str, object]
    checks: list[CheckFile]
    evidence: dict[str, list[str]]
    inputs: dict[str, tuple[str, int]]
    warnings: list[Problem] = field(default_factory=list)
    part_keys: dict = field(default_factory=dict)  # part -> PartKeys | None (rowkeys.py)
    task: str | None = None  # binary | multiclass | regression, or None (another per-row metric)
    task_source: str | None = None  # config | predictions | metric
    classes: tuple[str, ...] | None = None  # the classes of a multi-class task

    @property
    def runs_name(self) -> str:
        return (
            Path(self.paths.runs).name
            if not Path(self.paths.runs).is_absolute()
            else self.paths.runs
        )


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def _locate_input(root: Path, rel: str) -> Path:
    p = Path(rel)
    return p if p.is_absolute() else root / p


def _operator_paths(root: Path, paths: ProjectPaths) -> frozenset[str]:
    """Input paths the operator named outside the project on the command line (trusted)."""
    out = set()
    for rel in (paths.config, paths.runs, paths.manifest):
        if Path(rel).is_absolute() or ".." in Path(rel).parts:
            out.add(str(_locate_input(root, rel)))
    return frozenset(out)


def _exists(path: Path) -> bool:
    try:
        return path.exists() or path.is_symlink()
    except OSError:
        return True  # e.g. a symlink loop: reading it gives the clear message


def _folder(reader: Reader, path: Path, problems: list[Problem]) -> Path | None:
    """A folder whose files are read (split/, artefacts/checks/), refused if it leads out."""
    name = reader.display(path)
    try:
        confine_dir(reader.root, path, name)
    except Refused as e:
        problems.append(Problem(str(e), name, slug="path-outside-project"))
        return None
    return path if path.is_dir() else None


def _release_arrow_memory() -> None:
    """Hand Arrow's freed decode buffers back to the system (a large project reads many files)."""
    import sys

    pa = sys.modules.get("pyarrow")
    if pa is not None:
        pa.default_memory_pool().release_unused()


def inspect_project(
    project_dir: str | Path,
    paths: ProjectPaths = ProjectPaths(),
    max_file_bytes: int | None = None,
) -> tuple[Project | None, list[Problem]]:
    """Read everything; return the project (None when unusable) and every problem found (errors and warnings).

    ``max_file_bytes`` caps each file read (default: MAX_FILE_BYTES, 256 MiB).
    """
    root = Path(project_dir)
    problems: list[Problem] = []
    warnings: list[Problem] = []
    if not root.is_dir():
        name = display_name(root.name or root)
        return None, [Problem(f"{name} is not a folder", name, slug="no-project")]
    reader = Reader(root, trusted=_operator_paths(root, paths), max_file_bytes=max_file_bytes)

    def read_text(rel: str) -> tuple[str | None, str]:
        path = _locate_input(root, rel)
        name = reader.display(path)
        if not _exists(path):
            problems.append(Problem(f"missing {name}", name, slug="missing-file"))
            return None, name
        try:
            return reader.read_text(path), name
        except Refused as e:
            column = e.column if name.lower().endswith(".csv") else None
            slug = "path-outside-project" if "leads outside" in str(e) else "unreadable"
            problems.append(Problem(str(e), name, e.line, column, slug=slug))
            return None, name

    text, cname = read_text(paths.config)
    config = parse_config(text, cname, problems) if text is not None else None
    text, rname = read_text(paths.runs)
    runs = parse_runs(text, rname, problems, warnings) if text is not None else []

    if config is not None and runs:
        models = sorted({r.model for r in runs})
        for role in ("candidate", "baseline"):
            m = getattr(config, role)
            if m not in models:
                close = difflib.get_close_matches(m, models, n=1)
                hint = f"did you mean {quote(close[0])}? " if close else ""
                problems.append(
                    Problem(
                        f"claim.{role} = {quote(m)} is not a model in {rname}; {hint}models there: "
                        f"{', '.join(models)}",
                        cname,
                        config.lines.get(f"claim.{role}"),
                        1,
                        slug="unknown-model",
                    )
                )

        metrics = sorted({r.metric for r in runs})
        if config.metric not in metrics:
            close = difflib.get_close_matches(config.metric, metrics, n=1, cutoff=0.5)
            hint = f"did you mean {quote(close[0])}? " if close else ""
            problems.append(
                Problem(
                    f"claim.metric = {quote(config.metric)} is not a metric of any row in {rname}; "
                    f"{hint}metrics there: {', '.join(quote(m) for m in metrics[:20])}",
                    cname,
                    config.lines.get("claim.metric"),
                    1,
                    slug="unknown-metric",
                )
            )

    manifest = None
    mpath = _locate_input(root, paths.manifest)
    if _exists(mpath):
        manifest = load_manifest(reader, mpath, problems)
    else:
        warnings.append(
            Problem(
                "no frozen-split manifest (run `evreport freeze`); the fair rung cannot be shown",
                reader.display(mpath),
                slug="no-manifest",
                severity="warning",
            )
        )

    split_frames: dict[str, object] = {}
    split_names: dict[str, str] = {}
    row_id_col = manifest.row_id if manifest else "row_id"
    if manifest:
        for sf in manifest.files:
            if sf.frame is not None:
                split_frames[sf.part], split_names[sf.part] = sf.frame, sf.path
    else:
        folder = _folder(reader, root / "split", problems)
        if folder is not None:
            for p in sorted(folder.iterdir()):
                if p.suffix.lower() in TABLE_SUFFIXES and _is_file(p):
                    part = canonical_part(p.stem)
                    try:
                        split_frames.setdefault(part, read_table(reader, p))
                        split_names.setdefault(part, reader.display(p))
                    except (Refused, TableError) as e:
                        problems.append(
                            getattr(e, "problem", None) or Problem(str(e), reader.display(p))
                        )

    keys_of_frame: dict[int, object] = {}  # a split file named by many parts is keyed once
    keys_of_part = {}
    for part, f in split_frames.items():
        if id(f) not in keys_of_frame:
            keys_of_frame[id(f)] = part_keys(f, row_id_col)
            if keys_of_frame[id(f)] is None:  # keys exist only for unique ids: else look again
                problems += duplicate_id_problems(f, row_id_col, split_names[part])
        keys_of_part[part] = keys_of_frame[id(f)]
    predictions: dict[str, Predictions] = {}
    kinds: dict[str, str | None] = {}  # each predictions file's task, by its header
    spans: dict[str, tuple[int, int]] = {}  # the problems its values gave, in ``problems``
    if config is not None:
        part_of: dict[str, tuple[str, int]] = {}
        for r in runs:
            if not r.predictions or not r.ok:
                continue
            prev = part_of.setdefault(r.predictions, (r.split, r.line))
            if prev[0] != r.split:
                problems.append(
                    Problem(
                        f"predictions file {quote(r.predictions)} is cited for split {quote(r.split)} here "
                        f"and for {quote(prev[0])} at line {prev[1]}",
                        rname,
                        r.line,
                        slug="predictions-split",
                    )
                )
        for rel, (part, line) in sorted(part_of.items()):
            target = reader.project_path(rel, source=rname, line=line, problems=problems)
            if target is None:
                continue
            name = reader.display(target)
            try:
                frame = read_table(reader, target, keep=False)
            except TableError as e:
                p = e.problem
                problems.append(
                    Problem(
                        p.message
                        + (f" (cited at {rname}:{line})" if p.slug == "unreadable" else ""),
                        p.path,
                        p.line,
                        p.column,
                        p.slug,
                    )
                )
                continue
            kinds[name] = detect(frame.columns, None)[0]
            start = len(problems)
            pred = parse_predictions(
                frame,
                name,
                part,
                config.metric,
                config.builtin_metric,
                problems,
                config.block,
                config.slice,
                keys_of_part.get(part),
                task=config.task,
            )
            del frame  # the arrays are in pred
            _release_arrow_memory()
            spans[name] = (start, len(problems))
            if pred is None:
                continue
            sframe = split_frames.get(part)
            if sframe is not None and row_id_col in sframe.columns:
                join_columns(
                    pred,
                    sframe,
                    row_id_col,
                    config.block,
                    config.slice,
                    f"for part {quote(part)}",
                    problems,
                    required=part == "test",
                )
            elif part == "test" and (
                (config.block and pred.block is None) or (config.slice and pred.slice is None)
            ):
                problems.append(
                    Problem(
                        f"no split file for part {quote(part)} to join the block/slice columns from",
                        name,
                        1,
                        slug="missing-column",
                    )
                )
            if part in ("test", config.general_split):
                empty_labels(
                    pred,
                    {a: c for a, c in (("block", config.block), ("slice", config.slice)) if c},
                    warnings,
                )
            predictions[rel] = pred

    checks: list[CheckFile] = []
    cdir = _locate_input(root, paths.artefacts) / "checks"
    operator_chosen = Path(paths.artefacts).is_absolute() or ".." in Path(paths.artefacts).parts
    if not operator_chosen:  # the project's own folder: confined like every project file
        cdir = _folder(reader, cdir, problems)
    elif not cdir.is_dir():
        cdir = None
    if cdir is not None:
        for p in sorted(cdir.glob("*.json")):
            if operator_chosen:  # named on the command line: only regular files are required
                reader.trusted = reader.trusted | {str(p)}
            name = reader.display(p)
            try:
                text = reader.read_text(p)
            except Refused as e:
                problems.append(Problem(str(e), name, e.line, slug="path-outside-project"))
                continue
            c = parse_checkfile(text, name, problems, warnings)
            if c is not None:
                checks.append(c)

    evidence: dict[str, list[str]] = {}
    if config is not None:
        for rung, rels in config.evidence.items():
            for rel in rels:
                target = reader.project_path(
                    rel, source=cname, line=config.lines.get(f"evidence.{rung}"), problems=problems
                )
                if target is None:
                    continue
                if not _is_file(target):
                    warnings.append(
                        Problem(
                            f"[evidence] {rung} cites {quote(rel)}, which does not exist; not credited",
                            cname,
                            config.lines.get(f"evidence.{rung}"),
                            slug="missing-evidence",
                            severity="warning",
                        )
                    )
                    continue
                try:
                    reader.read_bytes(target)
                except Refused as e:
                    problems.append(Problem(str(e), reader.display(target), slug="unreadable"))
                    continue
                evidence.setdefault(rung, []).append(reader.display(target))

    task = source = classes = None
    if config is not None:
        drop_odd_task_problems(config, kinds, spans, problems)
        task, source, classes = project_task(config, predictions, problems, kinds)
    if config is None or any(p.severity == "error" for p in problems):
        return None, problems + warnings
    project = Project(
        root,
        paths,
        config,
        runs,
        manifest,
        predictions,
        split_frames,
        checks,
        evidence,
        dict(sorted(reader.inputs.items())),
        warnings,
        keys_of_part,
        task,
        source,
        classes,
    )
    return project, warnings


def main_task(config: Config, kinds: dict[str, str | None]) -> str | None:
    """The task the files should hold: [claim] task, else the only task the metric belongs
    to (squared_error: regression), else the task most files hold."""
    if config.task is not None:
        return config.task
    owners = [t for t, ms in TASK_METRICS.items() if config.metric in ms]
    if len(owners) == 1:
        return owners[0]
    held = [k for k in kinds.values() if k in TASK_METRICS]
    return max(dict.fromkeys(held), key=held.count) if held else None


def drop_odd_task_problems(
    config: Config,
    kinds: dict[str, str | None],
    spans: dict[str, tuple[int, int]],
    problems: list[Problem],
) -> None:
    """Without [claim] task, a file of another task than the rest gets the one
    ``[mixed-tasks]`` error (project_task), not a line per value that its task reads wrongly
    ("y must be 0 or 1" for every row of a regression target)."""
    tasks = {k for k in kinds.values() if k in TASK_METRICS}
    if config.task is not None or len(tasks) < 2:
        return
    main = main_task(config, kinds)
    drop = set()
    for name, kind in kinds.items():
        if kind in TASK_METRICS and kind != main and name in spans:
            drop |= {id(p) for p in problems[slice(*spans[name])]}
    problems[:] = [p for p in problems if id(p) not in drop]


def project_task(
    config: Config,
    predictions: dict[str, Predictions],
    problems: list[Problem],
    kinds: dict[str, str | None] | None = None,
) -> tuple[str | None, str | None, tuple[str, ...] | None]:
    """(task, where it came from, classes): [claim] task, else the one task every predictions
    file holds (``kinds``: each file's by its header, else the parsed files'), else a
    regression metric's; files of two tasks, or multi-class files with different classes,
    are problems."""
    first: dict[str, str] = {}
    classes: dict[tuple[str, ...], str] = {}
    for path, kind in (kinds or {p: pred.kind for p, pred in predictions.items()}).items():
        if kind in TASK_METRICS:
            first.setdefault(kind, path)
    for path, pred in predictions.items():
        if pred.kind == "multiclass":
            classes.setdefault(pred.classes, path)
    if config.task is None and len(first) > 1:
        problems.append(
            Problem(
                "the predictions files hold different tasks: "
                + "; ".join(f"{p} ({k})" for k, p in first.items())
                + '; one comparison is one task: set [claim] task = "..." and fix the other files',
                next(
                    (p for k, p in first.items() if k != main_task(config, kinds or {})),
                    next(iter(first.values())),
                ),
                1,
                slug="mixed-tasks",
            )
        )
    if len(classes) > 1:
        (a, pa), (b, pb) = list(classes.items())[:2]
        problems.append(
            Problem(
                f"the multi-class files have different classes: {pa} has "
                f"{', '.join('p_' + c for c in a)}, {pb} has {', '.join('p_' + c for c in b)}; "
                "write one p_ column for every class in every file",
                pb,
                1,
                slug="mixed-classes",
            )
        )
    cls = next(iter(classes), None)
    if config.task is not None:
        return config.task, "config", cls
    if len(first) == 1:
        return next(iter(first)), "predictions", cls
    if config.metric in TASK_METRICS["regression"]:
        return "regression", "metric", None
    return None, None, None


def load_project(
    project_dir: str | Path, paths: ProjectPaths = ProjectPaths(), max_file_bytes: int | None = None
) -> Project:
    """Load a project or raise InputError listing every problem."""
    project, problems = inspect_project(project_dir, paths, max_file_bytes)
    if project is None:
        raise InputError([p for p in problems if p.severity == "error"] or problems)
    return project
