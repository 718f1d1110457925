"""Read every memory file of every world into a ``Grimoire``, fast.

Each YAML list file is cut into items by text; each item is parsed and validated once and cached
under ``.loa/cache/`` by the hash of its text, so a warm load reads no YAML at all and a changed
file costs only its changed items. A file that fails to parse becomes a finding and is marked
broken: nothing will rewrite it.
"""

from __future__ import annotations

import gc
import hashlib
import os
import sys
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import NotFound
from ..model import Category, Entry, Finding, Status
from . import atomic, memo, yamlio
from . import schema as schema_mod
from .cache import read_cache, write_cache
from .config import CONFIG_NAME, Config
from .lock import ensure_local_dir, locked
from .times import now_utc, parse_time

CACHE_VERSION = 4
_CACHE_TAG = f"{CACHE_VERSION}-{sys.version_info[0]}.{sys.version_info[1]}"

# An item as cached: (hash, first line relative to the file, data or None, problems relative to the item)
CachedItem = tuple[str, int, Any, list[tuple[int, int, str, str]]]


@dataclass(frozen=True)
class MemoryFile:
    """A memory file and what its place says about it."""

    path: Path
    rel: str
    world: str
    category: Category
    archived: bool


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
    _by_id: dict[str, Entry] | None = None
    _replaced: dict[str, Entry] | None = None
    _entries: tuple[list[Entry], list[Entry]] | None = None
    _keyed: dict[str, Entry] | None = None
    _key_of: dict[int, str] | None = None
    derived: dict[Any, Any] = field(default_factory=dict)  # values computed from these entries, kept with them

    def _materialise(self) -> tuple[list[Entry], list[Entry]]:
        if self._entries is None:
            valid: list[Entry] = []
            invalid: list[Entry] = []
            keyed: dict[str, Entry] = {}
            for mf in self.files:
                for digest, line, data, problems in self.items.get(mf.rel, ()):
                    if isinstance(data, dict):
                        entry = Entry(data, mf.world, mf.rel, line + 1, mf.archived)
                        (invalid if problems else valid).append(entry)
                        keyed[f"{mf.rel}#{digest or line}"] = entry
            self._entries = (valid, invalid)
            self._keyed = keyed
        return self._entries

    @property
    def keyed(self) -> dict[str, Entry]:
        """Every parsed entry, valid or not, by ``<file>#<item hash>`` (the search index's document key)."""
        self._materialise()
        assert self._keyed is not None
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
            for entry in self.entries:
                real.setdefault(entry.id, entry)
            index.update(real)
            self._by_id = index
        return self._by_id

    def get(self, memory_id: str) -> Entry:
        """The entry with this id (or alias); ``NotFound`` with a hint otherwise."""
        entry = self.by_id.get(memory_id.strip())
        if entry is None:
            raise NotFound(f"no memory with id {memory_id!r}",
                           hint="`loa-memory list` shows the ids; ids look like MEM-20260201-001")
        return entry

    def superseder(self, entry: Entry) -> Entry | None:
        """The entry that replaced ``entry``, from either side of the link."""
        if entry.superseded_by and entry.superseded_by in self.by_id:
            return self.by_id[entry.superseded_by]
        return self._replaced_by.get(entry.id)

    @property
    def _replaced_by(self) -> dict[str, Entry]:
        if self._replaced is None:
            self._replaced = {e.supersedes: e for e in self.entries if e.supersedes}
        return self._replaced

    def status(self, entry: Entry, now: datetime | None = None) -> Status:
        if entry.archived or entry.data.get("archived") is True:
            return "archived"
        if entry.superseded_by or entry.id in self._replaced_by:
            return "superseded"
        expires = parse_time(entry.expires_at or "")
        if expires is not None and expires <= (now or now_utc()):
            return "expired"
        return "active"

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
    return set(re.findall(r"MEM-[0-9]{8}-[0-9]{3,}", text))


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
                if cat.kind == "list":
                    paths = [target] if target.is_file() else []
                elif cat.kind == "markdown":  # notes keep the folders an agent gives them
                    paths = sorted(_markdown_files(target)) if target.is_dir() else []
                else:
                    paths = sorted(target.glob("*.yaml")) if target.is_dir() else []
                for path in paths:
                    yield MemoryFile(path, path.relative_to(config.root).as_posix(), world.name, cat, archived)


