"""The exact bytes Recorder writes, per task, for a small fixed input: runs.csv and every
predictions file (CSV, so the bytes do not depend on the Parquet writer's version), and the
same table in the Parquet file. A change in what or how Recorder writes fails here."""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from reportgen.record import Recorder
from reportgen.record.io import csv_bytes

START = "2020-01-02T03:04:05Z"
ENV = "python=3;numpy=2"

TOML = """title = "pinned"

[claim]
text = "a beats b"
candidate = "a"
baseline = "b"
metric = "{metric}"
{task}
[evaluation]
threshold = "validation-cost"

[costs]
false_positive = 1.0
false_negative = 2.0
"""

VALIDATION = ["v1", "v2", "v3", "v4"]
TEST = ["t1", "t2", "t3", "t4"]


def _project(root: Path, fmt: str, metric: str, task: str = "", parts=("test",)) -> Recorder:
    (root / "split").mkdir(parents=True)
    for part in parts:
        ids = VALIDATION if part == "validation" else TEST
        (root / "split" / f"{part}.csv").write_bytes(("row_id\n" + "\n".join(ids) + "\n").encode())
    (root / "evreport.toml").write_text(TOML.format(metric=metric, task=task))
    rec = Recorder(root, predictions=fmt)
    rec.freeze("2020-01-01T00:00:00Z")
    return rec


def _binary(root: Path, fmt: str) -> None:
    rec = _project(root, fmt, "log_loss", parts=("validation", "test"))
    for model, seed, p in (("a", 1, [0.2, 0.7, 0.9, 0.4]), ("b", 2, [0.5, 0.5, 0.6, 0.3])):
        for split, ids in (("validation", VALIDATION), ("test", TEST)):
            rec.log(
                model=model,
                seed=seed,
                split=split,
                metric=["log_loss", "brier", "accuracy"],
                row_id=ids,
                y=[0, 1, 1, 0],
                p=p,
                columns={"block": [1, 1, 2, 2], "slice": ["x", "y", "x", "y"]},
                config=f"{model}-c",
                features="f",
                fit_seconds=1.5,
                notes="n",
                env=ENV,
                started_at=START,
            )


def _multiclass(root: Path, fmt: str) -> None:
    rec = _project(root, fmt, "log_loss", task='task = "multiclass"')
    p = [[0.5, 0.25, 0.25], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.6, 0.3, 0.1]]
    rec.log(
        model="a",
        seed=1,
        split="test",
        metric=["log_loss", "brier", "accuracy"],
        row_id=TEST,
        y=["cat", "dog", "eel", "dog"],
        p=p,
        classes=["cat", "dog", "eel"],
        env=ENV,
        started_at=START,
    )
    rec.log(
        model="b",
        seed=1,
        split="test",
        metric="accuracy",
        row_id=TEST,
        y=[0, 1, 2, 0],
        p=p,
        env=ENV,
        started_at=START,
    )


def _regression(root: Path, fmt: str) -> None:
    rec = _project(root, fmt, "squared_error", task='task = "regression"')
    rec.log(
        model="a",
        seed=1,
        split="test",
        metric=["squared_error", "absolute_error"],
        row_id=TEST,
        y=[1.0, 2.5, -0.5, 3.0],
        y_pred=[1.5, 2.0, 0.0, 2.75],
        env=ENV,
        started_at=START,
    )


def _questions(root: Path, fmt: str) -> None:
    rec = _project(root, fmt, "accuracy")
    for model, correct in (("before", [1, 0, 0, 1]), ("after", [True, True, False, True])):
        rec.log(
            model=model,
            seed=0,
            split="test",
            metric=["accuracy", "error_rate"],
            row_id=TEST,
            correct=correct,
            category=["dates", "names", "dates", "sums"],
            text=["q one", "q, two", 'q "three"', "q4"],
            env=ENV,
            started_at=START,
        )


def _values(root: Path, fmt: str) -> None:
    rec = _project(root, fmt, "latency_ms")
    rec.log(
        model="a",
        seed=1,
        split="test",
        metric="latency_ms",
        row_id=TEST,
        values=[10.0, 12.5, 9.0, 11.0],
        env=ENV,
        started_at=START,
    )
    rec.log(
        model="b",
        seed=1,
        split="test",
        metric=["latency_ms", "memory_mb"],
        row_id=TEST,
        values={"latency_ms": [8.0, 8.5, 9.5, 7.0], "memory_mb": [100.0, 101.0, 99.5, 100.25]},
        env=ENV,
        started_at=START,
    )


