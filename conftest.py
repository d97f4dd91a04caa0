"""Collection of the doctests in src/: the web table's application needs the optional
extra ``web``; without it (a local checkout with ``.[dev]`` only) its module is not
collected.  Under ``CI=true`` it always is (CI installs the extra)."""

from __future__ import annotations

import importlib.util
import os

collect_ignore: list[str] = []
if importlib.util.find_spec("starlette") is None and os.environ.get("CI", "").lower() != "true":
    collect_ignore.append("src/remi_rules/web/app.py")
