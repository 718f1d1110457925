"""The warm server: one process per user (and installation) that runs read commands, for any repository of
that user, with everything loaded.

It listens on ``protocol.socket_path()`` (a Unix socket in a folder only its user may enter) and answers
one request at a time: the client's argv, working directory, environment and standard input go in; the
exit code, standard output and standard error come back, exactly as the command prints them when it runs
in the client's process. The repository is found from each request's working directory and ``--root``.
Loaded state (config, grimoire, index searcher, vectors) is reused across requests through ``store.memo``,
kept per repository and checked against file sizes and modification times on every request, so an edit made
a moment ago is seen; a repository not asked about for ``forget`` seconds has its state dropped. The embedding
model is loaded once for all repositories (the bulk of the server's memory). The server exits after ``idle``
seconds without a request, on ``loa-memory server stop``, or when the package's files change (it would run
old code: the client then runs the command itself and starts a fresh server).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from loa_memory.errors import ConfigError
from loa_memory.server import protocol
from loa_memory.server.worker import FORGET_SECONDS, Request, Runner, Worker, send
from loa_memory.store.cache import memo
from loa_memory.threads import query_threads

STEP_ASIDE_SECONDS = 10.0  # how long a new server waits for one that is stopping to let go of the lock


def resident_bytes() -> int | None:
    """This process's resident memory (VmRSS), where the system says it (Linux); else None."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def serve(first: Path | None, idle: float, run: Runner, forget: float = FORGET_SECONDS) -> bool:
    """Serve this user's repositories until idle, stopped or outdated, warming ``first`` up at once; False when
    another server already runs. ``run`` runs one command line and returns its exit code (the CLI passes its
    own, so this package never imports the CLI). A repository not asked about for ``forget`` seconds has what
    was loaded for it dropped."""
    name = protocol.socket_path().name
    with contextlib.ExitStack() as stack:
        try:
            fd, address = stack.enter_context(protocol.socket_folder(create=True))
        except OSError as error:
            raise ConfigError(
                f"{protocol.socket_path().parent} is not private to this user: not serving from it ({error})",
                hint="remove it or `chmod 700` it, or point XDG_RUNTIME_DIR at a private folder",
            ) from None
        lock = os.open(f"{name[:-5]}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=fd)
        stack.callback(os.close, lock)
        if not _take(lock):
            return False
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=fd)  # a socket left by a server that was killed
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            umask = os.umask(0o177)  # the socket is 0600 from the start, not after a chmod
            try:
                listener.bind(address)
            finally:
                os.umask(umask)
            try:
                listener.listen(16)
                _loop(listener, first, idle, forget, run, lambda: os.unlink(name, dir_fd=fd))
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(name, dir_fd=fd)
    return True


