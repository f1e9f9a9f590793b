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
    """Import runs logged by other tools (MLflow) into a project's runs.csv and predictions."""


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
