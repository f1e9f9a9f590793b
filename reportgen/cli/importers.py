"""`evreport import`: runs logged by other tools into a project. Only click is imported here."""

from __future__ import annotations

import sys

import click

IMPORT_EPILOG = """
\b
Exit codes:
  0  imported (or nothing new to import); runs that cannot become rows are
     skipped with one warning each
  1  the store cannot be imported: unknown experiment, missing or unreachable
     store, or (--strict) a run that cannot become rows; nothing is written
  2  usage errors (bad options or --filter, unsupported URI, MLflow or its
     database support not installed)
"""


def _flag(flag: str, help: str):
    """An on/off click option, off unless given."""
    return click.option(flag, is_flag=True, help=help)


@click.group("import")
def import_group() -> None:
    """Import runs logged by other tools (MLflow, Inspect AI, lm-evaluation-harness) into a
    project's runs.csv and predictions."""


@import_group.command("mlflow", epilog=IMPORT_EPILOG)
@click.argument("project", type=click.Path(file_okay=False, path_type=str))
@click.option(
    "--tracking-uri",
    required=True,
    help="MLflow tracking URI: sqlite:///mlflow.db (MLflow 3's default), "
    "http://HOST:PORT (a server), file:./mlruns (a file store).",
)
@click.option("--experiment", required=True, help="Experiment name.")
@click.option(
    "--filter",
    "filter_string",
    default=None,
    metavar="EXPR",
    help="Only runs matching this MLflow search expression, e.g. "
    "\"params.model = 'mlp' and tags.stage = 'final'\".",
)
@click.option(
    "--model-key", default="model", show_default=True, help="Param or tag naming the model."
)
@click.option(
    "--seed-key", default="seed", show_default=True, help="Param or tag holding the seed."
)
@click.option(
    "--fold-key",
    default="fold",
    show_default=True,
    help="Param or tag holding the held-out fold (from 1) of a cross-validation run.",
)
@click.option(
    "--repeat-key",
    default="repeat",
    show_default=True,
    help="Param or tag holding the repeat (from 1; default 1) of a cross-validation run.",
)
@_flag(
    "--strict",
    "A run that cannot become rows is an error (exit 1, nothing written), not a warning.",
)
@_flag(
    "--allow-remote-artifacts",
    "Also read artifacts stored outside the store's folder or tracking server "
    "(other paths, hosts, buckets). Off by default: a store is untrusted input.",
)
@_flag("--dry-run", "Print what would be written; write nothing.")
def mlflow_command(project, tracking_uri, experiment, strict, dry_run, **reading) -> None:
    """One MLflow run = one trained network: its validation_<metric> and test_<metric> metrics
    become runs.csv rows, its predictions/validation|test.(parquet|csv) artifacts are copied
    to artefacts/predictions/. A run with a fold param or tag is one fold of a
    cross-validation: its fold_<metric> (else test_) metrics and predictions/fold.* (else
    test.*) become split "fold" rows with their repeat and fold. Re-running adds new runs
    only. See docs/recording.md.
    """
    from reportgen.errors import clean_text
    from reportgen.importers.mlflow import MlflowImportError, import_mlflow

    try:
        # reading: --filter, --model-key, --seed-key, --fold-key, --repeat-key,
        # --allow-remote-artifacts, as import_mlflow names them
        res = import_mlflow(
            project, tracking_uri, experiment, **reading, dry_run=dry_run, strict=strict
        )
    except MlflowImportError as e:
        click.echo(f"evreport: error: {clean_text(e)} [{e.slug}]", err=True)
        sys.exit(e.exit_code)
    for note in res.notes:
        click.echo(f"note: {clean_text(note)}", err=True)
    for warning in res.warnings:
        click.echo(f"warning: {clean_text(warning)}", err=True)
    if strict and res.skipped:
        for s in res.skipped:
            click.echo(f"evreport: error: {clean_text(s)} [mlflow-run]", err=True)
        click.echo(
            f"evreport: error: {len(res.skipped)} run(s) cannot become rows; nothing written "
            "(--strict) [mlflow-import]",
            err=True,
        )
        sys.exit(1)
    verb = "would import" if dry_run else "imported"
    for ir in res.new:
        click.echo(f"{verb} {ir.describe()}")
    for s in res.skipped:
        click.echo(f"warning: skipped {clean_text(s)}", err=True)
    for u in res.unfinished:
        click.echo(f"skipped unfinished run {u}; import again when it ends", err=True)
    rows = sum(len(ir.rows) for ir in res.new)
    files = sum(len(ir.files) for ir in res.new)
    skipped = f"; {len(res.skipped)} skipped (see the warnings)" if res.skipped else ""
    click.echo(
        f"{project}: {verb} {len(res.new)} run(s) ({rows} row(s), {files} predictions file(s)) "
        f"from experiment {experiment!r}; {res.already} already imported{skipped}"
        + ("; nothing written (--dry-run)" if dry_run else "")
    )


