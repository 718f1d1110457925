"""A list file's parse cache in chunks of items, so that an edit costs only the chunks it touched.

Each chunk covers a run of the file's bytes that starts at an item (the first chunk at byte 0, the last
ends at the end of the file) and keeps a hash of those bytes, how many lines they hold and the name of a
blob holding its parsed items (marshalled, one file each, named by content). When the file changes, the
chunks whose bytes are still there, unchanged, at the start and at the end of the file are kept as they
are (those at the end shifted by the change in size and lines); only the bytes between them are cut into
items again, hashed and, where new, parsed. A write then adds one or two small blobs and a small index,
instead of rewriting the whole file's cache.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loa_memory.store import yamlio

CHUNK_ITEMS = 100
_STALE_SECONDS = 600  # an unreferenced blob younger than this may belong to a write still under way

# (start byte, end byte, sha1 of those bytes, newlines in them, lines to add to its items, blob name)
Chunk = tuple[int, int, bytes, int, int, str]
# the loader's item: (hash, first line, data or None, problems relative to the item)
Item = tuple[str, int, Any, list[tuple[int, int, str, str]]]
# parses a region's cut into items, reusing known ones by hash: None when the file must be parsed whole after all
ParseItems = Callable[[list[yamlio.Item], dict[str, Item]], "list[Item] | None"]


class MissingBlob(Exception):
    """A chunk's blob is gone or unreadable: the cache entry is unusable (parse the file again)."""


@dataclass(frozen=True)
class Blobs:
    """The folder of one file's chunk blobs."""

    folder: Path

    def read(self, name: str) -> list[Item]:
        try:
            items: list[Item] = marshal.loads((self.folder / f"{name}.marshal").read_bytes())
        except (OSError, ValueError, EOFError, TypeError) as exc:
            raise MissingBlob(name) from exc
        return items

    def write(self, items: list[Item]) -> str | None:
        """Store ``items`` and return the blob's name (None when it cannot be written: no cache then)."""
        try:
            blob = marshal.dumps(items)
            name = hashlib.sha1(blob, usedforsecurity=False).hexdigest()
            path = self.folder / f"{name}.marshal"
            if not path.exists():
                self.folder.mkdir(parents=True, exist_ok=True)
                temp = path.with_name(f".{name}.{os.getpid()}.tmp")
                temp.write_bytes(blob)
                os.replace(temp, path)
        except (OSError, ValueError):
            return None
        return name

    def prune(self, keep: set[str]) -> None:
        """Remove the blobs no chunk in ``keep`` names (old ones only: another process may be writing)."""
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        horizon = time.time() - _STALE_SECONDS
        for name in names:
            if name.removesuffix(".marshal") in keep:
                continue
            path = self.folder / name
            try:
                if path.stat().st_mtime < horizon:
                    path.unlink()
            except OSError:
                continue


@dataclass(frozen=True)
class Change:
    """What changed in a list file since its cached version: the lines ``line``..``line + old_lines`` (0-based)
    of the old text are now ``text``, cut into ``items`` (lines counted in the whole file) hashed ``digests``."""

    before: tuple[int, int]  # the cached version's (size, mtime_ns)
    line: int
    old_lines: int
    text: str
    items: list[yamlio.Item]
    digests: list[str]


def _digest(data: bytes | memoryview) -> bytes:
    return hashlib.sha1(data, usedforsecurity=False).digest()


def items_of(chunks: Sequence[Chunk], blobs: Blobs) -> list[Item]:
    """Every item of a chunked file, in order, with its line in the file as it is now (``MissingBlob``
    when a blob is gone)."""
    items: list[Item] = []
    for *_span, shift, name in chunks:
        part = blobs.read(name)
        items += part if not shift else [(digest, line + shift, data, found) for digest, line, data, found in part]
    return items


def build(data: bytes, start: int, text: str, cut: list[yamlio.Item], items: list[Item],
          blobs: Blobs) -> list[Chunk] | None:
    """Chunks for ``text``, the decoded ``data[start:start + len(its bytes)]``, cut into ``cut`` and parsed
    into ``items`` (one per cut item): a chunk boundary falls on every ``CHUNK_ITEMS``-th item's start.
    None when a blob cannot be written."""
    ascii_only = text.isascii()
    bounds = [0] + [cut[n].start for n in range(CHUNK_ITEMS, len(cut), CHUNK_ITEMS)] + [len(text)]
    view = memoryview(data)
    chunks: list[Chunk] = []
    offset = start
    for number in range(len(bounds) - 1):
        size = bounds[number + 1] - bounds[number]
        if not ascii_only:
            size = len(text[bounds[number]:bounds[number + 1]].encode("utf-8"))
        end = offset + size
        name = blobs.write(items[number * CHUNK_ITEMS:(number + 1) * CHUNK_ITEMS])
        if name is None:
            return None
        chunks.append((offset, end, _digest(view[offset:end]), data.count(b"\n", offset, end), 0, name))
        offset = end
    return chunks


def update(chunks: Sequence[Chunk], data: bytes, before: tuple[int, int], parse: ParseItems,
           blobs: Blobs) -> tuple[list[Chunk], Change] | None:
    """The chunks of ``data``, the file's new bytes, from the chunks of its cached version: the chunks still
    found unchanged are kept and the bytes between them cut and parsed again. None when the new text must be
    cut whole (the change broke an item boundary, or the file's shape changed)."""
    if not chunks:
        return None
    view = memoryview(data)
    head = 0
    for start, end, digest, *_rest in chunks:
        if end > len(data) or _digest(view[start:end]) != digest:
            break
        head += 1
    delta = len(data) - chunks[-1][1]
    floor = chunks[head - 1][1] if head else 0
    tail = 0
    for start, end, digest, *_rest in reversed(chunks[head:]):
        if start + delta < floor or _digest(view[start + delta:end + delta]) != digest:
            break
        tail += 1
    kept_end = len(chunks) - tail
    region_end = chunks[kept_end][0] + delta if tail else len(data)
    region = data[floor:region_end]
    if region and floor and (data[floor - 1:floor] != b"\n"
                             or not (region.startswith((b"- ", b"-\n")) or region == b"-")):
        return None  # the change reaches into what came before: cut the whole text
    if tail and region_end and data[region_end - 1:region_end] != b"\n":
        return None  # ... or into what comes after
    try:
        text = region.decode("utf-8")
    except UnicodeDecodeError:
        return None
    split = yamlio.split_items(text)
    if split.items is None or (not floor and tail and not split.items):
        return None  # not cut into items by text; or the file's head changed and no item shows it still fits
    line = sum(chunk[3] for chunk in chunks[:head])
    cut = [yamlio.Item(item.text, item.line + line, item.start, item.end) for item in split.items]
    parsed = parse(cut, {item[0]: item for item in items_of(chunks[head:kept_end], blobs)})
    if parsed is None:
        return None
    old_lines = sum(chunk[3] for chunk in chunks[head:kept_end])
    shift = region.count(b"\n") - old_lines
    middle = build(data, floor, text, cut, parsed, blobs) if region else []
    if middle is None:
        return None
    after = [(start + delta, end + delta, digest, lines, moved + shift, name)
             for start, end, digest, lines, moved, name in chunks[kept_end:]]
    return [*chunks[:head], *middle, *after], Change(before, line, old_lines, text, cut, [item[0] for item in parsed])
