"""Relations between entries that several layers read: unresolved contradictions, graduation pointers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from loa_memory.model import Entry
from loa_memory.store.load import Grimoire


@dataclass(frozen=True)
class Contradiction:
    """Two active entries that disagree: ``holder`` carries the ``contradicts`` link to ``other``."""

    holder: Entry
    other: Entry
    note: str = ""

    @property
    def ids(self) -> frozenset[str]:
        return frozenset((self.holder.id, self.other.id))


def contradicts_links(entry: Entry) -> Iterable[tuple[int, str, str]]:
    """(index in ``links``, target id, note) of each ``contradicts`` link of ``entry``."""
    links = entry.data.get("links")
    for index, link in enumerate(links if isinstance(links, list) else []):
        if isinstance(link, dict) and link.get("relation") == "contradicts" and link.get("to"):
            yield index, str(link["to"]), str(link.get("note") or "")


def contradictions(grimoire: Grimoire, now: datetime | None = None) -> list[Contradiction]:
    """Every unresolved contradiction: both sides active (a supersede, expiry or archive resolves it), each
    pair once, in file order of the entry holding the link."""
    found: list[Contradiction] = []
    seen: set[frozenset[str]] = set()
    for entry in grimoire.entries:
        links = list(contradicts_links(entry)) if entry.links else []
        if not links or entry.archived or grimoire.status(entry, now) != "active":
            continue
        for _index, target, note in links:
            other = grimoire.by_id.get(target)
            if other is None or other.id == entry.id or grimoire.status(other, now) != "active":
                continue
            pair = Contradiction(entry, other, note)
            if pair.ids not in seen:
                seen.add(pair.ids)
                found.append(pair)
    return found

