"""Memory entries as they were at a git revision (read with ``git show``, parsed safely, never cached)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import git, yamlio


def entries_at(root: Path, rev: str, folders: list[str]) -> dict[str, tuple[str, dict[str, Any]]]:
    """id → (path, fields) of every YAML list entry under ``folders`` at ``rev`` (first occurrence wins)."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for path, text in git.files_at(root, rev, folders).items():
        if not path.endswith(".yaml"):
            continue
        try:
            loaded = yamlio.load_text(text, path=path)
        except yamlio.YamlSyntaxError:
            continue
        for item in loaded if isinstance(loaded, list) else []:
            if isinstance(item, dict) and item.get("id"):
                found.setdefault(str(item["id"]), (path, item))
    return found
