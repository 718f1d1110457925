"""Private per-user folders outside the repository (the warm server's socket folder, crash logs), opened safely.

Under a shared ``/tmp`` another local user can plant a folder or a symlink where ours will be. So a folder is
created with mode 0700 (or found), then opened once with ``O_NOFOLLOW | O_DIRECTORY`` and checked **on the
open descriptor** (``fstat``: ours, nobody else may enter, not a link); everything after that is done through
the descriptor (``dir_fd``) or through the ``/proc/self/fd`` path it pins, never by looking the name up again.
Files are created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` and mode 0600. Standard library only: ``main.py``
imports it before anything heavy.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


class NotPrivate(OSError):
    """The folder exists but another user owns it, others may enter it, or it is a symlink."""


def open_private_dir(path: Path, *, create: bool = True) -> int:
    """A descriptor of ``path``, a folder only this user may enter (created with mode 0700 when missing and
    ``create``); ``NotPrivate`` when it is not, ``OSError`` when it cannot be opened. The caller closes it."""
    if create:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
    try:
        fd = os.open(path, _DIR_FLAGS)
    except OSError as error:
        if os.path.islink(path):
            raise NotPrivate(f"{path} is a symlink") from None
        raise error
    try:
        check_private(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def check_private(fd: int, shown: Path | str) -> None:
    """``NotPrivate`` unless the open folder ``fd`` is a folder of this user that nobody else may enter."""
    st = os.fstat(fd)
    if not stat.S_ISDIR(st.st_mode):
        raise NotPrivate(f"{shown} is not a folder")
    if st.st_uid != os.getuid():
        raise NotPrivate(f"{shown} belongs to another user (uid {st.st_uid})")
    if st.st_mode & 0o077:
        raise NotPrivate(f"{shown} is not private to this user (mode {stat.S_IMODE(st.st_mode):o})")


def fd_path(fd: int) -> str:
    """A path that names the open folder ``fd`` itself (no lookup of the original name), where the system has one."""
    for proc in (f"/proc/self/fd/{fd}", f"/dev/fd/{fd}"):
        if os.path.isdir(proc):
            return proc
    raise OSError(f"no path names descriptor {fd} on this system")


def write_private_file(folder: Path, name: str, data: bytes) -> Path:
    """Create ``folder/name`` (mode 0600, never following or replacing anything already there) holding ``data``."""
    fd = open_private_dir(folder)
    try:
        file_fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600, dir_fd=fd)
        with os.fdopen(file_fd, "wb") as handle:
            handle.write(data)
    finally:
        os.close(fd)
    return folder / name


def user_state_dir() -> Path:
    """This user's folder for loa-memory's own state outside any repository (crash logs): under
    ``$XDG_STATE_HOME`` or ``~/.local/state``; a per-user folder in the temp folder when there is no home."""
    base = os.environ.get("XDG_STATE_HOME") or ""
    if not base:
        home = os.path.expanduser("~")
        base = os.path.join(home, ".local", "state") if home not in ("", "~", "/") else ""
    if not base:
        return Path(tempfile.gettempdir()) / f"loa-memory-{os.getuid()}"
    return Path(base) / "loa-memory"
