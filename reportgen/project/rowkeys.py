"""Row ids of a split part as integer keys, shared by every predictions file of that part.

The split file's ids are turned into text once (``str(v).strip()``, as the checks compare
them), sorted once, and every predictions file of the part is mapped onto positions in
that order: by a table lookup or a binary search when the ids are integers on both sides,
else by a hash lookup (Arrow ``index_in``). A key is then a plain int64: joins,
intersections and coverage checks are array indexing and counting, and sorting keys sorts
the ids as strings. When anything is unusual (nulls, empty or padded ids, duplicates, an
id outside the split file, a column type other than integer or text) there are no keys and
the callers take the general path, which names the offending row.

Text ids count as integers only when every id of the column is a canonical decimal integer
(``canonical_ints``): digits, no sign, no leading zero, no space. For those ``str(int(s))
== s``, so two ids are equal as integers exactly when they are equal as text, and the
integer path matches the same rows as the text path. "007" and "7" stay different ids: a
column holding "007" is not canonical and takes the text path, where they differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from reportgen.errors import Problem, quote
from reportgen.project.tables import column_of, line_of, stripped_text
from reportgen.words.i18n import _, local_number, n_


def id_text(values):
    """Row ids as an Arrow string array equal to ``str(v).strip()`` per row, or None if unsure.

    None for nulls, empty ids, ids with surrounding whitespace, and types other than
    integers and text (a float id prints differently in Python and Arrow).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        arr = pa.array(values.array if hasattr(values, "array") else values)
    except (pa.ArrowException, TypeError, ValueError):
        return None
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if pa.types.is_dictionary(arr.type):
        arr = arr.dictionary_decode()
    if arr.null_count:
        return None
    if pa.types.is_integer(arr.type):
        return pc.cast(arr, pa.string())
    if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    arr = pc.cast(arr, pa.string())
    if len(arr) == 0:
        return arr
    lengths = pc.binary_length(arr)
    if pc.min(lengths).as_py() == 0:
        return None
    # Python's str.strip() removes Unicode whitespace and the ASCII separators \x1c-\x1f
    trimmed = pc.ascii_trim(pc.utf8_trim_whitespace(arr), characters="\x1c\x1d\x1e\x1f\x85")
    if pc.sum(pc.binary_length(trimmed)).as_py() != pc.sum(lengths).as_py():
        return None
    if pc.any(pc.match_substring_regex(arr, r"^[\x{85}\x{a0}\p{Z}]|[\x{85}\x{a0}\p{Z}]$")).as_py():
        return None
    return arr


#: a canonical decimal integer: no sign, no leading zero, no space, at most 19 digits
CANONICAL_INT = r"^(?:0|[1-9][0-9]{0,18})$"


