"""What the git hooks decide before anything heavy is imported.

Every commit runs the post-commit capture hook and the commit-msg secret check, so the common case (no memory
trailer, no secret) must cost a Python start and one ``git`` call, not the whole CLI: ``main.py`` asks these
functions first and starts click, the config and the store only when there is work. Standard library only.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

# A line that may start a memory trailer (the real parse, ``capture/trailers.py``, decides later): the keys of
# ``capture.trailers.CATEGORY_BY_KEY``; ``tests/repo/test_quick.py`` checks that the two lists agree.
MEMORY_KEYS = ("decision", "learning", "error", "fact", "preference", "correction")
_FRESH_SECONDS = 600
_MAY_HOLD_TRAILER = re.compile(rf"^(?:{'|'.join(MEMORY_KEYS)})[ \t]*:", re.IGNORECASE | re.MULTILINE)


def _git(root: Path | None, *args: str) -> str | None:
    where = ["-C", str(root)] if root is not None else []
    try:
        done = subprocess.run(["git", *where, *args], capture_output=True, text=True, errors="replace", check=False)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def may_hold_memory_trailers(message: str) -> bool:
    """False when ``message`` certainly has no memory trailer (``Decision:``, ``Learning:``, ...)."""
    return _MAY_HOLD_TRAILER.search(message) is not None


def is_rewriting_history(root: Path | None = None) -> bool:
    """A rebase is under way (its picks make commits whose capture waits for ``capture --since``)."""
    gitdir = _git(root, "rev-parse", "--absolute-git-dir")
    if gitdir is None:
        return False
    folder = Path(gitdir.strip())
    return (folder / "rebase-merge").is_dir() or (folder / "rebase-apply").is_dir()


def head_needs_capture(root: Path | None = None) -> bool:
    """HEAD's message may hold memory trailers and no rebase is under way."""
    message = _git(root, "log", "-1", "--format=%B", "HEAD")
    return message is not None and may_hold_memory_trailers(message) and not is_rewriting_history(root)


def pre_commit_stashed_paths() -> set[str] | None:
    """Paths whose unstaged changes the pre-commit framework set aside while its hooks run, or None when this
    process is not a pre-commit hook or no stash was made.

    pre-commit saves them as a patch named ``patch<seconds>-<its pid>`` in its home folder, checks the index out
    into the work tree, runs the hooks, then applies the patch again; a hook that writes to one of these files
    makes that patch fail to apply, and pre-commit then rolls the hook's writes back.
    """
    if os.environ.get("PRE_COMMIT") != "1":
        return None
    home = os.environ.get("PRE_COMMIT_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pre-commit"
    )
    try:
        patches = sorted(Path(home).glob(f"patch*-{os.getppid()}"), key=lambda p: p.stat().st_mtime)
        if not patches or patches[-1].stat().st_mtime < time.time() - _FRESH_SECONDS:
            return None  # none, or one left by an earlier run whose pid was reused
        text = patches[-1].read_text("utf-8", errors="replace")
    except OSError:
        return None
    return {m[1] for m in re.finditer(r"^diff --git a/(.+?) b/", text, re.MULTILINE)}
