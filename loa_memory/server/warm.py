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
import contextvars
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loa_memory.errors import ConfigError
from loa_memory.server import protocol
from loa_memory.store.cache import memo


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


def serve(root: Path, idle: float, run: Runner) -> bool:
    """Serve ``root`` until idle, stopped or outdated; False when another server already serves it. ``run`` runs one
    command line and returns its exit code (the CLI passes its own, so this package never imports the CLI)."""
    name = protocol.socket_path(root).name
    with contextlib.ExitStack() as stack:
        try:
            fd, address = stack.enter_context(protocol.socket_folder(root, create=True))
        except OSError as error:
            raise ConfigError(f"{protocol.socket_path(root).parent} is not private to this user: not serving from "
                              f"it ({error})", hint="remove it or `chmod 700` it, or point XDG_RUNTIME_DIR at a "
                              "private folder") from None
        lock = os.open(f"{name[:-5]}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=fd)
        stack.callback(os.close, lock)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
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
                _loop(listener, root, idle, run, lambda: os.unlink(name, dir_fd=fd))
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(name, dir_fd=fd)
    return True


# Work done between two looks at the queue, in seconds of the embedder's nominal speed (the server runs one BLAS
# thread, so about twice that): a command that arrives meanwhile waits at most about a second.
BACKGROUND_SECONDS = 0.5
# a command running longer than this makes the server decline new ones (they run in their own process) rather
# than queue them behind it
BUSY_SECONDS = 10.0
SEND_SECONDS = 30.0  # a client that does not read its answer within this is dropped

Runner = Callable[[list[str]], int]


@dataclass(frozen=True)
class Request:
    """One command line as the client would have run it: everything that differs from one command to the next.
    Each runs in a fresh ``contextvars.Context``, so state a command keeps in context variables (the embedding
    budget of a hook, the generated session id) ends with it, as it ends with a process."""

    argv: tuple[str, ...]
    cwd: str
    env: dict[str, str]
    stdin: str | None
    stdout_tty: bool = False
    stderr_tty: bool = False


def parse_request(data: object, root: Path) -> Request | str:
    """The request in ``data``, or why it is refused (malformed, not a read command, another repository)."""
    if not isinstance(data, dict):
        return "malformed request"
    argv, cwd, env, stdin = data.get("argv"), data.get("cwd"), data.get("env", {}), data.get("stdin")
    tty = data.get("tty") or {}
    if not (isinstance(argv, list) and all(isinstance(w, str) for w in argv) and isinstance(cwd, str)
            and os.path.isabs(cwd) and isinstance(env, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
            and (stdin is None or isinstance(stdin, str)) and isinstance(tty, dict)):
        return "malformed request"
    if stdin is not None and len(stdin) > protocol.MAX_STDIN_CHARS:
        return "standard input too large"
    _command, root_option, served = protocol.command_line(argv)
    if not served:
        return "not a read command"
    from loa_memory.rootdir import find_root

    try:
        wanted = find_root(Path(cwd, root_option) if root_option else Path(cwd)).resolve()
    except Exception:  # no repository there, a folder that is gone: the client runs it and says so
        return "no repository"
    if wanted != root:
        return "another repository"
    return Request(tuple(argv), cwd, dict(env), stdin, bool(tty.get("stdout")), bool(tty.get("stderr")))


class _Worker(threading.Thread):
    """Runs the commands, one at a time and in the order they came, while the listener stays free to answer
    ``status`` and ``stop`` (a first search may embed thousands of entries). While no command waits, it
    embeds entries that have no vector yet, a few at a time. Nothing a command does ends it."""

    def __init__(self, root: Path, run: Runner) -> None:
        super().__init__(name="loa-memory-commands", daemon=True)
        self.root = root
        self.run_command = run
        self.jobs: queue.Queue[tuple[socket.socket, Request] | None] = queue.Queue()
        self.submitted = 0  # written by the listener only
        self.done = 0  # written by the worker only
        self.last_done = time.monotonic()
        self.running_since: float | None = None
        self._counting = threading.Lock()

    def submit(self, conn: socket.socket, request: Request) -> None:
        with self._counting:  # connections are received on threads of their own
            self.submitted += 1
        self.jobs.put((conn, request))

    def run(self) -> None:
        with contextlib.suppress(Exception):
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
            self.running_since = time.monotonic()
            try:
                answer = handle(request, self.run_command)
            except BaseException as error:
                answer = {"decline": f"{type(error).__name__}"}
            finally:
                self.running_since = None
            with conn:
                conn.settimeout(SEND_SECONDS)
                _send(conn, answer)
            self.last_done = time.monotonic()
            self.done += 1
            backlog = True  # the command may have added entries

    def idle_for(self) -> float:
        return 0.0 if self.done < self.submitted else time.monotonic() - self.last_done

    def busy_for(self) -> float:
        since = self.running_since
        return 0.0 if since is None else time.monotonic() - since


def _loop(listener: socket.socket, root: Path, idle: float, run: Runner, unlink: Callable[[], None]) -> None:
    protocol.one_blas_thread()
    memo.enable()
    stamp = protocol.code_stamp()
    worker = _Worker(root, run)
    worker.start()
    stopping = threading.Event()
    started = time.time()
    listener.settimeout(0.5)
    shown = str(protocol.socket_path(root))

    def receive(conn: socket.socket) -> None:
        """One connection, in its own thread: a slow sender holds up nobody but itself."""
        try:
            request = json.loads(protocol.receive(conn, seconds=protocol.RECEIVE_SECONDS) or b"null")
        except (OSError, ValueError):
            request = None
        op = request.get("op") if isinstance(request, dict) else None
        if isinstance(request, dict) and op is None and request.get("stamp") == stamp:
            parsed = parse_request(request, root)
            if isinstance(parsed, Request) and worker.busy_for() < BUSY_SECONDS and not stopping.is_set():
                worker.submit(conn, parsed)  # the worker answers and closes it
                return
            with conn:
                why = parsed if isinstance(parsed, str) else "stopping" if stopping.is_set() else "busy"
                _send(conn, {"decline": why})
            return
        with conn:
            status = {"pid": os.getpid(), "root": str(root), "started_at": started, "requests": worker.submitted,
                      "idle_seconds": idle, "socket": shown, "rss_bytes": resident_bytes()}
            if op == "status":
                _send(conn, status)
            elif op == "stop":
                with contextlib.suppress(OSError):
                    unlink()  # gone by the time the caller hears back
                _send(conn, {"stopped": True, **status})
                stopping.set()
            elif isinstance(request, dict) and op is None and isinstance(request.get("stamp"), str):
                _send(conn, {"decline": "outdated"})  # the package changed under us: make way for a new server
                stopping.set()
            else:
                _send(conn, {"decline": "malformed request"})

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


def _send(conn: socket.socket, answer: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):  # the client gave up: nothing to tell
        conn.sendall(json.dumps(answer).encode("utf-8"))


def handle(request: Request, run: Runner) -> dict[str, Any]:
    """Run one command as the client would have run it, in a context of its own, and what it printed."""
    out, err = _Stream(request.stdout_tty), _Stream(request.stderr_tty)
    try:
        with _as_client(request, out, err):
            code = contextvars.Context().run(run, list(request.argv))
    except OSError as error:  # its working directory is gone, say: let the client run it and report
        return {"decline": str(error)}
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


class _Stream(io.StringIO):
    """Captured output that answers ``isatty()`` as the client's own stream would."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


@contextlib.contextmanager
def _as_client(request: Request, out: io.StringIO, err: io.StringIO) -> Iterator[None]:
    """The client's directory, environment and standard streams for the time of one command."""
    saved = os.getcwd(), dict(os.environ), sys.stdin, sys.stdout, sys.stderr
    os.chdir(request.cwd)
    try:
        os.environ.clear()
        os.environ.update(request.env)
        sys.stdin = io.StringIO(request.stdin or "")
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
