"""The loader's cache: each memory file's parsed items under ``.loa/cache/load/``, valid while the file's
size and modification time are unchanged; list files are kept in chunks (``chunks.py``), so a changed
file costs only the chunks it touched. A failure to read or write the cache only costs a re-parse.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

from loa_memory.store import schema as schema_mod
from loa_memory.store import yamlio
from loa_memory.store.cache import chunks
from loa_memory.store.cache.disk import read_cache, write_cache
from loa_memory.store.config import Config
from loa_memory.store.lock import ensure_local_dir
from loa_memory.store.parse import CachedItem, MemoryFile, failed_to_parse, item_hash, parse_file_text, parse_items

CACHE_VERSION = 7  # 6: schema messages quote a long rejected value by its start and length only; 7: aliases
# bounded and deep nesting refused (store/yamlio.py): files cached as valid under older rules are read again
_CACHE_TAG = f"{CACHE_VERSION}-{sys.version_info[0]}.{sys.version_info[1]}"


class Loaded(NamedTuple):
    """A file as read: its items, whether it failed to parse, and what the read learnt on the way: the
    text when it was read whole (and how it was cut), or what changed when only part of it was cut again."""

    items: list[CachedItem]
    broken: bool
    text: str | None = None
    cut: list[yamlio.Item] | None = None
    change: chunks.Change | None = None


def _cache_path(cache_dir: Path, rel: str) -> Path:
    return cache_dir / (hashlib.blake2b(rel.encode(), digest_size=10).hexdigest() + ".marshal")


def _blobs(cache_file: Path) -> chunks.Blobs:
    return chunks.Blobs(cache_file.with_suffix(""))


def load_file(mf: MemoryFile, schema: dict[str, Any], key: str, cache_dir: Path | None) -> Loaded:
    """One memory file's items: from the cache when the file is unchanged, else parsed (only its changed
    chunks when the cache holds chunks), then cached; ``key`` names the schema the items were checked with."""
    try:
        stat = mf.path.stat()
    except OSError:
        return Loaded([], False)
    cache_file = _cache_path(cache_dir, mf.rel) if cache_dir else None
    record = _read_record(cache_file, key) if cache_file is not None else None
    if record is not None and cache_file is not None and record["stat"] == [stat.st_size, stat.st_mtime_ns]:
        try:
            return Loaded(_record_items(record, cache_file), record["broken"])
        except chunks.MissingBlob:
            record = None
    try:
        loaded, cut = _parse_data(mf.path.read_bytes(), mf, schema, record, {}, cache_file)
    except (OSError, UnicodeDecodeError) as exc:
        return Loaded([("", 0, None, [(0, 1, "unreadable", f"cannot read the file: {exc}")])], True)
    if cache_file is not None:
        _store(cache_file, stat, key, loaded, cut)
    return loaded


def load_folder(rel: str, files: list[MemoryFile], schema: dict[str, Any], key: str,
                cache_dir: Path | None) -> dict[str, Loaded]:
    """The entry files of one category folder (``entries`` layout), by path: one cache record for the whole
    folder, holding each file's size, modification time and items, so a load reads one cache file, not one per
    entry; only the files whose size or time changed are parsed again (and then the record is rewritten)."""
    cache_file = cache_dir / (hashlib.blake2b(rel.encode(), digest_size=10).hexdigest() + ".dir.marshal") \
        if cache_dir else None
    record = _read_record(cache_file, key) if cache_file is not None else None
    known: dict[str, Any] = record.get("files", {}) if record is not None else {}
    fresh: dict[str, Any] = {}
    loaded: dict[str, Loaded] = {}
    changed = False
    for mf in files:
        name = mf.path.name
        try:
            stat = os.stat(mf.path)
        except OSError:
            continue
        signature = [stat.st_size, stat.st_mtime_ns]
        hit = known.get(name)
        if hit is not None and hit[0] == signature:
            fresh[name] = hit
            loaded[mf.rel] = Loaded(hit[1], hit[2])
            continue
        try:
            parsed, _cut = _parse_data(mf.path.read_bytes(), mf, schema, None, {}, None)
        except (OSError, UnicodeDecodeError) as exc:
            parsed = Loaded([("", 0, None, [(0, 1, "unreadable", f"cannot read the file: {exc}")])], True)
        fresh[name] = [signature, parsed.items, parsed.broken]
        loaded[mf.rel] = parsed
        changed = True
    if cache_file is not None and (changed or len(fresh) != len(known)):
        ensure_local_dir(cache_file.parent.parent.parent)
        write_cache(cache_file, {"tag": _CACHE_TAG, "key": key, "files": fresh})
    return loaded


def refresh_cache(config: Config, mf: MemoryFile, text: str | None, known: list[CachedItem],
                  appended: list[tuple[str, Any]] | None = None) -> None:
    """Bring one file's cache up to date after loa-memory wrote ``text`` to it (None: read it back).

    Items whose data is known (``known``, and ``appended``: the items a write added, with their data)
    are not parsed again; with a chunked cache only the chunks the write touched are cut again.
    """
    if mf.entry_file:
        return  # its folder's record notices the new size and time at the next load, and parses only this file
    key = schema_mod.schema_key(config.categories)
    cache_file = _cache_path(config.local_dir / "cache" / "load", mf.rel)
    try:
        stat = mf.path.stat()
        data = text.encode("utf-8") if text is not None else mf.path.read_bytes()
    except OSError:
        return
    given: dict[str, CachedItem] = {}
    for item_text, value in appended or []:
        digest = item_hash(item_text)
        given[digest] = (digest, 0, value, [])
    record = _read_record(cache_file, key)
    if record is None or "chunks" not in record:
        given = {**{item[0]: item for item in known}, **given}
    try:
        loaded, cut = _parse_data(data, mf, schema_mod.memory_schema_for(config.categories), record, given, cache_file)
    except UnicodeDecodeError:
        return
    _store(cache_file, stat, key, loaded, cut)


def _read_record(cache_file: Path, key: str) -> dict[str, Any] | None:
    record = read_cache(cache_file)
    if not isinstance(record, dict) or record.get("tag") != _CACHE_TAG or record.get("key") != key:
        return None
    return record


def _record_items(record: dict[str, Any], cache_file: Path) -> list[CachedItem]:
    """The items a cache record holds (``MissingBlob`` when a chunk's blob is gone)."""
    return chunks.items_of(record["chunks"], _blobs(cache_file)) if "chunks" in record else record["items"]


def _parse_data(data: bytes, mf: MemoryFile, schema: dict[str, Any], record: dict[str, Any] | None,
                known: dict[str, CachedItem], cache_file: Path | None) -> tuple[Loaded, list[chunks.Chunk] | None]:
    """Parse a file's bytes, only what changed since ``record`` (its cached version) where that holds chunks;
    items in ``known`` are not parsed again. Returns what was loaded and the chunks to cache (None: the items)."""
    if record is not None and cache_file is not None and record.get("chunks") and mf.category.kind != "markdown":
        def parse(cut: list[yamlio.Item], old: dict[str, CachedItem]) -> list[CachedItem] | None:
            return parse_items(cut, mf, schema, {**old, **known})[0]

        blobs = _blobs(cache_file)
        with contextlib.suppress(chunks.MissingBlob):
            updated = chunks.update(record["chunks"], data, tuple(record["stat"]), parse, blobs)
            if updated is not None:
                items = chunks.items_of(updated[0], blobs)
                if not any(map(failed_to_parse, items)):  # a broken file is judged on its whole text, below
                    return Loaded(items, False, change=updated[1]), updated[0]
    text = data.decode("utf-8")
    if record is not None and cache_file is not None:
        with contextlib.suppress(chunks.MissingBlob):
            known = {**{item[0]: item for item in _record_items(record, cache_file)}, **known}
    splits: dict[str, list[yamlio.Item]] = {}
    items, broken = parse_file_text(text, mf, schema, known, splits)
    cut = splits.get(mf.rel)
    # a file of one chunk gains nothing from chunks, and many small files would cost a blob file each
    big = cut is not None and len(cut) > chunks.CHUNK_ITEMS
    built = chunks.build(data, 0, text, cut, items, _blobs(cache_file)) if big and cut and cache_file else None
    return Loaded(items, broken, text, cut), built


def _store(cache_file: Path, stat: os.stat_result, key: str, loaded: Loaded, cut: list[chunks.Chunk] | None) -> None:
    """Write one file's parsed items (as chunks when given) to the cache; a failure only costs a re-parse later."""
    ensure_local_dir(cache_file.parent.parent.parent)
    record = {"tag": _CACHE_TAG, "key": key, "stat": [stat.st_size, stat.st_mtime_ns], "broken": loaded.broken}
    write_cache(cache_file, {**record, "chunks": cut} if cut else {**record, "items": loaded.items})
    _blobs(cache_file).prune({chunk[5] for chunk in cut or ()})
