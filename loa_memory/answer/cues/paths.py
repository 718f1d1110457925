"""Which of a tool call's files a memory is about: its ``applies_to`` globs and its ``artifacts``."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence


@functools.cache
def glob_pattern(glob: str) -> re.Pattern[str]:
    """A glob as a regex over ``/``-separated paths: ``*`` within a folder, ``**`` across folders, ``?`` one
    character; a glob without ``/`` matches a file's name in any folder (as in ``.gitignore``)."""
    glob = glob.strip().removeprefix("./")
    anchored = "/" in glob.rstrip("/")
    out = []
    n = 0
    while n < len(glob):
        if glob.startswith("**/", n):
            out.append("(?:.*/)?")
            n += 3
        elif glob.startswith("**", n):
            out.append(".*")
            n += 2
        elif glob[n] == "*":
            out.append("[^/]*")
            n += 1
        elif glob[n] == "?":
            out.append("[^/]")
            n += 1
        else:
            out.append(re.escape(glob[n]))
            n += 1
    body = "".join(out)
    if body.endswith("/"):
        body += ".*"  # a folder: everything under it
    return re.compile(("^" if anchored else r"^(?:.*/)?") + body + "(?:/.*)?$")


def glob_match(globs: Sequence[str], paths: Sequence[str]) -> bool:
    """Whether any path matches any glob."""
    return any(glob_pattern(g).match(p) for g in globs if g.strip() for p in paths)


def artifact_match(artifacts: Sequence[str], paths: Sequence[str]) -> bool:
    """Whether any path is an artifact or lies under one (artifacts may carry ``:LINE``)."""
    for artifact in artifacts:
        base = artifact.split(":", 1)[0].strip().removeprefix("./").rstrip("/")
        if base and any(p == base or p.startswith(base + "/") for p in paths):
            return True
    return False
