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

from ..errors import GrimoireError
from . import atomic, yamlio
from .config import Config
from .load import Grimoire

_ID_LINE = re.compile(r"^(?:-[ \t]+|[ \t]+)id:[ \t]*['\"]?(MEM-[0-9]{8}-[0-9]{3,})", re.M)


@dataclass
class _Segment:
    text: str
    line: int | None  # original 1-based first line for items; None for text between items


@dataclass
class FileText:
    """A YAML list file's text cut into items that can be edited one by one."""

    segments: list[_Segment] = field(default_factory=list)

    @classmethod
    def parse(cls, text: str, rel: str) -> FileText:
        split = yamlio.split_items(text)
        if split.items is None:
            raise GrimoireError(f"{rel} is not in the block-list layout loa-memory edits "
                                "(`- id: ...` items at column 0)", path=rel, line=1,
                                hint="rewrite it as a block list, or move the entries by hand")
        segments: list[_Segment] = []
        pos = 0
        for item in split.items:
            if item.start > pos:
                segments.append(_Segment(text[pos:item.start], None))
            segments.append(_Segment(item.text, item.line + 1))
            pos = item.end
        if pos < len(text):
            segments.append(_Segment(text[pos:], None))
        return cls(segments)

    def _find(self, line: int) -> _Segment:
        for segment in self.segments:
            if segment.line == line:
                return segment
        raise GrimoireError(f"no entry starts at line {line} any more", line=line,
                            hint="the file changed while loa-memory was running; run the command again")

    def item_text(self, line: int) -> str:
        return self._find(line).text

    def replace(self, line: int, text: str) -> None:
        self._find(line).text = text

    def remove(self, line: int) -> None:
        segment = self._find(line)
        self.segments.remove(segment)

    def append(self, item_text: str) -> int:
        """Add an item at the end; returns its (new) 1-based line."""
        text = self.render()
        stripped = text.rstrip()
        if stripped.endswith("[]") and not yamlio.split_items(text).items:
            # an empty flow list (`[]`) becomes a block list: keep the comments above it
            head = stripped[:-2]
            self.segments = [_Segment(head, None)] if head.strip() else []
            text = head if head.strip() else ""
        elif text and not text.endswith("\n"):
            self.segments.append(_Segment("\n", None))
            text += "\n"
        line = text.count("\n") + 1
        self.segments.append(_Segment(item_text, -line))
        return line

    def render(self) -> str:
        return "".join(segment.text for segment in self.segments)


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
        rel = self._rel(path)
        if rel in self.grimoire.broken:
            problem = next((p for p in self.grimoire.problems if p.path == rel), None)
            raise GrimoireError(f"{rel} failed to parse, so loa-memory will not write to it",
                                path=rel, line=problem.line if problem else None,
                                col=problem.col if problem else None,
                                hint=f"fix it first ({problem.message})" if problem else "fix it first")

    def list_file(self, path: Path) -> FileText:
        if path not in self._lists:
            self._guard(path)
            text = path.read_text("utf-8") if path.exists() else ""
            self._lists[path] = FileText.parse(text, self._rel(path))
        return self._lists[path]

    def append(self, path: Path, data: dict[str, Any]) -> int:
        """Append an entry to a list file; returns the line it will start on."""
        return self.list_file(path).append(yamlio.dump_item(data))

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

    def append_text(self, path: Path, item_text: str) -> int:
        return self.list_file(path).append(item_text)

    def text(self, path: Path) -> str | None:
        """The staged text of a file (``None`` if it is to be deleted or does not exist)."""
        if path in self._lists:
            return self._lists[path].render()
        if path in self._whole:
            return self._whole[path]
        self._guard(path)
        return path.read_text("utf-8") if path.exists() else None

    def write(self, path: Path, text: str | None) -> None:
        """Stage a whole-file write (Markdown memories) or deletion (``None``)."""
        self._guard(path)
        self._whole[path] = text

    def staged(self) -> dict[Path, str | None]:
        files: dict[Path, str | None] = {path: ft.render() for path, ft in self._lists.items()}
        files.update(self._whole)
        return files

    def commit(self) -> list[Path]:
        """Write every staged file in one transaction; returns the paths written."""
        files = self.staged()
        changed = []
        for path, text in files.items():
            current = path.read_text("utf-8") if path.exists() else None
            if current != text:
                changed.append((path, text))
        if changed:
            atomic.write_many(changed, self.config.local_dir)
        return [path for path, _ in changed]


def item_id(item_text: str) -> str | None:
    """The id of a list item, read from its text without parsing."""
    match = _ID_LINE.search(item_text)
    return match.group(1) if match else None
