"""The committed example folders are what their scripts write today, checked without training.

`make examples-check` regenerates every folder (minutes of training) and fails on any changed
byte; these tests are the cheap part of it, run with the suite: each Recorder-written runs.csv
is in the form the Recorder writes now (header, quoting), its predictions folder holds exactly
the files it names, and for the scikit-learn examples the rows are the ones the script's
tune-then-repeat protocol logs (runs, order, configs, notes, the clock's ``started_at``).
"""

from __future__ import annotations

import csv
import importlib
import io
from pathlib import Path

import numpy as np
import pytest

from reportgen.project.runs import CV_COLUMNS
from reportgen.record import COLUMNS
from reportgen.record.io import iso_time

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
#: the example folders whose runs.csv and predictions the Recorder writes
RECORDED = (
    "weekly-churn",
    "moons-tie",
    "breast-cancer",
    "breast-cancer-cv",
    "diabetes-regression",
    "digits-multiclass",
)
#: the examples logged by examples/_common.PairedSeeds, and their scripts (each a STUDY)
PAIRED = {
    "breast-cancer": "make_breast_cancer",
    "diabetes-regression": "make_diabetes_regression",
    "digits-multiclass": "make_digits_multiclass",
}
#: the runs.csv columns the protocol decides (run_id, value, predictions and env are checked
#: by the folder's own build: tests/test_examples_recomputed.py)
LOGGED = ("model", "seed", "split", "metric", "status", "started_at", "config", "features")
LOGGED += ("split_id", "notes")


def runs_csv(name: str) -> tuple[str, list[str], list[list[str]]]:
    path = EXAMPLES / name / "runs.csv"
    if not path.is_file():
        pytest.skip(f"examples/{name} not generated")
    text = path.read_text(encoding="utf-8")
    header, *rows = csv.reader(io.StringIO(text, newline=""))
    return text, header, rows


@pytest.mark.parametrize("name", RECORDED)
def test_runs_csv_is_in_the_recorders_form(name):
    text, header, rows = runs_csv(name)
    assert header == [*COLUMNS, *(c for c in CV_COLUMNS if c in header)]
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    assert out.getvalue() == text  # quoting and line ends as the Recorder writes them


@pytest.mark.parametrize("name", RECORDED)
def test_predictions_are_the_files_runs_csv_names(name):
    _, header, rows = runs_csv(name)
    named = {r[header.index("predictions")] for r in rows} - {""}
    folder = EXAMPLES / name
    written = {
        p.relative_to(folder).as_posix() for p in (folder / "artefacts/predictions").iterdir()
    }
    assert written == named


class Replay:
    """A stand-in for the Recorder: notes each log call, answers with the committed value."""

    def __init__(self, rows: list[dict[str, str]]) -> None:
        self.values = {
            (r["model"], r["seed"], r["split"], r["config"], r["metric"]): float(r["value"])
            for r in rows
        }
        self.rows: list[dict[str, str]] = []
        self.starts: dict[tuple, str] = {}

    def log(self, **kw) -> dict[str, float]:
        run = (kw["model"], str(kw["seed"]), kw["config"])
        # no started_at: the Recorder keeps the start of the run's earlier rows
        started = self.starts.setdefault(run, iso_time(kw["started_at"]))
        for m in kw["metric"]:
            self.rows.append(
                {"model": run[0], "seed": run[1], "split": kw["split"], "metric": m}
                | {"status": "ok", "started_at": started, "config": kw["config"]}
                | {"features": kw["features"], "split_id": kw["split_id"], "notes": kw["notes"]}
            )
        return {m: self.values[(*run[:2], kw["split"], kw["config"], m)] for m in kw["metric"]}


@pytest.mark.parametrize("name", sorted(PAIRED))
def test_runs_are_what_the_script_logs(name, monkeypatch):
    _, header, rows = runs_csv(name)
    committed = [dict(zip(header, r, strict=True)) for r in rows]
    for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(v, "1")  # what importing _common would set, undone after the test
    monkeypatch.syspath_prepend(str(EXAMPLES))
    study = importlib.import_module(PAIRED[name]).STUDY
    split = EXAMPLES / name / "split"
    n = {p.stem: len(p.read_text().splitlines()) - 1 for p in split.glob("*.csv")}
    parts = {k: np.zeros(v) for k, v in n.items()}  # the protocol reads only their lengths
    rec = Replay(committed)
    study.run(rec, parts, parts, parts, lambda *args: lambda X: {})
    assert rec.rows == [{k: r[k] for k in LOGGED} for r in committed]
