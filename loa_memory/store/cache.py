"""Disk caches under ``.loa/cache/``: marshal blobs, written atomically, where a failure only costs a recompute."""

from __future__ import annotations

import marshal
import os
from pathlib import Path
from typing import Any


def read_cache(path: Path) -> Any:
    """The cached value, or ``None`` when it is missing or unreadable."""
    try:
        return marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None


def write_cache(path: Path, value: Any) -> None:
    """Replace the cache file atomically; errors are ignored (a cache is never needed for correctness)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temp.write_bytes(marshal.dumps(value))
        os.replace(temp, path)
    except (OSError, ValueError):
        pass
