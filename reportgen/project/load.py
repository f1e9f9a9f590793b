"""Load a whole project folder, collecting every problem at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportgen.errors import InputError, Problem, display_name, said
from reportgen.project.checkfiles import CheckFile, parse_checkfile
from reportgen.project.claim_names import check_claim_names
from reportgen.project.config import Config, parse_config
from reportgen.project.files import Reader, Refused, exists, is_file
from reportgen.project.folds import FOLDS_PART, Folds, check_fold_runs, parse_folds, runs_columns
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
from reportgen.project.task_columns import detect, drop_odd_task_problems, project_task
from reportgen.words.i18n import _


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
    split_frames: dict[str, Any]  # part -> pandas DataFrame
    checks: list[CheckFile]
    evidence: dict[str, list[str]]
    inputs: dict[str, tuple[str, int]]
    warnings: list[Problem] = field(default_factory=list)
    part_keys: dict = field(default_factory=dict)  # part -> PartKeys | None (rowkeys.py)
    folds: Folds | None = None  # split/folds.csv of a cross-validation project
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


def _release_arrow_memory() -> None:
    """Hand Arrow's freed decode buffers back to the system (a large project reads many files)."""
    import sys

    pa = sys.modules.get("pyarrow")
    if pa is not None:
        pa.default_memory_pool().release_unused()


@dataclass
class _Load:
    """What every step of reading a project shares: the confined reader and the problem lists."""

    root: Path
    reader: Reader
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    #: each predictions file's task by its header, and the span of ``problems`` it gave
    kinds: dict[str, str | None] = field(default_factory=dict)
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)

    def read_text(self, rel: str) -> tuple[str | None, str]:
        """A project file's text (None after recording why not) and its display name."""
        path = _locate_input(self.root, rel)
        name = self.reader.display(path)
        if not exists(path):
            self.problems.append(Problem(_("missing {path}", path=name), name, slug="missing-file"))
            return None, name
        try:
            return self.reader.read_text(path), name
        except Refused as e:
            column = e.column if name.lower().endswith(".csv") else None
            # the slug Refused carries, else read from its (English) words
            slug = getattr(e, "slug", None) or (
                "path-outside-project" if "leads outside" in str(e) else "unreadable"
            )
            self.problems.append(Problem(str(e), name, e.line, column, slug=slug))
            return None, name


def inspect_project(
    project_dir: str | Path,
    paths: ProjectPaths = ProjectPaths(),
    max_file_bytes: int | None = None,
) -> tuple[Project | None, list[Problem]]:
    """Read everything; return the project (None when unusable) and every problem found (errors and warnings).

    ``max_file_bytes`` caps each file read (default: MAX_FILE_BYTES, 256 MiB).
    """
    root = Path(project_dir)
    if not root.is_dir():
        name = display_name(root.name or root)
        return None, [Problem(_("{path} is not a folder", path=name), name, slug="no-project")]
    ld = _Load(
        root, Reader(root, trusted=_operator_paths(root, paths), max_file_bytes=max_file_bytes)
    )
    problems, warnings, reader = ld.problems, ld.warnings, ld.reader

    text, cname = ld.read_text(paths.config)
    config = parse_config(text, cname, problems) if text is not None else None
    runs_text, rname = ld.read_text(paths.runs)
    runs = parse_runs(runs_text, rname, problems, warnings) if runs_text is not None else []
    if config is not None and runs:
        check_claim_names(config, runs, cname, rname, problems)

    manifest = _manifest(ld, paths)
    split_frames, split_names = _split_frames(ld, manifest)
    row_id_col = manifest.row_id if manifest else "row_id"
    folds = None
    if config is not None:
        folds = _folds(ld, config, split_frames, split_names, row_id_col)
    if config is not None and config.design == "cv" and runs and runs_text is not None:
        names = (rname, cname)
        cols = runs_columns(runs_text)
        check_fold_runs(config, runs, folds, names, cols, problems, warnings)
    keys_of_part = _keys_of_part(split_frames, split_names, row_id_col, problems)
    predictions: dict[str, Predictions] = {}
    if config is not None:
        for rel, (part, line) in sorted(_predictions_parts(runs, rname, problems).items()):
            start = len(problems)
            pred = _read_predictions(
                ld, config, rel, part, (rname, line), split_frames, keys_of_part, row_id_col
            )
            ld.spans[rel] = (start, len(problems))
            if pred is not None:
                predictions[rel] = pred
    checks = _check_files(ld, paths)
    evidence = _evidence(ld, config, cname) if config is not None else {}

    task = source = classes = None
    if config is not None:
        drop_odd_task_problems(config, ld.kinds, ld.spans, problems)
        task, source, classes = project_task(config, predictions, problems, ld.kinds)
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
        folds,
        task,
        source,
        classes,
    )
    return project, warnings


