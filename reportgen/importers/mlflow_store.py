"""Which MLflow tracking store a URI names, what reading it needs, and one-line errors.

Everything here is checked before MLflow is given the URI, because MLflow creates what
it cannot find: a missing ``mlflow.db`` becomes a new empty database, a missing file store
folder a new store. Only click-free standard library at module level; MLflow is imported
by ``open_client`` alone.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import re
import sqlite3
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote as url_quote
from urllib.parse import unquote, urlparse

from reportgen.errors import EXIT_USAGE, EvreportError, clean_text

#: the database dialects MLflow's SQLAlchemy store accepts (``postgresql+psycopg2`` etc. too)
DATABASES = ("sqlite", "postgresql", "mysql", "mssql")
SERVERS = ("http", "https")
SUPPORTED = (
    "sqlite:///PATH (MLflow 3's default, e.g. sqlite:///mlflow.db), postgresql://, mysql://, "
    "mssql://, http(s)://HOST:PORT (a tracking server) or file:PATH (a file store)"
)
FILE_STORE_VAR = "MLFLOW_ALLOW_FILE_STORE"
SQLITE_MAGIC = b"SQLite format 3\x00"


class MlflowImportError(EvreportError):
    """The MLflow store cannot be imported (unknown experiment, unreachable, unreadable)."""

    slug = "mlflow-import"


class MlflowMissing(MlflowImportError):
    """MLflow (or a part of it) is not installed: a usage problem, not bad input."""

    slug = "mlflow-missing"
    exit_code = EXIT_USAGE


class MlflowUsage(MlflowImportError):
    """A tracking URI or option evreport cannot use (unsupported scheme, bad --filter)."""

    slug = "mlflow-usage"
    exit_code = EXIT_USAGE


INSTALL = "pip install 'evreport[mlflow]'"


@dataclass
class Store:
    """A tracking store: ``kind`` is "file", "database" or "server".

    ``root`` is the folder whose files may be read as artifacts without
    ``--allow-remote-artifacts``: the file store's folder, or the folder holding a sqlite
    database (MLflow 3 puts artifacts in ``mlruns/`` beside ``mlflow.db``). ``env`` holds
    the environment variables set while MLflow reads; ``notes`` what the user is told.
    """

    uri: str
    kind: str
    mlflow_uri: str
    root: Path | None = None
    env: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: the database file of a sqlite store (``read_only`` reads a copy of it)
    sqlite: Path | None = None


def sentence(e: BaseException | str, limit: int = 240) -> str:
    """The first sentence of an error (MLflow's run to paragraphs), never cut mid-word."""
    text = " ".join(str(e).split()) or type(e).__name__
    for m in re.finditer(r"(?<=[a-z0-9)'\"\]])\.(\s|$)", text):
        head = text[: m.start() + 1]
        if re.search(r"\b(e\.g|i\.e|etc|vs|cf)\.$", head) or head.count("(") > head.count(")"):
            continue  # an abbreviation, or inside parentheses: not the end of the sentence
        if len(head) <= limit:
            text = head
        break
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    return clean_text(text.rstrip("."))


def _file_path(uri: str) -> Path | None:
    """The folder of a ``file:`` URI or plain path; None for any other scheme."""
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        if parsed.netloc not in ("", "localhost"):
            raise MlflowUsage(
                f"{uri}: a file URI with a host ({parsed.netloc}) is not a local folder; "
                "use file:///PATH or file:PATH"
            )
        return Path(unquote(parsed.path))
    if parsed.scheme == "" or (len(parsed.scheme) == 1 and os.name == "nt"):
        return Path(uri)
    return None


def _sqlite_path(uri: str) -> Path:
    """The database file of ``sqlite:///relative.db`` or ``sqlite:////absolute.db``."""
    rest = uri.split("?", 1)[0][len("sqlite:") :]
    if not rest.startswith("///") or rest in ("///", "///:memory:"):
        raise MlflowUsage(
            f"{uri} names no database file; use sqlite:///mlflow.db (relative) or "
            "sqlite:////absolute/path/mlflow.db"
        )
    return Path(unquote(rest[3:]))


def parse(uri: str) -> Store:
    """Check the URI and what reading it needs; raise one-line errors before MLflow runs."""
    uri = uri.strip()
    if not uri:
        raise MlflowUsage(f"--tracking-uri is empty; give one of: {SUPPORTED}")
    scheme = urlparse(uri).scheme.lower()
    dialect = scheme.split("+", 1)[0]
    if dialect in DATABASES:
        return _database(uri, dialect)
    if scheme in SERVERS:
        if not urlparse(uri).netloc:
            raise MlflowUsage(f"{uri} names no host; use http://HOST:PORT")
        return Store(
            uri,
            "server",
            uri.rstrip("/"),
            env={"MLFLOW_HTTP_REQUEST_MAX_RETRIES": "0", "MLFLOW_HTTP_REQUEST_TIMEOUT": "10"},
        )
    if scheme == "databricks":
        return Store(uri, "server", uri)
    path = _file_path(uri)
    if path is None:
        raise MlflowUsage(f"unsupported tracking URI scheme {scheme!r} in {uri}; use {SUPPORTED}")
    return _file_store(uri, path)


def _missing(modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` cannot be imported."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def _database(uri: str, dialect: str) -> Store:
    missing = _missing(("sqlalchemy", "alembic"))
    if missing:
        raise MlflowMissing(
            f"reading the database store {uri} needs {' and '.join(missing)} (MLflow's "
            f"SQLAlchemy store, which mlflow-skinny leaves out); install: {INSTALL}"
        )
    if dialect != "sqlite":
        return Store(uri, "database", uri)
    path = _sqlite_path(uri)
    shown = f"{uri} ({path})" if not path.is_absolute() else uri
    if not path.exists():
        hint = ""
        if (path.parent / "mlruns").is_dir() or Path("mlruns").is_dir():
            hint = "; is it in another folder, or is this an MLflow 2 file store (file:./mlruns)?"
        raise MlflowImportError(f"no MLflow database at {shown}: the file does not exist{hint}")
    if not path.is_file():
        raise MlflowImportError(f"no MLflow database at {shown}: it is not a regular file")
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as e:
        raise MlflowImportError(f"cannot read {shown}: {e.strerror}") from None
    if head != SQLITE_MAGIC:
        raise MlflowImportError(f"{shown} is not an SQLite database")
    tables = _sqlite_tables(path, shown)
    if not {"experiments", "runs"} <= tables:
        raise MlflowImportError(
            f"{shown} is an SQLite database without MLflow's tables (experiments, runs); "
            "not an MLflow store"
        )
    # MLflow caches stores by URI: an absolute one, so another folder's mlflow.db is not reused
    query = uri.split("?", 1)[1] if "?" in uri else ""
    absolute = f"sqlite:///{path.resolve().as_posix()}" + (f"?{query}" if query else "")
    return Store(uri, "database", absolute, root=path.resolve().parent, sqlite=path.resolve())


def _sqlite_tables(path: Path, shown: str) -> set[str]:
    """Table names, read through a read-only connection (MLflow would create missing tables)."""
    try:
        con = sqlite3.connect(f"file:{url_quote(str(path.resolve()))}?mode=ro", uri=True)
        try:
            return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            con.close()
    except sqlite3.Error as e:
        raise MlflowImportError(f"cannot read the database {shown}: {sentence(e)}") from None


def _file_store(uri: str, path: Path) -> Store:
    if path.suffix == ".db" or (path.is_file() and _is_sqlite(path)):
        raise MlflowUsage(
            f"{uri} is a database file; name it as a database store: "
            f"--tracking-uri sqlite:///{path.as_posix()}"
        )
    if not path.is_dir():
        raise MlflowImportError(f"no MLflow store at {uri}: {path} is not a folder")
    store = Store(uri, "file", path.resolve().as_uri(), root=path.resolve())
    value = os.environ.get(FILE_STORE_VAR)
    if value is None:
        store.env[FILE_STORE_VAR] = "true"
        store.notes.append(
            f"reading the file store {uri} with {FILE_STORE_VAR}=true (MLflow 3 refuses file "
            "stores without it; set it yourself to silence this note)"
        )
    elif value.strip().lower() not in ("true", "1"):
        raise MlflowImportError(
            f"{FILE_STORE_VAR}={value!r} makes MLflow refuse the file store {uri}; "
            f"set {FILE_STORE_VAR}=true to read it"
        )
    return store


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


@contextlib.contextmanager
def reading(store: Store) -> Iterator[None]:
    """MLflow's environment for this store, its logging and warnings silenced, then restored."""
    old = {k: os.environ.get(k) for k in store.env}
    for k, v in store.env.items():
        os.environ.setdefault(k, v)
    # MLflow's file store also warns through the root logger ("Malformed experiment ...")
    loggers = [logging.getLogger(n) for n in ("mlflow", "alembic", "")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)
        for k, before in old.items():
            if before is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = before


@contextlib.contextmanager
def read_only(store: Store) -> Iterator[Store]:
    """``store`` as an import reads it: a sqlite store through a private copy, never the file.

    MLflow writes to a database it opens (a "Default" experiment when there is none, schema
    tables), and a student's ``mlflow.db`` may carry triggers; the copy (SQLite's backup
    API, from a ``mode=ro`` connection, so a write-ahead log is included) takes those
    writes, and the student's file keeps its bytes. Other stores are yielded as they are.
    """
    if store.sqlite is None:
        yield store
        return
    import dataclasses
    import tempfile

    with tempfile.TemporaryDirectory(prefix="evreport-mlflow-db-") as tmp:
        copy = Path(tmp) / "mlflow.db"
        try:
            src = sqlite3.connect(f"file:{url_quote(str(store.sqlite))}?mode=ro", uri=True)
            try:
                dst = sqlite3.connect(copy)
                try:
                    src.backup(dst)
                finally:
                    dst.close()
            finally:
                src.close()
        except sqlite3.Error as e:
            raise MlflowImportError(
                f"cannot read the database {store.uri}: {sentence(e)}"
            ) from None
        query = store.mlflow_uri.split("?", 1)[1] if "?" in store.mlflow_uri else ""
        mlflow_uri = f"sqlite:///{copy.as_posix()}" + (f"?{query}" if query else "")
        yield dataclasses.replace(store, mlflow_uri=mlflow_uri)


def require_mlflow() -> None:
    """Raise MlflowMissing unless MLflow's client can be imported."""
    try:
        import mlflow.tracking  # noqa: F401
    except ImportError:
        raise MlflowMissing(f"MLflow is not installed; install the extra: {INSTALL}") from None


def open_client(store: Store):
    """An MlflowClient for the store (call inside ``reading``)."""
    require_mlflow()
    from mlflow.tracking import MlflowClient

    try:
        return MlflowClient(tracking_uri=store.mlflow_uri)
    except Exception as e:  # MLflow raises several types for bad URIs
        raise store_error(store, e) from None


def store_error(store: Store, e: BaseException) -> MlflowImportError:
    """One line for an exception MLflow raised while reading the store."""
    text = str(e)
    if store.kind == "server" and re.search(
        r"Connection refused|Failed to establish|Max retries exceeded|timed out|"
        r"Name or service not known|nodename nor servname",
        text,
    ):
        why = "the connection timed out" if "timed out" in text else "the connection failed"
        return MlflowImportError(
            f"cannot read the tracking store {store.uri}: {why} (is `mlflow server` running there?)"
        )
    if "out-of-date database schema" in text:
        m = re.search(r"found version (\S+), but expected (\S+?)\)", text)
        found = f" (schema {m.group(1)}; this MLflow reads {m.group(2)})" if m else ""
        return MlflowImportError(
            f"cannot read the tracking store {store.uri}: it was written by another MLflow "
            f"version{found}; upgrade a copy with `mlflow db upgrade`, or read it with the "
            "MLflow version that wrote it"
        )
    if isinstance(e, ModuleNotFoundError | ImportError):
        return MlflowMissing(
            f"cannot read the tracking store {store.uri}: {sentence(e)}; install the missing "
            "package (a database driver such as psycopg2-binary or pymysql for a server "
            f"database, or {INSTALL})"
        )
    return MlflowImportError(f"cannot read the tracking store {store.uri}: {sentence(e)}")


def artifacts_only_hint(store: Store) -> str:
    """For an empty file store: the MLflow 3 database whose artifact folder this probably is."""
    if store.kind != "file" or store.root is None:
        return ""
    try:
        subdirs = [p for p in store.root.iterdir() if p.is_dir() and not p.name.startswith(".")]
    except OSError:
        return ""
    if not subdirs or any((p / "meta.yaml").is_file() for p in subdirs):
        return ""
    db = next(
        (d / "mlflow.db" for d in (store.root.parent, Path.cwd()) if (d / "mlflow.db").is_file()),
        None,
    )
    where = f"sqlite:///{_shown(db)}" if db else "a database (sqlite:///PATH/mlflow.db)"
    return (
        f"; its folders have no meta.yaml, so it holds only the artifacts of an MLflow 3 "
        f"database store: the runs are in {where} (pass that as --tracking-uri)"
    )


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return "/" + path.resolve().as_posix().lstrip("/")


#: caps on the metadata walk of a file store (MLflow's own layout is four folders deep)
SCAN_MAX_ENTRIES = 2_000_000
SCAN_MAX_DEPTH = 24


def check_file_store(store: Store) -> None:
    """Refuse a file store whose metadata has a symlink or a hard-linked file.

    MLflow writes neither, and through either a param or tag file could carry the content
    of a file outside the store into runs.csv. Run artifact folders are not walked here:
    each artifact is checked when it is read.
    """
    if store.kind != "file" or store.root is None:
        return
    stack, seen = [(store.root, 0)], 0
    while stack:
        folder, depth = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError as e:
            raise MlflowImportError(
                f"cannot read the file store {store.uri}: {folder}: {e.strerror}"
            ) from None
        for entry in entries:
            seen += 1
            rel = Path(entry.path).relative_to(store.root).as_posix()
            if seen > SCAN_MAX_ENTRIES or depth >= SCAN_MAX_DEPTH:
                raise MlflowImportError(
                    f"the file store {store.uri} has more than {SCAN_MAX_ENTRIES:,} entries or "
                    f"folders over {SCAN_MAX_DEPTH} deep (at {clean_text(rel, 200)}); not read"
                )
            if entry.is_symlink():
                raise MlflowImportError(
                    f"the file store {store.uri} has a symlink, {clean_text(rel, 200)}; MLflow "
                    "writes none, so the store is not read"
                )
            if entry.is_dir(follow_symlinks=False):
                if depth == 2 and entry.name == "artifacts":  # <experiment>/<run>/artifacts
                    continue
                stack.append((Path(entry.path), depth + 1))
            elif (
                entry.is_file(follow_symlinks=False)
                and entry.stat(follow_symlinks=False).st_nlink > 1
            ):
                raise MlflowImportError(
                    f"the file store {store.uri} has a hard-linked file, {clean_text(rel, 200)} "
                    "(its content may come from outside the store); not read"
                )
