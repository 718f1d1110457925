"""Listing and showing memories: filters, supersede chains, links and backlinks, as plain records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loa_memory.model import Entry, headline
from loa_memory.render.problems import problem_records
from loa_memory.store.load import Grimoire

STATUSES = ("active", "superseded", "expired", "archived", "all")


def record(grimoire: Grimoire, entry: Entry) -> dict[str, Any]:
    """The stable JSON shape of one entry: where it is, its status, and its fields as stored."""
    return {"id": entry.id, "category": entry.category, "world": entry.world,
            "status": grimoire.status(entry), "path": entry.path, "line": entry.line,
            "summary": headline(entry), "entry": dict(entry.data)}


@dataclass(frozen=True)
class ListFilter:
    categories: Sequence[str] = ()
    statuses: Sequence[str] = ("active",)
    tags: Sequence[str] = ()
    worlds: Sequence[str] = ()
    limit: int | None = None


def list_entries(grimoire: Grimoire, options: ListFilter) -> list[Entry]:
    """Entries matching every filter, oldest first (by id)."""
    wanted = set(options.statuses)
    result = []
    for entry in grimoire.entries:
        if options.categories and entry.category not in options.categories:
            continue
        if options.worlds and entry.world not in options.worlds:
            continue
        if options.tags and not set(options.tags) <= set(entry.tags):
            continue
        if "all" not in wanted and grimoire.status(entry) not in wanted:
            continue
        result.append(entry)
    result.sort(key=lambda e: (e.id, e.path))
    return result[: options.limit] if options.limit else result


def list_record(grimoire: Grimoire, entries: Sequence[Entry]) -> dict[str, Any]:
    """The stable JSON shape of ``list``: the entries, their count, and the grimoire's problems."""
    return {"entries": [record(grimoire, e) for e in entries], "count": len(entries),
            "problems": problem_records(grimoire.problems)}


def chain(grimoire: Grimoire, entry: Entry) -> tuple[list[Entry], list[Entry]]:
    """The entries ``entry`` replaced (newest first: those it names in ``supersedes``, in their order, then
    those they replaced) and those that replaced it (oldest first)."""
    older: list[Entry] = []
    seen = {entry.id}
    walk = [entry]
    while walk:
        nxt_walk: list[Entry] = []
        for current in walk:
            for old_id in current.replaces:
                old = grimoire.by_id.get(old_id)
                if old is not None and old.id not in seen:
                    seen.add(old.id)
                    older.append(old)
                    nxt_walk.append(old)
        walk = nxt_walk
    newer: list[Entry] = []
    current = entry
    while (nxt := grimoire.superseder(current)) is not None and nxt.id not in seen:
        seen.add(nxt.id)
        newer.append(nxt)
        current = nxt
    return older, newer


def links_of(grimoire: Grimoire, entry: Entry) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Outgoing links (``links`` and ``related_memories``) and incoming ones, resolved to summaries."""
    def describe(target_id: str, relation: str) -> dict[str, Any]:
        target = grimoire.by_id.get(target_id)
        return {"id": target_id, "relation": relation, "exists": target is not None,
                "summary": target.summary if target else None,
                "status": grimoire.status(target) if target else None}

    outgoing = [describe(link.to, link.relation) for link in entry.links]
    outgoing += [describe(str(rid), "related_to") for rid in entry.data.get("related_memories") or []]
    incoming = []
    names = {entry.id, *entry.aliases}
    for other in grimoire.entries:
        for link in other.links:
            if link.to in names:
                incoming.append({"id": other.id, "relation": link.relation, "summary": other.summary,
                                 "status": grimoire.status(other), "exists": True})
        if names & set(map(str, other.data.get("related_memories") or [])):
            incoming.append({"id": other.id, "relation": "related_to", "summary": other.summary,
                             "status": grimoire.status(other), "exists": True})
    return outgoing, incoming


def show_record(grimoire: Grimoire, memory_id: str) -> dict[str, Any]:
    """Everything ``show`` prints about one memory."""
    entry = grimoire.get(memory_id)
    older, newer = chain(grimoire, entry)
    outgoing, incoming = links_of(grimoire, entry)
    result = record(grimoire, entry)
    if memory_id.strip() != entry.id:
        result["resolved_from"] = memory_id.strip()
    result["supersedes_chain"] = [record(grimoire, e) for e in older]
    result["superseded_by_chain"] = [record(grimoire, e) for e in newer]
    result["links"] = outgoing
    result["backlinks"] = incoming
    result["multiple_worlds"] = len(grimoire.config.worlds) > 1
    return result