def _folds(root: Path, fmt: str) -> None:
    (root / "split").mkdir(parents=True)
    (root / "split" / "folds.csv").write_bytes(
        b"row_id,repeat,fold\nt1,1,1\nt2,1,2\nt3,1,1\nt4,1,2\n"
    )
    (root / "evreport.toml").write_text(TOML.format(metric="log_loss", task=""))
    rec = Recorder(root, predictions=fmt)
    rec.freeze("2020-01-01T00:00:00Z")
    for fold, rows, y, p in (
        (1, ["t1", "t3"], [0, 1], [0.25, 0.75]),
        (2, ["t2", "t4"], [1, 0], [0.6, 0.1]),
    ):
        rec.log(
            model="a",
            seed=1,
            split="fold",
            repeat=1,
            fold=fold,
            train_rows=2,
            metric=["log_loss", "accuracy"],
            row_id=rows,
            y=y,
            p=p,
            env=ENV,
            started_at=START,
        )


BUILDERS = {
    "binary": _binary,
    "multiclass": _multiclass,
    "regression": _regression,
    "questions": _questions,
    "values": _values,
    "folds": _folds,
}


def written(task: str, root: Path, fmt: str = "csv") -> dict[str, bytes]:
    """runs.csv and the predictions files of ``task``'s project, by project path."""
    BUILDERS[task](root, fmt)
    out = {"runs.csv": (root / "runs.csv").read_bytes()}
    for f in sorted((root / "artefacts" / "predictions").iterdir()):
        out[f"artefacts/predictions/{f.name}"] = f.read_bytes()
    return out


