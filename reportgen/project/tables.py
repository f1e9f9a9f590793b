"""CSV and Parquet tables as string-typed pandas frames, with file/line/column in every error."""

from __future__ import annotations

import io
import re
from pathlib import Path

from reportgen.errors import Problem
from reportgen.project.files import Reader, Refused

TABLE_SUFFIXES = (".csv", ".parquet", ".pq")


class TableError(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(str(problem))


def read_table(reader: Reader, path: Path):
    """Read a CSV or Parquet file into a DataFrame of strings (Parquet keeps its own dtypes).

    Row i of the frame is file line i + 2 for CSV (line 1 is the header) and row i + 1 for
    Parquet; callers use `line_of` to cite it.
    """
    import pandas as pd

    name = reader.display(path)
    try:
        data = reader.read_bytes(path)
    except Refused as e:
        raise TableError(Problem(str(e), name, slug="unreadable")) from None
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(io.BytesIO(data))
        except Exception as e:  # pyarrow raises several types for corrupt files
            raise TableError(
                Problem(f"not a readable Parquet file: {e}", name, slug="bad-parquet")
            ) from None
        frame = table.to_pandas()
        frame.attrs["format"] = "parquet"
    elif suffix == ".csv":
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            line = data[: e.start].count(b"\n") + 1
            raise TableError(Problem("not valid UTF-8", name, line, slug="bad-encoding")) from None
        if not text.strip():
            raise TableError(
                Problem("the file is empty (a header line is expected)", name, 1, slug="empty")
            )
        try:
            frame = pd.read_csv(
                io.StringIO(text),
                dtype=str,
                keep_default_na=False,
                na_filter=False,
                skipinitialspace=False,
                engine="c",
            )
        except pd.errors.ParserError as e:
            m = re.search(r"line (\d+)", str(e))
            raise TableError(
                Problem(f"malformed CSV: {e}", name, int(m.group(1)) if m else None, slug="bad-csv")
            ) from None
        except Exception as e:
            raise TableError(Problem(f"malformed CSV: {e}", name, slug="bad-csv")) from None
        dupes = [
            c
            for c in frame.columns
            if re.search(r"\.\d+$", str(c)) and str(c).rsplit(".", 1)[0] in frame.columns
        ]
        if dupes:
            raise TableError(
                Problem(
                    f"duplicate column name {dupes[0].rsplit('.', 1)[0]!r} in the header",
                    name,
                    1,
                    slug="duplicate-column",
                )
            )
        frame.attrs["format"] = "csv"
        if '"' in text or "\n\n" in text.replace("\r\n", "\n") or text.startswith(("\n", "\r")):
            lines = _record_lines(text)
            if len(lines) == len(frame):
                frame.attrs["lines"] = lines
    else:
        raise TableError(
            Problem(
                f"unsupported table format {suffix!r}; use .csv or .parquet",
                name,
                slug="bad-format",
            )
        )
    frame.columns = [str(c).strip() for c in frame.columns]
    return frame


def _record_lines(text: str):
    """File line on which each data record starts (blank lines skipped, quoted newlines counted)."""
    import csv

    import numpy as np

    reader = csv.reader(io.StringIO(text, newline=""))
    out, prev, header = [], 0, True
    try:
        for row in reader:
            start, prev = prev + 1, reader.line_num
            if not row:
                continue
            if header:
                header = False
                continue
            out.append(start)
    except csv.Error:
        return np.zeros(0, dtype=np.int64)
    return np.asarray(out, dtype=np.int64)


def line_of(frame, index: int) -> int:
    """File line (CSV) or 1-based row (Parquet) of frame row ``index``."""
    lines = frame.attrs.get("lines")
    if lines is not None:
        return int(lines[index])
    return index + 2 if frame.attrs.get("format") == "csv" else index + 1


def column_of(frame, name: str) -> int | None:
    """1-based column number of ``name`` in the frame's header."""
    try:
        return list(frame.columns).index(name) + 1
    except ValueError:
        return None


def numeric_column(
    frame,
    col: str,
    name: str,
    problems: list[Problem],
    *,
    allowed=None,
    low=None,
    high=None,
    limit: int = 5,
):
    """Column ``col`` as float64; bad cells (not a number, NaN, outside range/allowed set) become Problems."""
    import numpy as np
    import pandas as pd

    raw = frame[col]
    values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(values)
    what = "a finite number"
    if allowed is not None:
        bad |= ~np.isin(values, list(allowed))
        what = " or ".join(str(a) for a in allowed)
    if low is not None:
        bad |= values < low
        what = f"a number in [{low}, {high}]"
    if high is not None:
        bad |= values > high
    idx = np.flatnonzero(bad)
    c = column_of(frame, col)
    for i in idx[:limit]:
        problems.append(
            Problem(
                f"{col} = {str(raw.iloc[i])!r} must be {what}",
                name,
                line_of(frame, int(i)),
                c,
                slug="bad-value",
            )
        )
    if len(idx) > limit:
        problems.append(
            Problem(f"{len(idx) - limit} more bad values in column {col!r}", name, slug="bad-value")
        )
    return values
