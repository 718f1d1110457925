"""Moving entries to the archive: ``archive/<same name>``, with ``archived``, ``archived_at``, ``archive_reason``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from loa_memory.model import Entry
from loa_memory.store import yamlio
from loa_memory.store.config import Config
from loa_memory.store.save import Changeset
from loa_memory.store.times import format_time, now_utc


def archive_path(config: Config, entry: Entry) -> Path:
    """Where ``entry`` goes in its world's archive (same relative name as its file)."""
    memdir = config.memory_dir(entry.world)
    relative = (config.root / entry.path).relative_to(memdir)
    return memdir / config.archive_dir / relative


def stage_archive(changes: Changeset, entries: Sequence[Entry], reason: str,
                  moment: datetime | None = None) -> list[tuple[Entry, Path]]:
    """Stage moving ``entries`` to the archive; returns (entry, destination) pairs."""
    config = changes.config
    stamp = format_time(moment or now_utc())
    fields = {"archived": True, "archived_at": stamp, "archive_reason": reason}
    moved = []
    for entry in entries:
        source = config.root / entry.path
        destination = archive_path(config, entry)
        text = changes.remove(source, entry.line)
        if source.suffix == ".md":
            front = next(yamlio.iter_front_matter(text), None)
            if front is None:
                continue
            destination = _free_markdown_path(changes, destination)
            changes.write(destination, f"---\n{yamlio.patch_item(front[0], fields)}---\n{front[1]}")
        else:
            changes.append_text(destination, yamlio.patch_item(text, fields))
        moved.append((entry, destination))
    return moved


def _free_markdown_path(changes: Changeset, destination: Path) -> Path:
    """``destination``, or ``name-2.md``, ``name-3.md``... when an archived file of that name is already there."""
    candidate, number = destination, 2
    while changes.text(candidate) is not None:
        candidate = destination.with_name(f"{destination.stem}-{number}{destination.suffix}")
        number += 1
    return candidate
