"""Report dicts compared key for key, for tests whose reports may differ in a float's last bits."""

from __future__ import annotations

import math

import pytest


def differences(a, b, rel_tol: float = 1e-12, where: str = "") -> list[str]:
    """Where ``a`` and ``b`` differ: keys and their order, lengths, types and values.

    Floats agree within ``rel_tol`` (and 1e-12 absolute); two NaN agree.
    """
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return [f"{where}: keys {list(a)} != {list(b)}"]
        return [d for k in a for d in differences(a[k], b[k], rel_tol, f"{where}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: length {len(a)} != {len(b)}"]
        pairs = enumerate(zip(a, b, strict=True))
        return [d for i, (x, y) in pairs for d in differences(x, y, rel_tol, f"{where}[{i}]")]
    if isinstance(a, float) and isinstance(b, float):
        close = math.isclose(a, b, rel_tol=rel_tol, abs_tol=1e-12) or (a != a and b != b)
        return [] if close else [f"{where}: {a!r} != {b!r}"]
    return [] if a == b and type(a) is type(b) else [f"{where}: {a!r} != {b!r}"]


def assert_cv_mirrored(a: dict, b: dict, tol: float, p_tol: dict) -> None:
    """``b`` is the cv noise ``a`` with the models swapped: each interval mirrors (within ``tol``)
    and its p-value stays (``pytest.approx`` with ``p_tol``)."""
    for part in ("corrected", "naive"):
        assert b[part]["low"] == pytest.approx(-a[part]["high"], abs=tol)
        assert b[part]["high"] == pytest.approx(-a[part]["low"], abs=tol)
        assert b[part]["p"] == pytest.approx(a[part]["p"], **p_tol)
