"""Disk caches under ``.loa/cache/``: marshal blobs, written atomically, where a failure only costs a recompute."""

from __future__ import annotations

import marshal
import os
from collections.abc import Iterable
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


def source_fingerprint(paths: Iterable[Path]) -> str:
    """Size and modification time of source files: a cache keyed by it starts afresh when the code that
    computed it changes (an upgrade, an edit)."""
    parts = []
    for path in paths:
        try:
            stat = path.stat()
        except OSError:
            parts.append(f"{path.name}:-")
            continue
        parts.append(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}")
    return ",".join(parts)