#: runs.csv and each predictions file, line by line, as Recorder wrote them
EXPECTED = {
    "binary": {
        "runs.csv": (
            "run_id,model,seed,split,metric,value,status,started_at,config,features,split_id,predictions,fit_seconds,env,notes\n"
            "a-a-c-s1,a,1,validation,log_loss,0.2990011586691898,ok,2020-01-02T03:04:05Z,a-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/a-a-c-s1-validation.csv,1.5,python=3;numpy=2,n\n"
            "a-a-c-s1,a,1,validation,brier,0.07500000000000001,ok,2020-01-02T03:04:05Z,a-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/a-a-c-s1-validation.csv,1.5,python=3;numpy=2,n\n"
            "a-a-c-s1,a,1,validation,accuracy,1.0,ok,2020-01-02T03:04:05Z,a-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/a-a-c-s1-validation.csv,1.5,python=3;numpy=2,n\n"
            "a-a-c-s1,a,1,test,log_loss,0.2990011586691898,ok,2020-01-02T03:04:05Z,a-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/a-a-c-s1-test.csv,1.5,python=3;numpy=2,n\n"
            "a-a-c-s1,a,1,test,brier,0.07500000000000001,ok,2020-01-02T03:04:05Z,a-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/a-a-c-s1-test.csv,1.5,python=3;numpy=2,n\n"
            "a-a-c-s1,a,1,test,accuracy,1.0,ok,2020-01-02T03:04:05Z,a-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/a-a-c-s1-test.csv,1.5,python=3;numpy=2,n\n"
            "b-b-c-s2,b,2,validation,log_loss,0.5634487322061534,ok,2020-01-02T03:04:05Z,b-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/b-b-c-s2-validation.csv,1.5,python=3;numpy=2,n\n"
            "b-b-c-s2,b,2,validation,brier,0.1875,ok,2020-01-02T03:04:05Z,b-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/b-b-c-s2-validation.csv,1.5,python=3;numpy=2,n\n"
            "b-b-c-s2,b,2,validation,accuracy,0.75,ok,2020-01-02T03:04:05Z,b-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/b-b-c-s2-validation.csv,1.5,python=3;numpy=2,n\n"
            "b-b-c-s2,b,2,test,log_loss,0.5634487322061534,ok,2020-01-02T03:04:05Z,b-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/b-b-c-s2-test.csv,1.5,python=3;numpy=2,n\n"
            "b-b-c-s2,b,2,test,brier,0.1875,ok,2020-01-02T03:04:05Z,b-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/b-b-c-s2-test.csv,1.5,python=3;numpy=2,n\n"
            "b-b-c-s2,b,2,test,accuracy,0.75,ok,2020-01-02T03:04:05Z,b-c,f,sha256:fd533e2e5c2fc8f2,artefacts/predictions/b-b-c-s2-test.csv,1.5,python=3;numpy=2,n\n"
        ),
        "artefacts/predictions/a-a-c-s1-test.csv": (
            "row_id,y,p,block,slice\nt1,0,0.2,1,x\nt2,1,0.7,1,y\nt3,1,0.9,2,x\nt4,0,0.4,2,y\n"
        ),
        "artefacts/predictions/a-a-c-s1-validation.csv": (
            "row_id,y,p,block,slice\nv1,0,0.2,1,x\nv2,1,0.7,1,y\nv3,1,0.9,2,x\nv4,0,0.4,2,y\n"
        ),
        "artefacts/predictions/b-b-c-s2-test.csv": (
            "row_id,y,p,block,slice\nt1,0,0.5,1,x\nt2,1,0.5,1,y\nt3,1,0.6,2,x\nt4,0,0.3,2,y\n"
        ),
        "artefacts/predictions/b-b-c-s2-validation.csv": (
            "row_id,y,p,block,slice\nv1,0,0.5,1,x\nv2,1,0.5,1,y\nv3,1,0.6,2,x\nv4,0,0.3,2,y\n"
        ),
    },
    "multiclass": {
        "runs.csv": (
            "run_id,model,seed,split,metric,value,status,started_at,config,features,split_id,predictions,fit_seconds,env,notes\n"
            "a-s1,a,1,test,log_loss,0.6577722899915204,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/a-s1-test.csv,,python=3;numpy=2,\n"
            "a-s1,a,1,test,brier,0.38375,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/a-s1-test.csv,,python=3;numpy=2,\n"
            "a-s1,a,1,test,accuracy,0.75,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/a-s1-test.csv,,python=3;numpy=2,\n"
            "b-s1,b,1,test,accuracy,1.0,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/b-s1-test.csv,,python=3;numpy=2,\n"
        ),
        "artefacts/predictions/a-s1-test.csv": (
            "row_id,y,p_cat,p_dog,p_eel\n"
            "t1,cat,0.5,0.25,0.25\n"
            "t2,dog,0.1,0.8,0.1\n"
            "t3,eel,0.2,0.2,0.6\n"
            "t4,dog,0.6,0.3,0.1\n"
        ),
        "artefacts/predictions/b-s1-test.csv": (
            "row_id,y,p_0,p_1,p_2\n"
            "t1,0,0.5,0.25,0.25\n"
            "t2,1,0.1,0.8,0.1\n"
            "t3,2,0.2,0.2,0.6\n"
            "t4,0,0.6,0.3,0.1\n"
        ),
    },
    "regression": {
        "runs.csv": (
            "run_id,model,seed,split,metric,value,status,started_at,config,features,split_id,predictions,fit_seconds,env,notes\n"
            "a-s1,a,1,test,squared_error,0.203125,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/a-s1-test.csv,,python=3;numpy=2,\n"
            "a-s1,a,1,test,absolute_error,0.4375,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/a-s1-test.csv,,python=3;numpy=2,\n"
        ),
        "artefacts/predictions/a-s1-test.csv": (
            "row_id,y,y_pred\nt1,1.0,1.5\nt2,2.5,2.0\nt3,-0.5,0.0\nt4,3.0,2.75\n"
        ),
    },
    "questions": {
        "runs.csv": (
            "run_id,model,seed,split,metric,value,status,started_at,config,features,split_id,predictions,fit_seconds,env,notes\n"
            "before-s0,before,0,test,accuracy,0.5,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/before-s0-test.csv,,python=3;numpy=2,\n"
            "before-s0,before,0,test,error_rate,0.5,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/before-s0-test.csv,,python=3;numpy=2,\n"
            "after-s0,after,0,test,accuracy,0.75,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/after-s0-test.csv,,python=3;numpy=2,\n"
            "after-s0,after,0,test,error_rate,0.25,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/after-s0-test.csv,,python=3;numpy=2,\n"
        ),
        "artefacts/predictions/after-s0-test.csv": (
            "row_id,correct,category,text\n"
            "t1,1,dates,q one\n"
            't2,1,names,"q, two"\n'
            't3,0,dates,"q ""three"""\n'
            "t4,1,sums,q4\n"
        ),
        "artefacts/predictions/before-s0-test.csv": (
            "row_id,correct,category,text\n"
            "t1,1,dates,q one\n"
            't2,0,names,"q, two"\n'
            't3,0,dates,"q ""three"""\n'
            "t4,1,sums,q4\n"
        ),
    },
    "values": {
        "runs.csv": (
            "run_id,model,seed,split,metric,value,status,started_at,config,features,split_id,predictions,fit_seconds,env,notes\n"
            "a-s1,a,1,test,latency_ms,10.625,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/a-s1-test.csv,,python=3;numpy=2,\n"
            "b-s1,b,1,test,latency_ms,8.25,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/b-s1-test.csv,,python=3;numpy=2,\n"
            "b-s1,b,1,test,memory_mb,100.1875,ok,2020-01-02T03:04:05Z,,,sha256:d8df39929ceea849,artefacts/predictions/b-s1-test.csv,,python=3;numpy=2,\n"
        ),
        "artefacts/predictions/a-s1-test.csv": (
            "row_id,latency_ms\nt1,10.0\nt2,12.5\nt3,9.0\nt4,11.0\n"
        ),
        "artefacts/predictions/b-s1-test.csv": (
            "row_id,latency_ms,memory_mb\nt1,8.0,100.0\nt2,8.5,101.0\nt3,9.5,99.5\nt4,7.0,100.25\n"
        ),
    },
    "folds": {
        "runs.csv": (
            "run_id,model,seed,split,metric,value,status,started_at,config,features,split_id,predictions,fit_seconds,env,notes,repeat,fold,train_rows\n"
            "a-s1-r1-f1,a,1,fold,log_loss,0.2876820724517809,ok,2020-01-02T03:04:05Z,,,sha256:c3b182350e65fdd7,artefacts/predictions/a-s1-r1-f1-fold.csv,,python=3;numpy=2,,1,1,2\n"
            "a-s1-r1-f1,a,1,fold,accuracy,1.0,ok,2020-01-02T03:04:05Z,,,sha256:c3b182350e65fdd7,artefacts/predictions/a-s1-r1-f1-fold.csv,,python=3;numpy=2,,1,1,2\n"
            "a-s1-r1-f2,a,1,fold,log_loss,0.30809306971190853,ok,2020-01-02T03:04:05Z,,,sha256:c3b182350e65fdd7,artefacts/predictions/a-s1-r1-f2-fold.csv,,python=3;numpy=2,,1,2,2\n"
            "a-s1-r1-f2,a,1,fold,accuracy,1.0,ok,2020-01-02T03:04:05Z,,,sha256:c3b182350e65fdd7,artefacts/predictions/a-s1-r1-f2-fold.csv,,python=3;numpy=2,,1,2,2\n"
        ),
        "artefacts/predictions/a-s1-r1-f1-fold.csv": ("row_id,y,p\nt1,0,0.25\nt3,1,0.75\n"),
        "artefacts/predictions/a-s1-r1-f2-fold.csv": ("row_id,y,p\nt2,1,0.6\nt4,0,0.1\n"),
    },
}

