"""`evreport batch`: grade many submissions. Only click is imported here; the rest lazily."""

from __future__ import annotations

import sys

import click

from reportgen.cli.options import format_option, lang_option

BATCH_EPILOG = """
\b
Each SUBMISSION is a project folder (with evreport.toml), a .zip of one
(at the zip root or in a single top folder), or a folder whose sub-folders
and zips are the submissions. OUT gets NAME/ (the report, as `evreport build`
writes it), summary.csv, summary.json and index.html; with --rubric also
grades.csv and NAME/feedback.md. An unchanged submission's report is reused
(--force rebuilds all). See docs/batch.md.

\b
Exit codes:
  0  every submission built
  1  at least one submission failed (its row in summary.csv says why)
  2  usage errors (no submissions, OUT inside a submission, bad options)
"""


def _unless_given(flag: str, help: str, **kwargs):
    """A click option whose value is None unless it is given."""
    return click.option(flag, default=None, help=help, **kwargs)


@click.command(epilog=BATCH_EPILOG)
@click.argument("submissions", nargs=-1, required=True, type=click.Path(path_type=str))
@click.option(
    "--out",
    required=True,
    type=click.Path(path_type=str),
    help="Folder for the reports and the class summary (new, empty, or an earlier batch's).",
)
@click.option(
    "--jobs",
    "-j",
    type=int,
    default=None,
    help="Projects built at once (default: the number of CPUs).",
)
@format_option("Comma-separated formats for each report.")
@lang_option(
    "Language of every report, the index, feedback and grade comments: en or uk "
    "(default: each project's [report] language; the class's pages in English)."
)
@click.option(
    "--timeout",
    type=float,
    default=120.0,
    show_default=True,
    help="Seconds one project may take; a slower one is stopped and gets an error row.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
@click.option(
    "--executor",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="local: worker processes on this machine; dask: an existing Dask cluster.",
)
@_unless_given(
    "--scheduler",
    "Dask scheduler address (tcp://host:8786), with --executor dask.",
    metavar="ADDRESS",
)
# grading options (reportgen/grading)
@_unless_given(
    "--rubric",
    "Grade with this rubric.toml: OUT/grades.csv and OUT/NAME/feedback.md "
    "(`evreport rubric init FILE` writes a template).",
    type=click.Path(path_type=str),
)
@_unless_given(
    "--roster",
    "CSV with 'submission' and 'student' columns: the student column of grades.csv.",
    type=click.Path(path_type=str),
)
@_unless_given(
    "--deadline",
    "ISO 8601 date-time; a run started after it costs the rubric's 'late' points.",
    metavar="DATETIME",
)
@click.option(
    "--force", is_flag=True, help="Rebuild every report, even when its inputs are unchanged."
)
def batch(submissions, out, quiet, rubric, roster, deadline, force, **build_options) -> None:
    """Build one report per submission and a class summary (summary.csv, summary.json, index.html).

    Submissions are untrusted: zips are extracted with caps and checks, and a broken or hung
    project only gets an error row.
    """
    from reportgen.batch import Progress, run_batch
    from reportgen.errors import EvreportError, clean_text, display_name
    from reportgen.project.files import check_environment
    from reportgen.words.i18n import _, local_number, p_, speaking

    progress = None if quiet else Progress(sys.stderr)
    stopped = _stop_on_sigterm()
    # build_options: --jobs, --format, --timeout, --executor, --scheduler, as run_batch names them
    language = build_options.pop("lang")
    try:
        check_environment()
        with speaking(language):  # a bad rubric, roster or deadline said in the batch's language
            grading = _grading_options(rubric, roster, deadline, force)
        result = run_batch(
            submissions, out, **build_options, progress=progress, grading=grading, language=language
        )
    except EvreportError as e:
        with speaking(language):
            click.echo(
                f"evreport batch: {p_('severity', 'error')}: {clean_text(e)} [{e.slug}]", err=True
            )
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        signum = stopped[0] if stopped else 2
        with speaking(language):
            click.echo(
                "evreport batch: "
                + _(
                    "stopped by {signal}; every worker is stopped and each report in {out} is a "
                    "complete earlier or new one; run the batch again to finish",
                    signal="SIGTERM" if signum == 15 else "Ctrl-C",
                    out=display_name(out),
                ),
                err=True,
            )
        sys.exit(128 + signum)
    with speaking(language):
        for line in (result.extra or {}).get("roster_problems", []):
            click.echo(f"evreport batch: {p_('severity', 'warning')}: {clean_text(line)}", err=True)
        if not quiet:
            n, failed = len(result.rows), result.failed
            reused = result.extra.get("reused", 0)
            seconds = local_number(f"{result.seconds:.1f}")
            index = display_name(result.out / "index.html")
            click.echo(
                _(
                    "{built} of {n} built, {failed} failed, in {seconds} s ({reused} reused "
                    "unchanged); see {index}",
                    built=n - failed,
                    n=n,
                    failed=failed,
                    seconds=seconds,
                    reused=reused,
                    index=index,
                )
                if reused
                else _(
                    "{built} of {n} built, {failed} failed, in {seconds} s; see {index}",
                    built=n - failed,
                    n=n,
                    failed=failed,
                    seconds=seconds,
                    index=index,
                ),
                err=True,
            )
    sys.exit(result.exit_code)


def _stop_on_sigterm() -> list[int]:
    """Handle SIGTERM like Ctrl-C (a KeyboardInterrupt: workers stopped, OUT left whole).

    Returns a list that gets the signal's number when one arrives.
    """
    import signal

    got: list[int] = []

    def handler(signum, frame):
        got.append(signum)
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):  # not the main thread (an embedding application)
        pass
    return got


def _grading_options(rubric, roster, deadline, force):
    from reportgen.grading import GradingOptions, load_roster, parse_deadline
    from reportgen.grading.rubric import load_rubric

    return GradingOptions(
        rubric=load_rubric(rubric) if rubric else None,
        roster=load_roster(roster) if roster else None,
        deadline=parse_deadline(deadline) if deadline else None,
        force=force,
    )


@click.group()
def rubric() -> None:
    """Rubrics for `evreport batch --rubric`."""


@rubric.command("init")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def rubric_init(file: str, force: bool) -> None:
    """Write a commented rubric template to FILE (edit it, then pass it to --rubric)."""
    from pathlib import Path

    from reportgen.grading.rubric import TEMPLATE

    path = Path(file)
    if path.exists() and not force:
        click.echo(
            f"evreport rubric init: error: {file} exists; use --force to overwrite", err=True
        )
        sys.exit(2)
    try:
        path.write_text(TEMPLATE, encoding="utf-8")
    except OSError as e:
        click.echo(f"evreport rubric init: error: cannot write {file}: {e.strerror}", err=True)
        sys.exit(1)
    click.echo(f"wrote {file}; edit it, then: evreport batch ... --rubric {file}", err=True)
