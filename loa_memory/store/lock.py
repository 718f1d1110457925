"""One lock per repository (``.loa/lock``), held by every command that writes memory files."""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from loa_memory.errors import LockTimeout

LOCAL_GITIGNORE = "# derived and local to this machine: never committed\n*\n"


def ensure_local_dir(local_dir: Path) -> Path:
    """Create ``.loa/`` with a ``.gitignore`` of ``*`` if it is missing."""
    local_dir.mkdir(parents=True, exist_ok=True)
    ignore = local_dir / ".gitignore"
    if not ignore.exists():
        ignore.write_text(LOCAL_GITIGNORE, "utf-8")
    return local_dir


@contextlib.contextmanager
def locked(local_dir: Path, *, timeout: float = 60.0, name: str = "lock") -> Iterator[None]:
    """Hold an exclusive lock on ``local_dir/name``, waiting up to ``timeout`` seconds."""
    ensure_local_dir(local_dir)
    fd = os.open(local_dir / name, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout
        delay = 0.002
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise LockTimeout(f"another loa-memory process has held {local_dir / name} "
                                      f"for over {timeout:.0f}s",
                                      hint="wait for it to finish, or check for a hung process") from None
                time.sleep(delay)
                delay = min(delay * 2, 0.05)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
