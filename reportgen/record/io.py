"""What the Recorder needs beside its class: array checks with user-facing messages, the
run log's cells and times, the folder lock, and the predictions file's bytes."""

from __future__ import annotations

import contextlib
import csv
import io
import os
import platform
import time
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from reportgen.project.manifest import parse_time, utc_stamp

#: what a multi-class model logs: its own per-row metric column (docs/recording.md)
MULTICLASS_HINT = (
    "y and p are binary (labels 0 and 1, the class-1 probability); for a multi-class model "
    "pass p=estimator.predict_proba(X), all its columns, and classes=estimator.classes_ "
    "(the built-in multi-class metrics log_loss, brier, accuracy, error_rate), or log a "
    "per-row metric with values=, e.g. metric='nll', "
    "values=-np.log(proba[np.arange(len(y)), y]), and set [claim] higher_is_better = false "
    "(see docs/recording.md, multi-class and regression)"
)


def env_string() -> str:
    """The `env` column: Python and the versions of numpy, scikit-learn and torch when installed."""
    bits = ["python=" + ".".join(platform.python_version_tuple()[:2])]
    for dist in ("numpy", "scikit-learn", "torch"):
        try:
            bits.append(f"{dist}={metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            pass
    return ";".join(bits)


def utc_now() -> str:
    """Now in UTC with microseconds, as `evreport freeze` writes ``created``."""
    return utc_stamp()


def iso_time(t: datetime | str | None) -> str | None:
    if t is None:
        return None
    if isinstance(t, str):
        try:
            parse_time(t)
        except ValueError:
            raise ValueError(f"started_at={t!r} is not an ISO 8601 date-time") from None
        return t
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)
    return t.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def csv_cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on the project folder (flock on POSIX; a lock file elsewhere)."""
    try:
        import fcntl
    except ImportError:  # Windows: an O_EXCL lock file, retried
        lock = folder / ".evreport.lock"
        deadline = time.monotonic() + 60
        while True:
            try:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                break
            except FileExistsError:
                if time.monotonic() > deadline:
                    raise TimeoutError(
                        f"{lock} held for 60 s; remove it if no run is logging"
                    ) from None
                time.sleep(0.01)
        try:
            yield
        finally:
            os.close(fd)
            os.unlink(lock)
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def vector(x: Any, name: str, n: int | None) -> np.ndarray:
    a = np.asarray(x)
    if a.ndim == 2 and a.shape[1] == 1:
        a = a[:, 0]
    if a.ndim != 1:
        hint = ""
        if name == "p" and a.ndim == 2 and a.shape[1] == 2:
            hint = (
                "; for a binary predict_proba output pass its class-1 column, p[:, 1] (or set "
                '[claim] task = "multiclass" to log both columns)'
            )
        elif name == "p" and a.ndim == 2:
            hint = f"; p has {a.shape[1]} class columns: {MULTICLASS_HINT}"
        raise ValueError(f"{name} must be 1-D, got shape {a.shape}{hint}")
    if n is not None and len(a) != n:
        raise ValueError(f"{name} has {len(a)} values but row_id has {n}; lengths must match")
    return a


def zero_one(x: Any, name: str, n: int) -> np.ndarray:
    a = vector(x, name, n)
    if a.dtype == bool:
        return a.astype(np.int64)
    try:
        f = a.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold 0 or 1, got dtype {a.dtype}") from None
    bad = ~np.isin(f, (0.0, 1.0))
    if bad.any():
        first = float(f[bad][0])
        labels = np.unique(f[np.isfinite(f)])
        hint = ""
        if name == "y" and first.is_integer() and first > 1 and len(labels) <= 1000:
            hint = f"; y has {len(labels)} labels: {MULTICLASS_HINT}"
        raise ValueError(
            f"{name}[{int(np.flatnonzero(bad)[0])}] = {first!r} is not a valid label; "
            f"it should be 0 or 1{hint}"
        )
    return f.astype(np.int64)


def floats(a: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray | None]:
    """``a`` as float64 (ValueError unless it holds numbers) and the index of its first value
    that is not finite, or None."""
    try:
        f = a.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers, got dtype {a.dtype}") from None
    bad = ~np.isfinite(f)
    return f, (np.argwhere(bad)[0] if bad.any() else None)


def finite_vector(x: Any, name: str, n: int, low: float | None = None, high: float | None = None):
    f, at = floats(vector(x, name, n), name)
    if at is not None:
        i = int(at[0])
        raise ValueError(
            f"{name}[{i}] = {float(f[i])!r}: {name} must be finite (no NaN or infinity)"
        )
    if low is not None:
        out = (f < low) | (f > high)
        if out.any():
            i = int(np.flatnonzero(out)[0])
            raise ValueError(f"{name}[{i}] = {float(f[i])!r} is outside [{low}, {high}]")
    return f


def row_ids_of(row_id: Any) -> np.ndarray:
    a = vector(row_id, "row_id", None)
    if len(a) == 0:
        raise ValueError("row_id is empty; log at least one evaluated example")
    if a.dtype.kind in "iu":
        return a.astype(np.int64)
    if a.dtype.kind == "f":
        raise ValueError("row_id must be integers or strings, not floats (1.0 would not match '1')")
    s = a.astype(str).astype(object)
    if any(not v.strip() for v in s):
        raise ValueError("row_id has an empty value")
    return s


def check_logged_ids(known: Any, ids: Any, rows: str, *, named: str, hint: str, whole: str) -> None:
    """Every logged row_id is one of ``rows`` (``known``: a pandas Index of stripped strings),
    else a ValueError naming the first that is not; a warning when some of them are left out.

    The error calls them ``named`` and ends with ``hint``; ``whole`` says what the fairness
    check wants covered. The warning points two frames above this function's caller: the
    user's ``rec.log`` call.
    """
    import pandas as pd

    logged = pd.Index(np.asarray([str(v).strip() for v in ids], dtype=object))
    absent = np.flatnonzero(known.get_indexer(logged) < 0)
    if absent.size:
        i = int(absent[0])
        first = ids[i].item() if isinstance(ids[i], np.generic) else ids[i]
        raise ValueError(
            f"row_id[{i}] = {first!r} is not a row of {named}; "
            f"{absent.size:,} of the {len(ids):,} row ids are not in it{hint}"
        )
    if len(logged) < len(known):
        warnings.warn(
            f"{len(logged):,} of the {len(known):,} rows of {rows} logged: the report's "
            f"fairness check wants {whole}",
            stacklevel=4,
        )


def parquet_bytes(frame: dict[str, np.ndarray]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({k: pa.array(list(v) if v.dtype == object else v) for k, v in frame.items()})
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def csv_bytes(frame: dict[str, np.ndarray]) -> bytes:
    """UTF-8 CSV; floats in their shortest round-trip form, so reading back gives the same bits."""
    out = io.StringIO(newline="")
    w = csv.writer(out, lineterminator="\n")
    w.writerow(list(frame))
    cols = [
        [repr(float(x)) for x in v] if v.dtype.kind == "f" else [str(x) for x in v]
        for v in frame.values()
    ]
    w.writerows(zip(*cols, strict=True))
    return out.getvalue().encode("utf-8")


def read_predictions(path: Path):
    import pandas as pd

    if path.suffix.lower() in (".parquet", ".pq"):
        return pd.read_parquet(path)
    return pd.read_csv(path)
