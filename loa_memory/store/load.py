"""Read every memory file of every world into a ``Grimoire``, fast.

Each YAML list file is cut into items by text (``parse.py``); each item is parsed and validated once
and cached under ``.loa/cache/`` by the hash of its text (``filecache.py``), so a warm load reads no
YAML at all and a changed file costs only its changed items. A file that fails to parse becomes a
finding and is marked broken: nothing will rewrite it.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from loa_memory.errors import AmbiguousId, NotFound
from loa_memory.model import Entry, Finding, Status
from loa_memory.store import atomic, yamlio
from loa_memory.store import schema as schema_mod
from loa_memory.store.cache import chunks, memo
from loa_memory.store.cache.parsed import Loaded, load_file, load_folder
from loa_memory.store.config import CONFIG_NAME, Config
from loa_memory.store.ids import ID_PATTERN, shown_id
from loa_memory.store.layout import entry_folder
from loa_memory.store.lock import locked
from loa_memory.store.parse import CachedItem, MemoryFile
from loa_memory.store.times import now_utc, parse_time

__all__ = ["CachedItem", "Grimoire", "MemoryFile", "gc_paused", "iter_memory_files", "load_grimoire"]

_STATUS_FIELDS = frozenset({"archived", "superseded_by", "expires_at"})  # without them (and not replaced): active


@dataclass
class Grimoire:
    """Every valid entry of the selected worlds, the invalid ones apart, and every problem met."""

    config: Config
    worlds: tuple[str, ...] | None = None  # the worlds loaded (None: all of them)
    problems: list[Finding] = field(default_factory=list)
    files: list[MemoryFile] = field(default_factory=list)
    broken: set[str] = field(default_factory=set)
    items: dict[str, list[CachedItem]] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)  # files that had to be read this time, by path
    splits: dict[str, list[yamlio.Item]] = field(default_factory=dict)  # ... and how they were cut into items
    changes: dict[str, chunks.Change] = field(default_factory=dict)  # files re-read in part: what changed
    _by_id: dict[str, Entry] | None = None
    _replaced: dict[str, Entry] | None = None
    _entries: tuple[list[Entry], list[Entry]] | None = None
    _keyed: dict[str, Entry] | None = None
    _key_of: dict[int, str] | None = None
    derived: dict[Any, Any] = field(default_factory=dict)  # values computed from these entries, kept with them
    _digests: dict[int, str] = field(default_factory=dict)

    def _materialise(self) -> tuple[list[Entry], list[Entry]]:
        if self._entries is None:
            valid: list[Entry] = []
            invalid: list[Entry] = []
            for mf in self.files:
                for digest, line, data, problems in self.items.get(mf.rel, ()):
                    if isinstance(data, dict):
                        entry = Entry(data, mf.world, mf.rel, line + 1, mf.archived)
                        (invalid if problems else valid).append(entry)
                        self._digests[id(entry)] = digest
            self._entries = (valid, invalid)
        return self._entries

    def digest_of(self, entry: Entry) -> str:
        """The hash of the text ``entry`` was read from ("" when its file was parsed whole, or not an entry of
        this grimoire): a key that changes whenever the entry does."""
        self._materialise()
        return self._digests.get(id(entry), "")

    @property
    def keyed(self) -> dict[str, Entry]:
        """Every parsed entry, valid or not, by ``<file>#<item hash>`` (the search index's document key)."""
        if self._keyed is None:
            valid, invalid = iter(self.entries), iter(self.invalid)
            self._keyed = {}
            for mf in self.files:
                for digest, line, data, problems in self.items.get(mf.rel, ()):
                    if isinstance(data, dict):
                        self._keyed[f"{mf.rel}#{digest or line}"] = next(invalid if problems else valid)
        return self._keyed

    def key_of(self, entry: Entry) -> str | None:
        """The index key of one of this grimoire's entries (None for an entry from elsewhere)."""
        if self._key_of is None:
            self._key_of = {id(e): key for key, e in self.keyed.items()}
        return self._key_of.get(id(entry))

    def of_category(self, category: str) -> list[Entry]:
        """The valid entries of one category, in file order."""
        groups: dict[str, list[Entry]] | None = self.derived.get("by-category")
        if groups is None:
            groups = {}
            for entry in self.entries:
                groups.setdefault(entry.category, []).append(entry)
            self.derived["by-category"] = groups
        return groups.get(category, [])

    @property
    def entries(self) -> list[Entry]:
        """The valid entries, in file order (built on first use: writes that only need ids skip it)."""
        return self._materialise()[0]

    @property
    def invalid(self) -> list[Entry]:
        """Entries that parsed but break the schema (their problems are in ``problems``)."""
        return self._materialise()[1]

    @property
    def by_id(self) -> dict[str, Entry]:
        """Entries by id and by alias (a real id wins over an alias; the first of duplicates wins)."""
        if self._by_id is None:
            index: dict[str, Entry] = {}
            for entry in self.entries:
                for alias in entry.aliases:
                    index.setdefault(alias, entry)
            real: dict[str, Entry] = {}
            twins: dict[str, list[Entry]] = {}
            for entry in self.entries:
                first = real.setdefault(entry.id, entry)
                if first is not entry:
                    twins.setdefault(entry.id, [first]).append(entry)
            index.update(real)
            self._by_id = index
            self.derived["twins"] = twins
        return self._by_id

    def twins(self, memory_id: str) -> list[Entry]:
        """Every entry that carries ``memory_id`` as its id when more than one does (else [])."""
        self.by_id  # noqa: B018 - builds the twins too
        found: list[Entry] = self.derived["twins"].get(memory_id, [])
        return found

    def get(self, memory_id: str) -> Entry:
        """The entry with this id (or alias); ``NotFound`` with a hint otherwise, ``AmbiguousId`` (naming each
        place) when two entries carry the id, as after a merge of two branches that each added it."""
        entry = self.by_id.get(memory_id.strip())
        if entry is None:
            raise NotFound(f"no memory with id {shown_id(memory_id.strip())}",
                           hint="`loa-memory list` shows the ids; ids look like MEM-20260201-001")
        twins = self.twins(entry.id) if entry.id == memory_id.strip() else []
        if twins:
            places = ", ".join(f"{e.path}:{e.line}" for e in twins)
            raise AmbiguousId(f"{entry.id} is the id of {len(twins)} entries: {places}",
                              hint="two branches each added it: `loa-memory lint --fix` renumbers the newer "
                                   "one and keeps its old id as an alias")
        return entry

    def superseder(self, entry: Entry) -> Entry | None:
        """The entry that replaced ``entry``, from either side of the link (one entry may replace several:
        ``supersedes: [MEM-a, MEM-b]``; each of them has that one successor)."""
        if entry.superseded_by and entry.superseded_by in self.by_id:
            return self.by_id[entry.superseded_by]
        return self._replaced_by.get(entry.id)

    @property
    def _replaced_by(self) -> dict[str, Entry]:
        if self._replaced is None:
            self._replaced = {old: e for e in self.entries for old in e.replaces}
        return self._replaced

    def active_of(self, category: str, now: datetime) -> list[Entry]:
        """The entries of one category that are in force at ``now`` (not archived, superseded or expired)."""
        return [e for e in self.of_category(category) if not e.archived and self.status(e, now) == "active"]

    def statuses(self, entries: list[Entry], now: datetime) -> list[Status]:
        """``status`` of each entry, in bulk: most entries carry none of the fields that can make one inactive."""
        replaced = self._replaced_by
        return [self.status(e, now) if e.archived or not e.data.keys().isdisjoint(_STATUS_FIELDS) or e.id in replaced
                else "active" for e in entries]

    def status(self, entry: Entry, now: datetime | None = None) -> Status:
        data = entry.data
        if entry.archived or data.get("archived") is True:
            return "archived"
        if data.get("superseded_by") or entry.id in self._replaced_by:
            return "superseded"
        expires = parse_time(str(data["expires_at"])) if data.get("expires_at") else None
        if expires is not None and expires <= (now or now_utc()):
            return "expired"
        return "active"

    @property
    def unreadable(self) -> list[Finding]:
        """Where each file that does not parse fails (its entries are left out of every answer)."""
        return [p for p in self.problems if p.path in self.broken and p.rule in ("yaml-syntax", "unreadable")]

    def ids(self) -> set[str]:
        """Every id and alias in use (including broken files' ids found by text)."""
        found: set[str] = set()
        for items in self.items.values():
            for _hash, _line, data, _problems in items:
                if isinstance(data, dict):
                    found.add(str(data.get("id")))
                    aliases = data.get("aliases")
                    if isinstance(aliases, list):
                        found.update(map(str, aliases))
        for rel in self.broken:
            found.update(_scan_ids(self.config.root / rel))
        return found


