"""The warm server's worker: the one thread that runs commands, one at a time, in the repository each names,
and between them embeds what is not embedded yet and drops what an idle repository had loaded.

A command runs as a ``Request`` (argv, repository, working directory, environment, standard input) in the
client's directory, environment and streams, in a fresh ``contextvars.Context``. What it loads is kept by
``store.memo`` under its repository (``memo.scope``), so ``memo.forget`` drops one repository's state alone.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import json
import os
import queue
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loa_memory.store.cache import memo
from loa_memory.threads import query_threads

# what was loaded for a repository (grimoire, index, vectors: a few MB to a few hundred at 10,000 entries) is
# dropped after this long without a command for it; the model stays while the server runs
FORGET_SECONDS = 300.0

# Work done between two looks at the queue, in seconds of the embedder's nominal speed (the server runs one BLAS
# thread, so about twice that): a command that arrives meanwhile waits at most about a second.
BACKGROUND_SECONDS = 0.5
SEND_SECONDS = 30.0  # a client that does not read its answer within this is dropped

Runner = Callable[[list[str]], int]


@dataclass(frozen=True)
class Request:
    """One command line as the client would have run it: everything that differs from one command to the next.
    Each runs in a fresh ``contextvars.Context``, so state a command keeps in context variables (the embedding
    budget of a hook, the generated session id) ends with it, as it ends with a process."""

    argv: tuple[str, ...]
    root: Path
    cwd: str
    env: dict[str, str]
    stdin: str | None
    stdout_tty: bool = False
    stderr_tty: bool = False


@dataclass
class _Repository:
    """What the server knows of one repository it served: how often and how lately, whether it is still kept
    (else what was loaded for it has been dropped), and whether entries may lack vectors there."""

    requests: int = 0
    last: float = field(default_factory=time.monotonic)
    kept: bool = True
    backlog: bool = True
    catching_up: bool = False  # the last background step left more to embed


class Worker(threading.Thread):
    """Runs the commands, one at a time and in the order they came, while the listener stays free to answer
    ``status`` and ``stop`` (a first search may embed thousands of entries). While no command waits, it
    embeds entries that have no vector yet, a few at a time, taking the repositories in turn, and drops what
    it loaded for a repository not asked about for ``forget`` seconds. Nothing a command does ends it."""

    def __init__(self, first: Path | None, run: Runner, forget: float) -> None:
        super().__init__(name="loa-memory-commands", daemon=True)
        self.first = first
        self.forget = forget
        self.run_command = run
        self.jobs: queue.Queue[tuple[socket.socket, Request] | None] = queue.Queue()
        self.submitted = 0  # written by the listener only
        self.done = 0  # written by the worker only
        self.last_done = time.monotonic()
        self.running_since: float | None = None
        self._counting = threading.Lock()
        self.repositories: dict[Path, _Repository] = {}  # in turn for background embedding: next one first
        self.held: frozenset[object] = frozenset()  # the repositories ``memo`` holds state for, after each step
        self._known = threading.Lock()  # the listener reads ``repositories`` for ``status``

    def submit(self, conn: socket.socket, request: Request) -> None:
        with self._counting:  # connections are received on threads of their own
            self.submitted += 1
        self.jobs.put((conn, request))

    def run(self) -> None:
        if self.first is not None:
            self._seen(self.first, requests=0)
            with memo.scope(self.first):
                _warm_up(self.first)
            _give_back_memory()  # what loading the model built and let go of
            self.held = frozenset(memo.scopes())
        self.last_done = time.monotonic()
        while True:
            waiting = self._next_backlog()  # entries may lack vectors there: look whenever the queue is empty
            try:
                job = self.jobs.get_nowait() if waiting else self.jobs.get(timeout=min(5.0, self.forget / 2))
            except queue.Empty:
                self._forget_idle()
                if waiting is not None:
                    with memo.scope(waiting):
                        more = _embed_some(waiting)
                    if self._embedded(waiting, more):  # caught up after batches: their buffers are free, give them back
                        _give_back_memory()
                continue
            if job is None:
                return
            conn, request = job
            self._seen(request.root, requests=1)
            self.running_since = time.monotonic()
            try:
                with memo.scope(request.root):
                    answer = handle(request, self.run_command)
            except BaseException as error:
                answer = {"decline": f"{type(error).__name__}"}
            finally:
                self.running_since = None
            with conn:
                conn.settimeout(SEND_SECONDS)
                send(conn, answer)
            self.last_done = time.monotonic()
            self.done += 1
            self._forget_idle()  # commands for one repository do not keep another one's state

    def _seen(self, root: Path, *, requests: int) -> None:
        with self._known:
            known = self.repositories.setdefault(root, _Repository())
            known.requests += requests
            known.last = time.monotonic()
            known.kept = known.backlog = True  # the command may have added entries

    def _next_backlog(self) -> Path | None:
        with self._known:
            return next((root for root, known in self.repositories.items() if known.backlog), None)

    def _embedded(self, root: Path, more: bool) -> bool:
        """Note a step of background embedding; True when it ends a run of several (a catch-up, not a look)."""
        with self._known:
            known = self.repositories.pop(root, None)
            if known is None:
                return False
            known.backlog = known.backlog and more
            self.repositories[root] = known  # to the back of the line: the others' turn
            ended, known.catching_up = known.catching_up and not more, more
            return ended

    def _forget_idle(self) -> None:
        now = time.monotonic()
        with self._known:
            idle = [root for root, known in self.repositories.items() if known.kept and now - known.last > self.forget]
            for root in idle:
                self.repositories[root].kept = self.repositories[root].backlog = False
        for root in idle:
            memo.forget(root)
        if idle:
            _give_back_memory()
        self.held = frozenset(memo.scopes())

    def repositories_status(self) -> list[dict[str, Any]]:
        now, held = time.monotonic(), self.held
        with self._known:
            return [
                {
                    "root": str(root),
                    "requests": known.requests,
                    "idle_for": round(now - known.last, 1),
                    "loaded": root in held,
                }
                for root, known in sorted(self.repositories.items())
            ]

    def idle_for(self) -> float:
        return 0.0 if self.done < self.submitted else time.monotonic() - self.last_done

    def busy_for(self) -> float:
        since = self.running_since
        return 0.0 if since is None else time.monotonic() - since


def _give_back_memory() -> None:
    """Collect what the dropped state left, and hand the freed heap back to the system (glibc's ``malloc_trim``;
    elsewhere the memory stays reserved, to be reused by the next repository)."""
    import ctypes
    import gc

    gc.collect()
    with contextlib.suppress(OSError, AttributeError, TypeError):  # no glibc: nothing to trim
        ctypes.CDLL(None).malloc_trim(0)


def send(conn: socket.socket, answer: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):  # the client gave up: nothing to tell
        conn.sendall(json.dumps(answer).encode("utf-8"))


def handle(request: Request, run: Runner) -> dict[str, Any]:
    """Run one command as the client would have run it, in a context of its own, and what it printed."""
    out, err = _Stream(request.stdout_tty), _Stream(request.stderr_tty)
    try:
        with _as_client(request, out, err):
            code = contextvars.Context().run(_as_served, run, list(request.argv))
    except OSError as error:  # its working directory is gone, say: let the client run it and report
        return {"decline": str(error)}
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def _as_served(run: Runner, argv: list[str]) -> int:
    """Run a command as the server's: entries it leaves without a vector are embedded by the server between
    commands (one model for all repositories), not by a background `index` of its own."""
    from loa_memory.search import background

    with background.server_embeds():
        return run(argv)


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
        query_threads()  # as the client sets for itself before running a read command (``main``): the
        # model's session, loaded once per thread count, is then the one the server warmed up, not a second one
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
