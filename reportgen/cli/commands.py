"""The evreport command line: parses, calls the API, maps errors to exit codes. No computation here."""

from __future__ import annotations

import sys

import click

from reportgen import __version__
from reportgen.cli.options import format_option, lang_option
from reportgen.errors import EXIT_INPUT, EXIT_STRICT, EXIT_USAGE, clean_text

EXIT_CODES = f"""
\b
Exit codes:
  0  built (or valid)
  {EXIT_INPUT}  input errors: each printed as FILE:LINE:COLUMN: message
  {EXIT_USAGE}  usage errors (bad options)
  {EXIT_STRICT}  a CI gate failed: --strict and the verdict is not "adopt", or --require-rung N
     and the supported rung is below N (the report is still written)
"""


def _paths_options(f):
    f = click.option(
        "--artefacts", default="artefacts", show_default=True, help="Artefact folder."
    )(f)
    f = click.option(
        "--manifest",
        default="split/manifest.json",
        show_default=True,
        help="Frozen-split manifest.",
    )(f)
    f = click.option("--runs", default="runs.csv", show_default=True, help="Run log.")(f)
    f = click.option(
        "--config",
        "config_path",
        default="evreport.toml",
        show_default=True,
        help="Claim and decision rule.",
    )(f)
    return f


def _paths(config_path, runs, manifest, artefacts):
    from reportgen.project import ProjectPaths

    return ProjectPaths(config_path, runs, manifest, artefacts)


#: problems printed before the rest are only counted
MAX_SHOWN = 100


def _echo_problems(problems) -> None:
    for p in problems[:MAX_SHOWN]:
        click.echo(str(p), err=True)
    if len(problems) > MAX_SHOWN:
        click.echo(f"(and {len(problems) - MAX_SHOWN:,} more)", err=True)


def _fail(err) -> None:
    """Print a domain error and exit with its code."""
    from reportgen.errors import InputError, clean_text

    if isinstance(err, InputError):
        _echo_problems(err.problems)
        n = len(err.problems)
        click.echo(
            f"evreport: {n} problem{'s' if n != 1 else ''}; see docs/format.md for the project format",
            err=True,
        )
    else:
        click.echo(f"evreport: error: {clean_text(err)} [{err.slug}]", err=True)
    sys.exit(err.exit_code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_CODES)
@click.version_option(__version__, prog_name="evreport")
def main() -> None:
    """evreport: what does your model comparison actually prove?

    Reads a project folder (evreport.toml, runs.csv, split/manifest.json, artefacts/) and writes
    a reviewer's report: the five-rung claim ladder, the two noise lines, threshold and
    calibration, the rewritten claim and the decision. Start with `evreport init DIR`.
    """
    from reportgen.errors import EvreportError
    from reportgen.project.files import check_environment

    try:
        check_environment()
    except EvreportError as e:
        _fail(e)


@main.command(epilog=EXIT_CODES)
@click.argument("project", type=click.Path(file_okay=False, path_type=str))
@click.option("--force", is_flag=True, help="Write into a folder that already has files.")
def init(project: str, force: bool) -> None:
    """Scaffold a project folder: a commented evreport.toml, runs.csv with its header, split/, artefacts/checks/."""
    from reportgen.errors import EvreportError, display_name
    from reportgen.scaffold import scaffold

    try:
        made = scaffold(project, force=force)
    except EvreportError as e:
        _fail(e)
    name = display_name(project)
    for p in made:
        click.echo(f"wrote {display_name(p)}")
    click.echo(f"next: put split files in {name}/split/, then `evreport freeze {name}`")


