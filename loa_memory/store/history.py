"""Memory entries as they were at a git revision (read with ``git show``, parsed safely, never cached)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from loa_memory.store import git, yamlio


def entries_at(root: Path, rev: str, folders: list[str]) -> dict[str, tuple[str, dict[str, Any]]]:
    """id → (path, fields) of every entry under ``folders`` at ``rev``: YAML list items and Markdown front
    matter (first occurrence wins; files that do not parse are skipped)."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for path, text in git.files_at(root, rev, folders).items():
        if path.endswith(".md"):
            front = next(yamlio.iter_front_matter(text), None)
            text = front[0] if front else ""
        try:
            loaded = yamlio.load_text(text, path=path)
        except yamlio.YamlSyntaxError:
            continue
        if isinstance(loaded, dict):
            loaded = [loaded]
        for item in loaded if isinstance(loaded, list) else []:
            if isinstance(item, dict) and item.get("id"):
                found.setdefault(str(item["id"]), (path, item))
    return found
