"""Reuse of loaded state inside one long-lived process (the warm server), checked against what it was read from.

Off by default: a one-shot command reads everything afresh. ``enable()`` turns it on; from then on
``reuse(key, stamp, build)`` returns the value built for ``key`` as long as ``stamp`` (file sizes and
modification times, normally) is the same as when it was built, and builds it again otherwise. Values
handed out are shared: only read-only work may use them.

A process that serves several repositories (the warm server) builds each value inside ``scope(root)`` and
drops a repository's values with ``forget(root)`` when it has not been asked about it for a while.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Hashable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
# key -> (stamp, value, the scope it was built in, how to close it)
_store: dict[Hashable, tuple[Hashable, Any, Hashable, Callable[[Any], object] | None]] | None = None
_scope: Hashable = None  # set by the one thread that runs commands (the warm server's worker)


def enable() -> None:
    global _store
    if _store is None:
        _store = {}


def enabled() -> bool:
    return _store is not None


def reuse(
    key: Hashable, stamp: Callable[[], Hashable], build: Callable[[], T], close: Callable[[T], object] | None = None
) -> T:
    """``build()``, or what it returned last time for ``key`` if ``stamp()`` has not changed since (a value
    replaced by a new one is passed to ``close``)."""
    if _store is None:
        return build()
    now = stamp()
    hit = _store.get(key)
    if hit is not None and hit[0] == now:
        return hit[1]  # type: ignore[no-any-return]
    if hit is not None and close is not None:
        close(hit[1])
    value = build()
    _store[key] = (now, value, _scope, close)
    return value


@contextlib.contextmanager
def scope(name: Hashable) -> Iterator[None]:
    """Values built meanwhile belong to ``name`` (a repository root), for ``forget``."""
    global _scope
    saved, _scope = _scope, name
    try:
        yield
    finally:
        _scope = saved


def forget(name: Hashable) -> int:
    """Drop (and close) every value built in ``scope(name)``; how many were dropped."""
    if _store is None:
        return 0
    keys = [key for key, hit in _store.items() if hit[2] == name]
    for key in keys:
        _stamp, value, _name, close = _store.pop(key)
        if close is not None:
            with contextlib.suppress(Exception):  # a searcher already closed, say: it is gone either way
                close(value)
    return len(keys)


def scopes() -> set[Hashable]:
    """The scopes that hold values now."""
    return set() if _store is None else {hit[2] for hit in _store.values()}


def stat_stamp(paths: Iterable[Path]) -> tuple[tuple[str, int, int, int], ...]:
    """(path, size, mtime, inode) of each path (an atomic replace changes the inode even within one clock
    tick); a missing path stamps as (path, -1, -1, -1)."""
    out = []
    for path in paths:
        try:
            st = os.stat(path)
            out.append((str(path), st.st_size, st.st_mtime_ns, st.st_ino))
        except OSError:
            out.append((str(path), -1, -1, -1))
    return tuple(out)
