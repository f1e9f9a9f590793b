"""`evreport import`: runs logged by other tools into a project. Only click is imported here."""

from __future__ import annotations

import sys

import click

IMPORT_EPILOG = """
\b
Exit codes:
  0  imported (or nothing new to import)
  1  the store cannot be imported: unknown experiment, unreachable store, a run
     without model or seed (nothing is written)
  2  usage errors (bad options, MLflow not installed)
"""


@click.group("import")
def import_group() -> None:
    """Import runs logged by other tools (MLflow) into a project's runs.csv and predictions."""


@import_group.command("mlflow", epilog=IMPORT_EPILOG)
@click.argument("project", type=click.Path(file_okay=False, path_type=str))
@click.option(
    "--tracking-uri", required=True, help="MLflow tracking URI (file:./mlruns, http://...)."
)
@click.option("--experiment", required=True, help="Experiment name.")
@click.option(
    "--model-key", default="model", show_default=True, help="Param or tag naming the model."
)
@click.option(
    "--seed-key", default="seed", show_default=True, help="Param or tag holding the seed."
)
@click.option("--dry-run", is_flag=True, help="Print what would be written; write nothing.")
def mlflow_command(project, tracking_uri, experiment, model_key, seed_key, dry_run) -> None:
    """One MLflow run = one trained network: its validation_<metric> and test_<metric> metrics
    become runs.csv rows, its predictions/validation|test.(parquet|csv) artifacts are copied
    to artefacts/predictions/. Re-running adds new runs only. See docs/recording.md.
    """
    from reportgen.importers.mlflow import MlflowImportError, import_mlflow

    try:
        res = import_mlflow(
            project,
            tracking_uri,
            experiment,
            model_key=model_key,
            seed_key=seed_key,
            dry_run=dry_run,
        )
    except MlflowImportError as e:
        click.echo(f"evreport: error: {e} [{e.slug}]", err=True)
        sys.exit(e.exit_code)
    verb = "would import" if dry_run else "imported"
    for ir in res.new:
        click.echo(f"{verb} {ir.describe()}")
    for u in res.unfinished:
        click.echo(f"skipped unfinished run {u}; import again when it ends", err=True)
    rows = sum(len(ir.rows) for ir in res.new)
    files = sum(len(ir.files) for ir in res.new)
    click.echo(
        f"{project}: {verb} {len(res.new)} run(s) ({rows} row(s), {files} predictions file(s)) "
        f"from experiment {experiment!r}; {res.already} already imported"
        + ("; nothing written (--dry-run)" if dry_run else "")
    )