def canonical_ints(text) -> np.ndarray | None:
    """int64 values of Arrow string ids when every one is a canonical decimal integer, else None.

    Canonical means ``str(int(s)) == s`` with no sign (see the module docstring), within
    int64; an empty column, a null or any other id gives None (the text path).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if text is None or len(text) == 0 or text.null_count:
        return None
    if not pc.all(pc.match_substring_regex(text, CANONICAL_INT)).as_py():
        return None
    try:
        ints = pc.cast(text, pa.int64())
    except pa.ArrowInvalid:  # 19 digits beyond 9,223,372,036,854,775,807
        return None
    return ints.to_numpy(zero_copy_only=False)


@dataclass
class PartKeys:
    """The unique row ids of one split part, in string order, and where each sits in the split file."""

    split_pos: np.ndarray  # (n,) row of the split file holding key k (the k-th id in string order)
    int_sorted: np.ndarray | None = None  # integer ids: the ids in numeric order ...
    int_key: np.ndarray | None = None  # ... and the key (string-order position) of each
    int_low: int = 0  # dense integer ids: key of id v at int_table[v - int_low], -1 if none
    int_table: np.ndarray | None = None
    #: Arrow strings, the ids in key order; for integer ids made on first use (messages)
    _sorted_text: object = field(default=None, repr=False)
    _labels: dict = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.split_pos)

    @property
    def sorted_text(self):
        """The part's ids as Arrow strings in key (code point) order."""
        if self._sorted_text is None:
            import pyarrow as pa
            import pyarrow.compute as pc

            by_key = np.empty(len(self), dtype=np.int64)
            by_key[self.int_key] = self.int_sorted
            self._sorted_text = pc.cast(pa.array(by_key), pa.string())
        return self._sorted_text

    def keys_of(self, ids) -> np.ndarray | None:
        """(N,) int64 keys of a predictions file's ids; None when one is unusual, absent or repeated."""
        import pyarrow.compute as pc

        ints = text = None
        if self.int_sorted is not None:
            ints = _int_ids(ids)
            if ints is None:  # text: integers only when every id is canonical
                text = id_text(ids)
                if text is None:
                    return None
                ints = canonical_ints(text)
        if ints is not None and self.int_table is not None:  # a table lookup
            v = ints - self.int_low
            if v.size and (v.min() < 0 or v.max() >= self.int_table.size):
                return None
            keys = self.int_table[v]
            if keys.size and keys.min() < 0:
                return None
        elif ints is not None:  # integers on both sides: a binary search, no text
            int_sorted, int_key = self.int_sorted, self.int_key
            assert int_sorted is not None and int_key is not None  # ints only with them
            pos = np.searchsorted(int_sorted, ints)
            np.minimum(pos, len(self) - 1, out=pos)
            if len(self) == 0 or not np.array_equal(int_sorted[pos], ints):
                return None
            keys = int_key[pos]
        else:
            text = id_text(ids) if text is None else text
            if text is None:
                return None
            found = pc.index_in(text, value_set=self.sorted_text)
            if found.null_count:
                return None
            keys = found.to_numpy(zero_copy_only=False).astype(np.int64)
        if keys.size and np.bincount(keys, minlength=len(self)).max() > 1:
            return None
        return keys.astype(np.int32, copy=False) if len(self) < 2**31 else keys

    def text_of(self, keys: np.ndarray) -> np.ndarray:
        """The ids of ``keys`` as Python strings (messages and the rare general path)."""
        import pyarrow as pa

        return np.asarray(
            self.sorted_text.take(pa.array(keys)).to_numpy(zero_copy_only=False), dtype=object
        )

    def labels(self, frame, column: str) -> tuple[np.ndarray, np.ndarray]:
        """(codes, distinct) of ``frame[column].astype(str)``, once per split column (see coded_labels)."""
        if column not in self._labels:
            self._labels[column] = coded_labels(frame[column])
        return self._labels[column]


def part_keys(frame, column: str) -> PartKeys | None:
    """Keys of a split frame's id column; None when its ids are unusual (checked elsewhere)."""
    import pyarrow.compute as pc

    if frame is None or column not in frame.columns:
        return None
    text = id_text(frame[column])
    if text is None:
        return None
    order = pc.sort_indices(text)
    sorted_text = text.take(order)
    if (
        len(sorted_text) > 1
        and pc.any(
            pc.equal(sorted_text.slice(1), sorted_text.slice(0, len(sorted_text) - 1))
        ).as_py()
    ):
        return None
    small = np.int32 if len(text) < 2**31 else np.int64  # keys, positions and lookups
    ints = _int_ids(frame[column])
    if ints is None:  # text (a CSV split file): integers when every id is canonical
        ints = canonical_ints(text)
    if ints is None:
        return PartKeys(order.to_numpy().astype(small), _sorted_text=sorted_text)
    keys = PartKeys(order.to_numpy().astype(small))
    del text, sorted_text  # the text of integer ids is made again only for messages
    by_value = np.argsort(ints, kind="stable")
    key_of_row = np.empty(len(ints), dtype=small)
    key_of_row[keys.split_pos] = np.arange(len(ints))
    keys.int_sorted, keys.int_key = ints[by_value], key_of_row[by_value]
    if ints.size and int(ints.max()) - int(ints.min()) < 4 * ints.size + 1024:
        keys.int_low = int(ints.min())
        keys.int_table = np.full(int(ints.max()) - keys.int_low + 1, -1, dtype=small)
        keys.int_table[ints - keys.int_low] = key_of_row
    return keys


