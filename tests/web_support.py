"""What the web table's tests share: the optional extra (skipped locally without it,
a failure under ``CI=true``), a TestClient app and helpers to read its messages."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

import pytest

ON_CI = os.environ.get("CI", "").lower() == "true"


def require(module: str) -> ModuleType:
    """Import ``module``; without it, skip locally and fail under ``CI=true`` (CI
    installs the extra ``web``: a missing package there is a broken CI, not a skip)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if ON_CI:
            pytest.fail(f"{module} is not installed under CI=true: {exc}")
        pytest.skip(f"{module} is not installed (pip install -e '.[web]')")


def receive_until(ws: Any, test: Any, limit: int = 200) -> dict[str, Any]:
    """The first message from ``ws`` that passes ``test`` (at most ``limit`` read)."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if test(message):
            return message
    raise AssertionError(f"no matching message in {limit}")
