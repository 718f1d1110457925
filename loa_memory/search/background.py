"""Embedding in the background, so that no read command waits for it.

A read command (``search``, ``recall``, ``why``, the agent hooks) answers from the vectors it has, by words for
the entries that have none, and starts ``loa-memory index --quiet`` as a detached process to embed the rest
(and, on a machine's first use, to build the int8 model). One such process runs per repository at a time: it
holds an ``flock`` on ``.loa/embed.lock`` while it works, a second one finds the lock taken and exits at once,
and a command that sees the lock taken starts nothing. What it prints goes to ``.loa/embed.log``.

``LOA_MEMORY_BACKGROUND`` chooses: ``spawn`` (the default), ``inline`` (embed everything before answering, as
a test or a script that wants the final ranking does) or ``off`` (answer from what there is, start nothing).

A command the warm server runs (``server_embeds``) starts no `index` for entries: the server embeds what it
leaves between commands, with the one model it holds for all repositories, instead of a process per repository
loading a model of its own. It still starts one to prepare a model not built yet (the server never builds one
while commands wait).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from loa_memory.errors import ConfigError
from loa_memory.threads import bulk_env

MODE_ENV = "LOA_MEMORY_BACKGROUND"
LOCK_NAME = "embed.lock"
LOG_NAME = "embed.log"
Mode = Literal["spawn", "inline", "off"]


_server_embeds: contextvars.ContextVar[bool] = contextvars.ContextVar("loa_memory_server_embeds", default=False)


@contextlib.contextmanager
def server_embeds() -> Iterator[None]:
    """Commands run in this context are the warm server's, which embeds what they leave between commands."""
    token = _server_embeds.set(True)
    try:
        yield
    finally:
        _server_embeds.reset(token)


def left_to_server() -> bool:
    """True in a command the warm server runs: entries left without a vector are its to embed."""
    return _server_embeds.get()


def mode() -> Mode:
    """What a read command does with the vectors it lacks (``LOA_MEMORY_BACKGROUND``)."""
    value = os.environ.get(MODE_ENV, "spawn").strip().lower() or "spawn"
    if value not in ("spawn", "inline", "off"):
        raise ConfigError(f"the environment variable {MODE_ENV} is '{value}'", hint="use spawn, inline or off")
    return value  # type: ignore[return-value]


@contextlib.contextmanager
def holding(local_dir: Path) -> Iterator[bool]:
    """Take the repository's embedding lock if it is free; yields whether this process holds it."""
    import fcntl

    local_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(local_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def is_running(local_dir: Path) -> bool:
    """True when a process holds the repository's embedding lock (an ``index`` is embedding it)."""
    if not (local_dir / LOCK_NAME).exists():
        return False
    with holding(local_dir) as free:
        return not free


def start(root: Path, local_dir: Path) -> subprocess.Popen[bytes] | None:
    """Start ``loa-memory index --quiet`` for ``root`` in its own session, unless one runs already; the process
    (None when none was started). It outlives this one: that is the point."""
    if is_running(local_dir):
        return None
    env = bulk_env({**os.environ, "LOA_MEMORY_SERVER": "off", MODE_ENV: "off"})
    try:
        local_dir.mkdir(parents=True, exist_ok=True)
        with (local_dir / LOG_NAME).open("wb") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "loa_memory", "--root", str(root), "index", "--quiet"],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=root,
                env=env,
                start_new_session=True,
            )
    except OSError:
        return None  # the answer stands; the next command tries again