def _int_ids(values) -> np.ndarray | None:
    """An integer id column without nulls as int64 (Parquet integer columns), else None."""
    dtype = getattr(values, "dtype", None)
    if dtype is None or getattr(dtype, "kind", None) not in ("i", "u"):
        return None
    arr = np.asarray(values)
    if arr.dtype.kind == "u" and arr.size and arr.max() > np.iinfo(np.int64).max:
        return None
    return arr.astype(np.int64, copy=False)


def coded_labels(series) -> tuple[np.ndarray, np.ndarray]:
    """(N,) codes and distinct labels with ``distinct[codes] == series.astype(str)`` (objects).

    Each distinct value is converted once.
    """
    import pandas as pd

    codes, uniques = pd.factorize(series, use_na_sentinel=False)
    text = pd.Series(uniques, dtype=series.dtype).astype(str).to_numpy(dtype=object)
    return codes, text


def as_labels(series) -> np.ndarray:
    """``series.astype(str).to_numpy(dtype=object)``, converting each distinct value once."""
    codes, text = coded_labels(series)
    return text[codes]


def repeated_ids(values, limit: int = 3) -> tuple[list[tuple[str, int, int]], int]:
    """Ids that occur more than once (compared as ``str(v).strip()``, empty ids left out).

    Returns up to ``limit`` (id, row of its first occurrence, row of the repeat), repeats in file
    order, and the number of repeated rows. One stable Arrow sort, as for the keys: no Python loop
    over rows (unusual ids are stripped by pandas first).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    text = id_text(values)
    rows = None  # frame row of each id in ``text`` (None: every row, in order)
    if text is None:
        import pandas as pd

        series = pd.Series(values).reset_index(drop=True)
        stripped = stripped_text(series).to_numpy(dtype=object)
        rows = np.flatnonzero(stripped != "")
        text = pa.array(stripped[rows], type=pa.string())
    if len(text) < 2:
        return [], 0
    order = pc.sort_indices(text)  # stable: equal ids keep their file order
    ordered = text.take(order)
    same = pc.equal(ordered.slice(1), ordered.slice(0, len(ordered) - 1))
    same = same.to_numpy(zero_copy_only=False)
    if not same.any():
        return [], 0
    order = order.to_numpy()
    starts_run = np.r_[True, ~same]  # sorted position k begins a run of equal ids
    run_start = np.flatnonzero(starts_run)[np.cumsum(starts_run) - 1]
    repeat = order[~starts_run]
    first = order[run_start[~starts_run]]
    by_row = np.argsort(repeat, kind="stable")
    repeat, first = repeat[by_row], first[by_row]
    if rows is not None:
        repeat, first = rows[repeat], rows[first]
    found = [
        (str(ordered[int(k)].as_py()), int(f), int(r))
        for k, f, r in zip(np.flatnonzero(~starts_run)[by_row][:limit], first, repeat, strict=False)
    ]
    return found, int(repeat.size)


def duplicate_id_problems(frame, column: str, name: str) -> list[Problem]:
    """A split file's repeated ids as errors naming both places (file:line:column), at most three."""
    if frame is None or column not in frame.columns:
        return []
    found, n = repeated_ids(frame[column])
    col = column_of(frame, column)
    out = [
        Problem(
            _(
                "duplicate {column} {value}: also at {where}; each row of a split file needs its "
                "own id",
                column=column,
                value=quote(ident),
                where=":".join((name, str(line_of(frame, first)), str(col))),
            ),
            name,
            line_of(frame, row),
            col,
            slug="duplicate-row-id",
        )
        for ident, first, row in found
    ]
    if n > len(found):
        out.append(
            Problem(
                n_(
                    "{n} more repeated ids in column {column}",
                    "{n} more repeated ids in column {column}",
                    n - len(found),
                    n=local_number(str(n - len(found))),  # English as before: no separator
                    column=quote(column),
                ),
                name,
                slug="duplicate-row-id",
            )
        )
    return out