#: the column types of each Parquet predictions file, by task and file name
SCHEMAS = {
    "binary": {
        "a-a-c-s1-test.parquet": "row_id: string, y: int64, p: double, block: int64, slice: string",
        "a-a-c-s1-validation.parquet": "row_id: string, y: int64, p: double, block: int64, slice: string",
        "b-b-c-s2-test.parquet": "row_id: string, y: int64, p: double, block: int64, slice: string",
        "b-b-c-s2-validation.parquet": "row_id: string, y: int64, p: double, block: int64, slice: string",
    },
    "multiclass": {
        "a-s1-test.parquet": "row_id: string, y: string, p_cat: double, p_dog: double, p_eel: double",
        "b-s1-test.parquet": "row_id: string, y: int64, p_0: double, p_1: double, p_2: double",
    },
    "regression": {
        "a-s1-test.parquet": "row_id: string, y: double, y_pred: double",
    },
    "questions": {
        "after-s0-test.parquet": "row_id: string, correct: int64, category: string, text: string",
        "before-s0-test.parquet": "row_id: string, correct: int64, category: string, text: string",
    },
    "values": {
        "a-s1-test.parquet": "row_id: string, latency_ms: double",
        "b-s1-test.parquet": "row_id: string, latency_ms: double, memory_mb: double",
    },
    "folds": {
        "a-s1-r1-f1-fold.parquet": "row_id: string, y: int64, p: double",
        "a-s1-r1-f2-fold.parquet": "row_id: string, y: int64, p: double",
    },
}


def _want(task: str) -> dict[str, bytes]:
    return {path: text.encode() for path, text in EXPECTED[task].items()}


@pytest.mark.parametrize("task", BUILDERS)
def test_recorder_writes_these_exact_bytes(tmp_path, task):
    got, want = written(task, tmp_path / "p"), _want(task)
    assert list(got) == list(want)
    for path in want:
        assert got[path].decode() == want[path].decode(), path


@pytest.mark.parametrize("task", BUILDERS)
def test_the_parquet_files_hold_the_same_typed_table(tmp_path, task):
    """With predictions="parquet" runs.csv names .parquet files, each with the pinned column
    types and, written back as CSV, the pinned CSV bytes."""
    got, want = written(task, tmp_path / "p", "parquet"), _want(task)
    assert got["runs.csv"] == want["runs.csv"].replace(b".csv,", b".parquet,")
    for path in want:
        if path == "runs.csv":
            continue
        parquet = path.removesuffix(".csv") + ".parquet"
        table = pq.read_table(io.BytesIO(got[parquet]))
        schema = ", ".join(
            f"{n}: {t}" for n, t in zip(table.schema.names, table.schema.types, strict=True)
        )
        assert schema == SCHEMAS[task][parquet.rsplit("/", 1)[1]]
        frame = {n: table.column(n).to_numpy(zero_copy_only=False) for n in table.schema.names}
        assert csv_bytes(frame).decode() == want[path].decode(), path
