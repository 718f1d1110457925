"""Where a list category's entries live: one YAML list file (``lists``, Loa's layout: ``decisions.yaml``) or one
file per entry (``entries``: ``decisions/MEM-20261125-k3x9qa-use-postgresql.yaml``).

An entry file is a YAML list of one item, so it is also a valid Loa list file: concatenating a folder's files
gives ``decisions.yaml`` back (``loa-memory export --layout lists``). Two branches that only add memories add
different files, which git merges without a conflict whatever merges them (GitHub's button, a rebase, a clone
with no merge driver). The loader reads both places whatever the layout, so a tool that still appends to the
list file is read too; the layout decides where loa-memory writes.
"""

from __future__ import annotations

import re
from pathlib import Path

from loa_memory.model import Category
from loa_memory.store.config import Config

SLUG_LENGTH = 40


def entry_folder(cat: Category) -> str:
    """The folder of a list category's entry files, relative to the memory folder (``decisions``)."""
    return cat.path.removesuffix(".yaml").removesuffix(".yml")


def entry_file_name(memory_id: str, summary: str = "") -> str:
    """``<id>-<slug of the summary>.yaml``: the id first (the file sorts by date and is found by id), the slug
    for a reader of ``ls`` and of a PR's file list."""
    slug = re.sub(r"[^a-z0-9]+", "-", summary.lower()).strip("-")[:SLUG_LENGTH].strip("-")
    return f"{memory_id}-{slug}.yaml" if slug else f"{memory_id}.yaml"


def renamed_entry_file(path: Path, old_id: str, new_id: str) -> Path | None:
    """The name an entry file takes when its entry is renumbered (None: the name does not carry the id)."""
    if not path.name.startswith(old_id) or path.name[len(old_id) : len(old_id) + 1] not in ("-", "."):
        return None
    return path.with_name(new_id + path.name[len(old_id) :])


def is_entry_file(config: Config, path: Path) -> bool:
    """Whether ``path`` is one entry's file (in a list category's folder, active or archived)."""
    if path.suffix not in (".yaml", ".yml"):
        return False
    folders = {entry_folder(cat) for cat in config.categories if cat.kind == "list"}
    for world in config.worlds:
        memdir = config.root / world.storage_dir
        for base in (memdir, memdir / config.archive_dir):
            if path.parent.parent == base and path.parent.name in folders:
                return True
    return False