def _scan_ids(path: Path) -> set[str]:
    import re

    try:
        text = path.read_text("utf-8", errors="replace")
    except OSError:
        return set()
    return set(re.findall(ID_PATTERN, text))


def iter_memory_files(config: Config, worlds: Sequence[str] | None = None, *,
                      archive: bool = True) -> Iterator[MemoryFile]:
    """Every memory file of the chosen worlds (all by default), active files before archived ones."""
    for world in config.worlds:
        if worlds and world.name not in worlds:
            continue
        memdir = config.root / world.storage_dir
        bases = [(memdir, False)] + ([(memdir / config.archive_dir, True)] if archive else [])
        for base, archived in bases:
            for cat in config.categories:
                target = base / cat.path
                if cat.kind == "list":  # the list file, and the entry files of the `entries` layout
                    if target.is_file():
                        yield MemoryFile(target, target.relative_to(config.root).as_posix(), world.name, cat,
                                         archived)
                    folder = base / entry_folder(cat)
                    if folder != target:
                        rel = folder.relative_to(config.root).as_posix()
                        for name in _yaml_names(folder):
                            yield MemoryFile(folder / name, f"{rel}/{name}", world.name, cat, archived, True)
                    continue
                elif cat.kind == "markdown":  # notes keep the folders an agent gives them
                    paths = sorted(_markdown_files(target)) if target.is_dir() else []
                else:
                    paths = sorted(target.glob("*.yaml")) if target.is_dir() else []
                for path in paths:
                    yield MemoryFile(path, path.relative_to(config.root).as_posix(), world.name, cat, archived)


