"""A seeded large model-comparison project: models x seeds x (validation, test) rows.

``make_scale_project(path, n_val, n_test, seeds=10)`` writes evreport.toml, runs.csv,
split/{train,validation,test}.parquet (row_id, week, route) with their manifest, and one
predictions file (row_id, y, p) per network and part, each in its own shuffled row order.
``ids="int"`` writes int64 row ids, ``ids="str"`` strings such as ``"te0000042"``;
``split_fmt="csv"`` writes the split files as CSV (as pandas ``to_csv`` does: no quotes),
where integer ids are text such as ``200000042``. ``weeks="int"`` writes the block column
as integer week numbers (1 to 52) instead of labels such as ``"w07"``.
Used by bench/bench_scale.py and by tests/perf (a small copy).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

MODELS = ("cand", "base")
WEEKS = 52


def _ids(prefix: str, offset: int, n: int, kind: str):
    if kind == "int":
        return pa.array(np.arange(offset, offset + n, dtype=np.int64))
    return pa.array([f"{prefix}{i:07d}" for i in range(n)], type=pa.string())


def _write_csv(table, path: Path, quoted: bool = False) -> None:
    """CSV with strings quoted (pyarrow's default) or, as pandas writes it, unquoted."""
    import pyarrow.csv as pcsv

    options = pcsv.WriteOptions(quoting_style="needed" if quoted else "none")
    pcsv.write_csv(table, path, write_options=options)


def make_scale_project(
    path: Path,
    n_val: int,
    n_test: int,
    seeds: int = 10,
    ids: str = "int",
    fmt: str = "parquet",
    rng_seed: int = 13,
    split_fmt: str = "parquet",
    weeks: str = "text",
) -> Path:
    """Write the project into ``path`` (created) and return it."""
    from reportgen.project.manifest import freeze
    from reportgen.stats.metrics import per_row_metric

    path = Path(path)
    (path / "split").mkdir(parents=True, exist_ok=True)
    (path / "artefacts" / "predictions").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(rng_seed)
    parts = {}
    for part, n, off, pre in (
        ("train", 1000, 0, "tr"),
        ("validation", n_val, 10**8, "va"),
        ("test", n_test, 2 * 10**8, "te"),
    ):
        signal = rng.normal(size=n)
        y = (rng.random(n) < 1 / (1 + np.exp(-2 * signal))).astype(np.int64)
        week = np.sort(rng.integers(1, WEEKS + 1, size=n))
        route = rng.choice(np.array(["organic", "paid", "shifted"]), size=n, p=[0.5, 0.3, 0.2])
        table = pa.table(
            {
                "row_id": _ids(pre, off, n, ids),
                "week": (
                    pa.array(week)
                    if weeks == "int"
                    else pa.array([f"w{w:02d}" for w in range(WEEKS + 1)]).take(pa.array(week))
                ),
                "route": pa.array(route),
            }
        )
        if split_fmt == "parquet":
            pq.write_table(table, path / "split" / f"{part}.parquet")
        else:
            _write_csv(table, path / "split" / f"{part}.csv")
        parts[part] = (table.column("row_id"), signal, y)
    freeze(path, created="2026-01-01T00:00:00Z")

    rows = ["run_id,model,seed,split,metric,value,status,config,predictions"]
    for mi, model in enumerate(MODELS):
        for seed in range(1, seeds + 1):
            srng = np.random.default_rng([rng_seed, mi, seed])
            strength = (1.6 if model == "cand" else 1.5) * (1 + 0.03 * srng.normal())
            for part in ("validation", "test"):
                rid, signal, y = parts[part]
                z = strength * signal + 0.5 * srng.normal(size=len(y))
                p = np.clip(1 / (1 + np.exp(-z)), 1e-6, 1 - 1e-6).round(6)
                order = srng.permutation(len(y))
                rel = f"artefacts/predictions/{model}-s{seed}-{part}.{fmt}"
                table = pa.table(
                    {"row_id": rid.take(pa.array(order)), "y": y[order], "p": p[order]}
                )
                if fmt == "parquet":
                    pq.write_table(table, path / rel)
                else:
                    _write_csv(table, path / rel, quoted=True)
                value = float(np.mean(per_row_metric("log_loss", y=y, p=p)))
                rows.append(
                    f"{model}-s{seed},{model},{seed},{part},log_loss,{value!r},ok,{model}-a,{rel}"
                )
    (path / "runs.csv").write_text("\n".join(rows) + "\n")
    (path / "evreport.toml").write_text(
        "\n".join(
            [
                'title = "Large evaluation set (generated)"',
                "",
                "[claim]",
                'text = "cand beats base on test log loss"',
                'candidate = "cand"',
                'baseline = "base"',
                'metric = "log_loss"',
                "min_useful_effect = 0.005",
                "",
                "[rule]",
                "written = 2026-01-02",
                "resamples = 1000",
                "random_seed = 0",
                "",
                "[evaluation]",
                'block = "week"',
                'slice = "route"',
                'not_worse_on = ["shifted"]',
                'threshold = "validation-cost"',
                "bins = 10",
                "",
                "[costs]",
                "false_positive = 1.0",
                "false_negative = 3.0",
                'unit = "calls"',
                "cases_per_period = 1000",
                'period = "week"',
                "",
            ]
        )
    )
    return path
