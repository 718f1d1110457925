"""The commits behind a path or a line, and the memories they name.

A line is blamed to the commit that last changed it; a file or folder gives the last commits that
touched it. A commit links to a memory when its message carries a trailer naming the memory
(``Memory: MEM-…``, ``Memories: MEM-…, MEM-…``, ``Refs: MEM-…``) or when the memory's
``source.commit`` (or ``commit``) is that commit (an abbreviated sha matches by prefix).
Outside a git repository, or for a path no commit holds, there are no links.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from loa_memory.answer.artifacts import PathTarget
from loa_memory.model import Entry
from loa_memory.store import git
from loa_memory.store.ids import ID_PATTERN

LOG_LIMIT = 20  # commits of `git log -- PATH` looked at when no line is given
_TRAILER = re.compile(r"^[ \t]*(?:memory|memories|refs?)[ \t]*:(.*)$", re.IGNORECASE | re.MULTILINE)
_MEM_ID = re.compile(ID_PATTERN)


@dataclass(frozen=True)
class Commit:
    """A commit that touched the target, and the memory ids its message names."""

    sha: str
    subject: str
    found_by: Literal["blame", "log"]
    memory_ids: tuple[str, ...]


def trailer_ids(message: str) -> list[str]:
    """MEM ids named by ``Memory:``, ``Memories:`` or ``Refs:`` lines of a commit message, in order."""
    ids: list[str] = []
    for match in _TRAILER.finditer(message):
        for memory_id in _MEM_ID.findall(match[1]):
            if memory_id not in ids:
                ids.append(memory_id)
    return ids


def commits_for(root: Path, target: PathTarget, limit: int = LOG_LIMIT) -> list[Commit]:
    """The commits behind ``target``: blamed for its lines, else the last ``limit`` that touched it."""
    if not git.is_committed(root, target.rel):
        return []
    found_by: Literal["blame", "log"]
    if target.lines is not None:
        shas = git.blame_commits(root, target.rel, *target.lines)
        found_by = "blame"
    else:
        shas = git.path_commits(root, target.rel, limit, follow=not target.is_dir)
        found_by = "log"
    messages = git.commit_messages(root, shas)
    return [Commit(sha, messages.get(sha, "").split("\n", 1)[0], found_by, tuple(trailer_ids(messages.get(sha, ""))))
            for sha in shas]


def recorded_commit(entry: Entry) -> str | None:
    """The commit an entry says it came from (``source.commit``, else ``commit``), lower-cased."""
    source = entry.data.get("source")
    value = source.get("commit") if isinstance(source, Mapping) else None
    value = value or entry.data.get("commit")
    return str(value).strip().lower() or None if value else None


def is_same_commit(recorded: str, sha: str) -> bool:
    """Whether an abbreviated or full sha names the commit ``sha`` (at least 7 hex digits)."""
    return len(recorded) >= 7 and sha.lower().startswith(recorded)
