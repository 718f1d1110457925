"""Writes stay inside the repository: a path is checked, symlinks followed, against the folder that must hold it.

A repository can commit a symlink (``archive -> ../../..``, ``.loa -> ~/.ssh``) and a config can name any
path; every write path (memory files through ``store.save``, notes, ``.loa/``) asks here first, so no
write follows a link or a ``..`` out of the grimoire or out of ``.loa/``. The memory-tool backend
(``agents/notes.py``) and the CLI share this one check.
"""

from __future__ import annotations

import os
from pathlib import Path

from loa_memory.errors import UsageError


def is_inside(path: str | os.PathLike[str], folder: str | os.PathLike[str]) -> bool:
    """``path`` is ``folder`` or below it once every symlink in both is followed."""
    real, base = os.path.realpath(path), os.path.realpath(folder)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def confined(path: Path, folder: Path, root: Path, what: str = "memory file") -> Path:
    """``path`` unchanged, or ``UsageError`` when it (or a folder on its way) leads out of ``folder``, or when
    ``folder`` itself leads out of the repository ``root``: a write there would land elsewhere."""
    if not is_inside(folder, root):
        raise UsageError(
            f"{_shown(folder, root)} leads out of the repository (a symlink): loa-memory will not write through it",
            hint="replace the symlink with a real folder",
        )
    if not is_inside(path, folder):
        raise UsageError(
            f"{_shown(path, root)} leads out of {_shown(folder, root)} (a symlink or '..'): "
            f"loa-memory will not write this {what} there",
            hint="replace the symlink with a real folder, or fix the configured path",
        )
    return path


def check_local_dir(local_dir: Path) -> Path:
    """``.loa/`` unchanged, or ``UsageError`` when it or a folder in it is a symlink (derived data would be
    written wherever it points)."""
    names = [local_dir]
    try:
        if not local_dir.is_symlink() and local_dir.is_dir():
            names += [local_dir / entry.name for entry in os.scandir(local_dir) if entry.is_symlink()]
    except OSError:
        pass
    for path in names:
        if path.is_symlink():
            raise UsageError(
                f"{path.name if path == local_dir else f'{local_dir.name}/{path.name}'} is a symlink: "
                "loa-memory will not write its local data through it",
                hint=f"remove it ({local_dir.name}/ holds only derived data, rebuilt on the next command)",
            )
    return local_dir


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
