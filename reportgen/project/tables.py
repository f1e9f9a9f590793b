"""CSV and Parquet tables as string-typed pandas frames, with file/line/column in every error."""

from __future__ import annotations

import io
import re
from pathlib import Path

from reportgen.errors import Problem, clean_text, quote
from reportgen.project import files
from reportgen.project.files import Reader, Refused, confine_file, decode_text
from reportgen.words.i18n import _, local_number, n_
from reportgen.words.numbers import count

TABLE_SUFFIXES = (".csv", ".parquet", ".pq")


class TableError(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(str(problem))


#: Parquet limits, checked from the file's metadata before anything is decoded: a few
#: megabytes of Parquet can describe hundreds of millions of rows
MAX_TABLE_ROWS = 10_000_000
MAX_TABLE_VALUES = 100_000_000  # leaf values over all columns
MAX_TABLE_DECODED_BYTES = 2 * 1024**3  # uncompressed page bytes over all columns
#: columns of one CSV or Parquet file, counted from the header or the schema before parsing
MAX_TABLE_COLUMNS = 10_000
# The text of one Parquet string column, decoded, may not exceed the per-file byte cap
# (MAX_FILE_BYTES or --max-file-mb): no more text than the largest CSV file read. Checked
# from the column's page sizes in the metadata before decoding, then exactly from its
# dictionary (each value's length times its uses) before any value is expanded.


def read_table(reader: Reader, path: Path, keep: bool = True):
    """Read a CSV or Parquet file into a DataFrame of strings (Parquet keeps its own dtypes).

    Row i of the frame is file line i + 2 for CSV (line 1 is the header) and row i + 1 for
    Parquet; callers use `line_of` to cite it. A file named twice is read once (the same
    frame is returned), so a manifest naming one file for many parts costs one read;
    ``keep=False`` does not keep the frame for later calls (a predictions file, turned into
    arrays at once: its frame need not outlive the parse).
    """
    name = reader.display(path)
    try:
        real = confine_file(reader.root, Path(path), name)
    except Refused as e:
        raise TableError(Problem(str(e), name, slug="unreadable")) from None
    key = str(real)
    if key in reader.tables:
        return reader.tables[key]
    frame = _read_table(reader, Path(path), name)
    if keep:
        reader.tables[key] = frame
    return frame


def _read_table(reader: Reader, path: Path, name: str):
    import pandas as pd

    try:
        data = reader.read_bytes(path)
    except Refused as e:
        raise TableError(Problem(str(e), name, slug="unreadable")) from None
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        frame = _parquet_frame(data, name, reader.max_file_bytes or files.MAX_FILE_BYTES)
    elif suffix == ".csv":
        try:
            text = decode_text(data)
        except Refused as e:
            raise TableError(Problem(str(e), name, e.line, e.column, slug="bad-encoding")) from None
        del data  # the text is all that is needed from here: one copy less at the peak
        if not text.strip():
            raise TableError(
                Problem(_("the file is empty (a header line is expected)"), name, 1, slug="empty")
            )
        columns = _header_fields(text)
        if columns > MAX_TABLE_COLUMNS:
            raise TableError(
                Problem(
                    _(
                        "the header has {n} columns, over the limit of {limit}; the file is not "
                        "parsed",
                        n=count(columns),
                        limit=count(MAX_TABLE_COLUMNS),
                    ),
                    name,
                    1,
                    slug="too-large",
                )
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
            msg = clean_text(e, 200)
            if "EOF inside string" in msg:
                msg += _(" (a quote is opened and never closed)")
            raise TableError(
                Problem(
                    _("malformed CSV: {reason}", reason=csv_reason(msg)),
                    name,
                    int(m.group(1)) if m else None,
                    slug="bad-csv",
                )
            ) from None
        except Exception as e:
            raise TableError(
                Problem(
                    _("malformed CSV: {reason}", reason=clean_text(e, 200)), name, slug="bad-csv"
                )
            ) from None
        header_problem = csv_header_problem([str(c) for c in frame.columns], text, name)
        if header_problem is not None:
            raise TableError(header_problem)
        dupes = [
            c
            for c in frame.columns
            if re.search(r"\.\d+$", str(c)) and str(c).rsplit(".", 1)[0] in frame.columns
        ]
        if dupes:
            raise TableError(
                Problem(
                    _(
                        "duplicate column name {column} in the header",
                        column=quote(dupes[0].rsplit(".", 1)[0]),
                    ),
                    name,
                    1,
                    slug="duplicate-column",
                )
            )
        frame.attrs["format"] = "csv"
        if not _one_record_per_line(text, len(frame)) and (
            '"' in text or "\n\n" in text.replace("\r\n", "\n") or text.startswith(("\n", "\r"))
        ):
            lines = _record_lines(text)
            if len(lines) == len(frame):
                frame.attrs["lines"] = lines
    else:
        raise TableError(
            Problem(
                _("unsupported table format {suffix}; use .csv or .parquet", suffix=quote(suffix)),
                name,
                slug="bad-format",
            )
        )
    frame.columns = [str(c).strip() for c in frame.columns]
    return frame


#: one line of a text with its terminator (\r\n, \r or \n), or the last line without one
_LINE = re.compile(r"[^\r\n]*(?:\r\n|[\r\n])|[^\r\n]+")


def _header_fields(text: str) -> int:
    """Fields of a CSV text's first record (the header), read alone; 0 when it is malformed.

    Lines are handed to the csv module one at a time, so only the header is copied.
    """
    import csv

    start = len(text) - len(text.lstrip("\r\n"))  # blank lines before the header
    lines = (m.group(0) for m in _LINE.finditer(text, start))
    try:
        return len(next(csv.reader(lines), []))
    except csv.Error:  # e.g. a quote never closed: the parser names it
        return 0


def csv_reason(msg: str) -> str:
    """pandas' reason for a malformed CSV in the current language where its wording is known
    (English: as it is)."""
    m = re.fullmatch(
        r"Error tokenizing data\. C error: Expected (\d+) fields? in line (\d+), saw (\d+) ?", msg
    )
    if m:
        return (
            _(
                "Error tokenizing data. C error: Expected {expected} fields in line {line}, saw {saw}",
                expected=m.group(1),
                line=m.group(2),
                saw=m.group(3),
            )
            + msg[m.end(3) :]
        )
    m = re.fullmatch(
        r"Error tokenizing data\. C error: EOF inside string starting at row (\d+)(.*)", msg
    )
    if m:
        return _(
            "Error tokenizing data. C error: EOF inside string starting at row {row}",
            row=m.group(1),
        ) + m.group(2)
    return msg


def csv_header_problem(header: list[str], text: str, name: str) -> Problem | None:
    """Problems with a CSV header that have a likely cause worth naming (Excel, semicolons)."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    if len(header) == 1 and ";" in first:
        return Problem(
            _(
                "the header has one column {column}: the file seems to use ';' as the "
                "delimiter; save it with commas",
                column=quote(header[0]),
            ),
            name,
            1,
            slug="delimiter",
        )
    raw = first.rstrip("\r").split(",")
    if len(raw) > 1 and raw[-1].strip() == "" and any(c.strip() for c in raw):
        return Problem(
            _(
                "the header ends with an empty column name (trailing commas, as a spreadsheet "
                "export writes them); remove the empty columns"
            ),
            name,
            1,
            len(raw),
            slug="empty-column",
        )
    return None


def _parquet_frame(data: bytes, name: str, max_text_bytes: int):
    """A Parquet file as a frame, refused before decoding when its metadata describes too much.

    ``max_text_bytes`` caps the decoded text of each string column (see MAX_TABLE_COLUMNS).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    def bad(msg: str, slug: str = "bad-parquet") -> TableError:
        return TableError(Problem(msg, name, slug=slug))

    try:
        pf = pq.ParquetFile(io.BytesIO(data))
        md = pf.metadata
        if md.num_columns > MAX_TABLE_COLUMNS:
            raise bad(
                _(
                    "the Parquet file has {n} columns, over the limit of {limit}",
                    n=count(md.num_columns),
                    limit=count(MAX_TABLE_COLUMNS),
                ),
                "too-large",
            )
        schema = pf.schema_arrow
        strings = [f.name for f in schema if _is_text(f.type)]
        leaf = {md.schema.column(j).path: j for j in range(md.num_columns)}
        text_leaves = {leaf[c]: c for c in strings if c in leaf}
        rows = md.num_rows
        values = decoded = 0
        pages = dict.fromkeys(text_leaves, 0)  # per string column: page bytes less 4 a value
        for i in range(md.num_row_groups):
            rg = md.row_group(i)
            decoded += rg.total_byte_size
            for j in range(rg.num_columns):
                c = rg.column(j)
                values += c.num_values
                if j in pages:
                    pages[j] += c.total_uncompressed_size - 4 * c.num_values
    except TableError:
        raise
    except Exception as e:  # pyarrow raises several types for corrupt files
        raise bad(_("not a readable Parquet file: {reason}", reason=clean_text(e, 200))) from None
    limits = (
        (rows, MAX_TABLE_ROWS, _("the Parquet file describes {n} rows, over the limit of {cap}")),
        (
            values,
            MAX_TABLE_VALUES,
            _("the Parquet file describes {n} values, over the limit of {cap}"),
        ),
        (
            decoded,
            MAX_TABLE_DECODED_BYTES,
            _("the Parquet file describes {n} decoded bytes, over the limit of {cap}"),
        ),
    )
    for n, cap, message in limits:
        if n > cap:
            raise bad(message.format(n=count(n), cap=count(cap)), "too-large")
    for j, n in pages.items():  # a plain-encoded value costs 4 length bytes in its page
        if n > max_text_bytes:
            raise bad(_text_limit_message(text_leaves[j], n, max_text_bytes), "too-large")
    nested = [f.name for f in schema if pa.types.is_nested(f.type)]
    if nested:
        raise bad(
            _(
                "column {column} is nested (a list or struct); use flat columns",
                column=quote(nested[0]),
            )
        )
    try:
        # strings stay dictionary-encoded while decoding: a repeated long value costs once
        table = pq.read_table(io.BytesIO(data), read_dictionary=strings or None)
    except Exception as e:
        raise bad(_("not a readable Parquet file: {reason}", reason=clean_text(e, 200))) from None
    for c in strings:  # before any value is expanded (pandas, str, strip)
        n = _text_bytes(table.column(c))
        if n > max_text_bytes:
            raise bad(_text_limit_message(c, n, max_text_bytes), "too-large")
    # text row ids (unique: a dictionary saves nothing) become Arrow strings, as in a CSV
    # frame, not one Python object per row
    ids = [i for i, f in enumerate(table.schema) if f.name == "row_id"]
    plain_ids = len(ids) == 1 and _is_text(table.schema[ids[0]].type)
    plain_ids = plain_ids and not _is_binary(table.schema[ids[0]].type)
    try:
        if plain_ids:
            table = table.set_column(ids[0], "row_id", table.column(ids[0]).cast(pa.large_string()))
        frame = table.to_pandas(types_mapper=_as_str_dtype if plain_ids else None)
    except Exception as e:
        raise bad(_("not a readable Parquet file: {reason}", reason=clean_text(e, 200))) from None
    del table
    for c in strings:
        if c in frame.columns and str(frame[c].dtype) == "category":
            col = frame[c].astype(object)
            frame[c] = col.where(col.notna(), None)
    frame.attrs["format"] = "parquet"
    return frame


def _is_binary(t) -> bool:
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = t.value_type
    return pa.types.is_binary(t) or pa.types.is_large_binary(t)


def _as_str_dtype(t):
    """to_pandas types_mapper: large_string (only the text row ids) as pandas' str dtype."""
    import numpy as np
    import pandas as pd
    import pyarrow as pa

    return pd.StringDtype("pyarrow", na_value=np.nan) if t == pa.large_string() else None


def _is_text(t) -> bool:
    """A string or binary Arrow type, or a dictionary of them (as pandas categories are stored)."""
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = t.value_type
    return (
        pa.types.is_string(t)
        or pa.types.is_large_string(t)
        or pa.types.is_binary(t)
        or pa.types.is_large_binary(t)
    )


def _text_limit_message(column: str, n: int, cap: int) -> str:
    return _(
        "column {column} decodes to {n} bytes of text, over the limit of {cap} "
        "(the per-file limit; set EVREPORT_MAX_FILE_BYTES to raise it)",
        column=quote(column),
        n=count(n),
        cap=count(cap),
    )


def _text_bytes(column) -> int:
    """Bytes of a string column once every value is expanded, counted without expanding."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    total = 0
    for chunk in column.chunks:
        if pa.types.is_dictionary(chunk.type):
            lengths = pc.fill_null(pc.binary_length(chunk.dictionary), 0)
            lengths = lengths.to_numpy(zero_copy_only=False).astype(np.int64)
            uses = np.bincount(
                pc.drop_null(chunk.indices).to_numpy(zero_copy_only=False),
                minlength=len(lengths),
            )
            total += int(uses @ lengths)
        else:
            total += int(pc.sum(pc.binary_length(chunk)).as_py() or 0)
    return total


def _one_record_per_line(text: str, records: int) -> bool:
    """True when the header and each record fill one line each (record i is on line i + 2).

    Every blank line and every line break inside a quoted value adds a line, so a text
    with exactly ``records + 1`` lines, all ending in ``\\n`` or ``\\r\\n``, has neither.
    """
    if text.count("\r") != text.count("\r\n"):  # a lone \\r also ends a line
        return False
    breaks = text.count("\n")
    return breaks + (0 if text.endswith("\n") else 1) == records + 1


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


def cell_problem(frame, index, column: str, message: str, name: str, slug: str) -> Problem:
    """A problem at one cell: the file line of row ``index``, the number of ``column``."""
    return Problem(message, name, line_of(frame, int(index)), column_of(frame, column), slug=slug)


def stripped_text(raw):
    """A column's cells as stripped strings, a null (in Parquet) as the empty string."""
    return raw.where(raw.notna(), "").astype(str).str.strip()


def cannot_read_on(frame, name: str, missing: str | None, problems: list[Problem]) -> bool:
    """True after naming why a table cannot be read on: ``missing``, the message for the
    columns its header lacks (line 1), or no rows (line 2)."""
    if missing:
        problems.append(Problem(missing, name, 1, slug="missing-column"))
        return True
    if len(frame) == 0:
        problems.append(Problem(_("no rows"), name, 2, slug="empty"))
        return True
    return False


#: the largest magnitude of a number read from a predictions or runs.csv cell: a squared error
#: (up to 4e60), its square in a spread and the spread's square in Welch's degrees of freedom
#: (about 1e242) stay finite (y = 1e308 with y_pred = -1e308 overflowed the squared error)
MAX_MAGNITUDE = 1e30


def beyond_magnitude(column: str, text: str) -> str:
    """The message for a finite number over MAX_MAGNITUDE in size."""
    return _(
        "{column} = {value} is over {limit} in size: the metric's sums over the rows would "
        "overflow; rescale the values",
        column=column,
        value=quote(text),
        limit=local_number(f"{MAX_MAGNITUDE:.0e}"),
    )


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
    huge = np.zeros(len(values), dtype=bool)
    if allowed is None and low is None and high is None:
        with np.errstate(invalid="ignore"):
            huge = np.abs(values) > MAX_MAGNITUDE
        bad |= huge
    what = _("a finite number")
    if allowed is not None:
        bad |= ~np.isin(values, list(allowed))
        what = _(" or ").join(local_number(str(a)) for a in allowed)
    if low is not None:
        bad |= values < low
        what = _(
            "a number in [{low}, {high}]",
            low=local_number(str(low)),
            high=local_number(str(high)),
        )
    if high is not None:
        bad |= values > high
    idx = np.flatnonzero(bad)
    for i in idx[:limit]:
        message = (
            beyond_magnitude(col, str(raw.iloc[i]))
            if huge[i]
            else _(
                "{column} = {value} must be {kind}",
                column=col,
                value=quote(str(raw.iloc[i])),
                kind=what,
            )
        )
        problems.append(cell_problem(frame, i, col, message, name, "bad-value"))
    if len(idx) > limit:
        problems.append(
            Problem(
                n_(
                    "{n} more bad values in column {column}",
                    "{n} more bad values in column {column}",
                    len(idx) - limit,
                    n=local_number(str(len(idx) - limit)),  # English as before: no separator
                    column=quote(col),
                ),
                name,
                slug="bad-value",
            )
        )
    return values
