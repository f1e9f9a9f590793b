"""Artefact references as the page prints them: paths that break at slashes, links to the
project's files when the report knows where the project is, and compact lists grouped by
folder ("artefacts/predictions/: a.csv, b.csv") or by cited file ("runs.csv, lines 2, 3, 9").

A link is relative: the prefix from the report's folder to the project's (``""``, ``"../"``,
``"../../project/"``) and then the artefact's project-relative path. Nothing that could leave
the project folder is linked: no absolute path, no ``..`` or empty segment, no scheme or drive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportgen.words.i18n import n_

#: a citation of a line in a file: runs.csv:12, evreport.toml:10
_LINE_CITE = re.compile(r"^(?P<path>.+?):(?P<line>[0-9]{1,9})$")
#: characters that make a path no project-relative file (schemes, drives, queries, controls)
_UNLINKABLE = re.compile(r"[\\\x00-\x1f\x7f:?#]")
#: characters a URL path segment carries as they are (RFC 3986 unreserved and sub-delims);
#: every other one is percent-encoded, byte by byte of its UTF-8
_URL_UNSAFE = re.compile(r"[^A-Za-z0-9._~!$&'()*+,;=@-]")
#: the most ``..`` steps a link may take from the report's folder up to the project's
MAX_UP = 2


@dataclass(frozen=True)
class PathText:
    """A file path split at its slashes, so a line breaks between folders, never mid-name;
    ``href`` a relative link to the file in the project, or None (printed as plain text)."""

    text: str
    parts: list[str]
    href: str | None = None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class ArtefactGroup:
    """Artefacts sharing a folder or a cited file, printed as one line: ``head``, then
    ``items``."""

    #: "artefacts/predictions/", "runs.csv, lines"; empty for files at the project's top
    head: PathText
    #: each artefact's own part ("r03-mlp-s1-test.csv", "12"), linked to its file
    items: list[PathText]


@dataclass(frozen=True)
class ArtefactList:
    """A rung's, check's or fact's artefacts: groups, and what a capped list leaves out."""

    groups: list[ArtefactGroup]
    #: "and 22 more in the appendix" when the list is capped for the body; else empty
    more: str


def _escaped(m: re.Match[str]) -> str:
    """One character of a path segment as its %XX escapes: " " -> %20, "é" -> %C3%A9."""
    return "".join("%" + bytes([b]).hex().upper() for b in m.group(0).encode("utf-8"))


def _safe_segments(path: str) -> list[str] | None:
    """A relative path's segments, or None when it is none (absolute, .., empty, a scheme)."""
    parts = path.split("/")
    if not path or _UNLINKABLE.search(path) or any(p in ("", ".", "..") for p in parts):
        return None
    return parts


def link_prefix(prefix: str | None) -> str | None:
    """The link prefix as the view uses it, or None when it is no short relative path (then
    nothing is linked). At most MAX_UP ``..`` steps, then plain folder names."""
    if prefix is None:
        return None
    parts = [p for p in prefix.split("/") if p not in ("", ".")]
    ups = 0
    while ups < len(parts) and parts[ups] == "..":
        ups += 1
    if ups > MAX_UP or (parts[ups:] and _safe_segments("/".join(parts[ups:])) is None):
        return None
    return "".join(p + "/" for p in parts)


def file_href(path: str, prefix: str | None) -> str | None:
    """The link to a project-relative file (a line citation links to its file), or None."""
    if prefix is None:
        return None
    m = _LINE_CITE.match(path)
    parts = _safe_segments(m.group("path") if m else path)
    if parts is None:
        return None
    return prefix + "/".join(_URL_UNSAFE.sub(_escaped, p) for p in parts)


def path_text(path: str, prefix: str | None = None) -> PathText:
    """A path (or "runs.csv:12" citation) with its break points and, with a prefix, its link."""
    parts = str(path).split("/")
    pieces = [p + "/" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    return PathText(str(path), pieces, file_href(path, prefix))


def _group_key(path: str) -> tuple[str, str, str]:
    """(kind, head, item): line citations group by file, other paths by folder."""
    m = _LINE_CITE.match(path)
    if m:
        return "lines", m.group("path"), m.group("line")
    folder, _, name = path.rpartition("/")
    return "folder", folder + "/" if folder else "", name


def _line_runs(lines: list[int]) -> list[str]:
    """Line numbers, sorted, with runs of three or more as ranges: 4, 5, 7–11."""
    out: list[str] = []
    nums = sorted(set(lines))
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{nums[i]}–{nums[j]}")
        else:
            out += [str(n) for n in nums[i : j + 1]]
        i = j + 1
    return out


def artefact_list(
    paths: list[str], prefix: str | None, limit: int | None = None, where: str | None = None
) -> ArtefactList:
    """``paths`` grouped by folder or cited file, in order of first appearance; with
    ``limit``, only the first ``limit`` artefacts, and a note saying where the rest are."""
    paths = [str(p) for p in dict.fromkeys(paths)]
    shown = paths if limit is None or len(paths) <= limit else paths[:limit]
    groups: dict[tuple[str, str], list[str]] = {}
    for p in shown:
        kind, head, item = _group_key(p)
        groups.setdefault((kind, head), []).append(item)
    out = []
    for (kind, head), items in groups.items():
        if kind == "lines":
            href = file_href(head, prefix)
            runs = _line_runs([int(i) for i in items])
            label = path_text(n_("{file}, line", "{file}, lines", len(items), file=head))
            out.append(ArtefactGroup(label, [PathText(r, [r], href) for r in runs]))
        else:
            label = path_text(head) if head else PathText("", [])
            out.append(
                ArtefactGroup(label, [PathText(i, [i], file_href(head + i, prefix)) for i in items])
            )
    left = len(paths) - len(shown)
    if left <= 0:
        return ArtefactList(out, "")
    if where is None:
        more = n_("and {n} more in the appendix", "and {n} more in the appendix", left)
    else:
        more = n_("and {n} more in {where}", "and {n} more in {where}", left, where=where)
    return ArtefactList(out, more)
