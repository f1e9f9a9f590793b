"""`evreport build --mlflow-run ID`: log the written report files back as that run's artifacts.

The files go under the run's ``report/`` artifact folder, and the verdict and supported
rung become the run tags ``evreport.verdict`` and ``evreport.supported_rung``. The store is
checked as the importer checks it (mlflow_store.parse), so a wrong path never becomes a
new database, and the run's artifact location by the import's rule (inside the store, or
the tracking server's own proxy: mlflow_artifacts.check_upload), so a run naming another
folder or host gets nothing. Called once from cli.build after the report is written.
"""

from __future__ import annotations

import os

import click

from reportgen.errors import clean_text

ARTIFACT_DIR = "report"


def log_report(result, run_id: str, tracking_uri: str) -> str:
    """Log ``result.written`` to MLflow run ``run_id``; the message to print. Raises MlflowImportError."""
    from reportgen.importers import mlflow_store
    from reportgen.importers.mlflow_artifacts import Refused, check_upload
    from reportgen.importers.mlflow_store import MlflowImportError

    mlflow_store.require_mlflow()
    store = mlflow_store.parse(tracking_uri)
    with mlflow_store.reading(store):
        client = mlflow_store.open_client(store)
        try:
            run = client.get_run(run_id)
        except Exception as e:
            raise MlflowImportError(
                f"no run {clean_text(run_id, 80)} at {store.uri}: {mlflow_store.sentence(e)}"
            ) from None
        try:
            check_upload(store, run)
        except Refused as e:
            raise MlflowImportError(f"run {clean_text(run_id, 80)}: {e}") from None
        try:
            # the repository of the location just checked (MLflow's own log_artifact would
            # look the run up again, or use a repository it cached for this run id)
            from mlflow.store.artifact.artifact_repository_registry import (
                get_artifact_repository,
            )

            repo = get_artifact_repository(run.info.artifact_uri, tracking_uri=store.mlflow_uri)
            for path in result.written:
                repo.log_artifact(str(path), ARTIFACT_DIR)
            client.set_tag(run_id, "evreport.verdict", str(result.verdict))
            client.set_tag(
                run_id, "evreport.supported_rung", str(result.report.claim.supported_rung)
            )
        except Exception as e:
            raise mlflow_store.store_error(store, e) from None
    return (
        f"logged {len(result.written)} report file(s) to MLflow run {clean_text(run_id, 80)} "
        f"({ARTIFACT_DIR}/) at {store.uri}"
    )


def log_to_mlflow(result, run_id: str | None, tracking_uri: str | None, code: int) -> int:
    """The CLI step: log when asked, print one line, return the build's exit code (1 on failure)."""
    from reportgen.importers.mlflow_store import MlflowImportError

    if run_id is None and tracking_uri is None:
        return code
    uri = tracking_uri or os.environ.get("MLFLOW_TRACKING_URI")
    if run_id is None or not uri:
        missing = "--mlflow-run" if run_id is None else "--tracking-uri (or MLFLOW_TRACKING_URI)"
        click.echo(
            f"evreport: error: the report was written but not logged to MLflow: {missing} is "
            "missing [mlflow-usage]",
            err=True,
        )
        return 2
    try:
        click.echo(log_report(result, run_id, uri))
    except MlflowImportError as e:
        click.echo(
            f"evreport: error: the report was written but not logged to MLflow: "
            f"{clean_text(e)} [{e.slug}]",
            err=True,
        )
        return 1
    return code
