"""Where a run's artifacts may be read from, and reading them with the size cap enforced while reading.

A store is untrusted input (an instructor imports a student's store), and a run's
``artifact_uri`` is whatever the store says. Without ``--allow-remote-artifacts`` a run's
artifacts are read only

- from inside the store's folder (a file store, or the folder holding a sqlite database),
  through no symlink, from regular files with one link; a store moved from another
  machine is found at MLflow's own layout inside it (``<experiment>/<run>/artifacts``);
- or from the tracking server the user named, through its artifact proxy
  (``mlflow-artifacts:`` URIs resolving to that same scheme, host and port).

Anything else (``file:`` paths elsewhere, other hosts, cloud buckets) is refused before
any file is opened or any request is made. Every read stops at the byte cap, whatever a
listing or a Content-Length header claimed.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

from reportgen.errors import clean_text
from reportgen.importers.mlflow_store import Store, sentence

ARTIFACT_API = "/api/2.0/mlflow-artifacts/artifacts"
CHUNK = 1 << 20
SAFE_ID = re.compile(r"^[A-Za-z0-9_.-]{1,200}$")
FLAG = "--allow-remote-artifacts"
#: seconds one artifact download (its listing or its file) may take in all, and the whole
#: import's downloads together; a server trickling bytes is stopped there, the run skipped
DOWNLOAD_VAR, IMPORT_VAR = "EVREPORT_DOWNLOAD_SECONDS", "EVREPORT_IMPORT_SECONDS"
DOWNLOAD_SECONDS, IMPORT_SECONDS = 300.0, 1800.0
#: the largest artifact listing read (JSON), in bytes
LISTING_CAP = 16 << 20


def time_limits() -> tuple[float, float]:
    """(per artifact, per import) download seconds, from the environment or the defaults.

    A malformed value raises ValueError naming the variable.
    """
    limits = []
    for var, default in ((DOWNLOAD_VAR, DOWNLOAD_SECONDS), (IMPORT_VAR, IMPORT_SECONDS)):
        raw = os.environ.get(var)
        if raw is None:
            limits.append(default)
            continue
        try:
            value = float(raw)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"{var}={clean_text(raw, 40)!r} is not a positive number of seconds")
        limits.append(value)
    return limits[0], limits[1]


class Refused(Exception):
    """An artifact (or a run's whole artifact location) that is not read; the message says why."""


@dataclass(frozen=True)
class Listed:
    """A file in an artifact folder: its name there and the size the listing claims."""

    name: str
    size: int | None


def _over(name: str, size: int, cap: int, when: str = "") -> Refused:
    return Refused(
        f"{name} is {when}{size:,} bytes, over the {cap:,}-byte limit (EVREPORT_MAX_FILE_BYTES)"
    )


def _stopped(name: str, n: int, cap: int) -> Refused:
    return Refused(
        f"{name} is over the {cap:,}-byte limit (EVREPORT_MAX_FILE_BYTES); reading stopped "
        f"after {n:,} bytes"
    )


def _inside(path: Path, root: Path) -> bool:
    real, base = Path(os.path.realpath(path)), Path(os.path.realpath(root))
    return real == base or base in real.parents


class LocalArtifacts:
    """A run's artifact folder on this machine; ``confine`` is the store folder (None: the flag)."""

    def __init__(self, folder: Path, confine: Path | None, where: str) -> None:
        self.folder, self.confine, self.where = folder, confine, where

    def list(self, sub: str) -> dict[str, Listed]:
        d = self.folder / sub
        if self.confine is not None and d.exists() and not _inside(d, self.confine):
            raise Refused(f"{sub}/ leads outside the store (through a symlink); not read")
        if not d.is_dir():
            return {}
        out = {}
        with os.scandir(d) as it:
            for e in it:
                if e.is_file(follow_symlinks=False):
                    out[e.name] = Listed(e.name, e.stat(follow_symlinks=False).st_size)
                elif not e.is_dir(follow_symlinks=False):  # a symlink, FIFO, device, socket:
                    out[e.name] = Listed(e.name, None)  # refused when read, with the reason
        return out

    def read(self, rel: str, cap: int) -> bytes:
        path = self.folder / rel
        if self.confine is not None and not _inside(path, self.confine):
            raise Refused(f"{rel} leads outside the store (through a symlink); not read")
        try:
            st = os.lstat(path)
        except OSError as e:
            raise Refused(f"cannot read {rel}: {e.strerror}") from None
        if stat.S_ISLNK(st.st_mode):
            raise Refused(f"{rel} is a symlink; not read")
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"{rel} is not a regular file; not read")
        if self.confine is not None and st.st_nlink > 1:
            raise Refused(
                f"{rel} has {st.st_nlink} hard links (its content may come from outside the "
                "store); not read"
            )
        if st.st_size > cap:
            raise _over(rel, st.st_size, cap)
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        try:
            fd = os.open(path, flags)
        except OSError as e:
            raise Refused(f"cannot read {rel}: {e.strerror}") from None
        with os.fdopen(fd, "rb") as f:
            now = os.fstat(f.fileno())
            if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino) or not stat.S_ISREG(now.st_mode):
                raise Refused(f"{rel} changed while it was opened; not read")
            data = f.read(cap + 1)
        if len(data) > cap:
            raise _stopped(rel, len(data), cap)
        return data