def _manifest(ld: _Load, paths: ProjectPaths) -> Manifest | None:
    """The frozen-split manifest, verified; without one, a warning (the fair rung cannot be shown)."""
    mpath = _locate_input(ld.root, paths.manifest)
    if exists(mpath):
        return load_manifest(ld.reader, mpath, ld.problems)
    ld.warnings.append(
        Problem(
            _("no frozen-split manifest (run `evreport freeze`); the fair rung cannot be shown"),
            ld.reader.display(mpath),
            slug="no-manifest",
            severity="warning",
        )
    )
    return None


def _split_frames(ld: _Load, manifest: Manifest | None) -> tuple[dict, dict[str, str]]:
    """part -> split-file frame, and part -> the file's name: those the manifest names, else
    every table under split/."""
    split_frames: dict[str, Any] = {}
    split_names: dict[str, str] = {}
    if manifest:
        for sf in manifest.files:
            if sf.frame is not None:
                split_frames[sf.part], split_names[sf.part] = sf.frame, sf.path
        return split_frames, split_names
    folder = ld.reader.folder(ld.root / "split", ld.problems)
    if folder is not None:
        for p in sorted(folder.iterdir()):
            if p.suffix.lower() in TABLE_SUFFIXES and is_file(p):
                part = canonical_part(p.stem)
                try:
                    split_frames.setdefault(part, read_table(ld.reader, p))
                    split_names.setdefault(part, ld.reader.display(p))
                except (Refused, TableError) as e:
                    ld.problems.append(
                        getattr(e, "problem", None) or Problem(str(e), ld.reader.display(p))
                    )
    return split_frames, split_names


def _folds(
    ld: _Load, config: Config, frames: dict, names: dict[str, str], row_id: str
) -> Folds | None:
    """split/folds.csv of a cv project, checked; in a split-design project only a warning."""
    frame = frames.get(FOLDS_PART)
    if frame is None:
        return None
    if config.design != "cv":
        ld.warnings.append(
            Problem(
                _(
                    '{path} is there but [evaluation] design is not "cv": the folds are not '
                    "analysed",
                    path=names[FOLDS_PART],
                ),
                names[FOLDS_PART],
                slug="folds-unused",
                severity="warning",
            )
        )
        return None
    return parse_folds(frame, names[FOLDS_PART], row_id, ld.problems)


def _keys_of_part(
    split_frames: dict[str, Any],
    split_names: dict[str, str],
    row_id_col: str,
    problems: list[Problem],
) -> dict:
    """part -> PartKeys (rowkeys.py); a split file named by many parts is keyed once, and one
    whose ids are not unique gets its duplicates named (not split/folds.csv: once per repeat)."""
    keys_of_frame: dict[int, object] = {}
    keys_of_part = {}
    for part, f in split_frames.items():
        if id(f) not in keys_of_frame:
            keys_of_frame[id(f)] = part_keys(f, row_id_col)
            # keys exist only for unique ids: else look again (split/folds.csv holds each row
            # once per repeat; parse_folds checks it)
            if keys_of_frame[id(f)] is None and part != FOLDS_PART:
                problems += duplicate_id_problems(f, row_id_col, split_names[part])
        keys_of_part[part] = keys_of_frame[id(f)]
    return keys_of_part


def _predictions_parts(
    runs: list[RunRow], rname: str, problems: list[Problem]
) -> dict[str, tuple[str, int]]:
    """predictions path -> (the part it is cited for, first line); one file serves one part."""
    part_of: dict[str, tuple[str, int]] = {}
    for r in runs:
        if not r.predictions or not r.ok:
            continue
        prev = part_of.setdefault(r.predictions, (r.split, r.line))
        if prev[0] != r.split:
            problems.append(
                Problem(
                    _(
                        "predictions file {path} is cited for split {split} here and for {other} "
                        "at line {line}",
                        path=said(r.predictions),
                        split=said(r.split),
                        other=said(prev[0]),
                        line=prev[1],
                    ),
                    rname,
                    r.line,
                    slug="predictions-split",
                )
            )
    return part_of


