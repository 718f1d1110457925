"""Renumbering colliding ids: the entry gets the next free id of its day, keeps the old one in ``aliases``,
and the references that meant it (supersedes, superseded_by, links, related_memories, ...) follow it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from loa_memory.model import Entry
from loa_memory.store.ids import next_id
from loa_memory.store.layout import is_entry_file, renamed_entry_file
from loa_memory.store.save import Changeset

REFERENCE_FIELDS = ("supersedes", "superseded_by", "led_to", "accepts")
REFERENCE_LISTS = ("related_memories", "patterns", "memory_ids")


@dataclass(frozen=True)
class Renumbered:
    old: str
    new: str
    path: str
    line: int
    references: int


def _day(memory_id: str) -> date:
    try:
        return date(int(memory_id[4:8]), int(memory_id[8:10]), int(memory_id[10:12]))
    except ValueError:
        return date.today()


def rewrite_references(data: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    """The fields of ``data`` that mention ``old``, with ``new`` instead."""
    updates: dict[str, Any] = {}
    for key in REFERENCE_FIELDS:
        value = data.get(key)
        if value == old:
            updates[key] = new
        elif isinstance(value, list) and old in value:  # a consolidation: supersedes: [MEM-a, MEM-b]
            updates[key] = [new if v == old else v for v in value]
    for key in REFERENCE_LISTS:
        values = data.get(key)
        if isinstance(values, list) and old in values:
            updates[key] = [new if v == old else v for v in values]
    links = data.get("links")
    if isinstance(links, list) and any(isinstance(link, dict) and link.get("to") == old for link in links):
        updates["links"] = [{**link, "to": new} if isinstance(link, dict) and link.get("to") == old else link
                            for link in links]
    return updates


def stage_renumbering(changes: Changeset, targets: Sequence[Entry], used: set[str],
                      referrers: Callable[[Entry], Sequence[Entry]]) -> list[Renumbered]:
    """Stage new ids for ``targets`` and rewrite the references ``referrers(target)`` hold to them."""
    root = changes.config.root
    pending: dict[tuple[str, int], tuple[Entry, dict[str, Any]]] = {}
    done = []
    for target in targets:
        new = next_id(used, _day(target.id), changes.config.id_style)
        used.add(new)
        slot = pending.setdefault((target.path, target.line), (target, dict(target.data)))[1]
        slot["id"] = new
        slot["aliases"] = [*target.aliases, target.id]
        count = 0
        for other in referrers(target):
            if other is target:
                continue
            view = pending.setdefault((other.path, other.line), (other, dict(other.data)))[1]
            updates = rewrite_references(view, target.id, new)
            view.update(updates)
            count += bool(updates)
        done.append(Renumbered(target.id, new, target.path, target.line, count))
    for (path, line), (entry, data) in pending.items():
        changed = {k: v for k, v in data.items() if entry.data.get(k) != v}
        if changed:
            changes.patch(root / path, line, changed)
    for renumbered in done:  # an entry file's name carries its id: it follows the new one
        source = root / renumbered.path
        if is_entry_file(changes.config, source):
            destination = renamed_entry_file(source, renumbered.old, renumbered.new)
            if destination is not None and changes.text(destination) is None:
                changes.move(source, destination)
    return done