class HttpArtifacts:
    """A run's artifacts behind an MLflow artifact proxy (``mlflow server``'s /mlflow-artifacts).

    Redirects are never followed (the origin checked is the origin read). Each download
    (a listing or a file) stops after ``per_artifact`` seconds in all, and none starts or
    goes on after ``until`` (the import's deadline, ``time.monotonic()``): a server
    trickling one byte at a time is stopped there, whatever its per-read pace.
    """

    def __init__(
        self,
        origin: str,
        root: str,
        where: str,
        per_artifact: float = DOWNLOAD_SECONDS,
        until: float | None = None,
    ) -> None:
        self.origin, self.root, self.where = origin.rstrip("/"), root.strip("/"), where
        self.per_artifact, self.until = per_artifact, until

    def _deadline(self, rel: str) -> tuple[float, str]:
        """When the download of ``rel`` must end, and which limit that is."""
        now = time.monotonic()
        mine = (now + self.per_artifact, f"{self.per_artifact:g} s ({DOWNLOAD_VAR})")
        if self.until is None or mine[0] <= self.until:
            return mine
        if self.until <= now:
            raise Refused(f"the import's download time limit ({IMPORT_VAR}) passed; {rel} not read")
        return self.until, f"the import's limit ({IMPORT_VAR})"

    def _get(self, endpoint: str, deadline: float, **kwargs):
        from mlflow.utils.credentials import get_default_host_creds
        from mlflow.utils.rest_utils import http_request

        wait = max(0.05, min(30.0, deadline - time.monotonic()))
        try:
            resp = http_request(
                get_default_host_creds(self.origin),
                endpoint,
                "GET",
                max_retries=0,
                timeout=wait,
                raise_on_status=False,
                allow_redirects=False,
                stream=True,
                **kwargs,
            )
        except Exception as e:
            raise Refused(f"cannot reach {self.origin}: {sentence(e)}") from None
        if resp.status_code != 200:
            resp.close()
            moved = " (a redirect; not followed)" if 300 <= resp.status_code < 400 else ""
            raise Refused(f"{self.origin} answered HTTP {resp.status_code}{moved} for {endpoint}")
        return resp

    def _body(self, resp, rel: str, cap: int, deadline: tuple[float, str]) -> bytes:
        """The response body, stopped at ``cap`` bytes or at the deadline."""
        with resp:
            length = resp.headers.get("Content-Length", "")
            if length.isdigit() and int(length) > cap:
                raise _over(rel, int(length), cap, "(Content-Length) ")
            data = bytearray()
            try:
                while True:
                    if time.monotonic() > deadline[0]:
                        raise Refused(
                            f"download of {rel} from {self.origin} took over {deadline[1]}; "
                            f"stopped after {len(data):,} bytes"
                        )
                    chunk = resp.raw.read1(CHUNK, decode_content=True)
                    if not chunk:
                        break
                    data += chunk
                    if len(data) > cap:
                        raise _stopped(rel, len(data), cap)
            except Refused:
                raise
            except Exception as e:
                raise Refused(
                    f"download of {rel} from {self.origin} failed: {sentence(e)}"
                ) from None
        return bytes(data)

    def list(self, sub: str) -> dict[str, Listed]:
        deadline = self._deadline(f"{sub}/")
        resp = self._get(
            ARTIFACT_API, deadline[0], params={"path": f"{self.root}/{sub}".strip("/")}
        )
        body = self._body(resp, f"the listing of {sub}/", LISTING_CAP, deadline)
        try:
            doc = json.loads(body)
            files = doc.get("files", []) if isinstance(doc, dict) else []
        except (ValueError, RecursionError):
            raise Refused(f"{self.origin} sent an artifact listing that is not JSON") from None
        out = {}
        for f in files if isinstance(files, list) else []:
            if not isinstance(f, dict) or f.get("is_dir"):
                continue
            name = str(f.get("path", "")).rsplit("/", 1)[-1]
            size = f.get("file_size")
            out[name] = Listed(
                name, int(size) if isinstance(size, int | str) and str(size).isdigit() else None
            )
        return out

    def read(self, rel: str, cap: int) -> bytes:
        endpoint = f"{ARTIFACT_API}/{quote(f'{self.root}/{rel}'.strip('/'))}"
        deadline = self._deadline(rel)
        return self._body(self._get(endpoint, deadline[0]), rel, cap, deadline)


