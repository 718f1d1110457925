"""``/memories/...`` paths of Anthropic's memory tool, mapped to note paths in the grimoire.

``/memories`` is the notes folder (``grimoires/<world>/memory/notes/``). Folders map one to one. A file
maps to a Markdown note: a name ending in ``.md`` is kept, any other name gets ``.md`` appended
(``progress.xml`` → ``progress.xml.md``). A listing shows a note under the name that reaches it: its
stored name less ``.md`` when what remains has an extension of its own (``progress.xml``), else the
stored name (``todo`` was stored as ``todo.md`` and is listed as such; both names reach it).
"""

from __future__ import annotations

import re

from loa_memory.agents.notes import check_rel
from loa_memory.errors import UsageError

ROOT = "/memories"
_EXTENSION = re.compile(r"[^.]\.[A-Za-z][A-Za-z0-9]{0,9}$")


def memory_parts(path: str) -> tuple[str, ...]:
    """The names in a ``/memories`` path (``()`` for ``/memories`` itself); ``UsageError`` if it is unsafe."""
    if path != ROOT and not path.startswith(ROOT + "/"):
        raise UsageError(f"Path must start with /memories, got: {path!r}")
    parts = tuple(part for part in path[len(ROOT):].split("/") if part)
    if parts:
        check_rel("/".join(parts))
    return parts


def shown_path(parts: tuple[str, ...]) -> str:
    """The canonical ``/memories`` path of ``parts`` (no doubled or trailing slashes)."""
    return "/".join((ROOT, *parts))


def folder_rel(parts: tuple[str, ...]) -> str:
    """The note folder a ``/memories`` path names."""
    for name in parts:
        if name.endswith(".md"):
            raise UsageError(f"a folder name may not end in .md: {name!r}")
    return "/".join(parts)


def file_rel(parts: tuple[str, ...]) -> str:
    """The note file a ``/memories`` file path names (``.md`` appended unless it is there)."""
    if not parts:
        raise UsageError("/memories is the memory folder, not a file")
    *folders, name = parts
    folder = folder_rel(tuple(folders))
    stored = name if name.endswith(".md") else f"{name}.md"
    return f"{folder}/{stored}" if folder else stored


def shown_name(stored: str) -> str:
    """The name a listing shows for a note stored as ``stored`` (``x.txt.md`` → ``x.txt``)."""
    stem = stored.removesuffix(".md")
    return stem if stem != stored and _EXTENSION.search(stem) else stored
