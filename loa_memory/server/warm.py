"""The warm server: one process per user and repository that runs read commands with everything loaded.

It listens on ``protocol.socket_path(root)`` (a Unix socket in a folder only its user may enter) and answers
one request at a time: the client's argv, working directory, environment and standard input go in; the
exit code, standard output and standard error come back, exactly as the command prints them when it runs
in the client's process. Loaded state (config, grimoire, index searcher, vectors, the embedding model) is
reused across requests through ``store.memo``, which checks file sizes and modification times on every
request, so an edit made a moment ago is seen. The server exits after ``idle`` seconds without a request,
on ``loa-memory server stop``, or when the package's files change (it would run old code: the client
then runs the command itself and starts a fresh server).
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import queue
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from loa_memory.errors import ConfigError
from loa_memory.server import protocol
from loa_memory.store.cache import memo


def serve(root: Path, idle: float, run: Runner) -> bool:
    """Serve ``root`` until idle, stopped or outdated; False when another server already serves it. ``run`` runs one
    command line and returns its exit code (the CLI passes its own, so this package never imports the CLI)."""
    from loa_memory.search.retriever import deferred_embedding

    path = protocol.socket_path(root)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not protocol.private(path.parent):
        raise ConfigError(f"{path.parent} is not private to this user: not serving from it",
                          hint="remove it or `chmod 700` it, or point XDG_RUNTIME_DIR at a private folder")
    with path.with_suffix(".lock").open("a") as lock:
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # a socket left by a server that was killed
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            listener.bind(str(path))
            try:
                os.chmod(path, 0o600)
                listener.listen(16)
                with deferred_embedding():
                    _loop(listener, root, idle, run)
            finally:
                path.unlink(missing_ok=True)
    return True


# Work done between two looks at the queue, in seconds of the embedder's nominal speed (the server runs one BLAS
# thread, so about twice that): a command that arrives meanwhile waits at most about a second.
BACKGROUND_SECONDS = 0.5

Runner = Callable[[list[str]], int]


class _Worker(threading.Thread):
    """Runs the commands, one at a time and in the order they came, while the listener stays free to answer
    ``status`` and ``stop`` (a first search may embed thousands of entries). While no command waits, it
    embeds entries that have no vector yet, a few at a time."""

    def __init__(self, root: Path, run: Runner) -> None:
        super().__init__(name="loa-memory-commands", daemon=True)
        self.root = root
        self.run_command = run
        self.jobs: queue.Queue[tuple[socket.socket, dict[str, Any]] | None] = queue.Queue()
        self.submitted = 0  # written by the listener only
        self.done = 0  # written by the worker only
        self.last_done = time.monotonic()

    def submit(self, conn: socket.socket, request: dict[str, Any]) -> None:
        self.submitted += 1
        self.jobs.put((conn, request))

    def run(self) -> None:
        _warm_up(self.root)
        self.last_done = time.monotonic()
        backlog = True  # entries may lack vectors: look whenever the queue is empty
        while True:
            try:
                job = self.jobs.get(block=not backlog)
            except queue.Empty:
                backlog = _embed_some(self.root)
                continue
            if job is None:
                return
            conn, request = job
            with conn:
                _send(conn, handle(request, self.run_command))
            self.last_done = time.monotonic()
            self.done += 1
            backlog = True  # the command may have added entries

    def idle_for(self) -> float:
        return 0.0 if self.done < self.submitted else time.monotonic() - self.last_done


def _loop(listener: socket.socket, root: Path, idle: float, run: Runner) -> None:
    protocol.one_blas_thread()
    memo.enable()
    stamp = protocol.code_stamp()
    worker = _Worker(root, run)
    worker.start()
    started = time.time()
    listener.settimeout(0.5)
    try:
        while worker.idle_for() < idle:  # status questions do not keep it alive
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            conn.settimeout(10.0)
            try:
                request = json.loads(protocol.receive(conn) or b"null")
            except (OSError, ValueError):
                request = None
            op = request.get("op") if isinstance(request, dict) else None
            if isinstance(request, dict) and op is None and request.get("stamp") == stamp:
                conn.settimeout(None)
                worker.submit(conn, request)  # the worker answers and closes it
                continue
            with conn:
                status = {"pid": os.getpid(), "root": str(root), "started_at": started,
                          "requests": worker.submitted, "idle_seconds": idle,
                          "socket": listener.getsockname()}
                if op == "status":
                    _send(conn, status)
                elif op == "stop":
                    Path(listener.getsockname()).unlink(missing_ok=True)  # gone by the time the caller hears back
                    _send(conn, {"stopped": True, **status})
                    return
                elif isinstance(request, dict) and op is None:
                    _send(conn, {"decline": "outdated"})  # the package changed under us: make way for a new server
                    return
    finally:
        worker.jobs.put(None)  # commands already handed over are still answered
        worker.join()


def _send(conn: socket.socket, answer: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):  # the client gave up: nothing to tell
        conn.sendall(json.dumps(answer).encode("utf-8"))


def handle(request: dict[str, Any], run: Runner) -> dict[str, Any]:
    """Run one command as the client would have run it, and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with _as_client(request, out, err):
            code = run([str(word) for word in request.get("argv", [])])
    except OSError as error:  # its working directory is gone, say: let the client run it and report
        return {"decline": str(error)}
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


@contextlib.contextmanager
def _as_client(request: dict[str, Any], out: io.StringIO, err: io.StringIO) -> Iterator[None]:
    """The client's directory, environment and standard streams for the time of one command."""
    saved = os.getcwd(), dict(os.environ), sys.stdin, sys.stdout, sys.stderr
    os.chdir(request["cwd"])
    try:
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in dict(request.get("env") or {}).items()})
        sys.stdin = io.StringIO(request.get("stdin") or "")
        sys.stdout, sys.stderr = out, err
        yield
    finally:
        os.chdir(saved[0])
        os.environ.clear()
        os.environ.update(saved[1])
        sys.stdin, sys.stdout, sys.stderr = saved[2:]


def _warm_up(root: Path) -> None:
    """Load what a search needs (modules, grimoire, index, vectors, model) before the first request."""
    from loa_memory.search.retriever import warm_up
    from loa_memory.store.config import load_config

    with contextlib.suppress(Exception):  # nothing to warm (not initialised, a broken file): requests will say so
        warm_up(load_config(root))


def _embed_some(root: Path) -> bool:
    """Embed a few entries that have no vector yet; True while more are waiting."""
    from loa_memory.search.retriever import embed_some
    from loa_memory.store.config import load_config

    try:
        return embed_some(load_config(root), BACKGROUND_SECONDS) > 0
    except Exception:  # a broken file or a missing model: the next command will say so
        return False


def running(root: Path) -> dict[str, Any] | None:
    """The status of the server of ``root``, or None when none answers."""
    return protocol.ask(root, {"op": "status"}, timeout=5.0)


def stop(root: Path) -> dict[str, Any] | None:
    """Stop the server of ``root``; its last status, or None when none was running."""
    return protocol.ask(root, {"op": "stop"}, timeout=30.0)


def start(root: Path, idle: float, wait: float = 30.0) -> dict[str, Any] | None:
    """Start a server in the background and wait until it answers; its status (None if it did not come up)."""
    protocol.spawn(root, idle)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if (status := running(root)) is not None:
            return status
        time.sleep(0.05)
    return None
