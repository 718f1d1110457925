"""Every git operation loa-memory performs; the only module that imports GitPython.

Failures become ``GitError`` with a hint; GitPython is imported lazily (it costs ~150 ms).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import GitError


@functools.cache
def _git_module() -> Any:
    try:
        import git
    except ImportError as exc:  # pragma: no cover - GitPython is a dependency
        raise GitError(f"GitPython is not usable: {exc}", hint="pip install GitPython") from None
    return git


def repo(root: Path) -> Any:
    """The ``git.Repo`` at ``root``."""
    git = _git_module()
    try:
        return git.Repo(root)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise GitError(f"{root} is not a git repository", hint="run `git init` first") from None


def run(root: Path, *args: str) -> str:
    """``git ARGS`` in ``root``; its stdout."""
    git = _git_module()
    try:
        return str(repo(root).git.execute(["git", *args]))
    except git.GitCommandError as exc:
        detail = (exc.stderr or "").strip().removeprefix("stderr: ").strip("' \n")
        raise GitError(f"git {' '.join(args)} failed: {detail or exc}",
                       hint="check the repository state (`git status`)") from None


def hooks_dir(root: Path) -> Path:
    """Where git looks for hooks (honours ``core.hooksPath``)."""
    path = Path(run(root, "rev-parse", "--git-path", "hooks"))
    return path if path.is_absolute() else root / path


def set_config(root: Path, key: str, value: str) -> None:
    run(root, "config", "--local", key, value)


def get_config(root: Path, key: str) -> str | None:
    try:
        return run(root, "config", "--get", key) or None
    except GitError:
        return None


def staged_files(root: Path) -> list[str]:
    out = run(root, "diff", "--cached", "--name-only", "--diff-filter=ACMR", "-z")
    return [name for name in out.split("\0") if name]


def iter_log(root: Path, *args: str) -> Iterator[Any]:
    """Commits of ``git log ARGS``, as GitPython ``Commit`` objects."""
    git = _git_module()
    try:
        yield from repo(root).iter_commits(*args)
    except (git.GitCommandError, ValueError) as exc:
        raise GitError(f"cannot read history {' '.join(args)}: {exc}", hint="is the ref fetched?") from None
