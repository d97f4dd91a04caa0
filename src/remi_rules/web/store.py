"""The state folder (``remi-rules serve --state-dir DIR``): one JSON file per table,
``<id>.json``, written atomically after every step (a temporary file in the same
folder, flushed to disk, then renamed over the old one), so that a server stopped at
any moment leaves each table as it was before or after a step, never half-written;
a restarted server loads them all."""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Final

__all__ = ["MAX_TABLE_FILE_BYTES", "Store"]

log = logging.getLogger("remi_rules.web")

MAX_TABLE_FILE_BYTES: Final = 64 * 1024 * 1024
"""A table file larger than this is not read back (a sanity bound, far above a match)."""

_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class Store:
    """The tables' files in ``folder`` (created if missing)."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def path(self, table_id: str) -> Path:
        if not _ID.match(table_id):
            raise ValueError(f"not a table id: {table_id[:80]!r}")
        return self.folder / f"{table_id}.json"

    def save(self, table_id: str, document: dict[str, Any]) -> None:
        """Write ``document`` as ``<table_id>.json``, atomically."""
        target = self.path(table_id)
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
        fd, tmp = tempfile.mkstemp(prefix=f".{table_id}.", suffix=".tmp", dir=self.folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def load_all(self) -> list[dict[str, Any]]:
        """Every table document in the folder (a file that cannot be read is logged and
        skipped; leftovers of an interrupted write are removed)."""
        out: list[dict[str, Any]] = []
        for leftover in self.folder.glob(".*.tmp"):
            leftover.unlink(missing_ok=True)
        for path in sorted(self.folder.glob("*.json")):
            try:
                if path.stat().st_size > MAX_TABLE_FILE_BYTES:
                    raise ValueError("file too large")
                data = json.loads(path.read_text(encoding="utf-8"))
                if not isinstance(data, dict) or data.get("kind") != "remi_web_table":
                    raise ValueError("not a table file")
                if data.get("id") != path.stem:
                    raise ValueError("the file's name is not its table's id")
            except (OSError, ValueError) as err:
                log.error("state folder: %s skipped: %s", path.name, err)
                continue
            out.append(data)
        return out
