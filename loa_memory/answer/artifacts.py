"""Which memories are about a path: ``artifacts`` (files, folders, globs) and ``source.file_path``.

Paths are POSIX and relative to the repository root. A folder covers everything under it; a glob
(``src/db/*.py``, ``**/migrations/``) covers what it matches and everything under a folder it matches.
An artifact or ``file_path`` may carry a line range (``src/app.py:10-20``, ``source.line_range: 10-20``);
it then covers a line target only where the ranges overlap.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loa_memory.errors import UsageError
from loa_memory.model import Entry

_LINES = re.compile(r"^(?P<path>.+?):(?P<start>[0-9]+)(?:-(?P<end>[0-9]+))?$")
_GLOB_CHARS = frozenset("*?[")


@dataclass(frozen=True)
class PathTarget:
    """A path inside the repository, maybe narrowed to lines (1-based, inclusive)."""

    rel: str
    is_dir: bool
    lines: tuple[int, int] | None = None

    def __str__(self) -> str:
        if self.lines is None:
            return self.rel + ("/" if self.is_dir else "")
        start, end = self.lines
        return f"{self.rel}:{start}" if start == end else f"{self.rel}:{start}-{end}"


def resolve_target(root: Path, target: str, cwd: Path | None = None) -> PathTarget | None:
    """``target`` as an existing path (``PATH``, ``PATH:LINE``, ``PATH:START-END``), else None.

    The path may be relative to ``cwd`` (when it is inside the repository) or to the root, or absolute.
    """
    root = root.resolve()
    here = (cwd or Path.cwd()).resolve()
    bases = [here, root] if here == root or root in here.parents else [root]
    candidates: list[tuple[str, tuple[int, int] | None]] = [(target, None)]
    match = _LINES.match(target.strip())
    if match:
        start = int(match["start"])
        end = int(match["end"] or start)
        candidates.append((match["path"], (start, end)))
    for text, lines in candidates:
        if not text.strip():
            continue
        for base in bases:
            try:
                path = (base / text).resolve()
                found = path.exists()
            except (OSError, ValueError):  # a question too long for a file name, or holding a NUL
                found = False
            if found:
                return _target(root, path, target, lines)
    return None


def _target(root: Path, path: Path, target: str, lines: tuple[int, int] | None) -> PathTarget:
    if path != root and root not in path.parents:
        raise UsageError(f"{target} is outside the repository {root}", hint="name a file inside the repository")
    rel = path.relative_to(root).as_posix() if path != root else "."
    if lines is None:
        return PathTarget(rel, path.is_dir())
    start, end = lines
    if path.is_dir():
        raise UsageError(f"{target}: a folder has no lines", hint=f"use `loa-memory why {rel}`")
    if start < 1 or end < start:
        raise UsageError(f"{target}: bad line range", hint="lines count from 1, e.g. PATH:17 or PATH:10-20")
    with path.open("rb") as handle:
        count = sum(1 for _ in handle)
    if end > count:
        raise UsageError(f"{target}: {rel} has only {count} line(s)", hint="check the line number")
    return PathTarget(rel, False, (start, end))


def _normal(path: str) -> str:
    path = path.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/") or "."


def _split_lines(text: str) -> tuple[str, tuple[int, int] | None]:
    match = _LINES.match(text.strip())
    if not match:
        return text, None
    start = int(match["start"])
    return match["path"], (start, int(match["end"] or start))


@functools.lru_cache(maxsize=1024)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    out = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
            continue
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and "]" in pattern[index + 2:]:
            close = pattern.index("]", index + 2)
            body = pattern[index + 1:close]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
            index = close + 1
            continue
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out) + r"\Z")


def _ancestors(rel: str) -> list[str]:
    """``rel`` and every folder above it (``a/b/c`` → ``a/b/c``, ``a/b``, ``a``)."""
    parts = rel.split("/")
    return ["/".join(parts[:n]) for n in range(len(parts), 0, -1)]


def _overlaps(a: tuple[int, int] | None, b: tuple[int, int] | None) -> bool:
    return a is None or b is None or (a[0] <= b[1] and b[0] <= a[1])


def path_relation(pattern: str, target: PathTarget) -> str | None:
    """How a path or glob relates to ``target``: ``"same"``, ``"covers"`` (it is a folder above),
    ``"inside"`` (it lies under a folder target), ``"glob"``, or None when unrelated."""
    text, _ = _split_lines(pattern)
    pattern = _normal(text)
    if pattern == "." or target.rel == ".":
        return "covers" if pattern == "." else "inside"
    if _GLOB_CHARS & set(pattern):
        regex = _glob_regex(pattern)
        if any(regex.match(p) for p in _ancestors(target.rel)):
            return "glob"
        literal = pattern[: min(pattern.index(c) for c in _GLOB_CHARS if c in pattern)].rpartition("/")[0]
        return "inside" if target.is_dir and (literal + "/").startswith(target.rel + "/") else None
    if pattern == target.rel:
        return "same"
    if target.rel.startswith(pattern + "/"):
        return "covers"
    if target.is_dir and pattern.startswith(target.rel + "/"):
        return "inside"
    return None


@dataclass(frozen=True)
class PathMatch:
    """One reason an entry is about the target."""

    kind: str  # "artifact" or "file_path"
    value: str  # the artifact or file_path as written (with its line range)
    relation: str  # see path_relation
    line_specific: bool  # it named lines that overlap the target's lines


def path_matches(entry: Entry, target: PathTarget) -> list[PathMatch]:
    """Why ``entry`` is about ``target``, if it is (empty list: it is not)."""
    found: list[PathMatch] = []
    artifacts = entry.data.get("artifacts")
    for artifact in artifacts if isinstance(artifacts, list) else ():
        text, lines = _split_lines(str(artifact))
        relation = path_relation(text, target)
        if relation and (relation == "inside" or _overlaps(lines, target.lines)):
            found.append(PathMatch("artifact", str(artifact), relation, bool(lines and target.lines)))
    source: Mapping[str, Any] = entry.data.get("source") or {}
    file_path = source.get("file_path") if isinstance(source, Mapping) else None
    if file_path:
        line_range = str(source.get("line_range") or "")
        lines = _split_lines(f"x:{line_range}")[1] if line_range else None
        relation = path_relation(str(file_path), target)
        if relation and (relation == "inside" or _overlaps(lines, target.lines)):
            shown = f"{file_path}:{line_range}" if line_range else str(file_path)
            found.append(PathMatch("file_path", shown, relation, bool(lines and target.lines)))
    return found
