"""The install tests take a minute or two: they run in `make test-install` (which `make test` calls)."""

from __future__ import annotations

import os

import pytest

#: set by `make test-install`; without it the install tests are skipped, with this reason
ENV = "EVREPORT_TEST_INSTALL"


def pytest_collection_modifyitems(config, items):
    if os.environ.get(ENV) == "1":
        return
    skip = pytest.mark.skip(reason=f"install test: run `make test-install` (or set {ENV}=1)")
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(skip)
