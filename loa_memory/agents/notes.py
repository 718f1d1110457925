"""Notes: free-form Markdown memories that an agent keeps in folders (the memory tool's files).

A note is a memory of a ``markdown`` category (``note`` by default, in ``notes/``): YAML front matter that
loa-memory owns (id, category, summary taken from the first line, confidence, source, ttl, ``updated_at``)
and a body that is the agent's text, byte for byte. A note is named by a POSIX path relative to its
category's folder (``project/progress.md``); no path leaves that folder: absolute paths, ``..``, hidden
names, control characters and symlinks that lead out are refused. This module reads; ``note_write``
writes (under the lock, validated, secret-gated, atomic; a delete archives, a rename keeps the id).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from loa_memory.errors import NotFound, UsageError
from loa_memory.model import Category
from loa_memory.store import yamlio
from loa_memory.store.config import Config
from loa_memory.store.confine import is_inside
from loa_memory.write.add import summarise

NOTE_CATEGORY = "note"
MAX_NAME_BYTES = 200  # leaves room for the ".md" a name may get, under the usual 255-byte limit
MAX_DEPTH = 16
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_MARKERS = re.compile(r"^(?:[#>*+\-]+\s*)+")


@dataclass(frozen=True)
class NoteSpace:
    """Where one world's notes of one category live."""

    config: Config
    world: str
    category: Category

    @property
    def root(self) -> Path:
        return self.config.memory_dir(self.world) / self.category.path

    def repo_rel(self, path: Path) -> str:
        return path.relative_to(self.config.root).as_posix()


@dataclass(frozen=True)
class Note:
    """A note as stored: its front matter text (``None`` if it has none) and its body."""

    rel: str
    path: Path
    front: str | None
    body: str

    @property
    def data(self) -> dict[str, Any]:
        loaded = yamlio.load_text(self.front, path=self.rel) if self.front else None
        return loaded if isinstance(loaded, dict) else {}


@dataclass(frozen=True)
class Listed:
    """One item of a folder listing: a note (``size`` = its body's bytes) or a folder."""

    rel: str
    is_dir: bool
    size: int


def note_space(config: Config, *, world: str | None = None, category: str = NOTE_CATEGORY) -> NoteSpace:
    """The notes of ``category`` in ``world``; refuses list categories and operator-only ones (telos)."""
    cat = config.category(category)
    if cat.kind != "markdown":
        raise UsageError(f"category {cat.name!r} keeps YAML lists, not Markdown files",
                         hint="notes need a category of kind markdown, e.g. note (notes/)")
    if cat.operator_only:
        raise UsageError(f"category {cat.name!r} is written by operators only, never by an agent",
                         hint="use the note category")
    return NoteSpace(config, config.world(world).name, cat)


def check_rel(rel: str) -> PurePosixPath:
    """``rel`` as a safe relative path, or ``UsageError`` saying what is wrong with it."""
    if _CONTROL.search(rel):
        raise UsageError("a note path may not hold control characters or NUL bytes")
    if "\\" in rel:
        raise UsageError(f"a note path uses '/' between folders, not '\\': {rel!r}")
    posix = PurePosixPath(rel)
    if posix.is_absolute():
        raise UsageError(f"a note path is relative to the notes folder: {rel!r}")
    parts = rel.split("/")  # not posix.parts, which drops "." and empty names silently
    if len(parts) > MAX_DEPTH:
        raise UsageError(f"a note path may be at most {MAX_DEPTH} folders deep")
    for part in parts:
        if not part:
            raise UsageError(f"a note path has an empty name (a doubled or trailing '/'): {rel!r}")
        if part in (".", ".."):
            raise UsageError(f"a note path may not contain {part!r}: {rel!r}")
        if part.startswith("."):
            raise UsageError(f"hidden names (starting with '.') are not allowed: {part!r}")
        if len(part.encode("utf-8")) > MAX_NAME_BYTES:
            raise UsageError(f"a name is longer than {MAX_NAME_BYTES} bytes: {part[:40]!r}...")
    return posix


def resolve(space: NoteSpace, rel: str) -> Path:
    """The file or folder ``rel`` names, checked to stay inside the notes folder (symlinks included)."""
    posix = check_rel(rel)
    path = space.root.joinpath(*posix.parts)
    memdir = space.config.memory_dir(space.world)
    if not is_inside(space.root, memdir) or not is_inside(memdir, space.config.root):
        raise UsageError(f"{space.repo_rel(space.root)} leads out of the grimoire (a symlink)",
                         hint="notes must live inside the grimoire's folder")
    if not is_inside(path, space.root):
        raise UsageError(f"{rel!r} leads out of the notes folder (a symlink)")
    return path


def split_note(text: str) -> tuple[str | None, str]:
    """(front matter, body) of a note's text; no front matter: (None, the whole text)."""
    parts = next(yamlio.iter_front_matter(text), None)
    return (parts[0], parts[1]) if parts is not None else (None, text)


def read_note(space: NoteSpace, rel: str) -> Note:
    """The note at ``rel`` (``NotFound`` if there is no such file)."""
    path = resolve(space, rel)
    if not path.is_file():
        raise NotFound(f"no note {rel!r}", hint="list the notes folder to see what exists")
    front, body = split_note(path.read_bytes().decode("utf-8", errors="replace"))
    return Note(rel, path, front, body)


def list_notes(space: NoteSpace, rel: str = "", depth: int = 2) -> list[Listed]:
    """Notes and folders under ``rel``, ``depth`` levels deep, sorted by name, each folder before its content."""
    folder = resolve(space, rel) if rel else space.root
    if rel and not folder.is_dir():
        raise NotFound(f"no folder {rel!r}")
    listed: list[Listed] = []
    real_root = os.path.realpath(space.root)
    _walk(folder, PurePosixPath(rel), depth, real_root, listed)
    return listed


def _walk(folder: Path, rel: PurePosixPath, depth: int, real_root: str, out: list[Listed]) -> None:
    if depth < 1 or not folder.is_dir():
        return
    for child in sorted(folder.iterdir(), key=lambda p: p.name):
        if child.name.startswith(".") or os.path.realpath(child) == real_root or not is_inside(child, real_root):
            continue
        child_rel = (rel / child.name).as_posix()
        if child.is_dir():
            out.append(Listed(child_rel, True, child.lstat().st_size))
            _walk(child, rel / child.name, depth - 1, real_root, out)
        elif child.is_file() and child.suffix == ".md":
            body = split_note(child.read_bytes().decode("utf-8", errors="replace"))[1]
            out.append(Listed(child_rel, False, len(body.encode("utf-8"))))


def note_summary(body: str) -> str:
    """The summary of a note: its first line with text, without Markdown markers, cut to one sentence."""
    for line in body.splitlines():
        clean = _MARKERS.sub("", line.strip()).strip()
        if clean and not set(clean) <= set("-=`~_*"):
            return summarise(clean)
    return "note"