def _yaml_names(folder: Path) -> list[str]:
    """The ``*.yaml`` files of an entry folder, sorted (``os.scandir``: a folder may hold thousands)."""
    try:
        with os.scandir(folder) as found:
            return sorted(e.name for e in found if e.name.endswith(".yaml") and not e.name.startswith("."))
    except (FileNotFoundError, NotADirectoryError):
        return []


def _markdown_files(folder: Path) -> Iterator[Path]:
    """Markdown files under ``folder`` at any depth; hidden files and folders (temp files) left out."""
    for path in folder.rglob("*.md"):
        parts = path.relative_to(folder).parts
        if not any(part.startswith(".") for part in parts) and path.is_file():
            yield path


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: a loaded grimoire is a million small objects that hold no
    cycles, and collections triggered while they are young cost more than the work around them."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_grimoire(config: Config, worlds: Sequence[str] | None = None, *, use_cache: bool = True) -> Grimoire:
    """Read the chosen worlds' memory files (active and archived).

    In the warm server (``memo`` enabled) the grimoire read last time is returned again while no memory
    file, the config or the write journal has changed.
    """
    chosen = tuple(worlds) if worlds else None

    def stamp() -> Hashable:
        paths = [config.root / CONFIG_NAME, config.local_dir / atomic.JOURNAL,
                 *(mf.path for mf in iter_memory_files(config, chosen))]
        return memo.stat_stamp(paths)

    return memo.reuse(("grimoire", str(config.root), chosen, use_cache), stamp,
                      lambda: _load_grimoire(config, chosen, use_cache))


def _load_grimoire(config: Config, worlds: tuple[str, ...] | None, use_cache: bool) -> Grimoire:
    if (config.local_dir / atomic.JOURNAL).exists():
        with locked(config.local_dir):
            atomic.recover(config.local_dir)
    grimoire = Grimoire(config, worlds)
    key = schema_mod.schema_key(config.categories)
    schema = schema_mod.memory_schema_for(config.categories)
    cache_dir = config.local_dir / "cache" / "load"
    with gc_paused():
        files = list(iter_memory_files(config, worlds))
        folders: dict[str, list[MemoryFile]] = {}
        for mf in files:
            if mf.entry_file:
                folders.setdefault(mf.rel.rpartition("/")[0], []).append(mf)
        in_folders: dict[str, Loaded] = {}
        for rel, members in folders.items():
            in_folders.update(load_folder(rel, members, schema, key, cache_dir if use_cache else None))
        for mf in files:
            grimoire.files.append(mf)
            loaded = in_folders.get(mf.rel) or load_file(mf, schema, key, cache_dir if use_cache else None)
            grimoire.items[mf.rel] = items = loaded.items
            if loaded.broken:
                grimoire.broken.add(mf.rel)
            if loaded.text is not None:  # read whole anyway: later readers this run (the secret rule) need not again
                grimoire.texts[mf.rel] = loaded.text
            if loaded.cut is not None:
                grimoire.splits[mf.rel] = loaded.cut
            if loaded.change is not None:
                grimoire.changes[mf.rel] = loaded.change
            for _hash, line, data, problems in items:
                if not problems:
                    continue
                for rline, col, rule, message in problems:
                    grimoire.problems.append(Finding(mf.rel, line + rline + 1, col, "error", rule, message,
                                                     entry_id=_id_of(data)))
    return grimoire


def _id_of(data: Any) -> str | None:
    return str(data["id"]) if isinstance(data, dict) and "id" in data else None


