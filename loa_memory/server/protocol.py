"""How a command and the warm server meet: one Unix socket per user and installation, a stamp of the code, a request.

The client side (``loa_memory.main``) asks with ``ask``; the server (``server/warm.py``) listens on ``socket_path``
in a folder only its user may enter, and answers requests whose ``stamp`` (``code_stamp``) matches its own.
``spawn`` starts a server in the background. Nothing here imports more than the standard library.

The folder is opened once and used through its descriptor (``privatedir``): a name looked up twice could be a
different folder the second time (another local user swapping a symlink under ``/tmp``). Both sides check who
is at the other end of the socket (``peer_uid``): a server answers only its own user, a client listens only
to a server of its own user. Only ``SERVED`` command lines go to a server, and a server runs no other.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from loa_memory.privatedir import NotPrivate, fd_path, open_private_dir

_OFF = frozenset({"0", "off", "false", "no"})
IDLE_SECONDS = 900.0
CI_IDLE_SECONDS = 120.0
ANSWER_SECONDS = 300.0  # a server that takes longer is stuck: the command then runs here
RECEIVE_SECONDS = 5.0  # a request not received whole within this is dropped (a slow or stalled sender)
MAX_REQUEST_BYTES = 16 << 20  # argv, environment and standard input together
MAX_STDIN_CHARS = 2_000_000  # what a client reads of standard input to hand over (``recall --hook-input``)

# the read commands a server answers; everything else (writes above all) runs in the client's own process
SERVED = frozenset({"search", "recall", "why", "show", "list"})
_GLOBAL_VALUE_OPTIONS = frozenset({"--root", "--format"})
_NOT_SERVED_OPTIONS = frozenset({"-h", "--help", "--track"})  # help is laid out for a terminal; --track writes


def command_line(argv: list[str]) -> tuple[str | None, str | None, bool]:
    """The command word, the ``--root`` value, and whether a server may run this command line."""
    root_option: str | None = None
    position = 0
    while position < len(argv) and argv[position].startswith("-"):
        word = argv[position]
        name, _, value = word.partition("=")
        if name not in _GLOBAL_VALUE_OPTIONS:
            return None, None, False  # --help, --version, a mistake: run here
        if not value:
            position += 1
            value = argv[position] if position < len(argv) else ""
        if name == "--root":
            root_option = value
        position += 1
    command = argv[position] if position < len(argv) else None
    served = command in SERVED and not any(word.partition("=")[0] in _NOT_SERVED_OPTIONS for word in argv)
    return command, root_option, served


def enabled() -> bool:
    return os.environ.get("LOA_MEMORY_SERVER", "auto").strip().lower() not in _OFF


def idle_seconds() -> float:
    """How long an automatically started server waits for the next command: 15 minutes, 2 under CI."""
    return CI_IDLE_SECONDS if os.environ.get("CI", "").strip().lower() not in ("", *_OFF) else IDLE_SECONDS


def installation() -> str:
    """Which loa-memory this is: the Python that runs it and the folder of its package. Two installations (two
    virtual environments, say) run two servers; each serves every repository of its user."""
    return f"{sys.executable}|{Path(__file__).parent.parent}"


def socket_path() -> Path:
    """The server's socket: one per user and installation, in the user's runtime folder."""
    import hashlib

    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    digest = hashlib.blake2b(installation().encode(), digest_size=10).hexdigest()
    return Path(base) / f"loa-memory-{os.getuid()}" / f"{digest}.sock"


def private(folder: Path) -> bool:
    """``folder`` exists, belongs to this user, nobody else may enter it and it is not a symlink."""
    try:
        os.close(open_private_dir(folder, create=False))
    except OSError:
        return False
    return True


@contextlib.contextmanager
def socket_folder(*, create: bool) -> Iterator[tuple[int, str]]:
    """The server's folder, opened once and checked on the descriptor, and the socket's address through it
    (``/proc/self/fd/N/<name>.sock``: no lookup of the folder's name again). ``NotPrivate`` or ``OSError``
    when the folder is missing (and not ``create``), someone else's, open to others or a symlink."""
    path = socket_path()
    fd = open_private_dir(path.parent, create=create)
    try:
        yield fd, f"{fd_path(fd)}/{path.name}"
    finally:
        os.close(fd)


def peer_uid(conn: socket.socket) -> int | None:
    """The user id of the process at the other end of a Unix socket (None where the system does not say)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    size = struct.calcsize("3i")
    _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, option, size))
    return int(uid)


def code_stamp() -> str:
    """What the server must have been started from: this Python, this package and its files as they are."""
    from loa_memory import __version__

    package = Path(__file__).parent.parent
    newest = count = 0
    for folder, dirs, files in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith((".py", ".json")):
                count += 1
                newest = max(newest, os.stat(os.path.join(folder, name)).st_mtime_ns)
    return f"{__version__}|{installation()}|{count}|{newest}"


def ask(request: dict[str, Any], *, timeout: float | None = None) -> dict[str, Any] | None:
    """The user's server's answer to ``request``, or None when no server answers (or it declined)."""
    if not hasattr(socket, "AF_UNIX"):
        return None
    request = {**request, "stamp": code_stamp()} if "op" not in request else request
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(2.0)
            with socket_folder(create=False) as (_fd, address):
                conn.connect(address)
            if peer_uid(conn) not in (None, os.getuid()):
                return None  # a server of another user: never tell it anything
            conn.settimeout(timeout)
            conn.sendall(json.dumps(request).encode("utf-8") + b"\n")
            conn.shutdown(socket.SHUT_WR)
            answer = json.loads(receive(conn, limit=None) or b"null")
    except (OSError, ValueError):
        return None
    return answer if isinstance(answer, dict) and "decline" not in answer else None


def receive(conn: socket.socket, *, limit: int | None = MAX_REQUEST_BYTES, seconds: float | None = None) -> bytes:
    """Everything the peer sends until it closes its side; ``ValueError`` past ``limit`` bytes, ``TimeoutError``
    when it has not all come within ``seconds`` (all of it: a sender that trickles a byte at a time is cut off)."""
    chunks: list[bytes] = []
    size = 0
    deadline = None if seconds is None else time.monotonic() + seconds
    while True:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request did not arrive in time")
            conn.settimeout(left)
        chunk = conn.recv(1 << 16)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if limit is not None and size > limit:
            raise ValueError(f"the request is over {limit} bytes")
        chunks.append(chunk)


def spawn(root: Path | None, idle: float = IDLE_SECONDS, forget: float | None = None) -> None:
    """Start the user's server in the background, warming ``root`` up first (it exits at once if one runs).

    It runs from ``/`` with ``-P``: it serves every repository of its user, so no repository's folder may be
    first on its import path (a ``numpy.py`` committed in one would shadow numpy for all), nor hold it open."""
    import subprocess

    folder = socket_path().parent
    if folder.exists() or folder.is_symlink():
        try:
            os.close(open_private_dir(folder, create=False))
        except (NotPrivate, OSError):
            return  # the server would refuse it too
    where = ["--root", str(root)] if root is not None else []
    options = ["--idle", str(idle), *(["--forget", str(forget)] if forget is not None else [])]
    with contextlib.suppress(OSError):  # no server: every command still works, only slower
        subprocess.Popen(
            [sys.executable, "-P", "-m", "loa_memory", *where, "server", "start", "--foreground", *options],
            cwd="/",
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
