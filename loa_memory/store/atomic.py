"""Crash-safe writes: one file (temp + fsync + rename), or several files as one transaction.

A multi-file write records a journal before its first rename; whoever next takes the grimoire
lock rolls an interrupted transaction forward, so a crash leaves either all files or none changed.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Sequence
from pathlib import Path

TEMP_MARK = ".loa-tmp-"
JOURNAL = "txn.json"


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}{TEMP_MARK}{os.getpid()}-{secrets.token_hex(4)}")
    with open(temp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    return temp


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that readers see the old or the new file, never a torn one."""
    temp = _write_temp(path, text.encode("utf-8"))
    try:
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def append_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with itself plus ``data``: the copy is done by the kernel, the swap is atomic."""
    import shutil

    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}{TEMP_MARK}{os.getpid()}-{secrets.token_hex(4)}")
    try:
        if path.exists():
            shutil.copyfile(path, temp)
        with open(temp, "ab") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def write_many(files: Sequence[tuple[Path, str | None]], journal_dir: Path) -> None:
    """Write (or, for ``None``, delete) several files as one transaction (call under the lock)."""
    if len(files) == 1 and files[0][1] is not None:
        write_atomic(files[0][0], files[0][1])
        return
    steps = []
    for path, text in files:
        temp = _write_temp(path, text.encode("utf-8")) if text is not None else None
        steps.append({"final": str(path), "temp": str(temp) if temp else None})
    journal_dir.mkdir(parents=True, exist_ok=True)
    journal = journal_dir / JOURNAL
    write_atomic(journal, json.dumps(steps))
    _apply(steps)
    journal.unlink()
    _fsync_dir(journal_dir)


def _apply(steps: list[dict[str, str | None]]) -> None:
    folders: dict[Path, None] = {}  # each folder synced once, after its renames (a migration renames thousands)
    for step in steps:
        final = Path(str(step["final"]))
        temp = step.get("temp")
        if temp is None:
            final.unlink(missing_ok=True)
        elif Path(temp).exists():
            os.replace(temp, final)
        folders[final.parent] = None
    for folder in folders:
        if folder.is_dir():
            _fsync_dir(folder)


def recover(journal_dir: Path, sweep: Sequence[Path] = ()) -> bool:
    """Finish a transaction a crash interrupted and drop stray temp files; True if one was finished."""
    journal = journal_dir / JOURNAL
    finished = False
    if journal.exists():
        try:
            steps = json.loads(journal.read_text("utf-8"))
        except (OSError, ValueError):
            steps = None  # the journal itself was never completed: nothing was renamed yet
        if steps:
            _apply(steps)
            finished = True
        journal.unlink(missing_ok=True)
    for directory in sweep:
        if directory.is_dir():
            for stray in directory.rglob(f".*{TEMP_MARK}*"):
                stray.unlink(missing_ok=True)
    return finished
