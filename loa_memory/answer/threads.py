"""Decision threads: the memories about one subject across sessions, returned whole from any one of them.

Entries belong to one thread when they share a ``thread: <name>`` field, when one links the other with
``relation: thread`` (either direction), or when one supersedes the other and either is in a thread (a
plain supersede chain with neither is not a thread: ``why`` shows it as ``supersedes``). A thread is named
by its ``thread`` field (the oldest member's, if they differ), else by its oldest member's id. Members are
in time order (``source.timestamp``, then id), whatever their status.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from loa_memory.model import Entry
from loa_memory.store.load import Grimoire


@dataclass(frozen=True)
class Thread:
    name: str
    members: tuple[Entry, ...]

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(e.id for e in self.members)


class _Union:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, key: str) -> str:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def join(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)


def all_threads(grimoire: Grimoire) -> list[Thread]:
    """Every thread of the grimoire (archived entries included), oldest thread first (kept with the grimoire)."""
    if "threads" not in grimoire.derived:
        grimoire.derived["threads"] = _threads(grimoire)
    return list(grimoire.derived["threads"])


def _threads(grimoire: Grimoire) -> list[Thread]:
    entries = [e for e in grimoire.entries if e.id]
    union = _Union()
    threaded: set[str] = set()
    named: dict[str, str] = {}
    for entry in entries:
        if entry.thread:
            threaded.add(entry.id)
            union.join(entry.id, named.setdefault(entry.thread, entry.id))
        for target_id in entry.linked("thread"):
            target = grimoire.by_id.get(target_id)
            if target is not None:
                threaded.update((entry.id, target.id))
                union.join(entry.id, target.id)
    chains = _Union()
    for entry in entries:
        newer = grimoire.superseder(entry)
        if newer is not None:
            chains.join(entry.id, newer.id)
    anchor: dict[str, str] = {}  # a supersede chain with a threaded member joins that member's thread
    for entry_id in sorted(threaded):
        anchor.setdefault(chains.find(entry_id), entry_id)
    for entry in entries:
        joined = anchor.get(chains.find(entry.id))
        if joined is not None and entry.id not in threaded:
            union.join(entry.id, joined)
            threaded.add(entry.id)
    groups: dict[str, list[Entry]] = {}
    roots = {union.find(t) for t in threaded}
    for entry in entries:
        root = union.find(entry.id)
        if root in roots:
            groups.setdefault(root, []).append(entry)
    threads = []
    for members in groups.values():
        ordered = tuple(sorted(members, key=lambda e: (e.timestamp, e.id)))
        name = next((e.thread for e in ordered if e.thread), ordered[0].id)
        threads.append(Thread(name, ordered))
    threads.sort(key=lambda t: (t.members[0].timestamp, t.name))
    return threads


def threads_of(grimoire: Grimoire, entries: Iterable[Entry]) -> list[Thread]:
    """The threads that any of ``entries`` belongs to (each once)."""
    wanted = {e.id for e in entries}
    return [t for t in all_threads(grimoire) if t.ids & wanted]