def _markdown_files(folder: Path) -> Iterator[Path]:
    """Markdown files under ``folder`` at any depth; hidden files and folders (temp files) left out."""
    for path in folder.rglob("*.md"):
        parts = path.relative_to(folder).parts
        if not any(part.startswith(".") for part in parts) and path.is_file():
            yield path


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
    enabled = gc.isenabled()
    gc.disable()
    try:
        for mf in iter_memory_files(config, worlds):
            grimoire.files.append(mf)
            items, broken = _load_file(mf, schema, key, cache_dir if use_cache else None, grimoire)
            grimoire.items[mf.rel] = items
            if broken:
                grimoire.broken.add(mf.rel)
            for _hash, line, data, problems in items:
                if not problems:
                    continue
                for rline, col, rule, message in problems:
                    grimoire.problems.append(Finding(mf.rel, line + rline + 1, col, "error", rule, message,
                                                     entry_id=_id_of(data)))
    finally:
        if enabled:
            gc.enable()
    return grimoire


def _id_of(data: Any) -> str | None:
    return str(data["id"]) if isinstance(data, dict) and "id" in data else None


def _cache_path(cache_dir: Path, rel: str) -> Path:
    return cache_dir / (hashlib.blake2b(rel.encode(), digest_size=10).hexdigest() + ".marshal")


def _load_file(mf: MemoryFile, schema: dict[str, Any], key: str, cache_dir: Path | None,
               grimoire: Grimoire | None = None) -> tuple[list[CachedItem], bool]:
    try:
        stat = mf.path.stat()
    except OSError:
        return [], False
    cached: dict[str, Any] | None = None
    cache_file = _cache_path(cache_dir, mf.rel) if cache_dir else None
    if cache_file is not None:
        cached = read_cache(cache_file)
        if not isinstance(cached, dict) or cached.get("tag") != _CACHE_TAG or cached.get("key") != key:
            cached = None
    if cached is not None and cached["stat"] == [stat.st_size, stat.st_mtime_ns]:
        return cached["items"], cached["broken"]
    try:
        text = mf.path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [("", 0, None, [(0, 1, "unreadable", f"cannot read the file: {exc}")])], True
    known = {item[0]: item for item in cached["items"]} if cached else {}
    items, broken = parse_file_text(text, mf, schema, known, grimoire.splits if grimoire is not None else None)
    if grimoire is not None:
        grimoire.texts[mf.rel] = text  # read anyway: later readers this run (the secret rule) need not read it again
    if cache_file is not None:
        store_cache(cache_file, stat, key, items, broken)
    return items, broken


def store_cache(cache_file: Path, stat: os.stat_result, key: str, items: list[CachedItem], broken: bool) -> None:
    """Write one file's parsed items to the cache; a failure only costs a re-parse later."""
    ensure_local_dir(cache_file.parent.parent.parent)
    write_cache(cache_file, {"tag": _CACHE_TAG, "key": key, "stat": [stat.st_size, stat.st_mtime_ns],
                             "items": items, "broken": broken})


def item_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def parse_file_text(text: str, mf: MemoryFile, schema: dict[str, Any], known: dict[str, CachedItem] | None = None,
                    splits: dict[str, list[yamlio.Item]] | None = None) -> tuple[list[CachedItem], bool]:
    """Parse and validate a memory file's text into cached items; the bool says it failed to parse."""
    known = known or {}
    if mf.category.kind == "markdown":
        return [_parse_markdown(text, mf, schema)], False
    split = yamlio.split_items(text)
    if split.items is None:
        return _parse_whole(text, mf, schema)
    if splits is not None:
        splits[mf.rel] = split.items
    items: list[CachedItem] = []
    broken = False
    for item in split.items:
        digest = item_hash(item.text)
        hit = known.get(digest)
        if hit is not None:
            items.append((digest, item.line, hit[2], hit[3]))
            continue
        try:
            loaded = yamlio.load_text(item.text, path=mf.rel)
        except yamlio.YamlSyntaxError as exc:
            broken = True
            items.append((digest, item.line, None, [((exc.line or 1) - 1, exc.col or 1, "yaml-syntax",
                                                      exc.message)]))
            continue
        if not isinstance(loaded, list) or len(loaded) != 1:
            return _parse_whole(text, mf, schema)
        items.append((digest, item.line, loaded[0], _check(loaded[0], item.text, (0,), schema)))
    return items, broken