def _take(lock: int, wait: float = STEP_ASIDE_SECONDS) -> bool:
    """Take the server's lock; False when another server holds it. A server that was just stopped lets go of it
    once its last command is answered: wait that long, unless the other one answers (it is running, not
    stopping), so `server stop` followed at once by a start does not leave the user without a server."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline or running() is not None:
                return False
            time.sleep(0.1)


# a command running longer than this makes the server decline new ones (they run in their own process) rather
# than queue them behind it
BUSY_SECONDS = 10.0


def parse_request(data: object) -> Request | str:
    """The request in ``data``, or why it is refused (malformed, not a read command, no repository there)."""
    if not isinstance(data, dict):
        return "malformed request"
    argv, cwd, env, stdin = data.get("argv"), data.get("cwd"), data.get("env", {}), data.get("stdin")
    tty = data.get("tty") or {}
    if not (
        isinstance(argv, list)
        and all(isinstance(w, str) for w in argv)
        and isinstance(cwd, str)
        and os.path.isabs(cwd)
        and isinstance(env, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
        and (stdin is None or isinstance(stdin, str))
        and isinstance(tty, dict)
    ):
        return "malformed request"
    if stdin is not None and len(stdin) > protocol.MAX_STDIN_CHARS:
        return "standard input too large"
    _command, root_option, served = protocol.command_line(argv)
    if not served:
        return "not a read command"
    from loa_memory.rootdir import find_root

    try:  # the server runs as the client's user: what the client may read, it may, and nothing more
        root = find_root(Path(cwd, root_option) if root_option else Path(cwd)).resolve()
    except Exception:  # no repository there, a folder that is gone or closed: the client runs it and says so
        return "no repository"
    return Request(tuple(argv), root, cwd, dict(env), stdin, bool(tty.get("stdout")), bool(tty.get("stderr")))


def _loop(
    listener: socket.socket, first: Path | None, idle: float, forget: float, run: Runner, unlink: Callable[[], None]
) -> None:
    query_threads()
    from loa_memory.search.embed import onnx_embed

    onnx_embed.lean()
    os.chdir("/")  # it serves every repository: it holds none open, and a deleted one does not break it
    memo.enable()
    stamp = protocol.code_stamp()
    worker = Worker(first, run, forget)
    worker.start()
    stopping = threading.Event()
    started = time.time()
    listener.settimeout(0.5)
    shown = str(protocol.socket_path())

    def receive(conn: socket.socket) -> None:
        """One connection, in its own thread: a slow sender holds up nobody but itself."""
        try:
            request = json.loads(protocol.receive(conn, seconds=protocol.RECEIVE_SECONDS) or b"null")
        except (OSError, ValueError):
            request = None
        op = request.get("op") if isinstance(request, dict) else None
        if isinstance(request, dict) and op is None and request.get("stamp") == stamp:
            parsed = parse_request(request)
            if isinstance(parsed, Request) and worker.busy_for() < BUSY_SECONDS and not stopping.is_set():
                worker.submit(conn, parsed)  # the worker answers and closes it
                return
            with conn:
                why = parsed if isinstance(parsed, str) else "stopping" if stopping.is_set() else "busy"
                send(conn, {"decline": why})
            return
        with conn:
            status = {
                "pid": os.getpid(),
                "started_at": started,
                "requests": worker.submitted,
                "idle_seconds": idle,
                "forget_seconds": forget,
                "socket": shown,
                "rss_bytes": resident_bytes(),
                "stopping": stopping.is_set(),
                "repositories": worker.repositories_status(),
            }
            if op == "status":
                send(conn, status)
            elif op == "stop":
                with contextlib.suppress(OSError):
                    unlink()  # gone by the time the caller hears back
                send(conn, {"stopped": True, **status})
                stopping.set()
            elif isinstance(request, dict) and op is None and isinstance(request.get("stamp"), str):
                send(conn, {"decline": "outdated"})  # the package changed under us: make way for a new server
                stopping.set()
            else:
                send(conn, {"decline": "malformed request"})

    try:
        while worker.idle_for() < idle and not stopping.is_set():  # status questions do not keep it alive
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            if protocol.peer_uid(conn) not in (None, os.getuid()):
                conn.close()  # another user: not a word
                continue
            conn.settimeout(protocol.RECEIVE_SECONDS)
            threading.Thread(target=receive, args=(conn,), name="loa-memory-request", daemon=True).start()
    finally:
        worker.jobs.put(None)  # commands already handed over are still answered
        worker.join()


def running() -> dict[str, Any] | None:
    """The status of this user's server, or None when none answers (or it is stopping: it takes no command)."""
    status = protocol.ask({"op": "status"}, timeout=5.0)
    return None if status is None or status.get("stopping") else status


def stop() -> dict[str, Any] | None:
    """Stop this user's server (for every repository); its last status, or None when none was running."""
    return protocol.ask({"op": "stop"}, timeout=30.0)


def start(first: Path | None, idle: float, forget: float = FORGET_SECONDS, wait: float = 30.0) -> dict[str, Any] | None:
    """Start the server in the background (warming ``first`` up) and wait until it answers; its status (None if
    it did not come up)."""
    protocol.spawn(first, idle, forget)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if (status := running()) is not None:
            return status
        time.sleep(0.05)
    return None
