"""Shared fixtures for the stats tests: the methods.md worked example and a JSON-readiness check."""

import math

import numpy as np
import pytest

EXAMPLE_P = [0.1, 0.4, 0.4, 0.9]
EXAMPLE_Y = [0, 0, 1, 1]


@pytest.fixture
def example():
    """methods.md section 4 worked example: rows (p, y)."""
    return np.array(EXAMPLE_P), np.array(EXAMPLE_Y)


def assert_json_ready(obj, path="$"):
    """Only plain Python JSON types, no NaN/inf, anywhere in ``obj``."""
    if obj is None or isinstance(obj, (bool, str)):
        return
    if isinstance(obj, int):
        assert type(obj) is int, f"{path}: {type(obj)}"
        return
    if isinstance(obj, float):
        assert type(obj) is float, f"{path}: {type(obj)}"
        assert math.isfinite(obj), f"{path}: {obj}"
        return
    if isinstance(obj, list):
        for i, v in enumerate(obj):
            assert_json_ready(v, f"{path}[{i}]")
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            assert isinstance(k, str), f"{path}: key {k!r}"
            assert_json_ready(v, f"{path}.{k}")
        return
    raise AssertionError(f"{path}: not JSON-ready: {type(obj)}")


@pytest.fixture
def json_ready():
    return assert_json_ready