def _read_predictions(
    ld: _Load,
    config: Config,
    rel: str,
    part: str,
    cited_at: tuple[str, int],
    split_frames: dict[str, Any],
    keys_of_part: dict,
    row_id_col: str,
) -> Predictions | None:
    """One predictions file, parsed, with block and slice joined from its part's split file."""
    problems = ld.problems
    rname, line = cited_at
    target = ld.reader.project_path(rel, source=rname, line=line, problems=problems)
    if target is None:
        return None
    name = ld.reader.display(target)
    try:
        frame = read_table(ld.reader, target, keep=False)
    except TableError as e:
        p = e.problem
        problems.append(
            Problem(
                p.message
                + (
                    _(" (cited at {cite})", cite=rname + ":" + str(line))
                    if p.slug == "unreadable"
                    else ""
                ),
                p.path,
                p.line,
                p.column,
                p.slug,
            )
        )
        return None
    ld.kinds[rel] = detect(frame.columns, None)[0]
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
    if pred is None:
        return None
    sframe = split_frames.get(part)
    if sframe is not None and row_id_col in sframe.columns:
        join_columns(
            pred,
            sframe,
            row_id_col,
            config.block,
            config.slice,
            _("for part {part}", part=said(part)),
            problems,
            required=part == "test",
        )
    elif part == "test" and (
        (config.block and pred.block is None) or (config.slice and pred.slice is None)
    ):
        problems.append(
            Problem(
                _(
                    "no split file for part {part} to join the block/slice columns from",
                    part=said(part),
                ),
                name,
                1,
                slug="missing-column",
            )
        )
    if part in ("test", config.general_split):
        empty_labels(
            pred,
            {a: c for a, c in (("block", config.block), ("slice", config.slice)) if c},
            ld.warnings,
        )
    return pred


def _check_files(ld: _Load, paths: ProjectPaths) -> list[CheckFile]:
    """The rung-1 check files under artefacts/checks/."""
    reader, problems = ld.reader, ld.problems
    checks: list[CheckFile] = []
    located = _locate_input(ld.root, paths.artefacts) / "checks"
    operator_chosen = Path(paths.artefacts).is_absolute() or ".." in Path(paths.artefacts).parts
    cdir: Path | None = located
    if not operator_chosen:  # the project's own folder: confined like every project file
        cdir = reader.folder(located, problems)
    elif not located.is_dir():
        cdir = None
    if cdir is None:
        return checks
    for p in sorted(cdir.glob("*.json")):
        if operator_chosen:  # named on the command line: only regular files are required
            reader.trusted = reader.trusted | {str(p)}
        name = reader.display(p)
        try:
            text = reader.read_text(p)
        except Refused as e:
            problems.append(Problem(str(e), name, e.line, slug="path-outside-project"))
            continue
        c = parse_checkfile(text, name, problems, ld.warnings)
        if c is not None:
            checks.append(c)
    return checks


def _evidence(ld: _Load, config: Config, cname: str) -> dict[str, list[str]]:
    """rung -> the [evidence] files that exist and are readable (a missing one is a warning)."""
    reader = ld.reader
    evidence: dict[str, list[str]] = {}
    for rung, rels in config.evidence.items():
        line = config.lines.get(f"evidence.{rung}")
        for rel in rels:
            target = reader.project_path(rel, source=cname, line=line, problems=ld.problems)
            if target is None:
                continue
            if not is_file(target):
                ld.warnings.append(
                    Problem(
                        _(
                            "[evidence] {rung} cites {path}, which does not exist; not credited",
                            rung=rung,
                            path=said(rel),
                        ),
                        cname,
                        line,
                        slug="missing-evidence",
                        severity="warning",
                    )
                )
                continue
            try:
                reader.read_bytes(target)
            except Refused as e:
                ld.problems.append(Problem(str(e), reader.display(target), slug="unreadable"))
                continue
            evidence.setdefault(rung, []).append(reader.display(target))
    return evidence


#: the largest evreport.toml ``project_language`` reads (a larger one: English, and the load
#: says what is wrong with it)
LANGUAGE_READ_BYTES = 1024 * 1024


def project_language(project_dir: str | Path, paths: ProjectPaths = ProjectPaths()) -> str:
    """``[report] language`` of the project's evreport.toml, read lightly before the project is
    loaded so that what the load writes (its warnings) is in the build's language; never
    raises: on any problem (no file, a refused path, bad TOML, an unknown language) English,
    and ``load_project`` reports the problem as it would anyway."""
    import tomllib

    from reportgen.words.i18n import LANGUAGES

    try:
        root = Path(project_dir)
        reader = Reader(
            root, trusted=_operator_paths(root, paths), max_file_bytes=LANGUAGE_READ_BYTES
        )
        doc = tomllib.loads(reader.read_text(_locate_input(root, paths.config)))
        report = doc.get("report")
        lang = report.get("language") if isinstance(report, dict) else None
    except Exception:  # noqa: BLE001  (a light read: load_project names the problem)
        return LANGUAGES[0]
    return lang if isinstance(lang, str) and lang in LANGUAGES else LANGUAGES[0]


def load_project(
    project_dir: str | Path, paths: ProjectPaths = ProjectPaths(), max_file_bytes: int | None = None
) -> Project:
    """Load a project or raise InputError listing every problem."""
    project, problems = inspect_project(project_dir, paths, max_file_bytes)
    if project is None:
        raise InputError([p for p in problems if p.severity == "error"] or problems)
    return project
