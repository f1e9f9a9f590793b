"""Where the files a build reads at run time are: inside the installed package, or the repository.

A wheel carries ``templates/`` and ``styles/`` as ``reportgen/templates`` and
``reportgen/styles`` (see pyproject.toml); ``importlib.resources`` finds them there. An
editable install runs from the repository, where they are the top-level folders beside
``reportgen/``. Only the standard library (and reportgen.errors) is imported here.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from reportgen.errors import SetupError

#: the folders a build reads: templates (jinja2) and styles (CSS inlined in pages)
FOLDERS = ("templates", "styles")


class ResourceMissing(SetupError):
    """The installation lacks a folder evreport reads at run time (a broken install)."""

    slug = "install"


@lru_cache(maxsize=len(FOLDERS))
def resource_dir(name: str) -> Path:
    """The folder ``name`` ("templates" or "styles") as a real path: packaged, else the repository's."""
    if name not in FOLDERS:
        raise ValueError(f"unknown resource folder {name!r}; use one of {', '.join(FOLDERS)}")
    packaged = resources.files("reportgen") / name
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    package = Path(str(resources.files("reportgen")))
    repo = package.resolve().parent / name
    if repo.is_dir():
        return repo
    raise ResourceMissing(
        f"evreport's {name}/ folder is missing: neither {package / name} (an installed "
        f"wheel) nor {repo} (a source checkout) exists; reinstall evreport"
    )


def schema_path() -> Path:
    """reportgen/report.schema.json, the JSON Schema of report.json (shipped in the package)."""
    return Path(str(resources.files("reportgen") / "report.schema.json"))
