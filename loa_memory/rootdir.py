"""Which repository a command works on: a light module, imported before anything heavy (see ``main``)."""

from __future__ import annotations

from pathlib import Path

from loa_memory.errors import NotInitialised

CONFIG_NAME = ".loa.config.yaml"


def find_root(start: Path) -> Path:
    """The directory holding ``.loa.config.yaml``, else the git work tree's top, walking up from ``start``."""
    start = start.resolve()
    for directory in (start, *start.parents):
        if (directory / CONFIG_NAME).is_file():
            return directory
        if (directory / ".git").exists():
            return directory
    raise NotInitialised(f"{start} is not inside a git repository",
                         hint="run `git init` then `loa-memory init`, or pass --root")