class RepoArtifacts:
    """Any other artifact store MLflow knows (s3:, gs:, ...), read only with the flag.

    MLflow's repositories download whole files, so here the cap is checked against the
    listing before and the file after the download, not while it runs.
    """

    def __init__(self, uri: str) -> None:
        from mlflow.store.artifact.artifact_repository_registry import get_artifact_repository

        self.where = uri
        try:
            self.repo = get_artifact_repository(uri)
        except Exception as e:
            raise Refused(f"cannot open the artifact store {uri}: {sentence(e)}") from None

    def list(self, sub: str) -> dict[str, Listed]:
        try:
            infos = self.repo.list_artifacts(sub)
        except Exception as e:
            raise Refused(f"cannot list {sub}/ at {self.where}: {sentence(e)}") from None
        return {
            i.path.rsplit("/", 1)[-1]: Listed(i.path.rsplit("/", 1)[-1], i.file_size)
            for i in infos
            if not i.is_dir
        }

    def read(self, rel: str, cap: int) -> bytes:
        with tempfile.TemporaryDirectory(prefix="evreport-mlflow-") as tmp:
            try:
                local = Path(self.repo.download_artifacts(rel, tmp))
            except Exception as e:
                raise Refused(f"cannot download {rel} from {self.where}: {sentence(e)}") from None
            return LocalArtifacts(Path(tmp), Path(tmp), self.where).read(
                str(local.relative_to(tmp)), cap
            )


def _local_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme == "file" and parsed.netloc in ("", "localhost"):
        return Path(unquote(parsed.path))
    if parsed.scheme == "" or (len(parsed.scheme) == 1 and os.name == "nt"):
        return Path(uri) if uri else None
    return None


def _candidates(store: Store, experiment_id: str, run_id: str) -> list[Path]:
    """MLflow's own artifact layout inside the store folder (for a store moved from elsewhere)."""
    if store.root is None or not (SAFE_ID.match(experiment_id) and SAFE_ID.match(run_id)):
        return []
    tail = Path(experiment_id, run_id, "artifacts")
    if store.kind == "file":
        return [store.root / tail]
    return [store.root / "mlruns" / tail, store.root / "mlartifacts" / tail]


def _resolve(uri: str, tracking: str, shown: str) -> tuple[str, str]:
    """``_proxy`` with any failure but a refusal said as one line naming the location."""
    try:
        return _proxy(uri, tracking)
    except Refused:
        raise
    except Exception as e:
        raise Refused(f"its artifact location {shown} cannot be resolved: {sentence(e)}") from None


def _proxy(uri: str, tracking_uri: str) -> tuple[str, str]:
    """(origin, root) of an ``mlflow-artifacts:`` URI resolved as MLflow does, or of an http one."""
    if urlparse(uri).scheme == "mlflow-artifacts":
        from mlflow.store.artifact.mlflow_artifacts_repo import MlflowArtifactsRepository

        uri = MlflowArtifactsRepository.resolve_uri(uri, tracking_uri)
    parsed = urlparse(uri)
    head, sep, tail = parsed.path.partition(ARTIFACT_API)
    if not sep:
        raise Refused(f"{uri} is not an MLflow artifact server URI ({ARTIFACT_API}/...)")
    return f"{parsed.scheme}://{parsed.netloc}{head}", unquote(tail)