def _parse_whole(text: str, mf: MemoryFile, schema: dict[str, Any]) -> tuple[list[CachedItem], bool]:
    try:
        loaded = yamlio.load_text(text, path=mf.rel)
    except yamlio.YamlSyntaxError as exc:
        return [("", 0, None, [((exc.line or 1) - 1, exc.col or 1, "yaml-syntax", exc.message)])], True
    if loaded is None:
        return [], False
    if not isinstance(loaded, list):
        return [("", 0, None, [(0, 1, "yaml-syntax",
                                "a memory file must be a YAML list of entries (`- id: ...`)")])], True
    node = yamlio.compose_text(text)
    items: list[CachedItem] = []
    for index, data in enumerate(loaded):
        spot = yamlio.locate(node, (index,)) or (0, 0)
        problems = [(line - spot[0], col, rule, msg)
                    for line, col, rule, msg in _check(data, text, (index,), schema)]
        items.append(("", spot[0], data, problems))
    return items, False


def _parse_markdown(text: str, mf: MemoryFile, schema: dict[str, Any]) -> CachedItem:
    digest = item_hash(text)
    parts = next(yamlio.iter_front_matter(text), None)
    if parts is None:
        return (digest, 0, None, [(0, 1, "front-matter",
                                   "a Markdown memory must open with YAML front matter between `---` lines")])
    front, body, _body_line = parts
    try:
        data = yamlio.load_text(front, path=mf.rel, line_offset=1)
    except yamlio.YamlSyntaxError as exc:
        return (digest, 0, None, [((exc.line or 1) - 1, exc.col or 1, "yaml-syntax", exc.message)])
    if not isinstance(data, dict):
        return (digest, 0, None, [(1, 1, "front-matter", "the front matter must be a mapping of fields")])
    if "content" not in data and body.strip():
        data["content"] = body.strip("\n")
    problems = [(line + 1, col, rule, msg) for line, col, rule, msg in _check(data, front, (), schema)]
    return (digest, 0, data, problems)


def _check(data: Any, text: str, prefix: tuple[str | int, ...],
           schema: dict[str, Any]) -> list[tuple[int, int, str, str]]:
    """Schema problems of one entry, located in ``text`` (0-based line relative to the item)."""
    if not isinstance(data, dict):
        return [(0, 1, "schema", "an entry must be a mapping of fields (`id: ...`, `category: ...`)")]
    problems = schema_mod.validate(data, schema)
    if not problems:
        return []
    node = yamlio.compose_text(text)
    base = yamlio.locate(node, prefix) or (0, 0)
    located = []
    for problem in problems:
        line, col = yamlio.locate(node, prefix + problem.path) or base
        located.append((line - base[0], col + 1, _rule_for(problem), problem.message))
    return located


def _rule_for(problem: schema_mod.SchemaProblem) -> str:
    """The lint rule a schema problem belongs to, where a more specific rule than ``schema`` exists."""
    head = problem.path[0] if problem.path else None
    if head == "confidence" and "minimum" in problem.message:
        return "min-confidence"
    if head in ("id", "supersedes", "superseded_by") and "does not match" in problem.message:
        return "id-format"
    if head == "tags" and "does not match" in problem.message:
        return "tag-format"
    if head == "summary" and len(problem.path) == 1 and "expected" not in problem.message:
        return "summary-length"
    if head == "content" and len(problem.path) == 1 and "expected" not in problem.message:
        return "content-length"
    return "schema"


def refresh_cache(config: Config, mf: MemoryFile, text: str | None, known: list[CachedItem],
                  appended: list[tuple[str, Any]] | None = None, first_line: int | None = None) -> None:
    """Bring one file's cache up to date after loa-memory wrote ``text`` to it.

    When the write only appended items whose data is known, no parsing is needed at all.
    """
    key = schema_mod.schema_key(config.categories)
    try:
        stat = mf.path.stat()
    except OSError:
        return
    if appended is not None and mf.category.kind != "markdown":
        items = list(known)
        if first_line is not None:
            line = first_line
        else:
            assert text is not None
            line = text.count("\n") - sum(item_text.count("\n") for item_text, _ in appended)
        for item_text, data in appended:
            items.append((item_hash(item_text), line, data, []))
            line += item_text.count("\n")
        broken = False
    else:
        if text is None:
            return
        schema = schema_mod.memory_schema_for(config.categories)
        items, broken = parse_file_text(text, mf, schema, {item[0]: item for item in known})
    store_cache(_cache_path(config.local_dir / "cache" / "load", mf.rel), stat, key, items, broken)