EVAL_EPILOG = """
\b
Exit codes:
  0  imported
  1  a log cannot be imported (status error or cancelled, truncated, another
     format, a sample without a score, questions other than the frozen ones);
     one line each, nothing written
  2  usage errors (bad options, inspect-ai not installed)
"""


def _eval_options(f):
    """The options both eval-log importers share."""
    for option in reversed(
        (
            click.option(
                "--model",
                required=True,
                help="The model's name in runs.csv and evreport.toml (candidate or baseline).",
            ),
            click.option(
                "--part",
                type=click.Choice(["test", "general"]),
                default="test",
                show_default=True,
                help="The frozen question set (test), or the general set of the forgetting "
                "check (general: another task's log).",
            ),
            click.option(
                "--slice-key",
                "slice_keys",
                multiple=True,
                metavar="KEY",
                help="A sample metadata (Inspect) or doc (lm-eval) key to record as a slice "
                "column, e.g. --slice-key category. Repeatable.",
            ),
            _flag("--dry-run", "Check the logs and print what would be written; write nothing."),
        )
    ):
        f = option(f)
    return f


def _run_eval_import(project: str, read, harness: str, model: str, part: str, slice_keys, dry_run):
    """Read the logs with ``read()``, check and write them; one error line per bad log."""
    from reportgen.errors import clean_text
    from reportgen.importers.evallog import EvalLogError, LogProblems, import_runs

    try:
        runs = read()
        res = import_runs(
            project,
            runs,
            model=model,
            part=part,
            harness=harness,
            slice_keys=slice_keys,
            dry_run=dry_run,
        )
    except LogProblems as e:
        for line in e.lines:
            click.echo(f"evreport: error: {clean_text(line)} [{e.slug}]", err=True)
        if len(e.lines) > 1:
            click.echo(
                f"evreport: error: {len(e.lines)} logs cannot be imported; nothing written",
                err=True,
            )
        sys.exit(e.exit_code)
    except EvalLogError as e:
        click.echo(f"evreport: error: {clean_text(e)} [{e.slug}]; nothing written", err=True)
        sys.exit(e.exit_code)
    for note in res.notes:
        click.echo(f"note: {clean_text(note)}", err=True)
    for warning in res.warnings:
        click.echo(f"warning: {clean_text(warning)}", err=True)
    verb = "would import" if dry_run else "imported"
    means = ", ".join(f"{m:.4f}" for m in res.means)
    click.echo(
        f"{project}: {verb} {model} on {part}: {len(res.epochs)} epoch(s) of "
        f"{res.questions:,} questions as seeds {', '.join(map(str, res.epochs))}, metric "
        f"{res.metric} (mean per epoch {means})"
        + ("; nothing written (--dry-run)" if dry_run else "")
    )


@import_group.command("inspect", epilog=EVAL_EPILOG)
@click.argument("project", type=click.Path(file_okay=False, path_type=str))
@click.argument("logs", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=str))
@_eval_options
@click.option(
    "--scorer",
    default=None,
    help="The scorer whose values are the per-question scores (needed when a log has several).",
)
def inspect_command(project, logs, model, part, slice_keys, dry_run, scorer) -> None:
    """Inspect AI logs (.eval) of one model: one predictions file and runs.csv row per epoch
    (seed = epoch), scored C = 1, P = 0.5, I = 0 as Inspect's value_to_float. The sample ids
    are checked against the frozen split/test.csv (or general.csv); without one, it is
    written from the log and frozen now. Needs `pip install 'evreport[inspect]'`. See
    docs/recording.md (From eval logs).
    """

    def read():
        from reportgen.importers.inspect_log import read_inspect

        return read_inspect(logs, scorer=scorer, slice_keys=slice_keys)

    _run_eval_import(project, read, "inspect", model, part, slice_keys, dry_run)


@import_group.command("lm-eval", epilog=EVAL_EPILOG)
@click.argument("project", type=click.Path(file_okay=False, path_type=str))
@click.argument("samples", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=str))
@_eval_options
@click.option(
    "--metric",
    default=None,
    help="The per-sample metric to import, e.g. acc (needed when the samples log several).",
)
@click.option(
    "--filter",
    "filter_name",
    default=None,
    help="lm-eval's filter whose values to import (needed when the samples log several).",
)
def lm_eval_command(
    project, samples, model, part, slice_keys, dry_run, metric, filter_name
) -> None:
    """lm-evaluation-harness --log_samples files (samples_<task>_<time>.jsonl) of one model:
    one predictions file and runs.csv row per file (seed 1, 2, ... in the order given), doc_id
    as the question id, the model arguments, n-shot and task version from results_<time>.json
    beside it. The doc ids are checked against the frozen split as for Inspect logs. See
    docs/recording.md (From eval logs).
    """

    def read():
        from reportgen.importers.lm_eval_log import read_lm_eval

        return read_lm_eval(samples, metric=metric, filter_name=filter_name, slice_keys=slice_keys)

    _run_eval_import(project, read, "lm-eval", model, part, slice_keys, dry_run)