def _origin(uri: str) -> tuple[str, str, int | None]:
    p = urlparse(uri)
    port = p.port or {"http": 80, "https": 443}.get(p.scheme)
    return p.scheme, (p.hostname or "").lower(), port


#: the readers for_run gives: a folder, a tracking server's artifact API, MLflow's own repository
Artifacts = LocalArtifacts | HttpArtifacts | RepoArtifacts


def for_run(
    store: Store,
    run,
    allow_remote: bool,
    per_artifact: float = DOWNLOAD_SECONDS,
    until: float | None = None,
) -> Artifacts:
    """The artifacts of ``run`` as evreport may read them; Refused names the location and the flag.

    ``per_artifact`` and ``until`` bound the downloads of an http reader (``HttpArtifacts``).
    """
    try:
        reader = _for_run(store, run, allow_remote)
    except (OSError, ValueError) as e:  # a NUL byte, an unresolvable path
        shown = clean_text(run.info.artifact_uri or "", 200)
        raise Refused(f"its artifact location {shown} cannot be resolved: {e}") from None
    if isinstance(reader, HttpArtifacts):
        reader.per_artifact, reader.until = per_artifact, until
    return reader


def _for_run(store: Store, run, allow_remote: bool) -> Artifacts:
    uri = (run.info.artifact_uri or "").strip()
    shown = clean_text(uri, 200) or "(none)"
    local = _local_path(uri)
    if store.root is not None:
        if local is not None and local.is_absolute() and _inside(local, store.root):
            return LocalArtifacts(local, store.root, shown)
        for cand in _candidates(store, str(run.info.experiment_id), str(run.info.run_id)):
            if cand.is_dir() and _inside(cand, store.root):
                return LocalArtifacts(cand, store.root, f"{shown} (found at {cand})")
    scheme = urlparse(uri).scheme.lower()
    if store.kind == "server" and scheme == "mlflow-artifacts":
        origin, root = _resolve(uri, store.mlflow_uri, shown)
        if _origin(origin) == _origin(store.mlflow_uri):
            return HttpArtifacts(origin, root, shown)
    if not allow_remote:
        where = "the tracking server" if store.kind == "server" else "the store"
        raise Refused(
            f"its artifacts are at {shown}, outside {where} {clean_text(store.uri, 200)}; not "
            f"read (pass {FLAG} to read them)"
        )
    if local is not None:
        return LocalArtifacts(local, None, shown)
    if scheme == "mlflow-artifacts" and store.kind != "server" and not urlparse(uri).netloc:
        raise Refused(
            f"its artifacts are at {shown}, behind the tracking server that wrote them; import "
            "through that server (--tracking-uri http://HOST:PORT)"
        )
    if scheme in ("http", "https", "mlflow-artifacts"):
        tracking = store.mlflow_uri if store.kind == "server" else "http://localhost"
        origin, root = _resolve(uri, tracking, shown)
        return HttpArtifacts(origin, root, shown)
    return RepoArtifacts(uri)


def check_upload(store: Store, run) -> None:
    """Refused unless the files logged to ``run`` would land where an import may read from.

    MLflow writes a run's artifacts wherever its ``artifact_uri`` says, and a store (a
    student's) may name any folder on this machine or any host. Logged to are only a
    folder inside the store's own folder, or the named tracking server's own artifact
    proxy (an ``mlflow-artifacts:`` URI resolving to its scheme, host and port).
    """
    uri = (run.info.artifact_uri or "").strip()
    shown = clean_text(uri, 200) or "(none)"
    try:
        local = _local_path(uri)
    except (OSError, ValueError):
        local = None
    if store.root is not None and local is not None and local.is_absolute():
        if _inside(local, store.root):
            return
    if store.kind == "server" and urlparse(uri).scheme.lower() == "mlflow-artifacts":
        origin, _ = _resolve(uri, store.mlflow_uri, shown)
        if _origin(origin) == _origin(store.mlflow_uri):
            return
    where = "the tracking server" if store.kind == "server" else "the store"
    raise Refused(
        f"its artifacts are at {shown}, outside {where} {clean_text(store.uri, 200)}; "
        "nothing is written there"
    )