@main.command(epilog=EXIT_CODES)
@click.argument("project", type=click.Path(exists=True, file_okay=False, path_type=str))
@click.option(
    "--created",
    default=None,
    metavar="ISO8601",
    help="Creation time to record (default: now, UTC). Use a fixed value for reproducible examples.",
)
def freeze(project: str, created: str | None) -> None:
    """Hash the split files under split/ into split/manifest.json (sha256, rows, part, created)."""
    from reportgen.errors import EvreportError, display_name
    from reportgen.project.manifest import freeze as do_freeze

    try:
        m = do_freeze(project, created)
    except EvreportError as e:
        _fail(e)
    for f in m["files"]:
        click.echo(f"{f['part']:<12} {f['path']}  {f['rows']} rows  sha256 {f['sha256'][:12]}…")
    click.echo(f"wrote {display_name(project)}/split/manifest.json (created {m['created']})")


@main.command(epilog=EXIT_CODES)
@click.argument("project", type=click.Path(exists=True, file_okay=False, path_type=str))
@_paths_options
def validate(project, config_path, runs, manifest, artefacts) -> None:
    """Read everything and list every problem at once, one line each (FILE:LINE:COLUMN).

    Exit 1 on errors, 0 when clean; warnings are printed but not fatal.
    """
    from reportgen.errors import clean_text, display_name, reading_order
    from reportgen.project import inspect_project
    from reportgen.project.load import project_language
    from reportgen.words.i18n import speaking

    paths = _paths(config_path, runs, manifest, artefacts)
    # the warnings in the language the project's build writes them in ([report] language)
    with speaking(project_language(project, paths)):
        proj, problems = inspect_project(project, paths)
        if proj is not None and not any(p.severity == "error" for p in problems):
            from reportgen.checks.recompute import recompute_warnings

            problems = problems + recompute_warnings(proj)
    errors = [p for p in problems if p.severity == "error"]
    # errors first, files in the order found (a root cause, the manifest, before its knock-on
    # errors in the predictions that cannot be joined), each file's by line and column
    shown = reading_order(problems)
    for p in shown[:MAX_SHOWN]:
        click.echo(str(p), err=bool(errors))
    if len(shown) > MAX_SHOWN:
        click.echo(f"(and {len(shown) - MAX_SHOWN:,} more)", err=bool(errors))
    if errors or proj is None:
        click.echo(
            f"evreport: {len(errors)} error(s), {len(problems) - len(errors)} warning(s) in "
            f"{clean_text(display_name(project), 300)}",
            err=True,
        )
        sys.exit(EXIT_INPUT)
    click.echo(
        f"{clean_text(display_name(project), 300)}: valid ({len(proj.runs)} run-log rows, {len(proj.predictions)} predictions files, "
        f"{len(proj.checks)} check files, {len(problems)} warning(s))"
    )


