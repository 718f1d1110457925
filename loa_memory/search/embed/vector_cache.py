"""The user's vector cache: vectors by (embedder name, content hash), shared by every clone and worktree on the
machine, so a memory embedded once is never embedded again by this user.

One SQLite file per embedder under ``$LOA_MEMORY_VECTOR_CACHE``, else ``$XDG_CACHE_HOME/loa-memory/vectors``
(default ``~/.cache/loa-memory/vectors``); ``LOA_MEMORY_VECTOR_CACHE=off`` turns it off. SQLite in WAL mode lets
any number of processes read while one writes, and a write is one transaction, so concurrent commands in several
clones never see a torn row; rows are only ever added (``INSERT OR IGNORE``: one hash is one text, so two
writers of the same row agree). The cache is derived like ``.loa/``: deleting it loses nothing but time. A CI
job can keep it between runs (docs/embeddings.md shows the GitHub Actions step).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

CACHE_ENV = "LOA_MEMORY_VECTOR_CACHE"
_OFF = frozenset({"0", "off", "false", "no", "none"})
_SCHEMA = "CREATE TABLE IF NOT EXISTS vectors (hash TEXT PRIMARY KEY, vector BLOB NOT NULL) WITHOUT ROWID"
_CHUNK = 500  # SQLite's default limit on bound parameters is 999 (32,766 since 3.32)


def cache_root() -> Path | None:
    """Where the user's vector cache lives, or None when it is turned off."""
    value = os.environ.get(CACHE_ENV, "").strip()
    if value.lower() in _OFF and value:
        return None
    if value:
        return Path(value).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return Path(base) / "loa-memory" / "vectors"


class VectorCache:
    """The cached vectors of one embedder (``name``, ``dim``); every failure to read or write is a miss."""

    def __init__(self, root: Path, name: str, dim: int) -> None:
        readable = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-")[:60]
        self.path = root / f"{readable}-{hashlib.sha256(name.encode()).hexdigest()[:8]}.sqlite"
        self.dim = dim

    def get(self, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """The vectors held for ``hashes`` (those not held are left out)."""
        import numpy as np

        found: dict[str, np.ndarray] = {}
        if not hashes or not self.path.is_file():
            return found
        with self._connect() as db:
            if db is None:
                return found
            for start in range(0, len(hashes), _CHUNK):
                part = list(hashes[start : start + _CHUNK])
                marks = ",".join("?" * len(part))
                for digest, blob in db.execute(f"SELECT hash, vector FROM vectors WHERE hash IN ({marks})", part):
                    if len(blob) == 4 * self.dim:
                        found[digest] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put(self, hashes: Sequence[str], vectors: np.ndarray) -> None:
        """Add these vectors (rows in the order of ``hashes``); rows already held stay as they are."""
        import numpy as np

        if not hashes:
            return
        rows = np.ascontiguousarray(vectors, dtype=np.float32)
        with self._connect(create=True) as db:
            if db is None:
                return
            for attempt in range(3):  # a writer that met a lock SQLite would not wait for tries again
                try:
                    with db:  # one transaction
                        db.executemany(
                            "INSERT OR IGNORE INTO vectors (hash, vector) VALUES (?, ?)",
                            ((h, rows[i].tobytes()) for i, h in enumerate(hashes)),
                        )
                    return
                except sqlite3.OperationalError:
                    time.sleep(0.05 * (attempt + 1))
                except sqlite3.Error:
                    return

    def __len__(self) -> int:
        count = 0
        with self._connect() as db:
            if db is not None:
                count = int(db.execute("SELECT count(*) FROM vectors").fetchone()[0])
        return count

    @contextlib.contextmanager
    def _connect(self, *, create: bool = False) -> Iterator[sqlite3.Connection | None]:
        db = None
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            elif not self.path.is_file():
                yield None
                return
            db = sqlite3.connect(self.path, timeout=30.0)
            db.execute("PRAGMA busy_timeout = 30000")
            if create:
                _set_up(db)
        except (sqlite3.Error, OSError):
            if db is not None:
                db.close()
            yield None
            return
        try:
            yield db
        except sqlite3.Error:
            pass
        finally:
            db.close()


def _set_up(db: sqlite3.Connection, attempts: int = 50) -> None:
    """WAL mode and the table. Switching to WAL needs the database to itself and SQLite does not wait for that
    (the busy timeout does not apply), so writers that create the file at once retry here instead of each
    giving up and dropping what it came to write."""
    for attempt in range(attempts):
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute(_SCHEMA)
            return
        except sqlite3.OperationalError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.02 * (1 + attempt % 5))


def open_cache(name: str, dim: int) -> VectorCache | None:
    """The user's cache for this embedder, or None when it is turned off."""
    root = cache_root()
    return VectorCache(root, name, dim) if root is not None else None
