"""How a command and the warm server meet: one Unix socket per user and repository, a stamp of the code, a request.

The client side (``loa_memory.main``) asks with ``ask``; the server (``server/warm.py``) listens on ``socket_path``
in a folder only its user may enter, and answers requests whose ``stamp`` (``code_stamp``) matches its own.
``spawn`` starts a server in the background. Nothing here imports more than the standard library.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

_OFF = frozenset({"0", "off", "false", "no"})
IDLE_SECONDS = 900.0
CI_IDLE_SECONDS = 120.0
ANSWER_SECONDS = 300.0  # a server that takes longer is stuck: the command then runs here


def one_blas_thread() -> None:
    """One BLAS thread (unless the user chose): a query's embedding is a few small matrix products, which a
    second thread slows down as soon as the other core is busy (MiniLM, one query: 17 ms against 109 ms p50
    with two threads on a loaded 2-core machine). Bulk embedding (`index`) keeps every core. Call it before
    numpy is imported."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def enabled() -> bool:
    return os.environ.get("LOA_MEMORY_SERVER", "auto").strip().lower() not in _OFF


def idle_seconds() -> float:
    """How long an automatically started server waits for the next command: 15 minutes, 2 under CI."""
    return CI_IDLE_SECONDS if os.environ.get("CI", "").strip().lower() not in ("", *_OFF) else IDLE_SECONDS


def socket_path(root: Path) -> Path:
    """The server's socket: one per user and repository, in the user's runtime folder."""
    import hashlib

    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    digest = hashlib.blake2b(str(root.resolve()).encode(), digest_size=10).hexdigest()
    return Path(base) / f"loa-memory-{os.getuid()}" / f"{digest}.sock"


def private(folder: Path) -> bool:
    """``folder`` exists, belongs to this user and nobody else may enter it."""
    try:
        st = folder.stat()
    except OSError:
        return False
    return st.st_uid == os.getuid() and st.st_mode & 0o077 == 0


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
    return f"{__version__}|{sys.executable}|{package}|{count}|{newest}"


def ask(root: Path, request: dict[str, Any], *, timeout: float | None = None) -> dict[str, Any] | None:
    """The server's answer to ``request``, or None when no server answers (or it declined)."""
    if not hasattr(socket, "AF_UNIX"):
        return None
    path = socket_path(root)
    if not path.exists() or not private(path.parent):
        return None
    request = {**request, "stamp": code_stamp()} if "op" not in request else request
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(2.0)
            conn.connect(str(path))
            conn.settimeout(timeout)
            conn.sendall(json.dumps(request).encode("utf-8") + b"\n")
            conn.shutdown(socket.SHUT_WR)
            answer = json.loads(receive(conn) or b"null")
    except (OSError, ValueError):
        return None
    return answer if isinstance(answer, dict) and "decline" not in answer else None


def receive(conn: socket.socket) -> bytes:
    """Everything the peer sends until it closes its side."""
    chunks = []
    while chunk := conn.recv(1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def spawn(root: Path, idle: float = IDLE_SECONDS) -> None:
    """Start a server for ``root`` in the background (it exits at once if another one runs)."""
    import contextlib
    import subprocess

    folder = socket_path(root).parent
    if folder.exists() and not private(folder):
        return  # the server would refuse it too
    with contextlib.suppress(OSError):  # no server: every command still works, only slower
        subprocess.Popen([sys.executable, "-m", "loa_memory", "--root", str(root), "server", "start",
                          "--foreground", "--idle", str(idle)], cwd=root, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
