"""The commits capture reads: who, when, what message, which files, and a patch id to know a rebased copy."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path

from loa_memory.errors import GitError, UsageError
from loa_memory.store import git
from loa_memory.store.times import format_time, parse_time


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    subject: str
    message: str
    author: str
    time: str  # committer time, UTC, as memory files hold timestamps


def resolve(root: Path, revs: tuple[str, ...] | list[str], since: str | None = None) -> list[str]:
    """Full shas of ``revs`` (each a commit-ish) and of the commits after ``since`` up to HEAD, oldest first."""
    shas: list[str] = []
    if since:
        try:
            out = git.run(root, "rev-list", "--reverse", "--no-merges", f"{since}..HEAD")
        except GitError as exc:
            raise UsageError(f"cannot list the commits after {since!r}: {exc.message}",
                             hint="pass a commit, branch or tag that HEAD descends from") from None
        shas.extend(out.split())
    for rev in revs:
        try:
            sha = git.run(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}").strip()
        except GitError:
            sha = ""
        if not sha:
            raise UsageError(f"{rev!r} does not name a commit", hint="pass a sha, a branch, a tag, or HEAD")
        shas.append(sha)
    return list(dict.fromkeys(shas))


def read_commits(root: Path, shas: list[str]) -> list[CommitInfo]:
    """Author, committer time and message of each commit, in the order given."""
    if not shas:
        return []
    out = git.run(root, "log", "--no-walk=unsorted", "--format=%H%x00%an%x00%cI%x00%B%x1e", *shas)
    found: dict[str, CommitInfo] = {}
    for record in out.split("\x1e"):
        parts = record.strip("\n").split("\0", 3)
        if len(parts) != 4:
            continue
        sha, author, stamp, message = parts
        moment = parse_time(stamp)
        found[sha] = CommitInfo(sha, message.strip().split("\n", 1)[0], message.strip(), author.strip(),
                                format_time(moment) if moment else stamp)
    return [found[sha] for sha in shas if sha in found]


def changed_files(root: Path, sha: str) -> list[str]:
    """Paths the commit added, changed or renamed (none for a merge)."""
    out = git.run(root, "diff-tree", "--no-commit-id", "--name-only", "-r", "-z", "--root", "--diff-filter=ACMR", sha)
    return [name for name in out.split("\0") if name]


@functools.cache
def patch_id(root: Path, sha: str) -> str | None:
    """A hash of the commit's change that ignores line numbers, whitespace and blob ids, as
    ``git patch-id --stable`` does: equal for a commit and its rebased or cherry-picked copy.
    None if the commit is unknown here (rebased away, not fetched) or changes nothing."""
    try:
        diff = git.run(root, "diff-tree", "-p", "--root", "--no-commit-id", "-r", "--no-color", "--no-ext-diff", sha)
    except GitError:
        return None
    digest = hashlib.sha1(usedforsecurity=False)
    changed = False
    for line in diff.splitlines():
        if line.startswith(("diff --git", "+", "-")) and not line.startswith(("+++", "---")):
            digest.update("".join(line.split()).encode("utf-8", "surrogateescape"))
            changed = changed or not line.startswith("diff --git")
    return digest.hexdigest() if changed else None


@functools.cache
def subject_of(root: Path, sha: str) -> str | None:
    """The subject line of a commit, or None if it is not in this repository."""
    try:
        return git.run(root, "log", "-1", "--format=%s", sha, "--").strip()
    except GitError:
        return None
