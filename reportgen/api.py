"""build_report: the one short orchestrator. Each step is a function you can test alone.

argv -> cli -> load (Project) -> checks (the typed Report) -> render (bytes per file) -> atomic write
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from reportgen.errors import EXIT_OK, EXIT_STRICT, Problem
from reportgen.model import Report
from reportgen.names import FORMATS


@dataclass
class BuildResult:
    """What a build produced: the report, where it went, and what went wrong on the way
    (``warnings``: the load and check warnings report.json lists)."""

    report: Report
    out_dir: Path
    written: list[Path] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    render_problems: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        return self.report.decision.verdict

    def exit_code(self, strict: bool = False, require_rung: int | None = None) -> int:
        """1 when a format could not be written; 3 when a CI gate fails (see reportgen.ci)."""
        from reportgen.ci import gates

        if self.render_problems:
            return 1
        if not all(g.passed for g in gates(self.report, strict, require_rung)):
            return EXIT_STRICT
        return EXIT_OK


def output_dir(project_dir: str | Path, out: str | Path | None = None) -> Path:
    """Where a build writes: ``out``, or PROJECT/report."""
    return Path(out) if out is not None else Path(project_dir) / "report"


def build_report(
    project_dir: str | Path,
    out: str | Path | None = None,
    formats: tuple[str, ...] = FORMATS,
    command: str | None = None,
    paths=None,
    max_file_bytes: int | None = None,
    versioned: bool = True,
    links: bool = True,
    language: str | None = None,
) -> BuildResult:
    """Load, check, render and atomically write the report for one project folder.

    Raises InputError (nothing written) when the project cannot be read. ``max_file_bytes``
    caps each input file (default 256 MiB). ``versioned``: the files switch at once
    through ``.evreport-current`` (``outputs.atomic_write_dir``); False writes plain files,
    for a fresh folder that is swapped in whole (a batch's). ``links``: the HTML links each
    artefact to its file, relative to ``out`` when the path there is short (safe.project_link).
    ``language``: "en" or "uk" for every sentence (None: ``[report] language``, else English).
    """
    from reportgen.checks import compute
    from reportgen.outputs import atomic_write_dir
    from reportgen.project import ProjectPaths, load_project
    from reportgen.project.load import project_language
    from reportgen.render import Helpers, render_outputs
    from reportgen.words.i18n import speaking

    project_dir = Path(project_dir)
    out_dir = output_dir(project_dir, out)
    paths = paths or ProjectPaths()
    # the language is known before the load, so that its warnings are written in it
    lang = language or project_language(project_dir, paths)
    # a fresh process: charts and PDF helpers warm up while the project is loaded
    with Helpers.for_fresh_process(formats) or nullcontext() as helpers, speaking(lang):
        project = load_project(project_dir, paths, max_file_bytes)
        from reportgen.errors import display_name

        with speaking(language or project.config.language):
            # a non-UTF-8 folder name must not stop report.json from being written
            report, warnings = compute(
                project, command=display_name(command or f"evreport build {project_dir}")
            )
            from reportgen.safe import project_link

            link = project_link(project_dir, out_dir) if links else None
            files, problems = render_outputs(report, formats, links=link, helpers=helpers)
    written = atomic_write_dir(out_dir, files, versioned=versioned)
    return BuildResult(report, out_dir, written, warnings, problems)
