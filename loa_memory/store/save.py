"""Staged edits to memory files, written as one crash-safe transaction.

Edits work on text: an item is replaced, removed or appended, and every other byte of the file
(comments, blank lines, other entries' formatting) stays as it was. Only the edited item is
re-dumped by ruamel.yaml round-trip. A file that failed to parse is never edited.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loa_memory.errors import GrimoireError
from loa_memory.store import atomic, yamlio
from loa_memory.store.cache.parsed import refresh_cache
from loa_memory.store.config import Config
from loa_memory.store.confine import confined
from loa_memory.store.ids import ID_PATTERN
from loa_memory.store.layout import is_entry_file
from loa_memory.store.load import Grimoire, MemoryFile, iter_memory_files

_ID_LINE = re.compile(rf"^(?:-[ \t]+|[ \t]+)id:[ \t]*['\"]?({ID_PATTERN})", re.M)


@dataclass
class _Segment:
    text: str
    line: int | None  # original 1-based first line for items; None for text between items


@dataclass
class FileText:
    """A YAML list file's text, cut into items only when an item must change (appends need no cut)."""

    rel: str
    path: Path
    _raw: bytes | None = None
    _base: str | None = None
    _segments: list[_Segment] | None = None
    appended: list[tuple[str, Any]] = field(default_factory=list)
    _lines_before: int = 0

    @property
    def raw(self) -> bytes:
        if self._raw is None:
            self._raw = self.path.read_bytes() if self.path.exists() else b""
        return self._raw

    @property
    def base(self) -> str:
        if self._base is None:
            self._base = self.raw.decode("utf-8")
        return self._base

    @property
    def append_only(self) -> bool:
        return self._segments is None and bool(self.appended)

    def _needs_rewrite(self) -> bool:
        """An empty ``[]`` list has to be rewritten as a block list; anything else takes plain appends."""
        return self.raw[-64:].rstrip().endswith(b"[]")

    def appended_bytes(self) -> bytes:
        """What an append-only edit adds to the end of the file (a newline first if the file lacks one), with the
        file's own line endings."""
        prefix = "\n" if self.raw and not self.raw.endswith(b"\n") else ""
        return with_endings_of(self.raw, prefix + "".join(item for item, _ in self.appended)).encode("utf-8")

    @property
    def segments(self) -> list[_Segment]:
        if self._segments is None:
            split = yamlio.split_items(self.base)
            if split.items is None:
                raise GrimoireError(f"{self.rel} is not in the block-list layout loa-memory edits "
                                    "(`- id: ...` items at column 0)", path=self.rel, line=1,
                                    hint="rewrite it as a block list, or edit the entries by hand")
            segments: list[_Segment] = []
            pos = 0
            for item in split.items:
                if item.start > pos:
                    segments.append(_Segment(self.base[pos:item.start], None))
                segments.append(_Segment(item.text, item.line + 1))
                pos = item.end
            if pos < len(self.base):
                segments.append(_Segment(self.base[pos:], None))
            self._segments = segments
        return self._segments

    def _find(self, line: int) -> _Segment:
        for segment in self.segments:
            if segment.line == line:
                return segment
        raise GrimoireError(f"no entry starts at line {line} any more", path=self.rel, line=line,
                            hint="the file changed while loa-memory was running; run the command again")

    def item_text(self, line: int) -> str:
        return self._find(line).text

    def replace(self, line: int, text: str) -> None:
        self._find(line).text = text

    def remove(self, line: int) -> None:
        self.segments.remove(self._find(line))

    def _body(self) -> str:
        if self._segments is None:
            return self.base
        return "".join(segment.text for segment in self._segments)

    def render(self) -> str:
        text = self._body()
        if not self.appended:
            return text
        return self._joined(text) + "".join(item for item, _ in self.appended)

    @staticmethod
    def _joined(text: str) -> str:
        """``text`` ready to take appended items: newline-terminated, an empty ``[]`` list dropped."""
        tail = text[-64:].rstrip()
        if tail.endswith("[]") and not yamlio.split_items(text).items:
            # an empty flow list (`[]`) becomes a block list; the comments above it stay
            text = text.rstrip()[:-2]
            text = text if text.strip() else ""
        if text and not text.endswith("\n"):
            text += "\n"
        return text

    def append(self, item_text: str, data: Any = None) -> int:
        """Add an item at the end; returns the 1-based line it will start on."""
        if not self.appended:
            if self._segments is None and not self._needs_rewrite():
                self._lines_before = self.raw.count(b"\n") + (1 if self.raw and not self.raw.endswith(b"\n") else 0)
            else:
                self._lines_before = self._joined(self._body()).count("\n")
        line = self._lines_before + sum(item.count("\n") for item, _ in self.appended) + 1
        self.appended.append((item_text, data))
        return line