@main.command(epilog=EXIT_CODES)
@click.argument("project", type=click.Path(exists=True, file_okay=False, path_type=str))
@click.option(
    "--out",
    type=click.Path(path_type=str),
    default=None,
    help="Output folder (default: PROJECT/report). Only this folder is written.",
)
@format_option("Comma-separated: html, pdf, json, md.")
@lang_option("Language of the report: en or uk (default: [report] language, else en).")
@click.option(
    "--strict",
    is_flag=True,
    help='Exit 3 when the verdict is not "adopt" (a CI gate), after writing.',
)
@click.option(
    "--require-rung",
    type=click.IntRange(1, 5),
    default=None,
    metavar="N",
    help="Exit 3 unless the supported rung reaches N (a CI gate, whatever the verdict; "
    "with --strict both must hold).",
)
@click.option(
    "--junit",
    "junit_path",
    default=None,
    metavar="FILE",
    help="Also write a JUnit XML file: one test case per rung, check and gate (docs/ci.md).",
)
@click.option(
    "--summary",
    "summary_path",
    default=None,
    metavar="FILE",
    help="Also write a Markdown summary for a CI job page: verdict, ladder, claim, reasons.",
)
@click.option(
    "--max-file-mb",
    type=click.IntRange(min=1),
    default=None,
    help="Largest input file read, in MiB (default 256, or EVREPORT_MAX_FILE_BYTES); "
    "raise it deliberately for large predictions files.",
)
@click.option(
    "--mlflow-run",
    default=None,
    metavar="RUN_ID",
    help="After writing, log the report files as artifacts (report/) of this MLflow run.",
)
@click.option(
    "--tracking-uri",
    default=None,
    help="MLflow tracking URI of --mlflow-run (default: MLFLOW_TRACKING_URI).",
)
@_paths_options
def build(
    project,
    out,
    formats,
    lang,
    strict,
    require_rung,
    junit_path,
    summary_path,
    max_file_mb,
    mlflow_run,
    tracking_uri,
    config_path,
    runs,
    manifest,
    artefacts,
) -> None:
    """Check the evidence and write the report (report.html, report.pdf, report.json, decision-log.md).

    A failed build writes nothing: the previous report stays as it was (only the --junit and
    --summary files, when asked for, say why it failed).
    """
    from reportgen import ci
    from reportgen.api import build_report, output_dir
    from reportgen.errors import EvreportError, InputError, UsageError, display_name

    try:
        ci_files = {
            kind: ci.check_ci_path(option, path, project, output_dir(project, out))
            for kind, option, path in (
                ("junit", "--junit", junit_path),
                ("summary", "--summary", summary_path),
            )
            if path is not None
        }
        if len(ci_files) == 2 and ci_files["junit"].resolve() == ci_files["summary"].resolve():
            raise UsageError("--junit and --summary name the same file")
    except EvreportError as e:
        _fail(e)
    cmd = display_name(
        "evreport build " + " ".join(sys.argv[2:])
        if len(sys.argv) > 2
        else f"evreport build {project}"
    )
    from reportgen.words.i18n import speaking

    paths = _paths(config_path, runs, manifest, artefacts)
    try:
        result = build_report(
            project,
            out,
            formats,
            command=cmd,
            paths=paths,
            max_file_bytes=max_file_mb * 1024 * 1024 if max_file_mb else None,
            language=lang,
        )
    except EvreportError as e:
        if ci_files and isinstance(e, InputError):  # the CI job still shows why
            from reportgen.project.load import project_language

            # the summary's own words in the build's language (the input errors are English)
            with speaking(lang or project_language(project, paths)):
                _write_ci_files(ci_files, ci.failed_build(display_name(project), e.problems))
        _fail(e)

    with speaking(result.report.language):  # the verdict line and the CI files too
        _echo_problems(result.warnings)
        for p in result.written:
            click.echo(f"wrote {display_name(p)}")
        for msg in result.render_problems:
            click.echo(f"evreport: error: {msg}", err=True)
        gate_list = ci.gates(result.report, strict, require_rung)
        if ci_files:
            _write_ci_files(ci_files, ci.built(result.report, gate_list, result.render_problems))
        click.echo(clean_text(ci.verdict_line(result.report)))
        for reason in ci.reasons(result.report):
            click.echo(f"  - {reason}")
        for g in gate_list:
            if not g.passed:
                click.echo(f"evreport: {g.option}: {clean_text(g.reason)}", err=True)
        code = result.exit_code(strict, require_rung)
        # the report back into MLflow as the run's artifacts (importers/mlflow_log.py)
        if mlflow_run or tracking_uri:
            from reportgen.importers.mlflow_log import log_to_mlflow

            code = log_to_mlflow(result, mlflow_run, tracking_uri, code)
    sys.exit(code)


def _write_ci_files(paths: dict, contents: dict) -> None:
    """Write the --junit and --summary files asked for (atomically); print each."""
    from reportgen import ci
    from reportgen.errors import EvreportError, display_name

    for kind, path in paths.items():
        try:
            ci.write_ci_file(path, contents[kind])
        except EvreportError as e:
            _fail(e)
        click.echo(f"wrote {display_name(path)}")


from reportgen.cli.batch import batch, rubric  # noqa: E402  (imports only click at module level)

main.add_command(batch)
main.add_command(rubric)

from reportgen.cli.importers import import_group  # noqa: E402  (imports only click at module level)

main.add_command(import_group)