@dataclass
class Changeset:
    """Edits to several memory files, staged in memory and committed together."""

    config: Config
    grimoire: Grimoire
    _lists: dict[Path, FileText] = field(default_factory=dict)
    _whole: dict[Path, str | None] = field(default_factory=dict)

    def _rel(self, path: Path) -> str:
        return path.relative_to(self.config.root).as_posix()

    def _guard(self, path: Path) -> None:
        _confine(self.config, path)
        rel = self._rel(path)
        if rel in self.grimoire.broken:
            found = [p for p in self.grimoire.problems if p.path == rel]
            problem = found[0] if found else None
            raise GrimoireError(f"{rel} failed to parse, so loa-memory will not write to it",
                                path=rel, line=problem.line if problem else None,
                                col=problem.col if problem else None,
                                problems=[GrimoireError(p.message, path=p.path, line=p.line, col=p.col) for p in found],
                                hint=f"fix it first ({problem.message})" if problem else "fix it first")

    def list_file(self, path: Path) -> FileText:
        if path not in self._lists:
            self._guard(path)
            self._lists[path] = FileText(self._rel(path), path)
        return self._lists[path]

    def append(self, path: Path, data: dict[str, Any]) -> int:
        """Append an entry to a list file; returns the line it will start on."""
        return self.list_file(path).append(yamlio.dump_item(data), data)

    def patch(self, path: Path, line: int, updates: dict[str, Any], remove: tuple[str, ...] = ()) -> None:
        """Change fields of the entry at ``path:line`` (a list item, or a Markdown file's front matter)."""
        if path.suffix == ".md":
            text = self.text(path)
            front = next(yamlio.iter_front_matter(text or ""), None)
            if text is None or front is None:
                raise GrimoireError("no front matter to change", path=self._rel(path), line=1)
            new_front = yamlio.patch_item(front[0], updates, remove)
            self.write(path, f"---\n{new_front}---\n{front[1]}")
            return
        ft = self.list_file(path)
        ft.replace(line, yamlio.patch_item(ft.item_text(line), updates, remove))

    def remove(self, path: Path, line: int) -> str:
        """Take the entry at ``path:line`` out of its file; returns its text."""
        if path.suffix == ".md":
            text = self.text(path) or ""
            self.write(path, None)
            return text
        ft = self.list_file(path)
        text = ft.item_text(line)
        ft.remove(line)
        return text

    def append_text(self, path: Path, item_text: str, data: Any = None) -> int:
        return self.list_file(path).append(item_text, data)

    def text(self, path: Path) -> str | None:
        """The staged text of a file (``None`` if it is to be deleted or does not exist)."""
        if path in self._whole:
            return self._whole[path]
        if path in self._lists:
            return self._lists[path].render()
        self._guard(path)
        return path.read_text("utf-8") if path.exists() else None

    def write(self, path: Path, text: str | None) -> None:
        """Stage a whole-file write (Markdown memories) or deletion (``None``)."""
        self._guard(path)
        self._whole[path] = text

    def move(self, path: Path, destination: Path) -> None:
        """Stage renaming a file (an entry file that follows its renumbered id); stage its edits first."""
        text = self.text(path)
        self._whole[destination] = text
        self._whole[path] = None

    def staged(self) -> dict[Path, str | None]:
        files: dict[Path, str | None] = {}
        for path, ft in self._lists.items():
            text = ft.render()
            # an entry file whose entry went (to the archive, say) goes with it
            emptied = ft._segments is not None and yamlio.split_items(text).items == []
            files[path] = None if emptied and is_entry_file(self.config, path) else text
        files.update(self._whole)
        return files

    def commit(self) -> list[Path]:
        """Write every staged file in one transaction; returns the paths written."""
        if not self._whole and len(self._lists) == 1:
            (only_path, only), = self._lists.items()
            if only.append_only and not only._needs_rewrite():
                atomic.append_atomic(only_path, only.appended_bytes())  # no decode, no re-encode of a big file
                self._refresh_appended(only_path, only)
                return [only_path]
        files = {path: text if text is None else with_endings_of(self._original(path), text)
                 for path, text in self.staged().items()}
        changed = []
        for path, text in files.items():
            ft = self._lists.get(path)
            if ft is not None and ft.appended and ft._segments is None:
                changed.append((path, text))  # appended to: changed for sure, no need to compare
                continue
            current = path.read_text("utf-8") if path.exists() else None
            if current != text:
                changed.append((path, text))
        if changed:
            atomic.write_many(changed, self.config.local_dir)
            self._refresh_caches(dict(changed))
        return [path for path, _ in changed]

    def _original(self, path: Path) -> bytes:
        ft = self._lists.get(path)
        if ft is not None:
            return ft.raw
        try:
            return path.read_bytes()
        except OSError:
            return b""

    def _refresh_appended(self, path: Path, ft: FileText) -> None:
        files = {mf.path: mf for mf in self.grimoire.files}
        mf = files.get(path) or _memory_file(self.config, path)
        if mf is not None:
            refresh_cache(self.config, mf, None, self.grimoire.items.get(mf.rel, []), ft.appended)

    def _refresh_caches(self, written: dict[Path, str | None]) -> None:
        files = {mf.path: mf for mf in self.grimoire.files}
        for path, text in written.items():
            mf = files.get(path) or _memory_file(self.config, path)
            if text is None or mf is None:
                continue
            known = self.grimoire.items.get(mf.rel, [])
            ft = self._lists.get(path)
            appended = ft.appended if ft is not None and ft._segments is None and \
                all(data is not None for _, data in ft.appended) else None
            refresh_cache(self.config, mf, text, known, appended)


def with_endings_of(original: bytes, text: str) -> str:
    """``text`` with CRLF line endings when ``original`` has only CRLF ones (a file written on Windows), so an
    edit never leaves a file with mixed endings; otherwise ``text`` as it is."""
    crlf = original.count(b"\r\n")
    if not crlf or crlf != original.count(b"\n"):
        return text
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def _confine(config: Config, path: Path) -> None:
    """A memory file is written only inside its world's grimoire, anything else only inside the repository, symlinks
    followed (``store/confine.py``)."""
    for world in config.worlds:
        memdir = config.memory_dir(world.name)
        if path.is_relative_to(memdir):
            confined(path, memdir, config.root)
            return
    confined(path, config.root, config.root, "file")  # a file beside the memory (a graduated lint-rule stub)


def item_id(item_text: str) -> str | None:
    """The id of a list item, read from its text without parsing."""
    match = _ID_LINE.search(item_text)
    return match.group(1) if match else None


def _memory_file(config: Config, path: Path) -> MemoryFile | None:
    """The ``MemoryFile`` record of a file that did not exist when the grimoire was loaded."""
    for mf in iter_memory_files(config):
        if mf.path == path:
            return mf
    return None
