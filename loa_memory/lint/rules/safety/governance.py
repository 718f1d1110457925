"""With ``--base REF``: the history rules that keep a shared memory trustworthy, checked on every commit
since this branch forked from REF.

- telos files (``telos/``) change only in commits whose author email is in ``governance.operators``;
- episodic, ledger and handoff entries are append-only: none is edited or removed (archiving is allowed);
- an archived entry is never deleted, and a ``superseded_by`` link is never removed.

Passing: a branch that adds episodes and supersedes a decision.

Failing: a commit by ``dev@example.com`` (not an operator) that edits ``telos/purpose.md``; a commit that
rewrites the outcome of last week's episode. Each finding names the commit, its author, the file and the entry.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from loa_memory.lint.context import LintContext
from loa_memory.model import Entry, Finding, Severity
from loa_memory.store import git
from loa_memory.store.history import entries_at

ID = "governance"
SEVERITY: Severity = "error"
NEEDS_BASE = True
ARCHIVE_FIELDS = ("archived", "archived_at", "archive_reason")


@dataclass(frozen=True)
class Commit:
    sha: str
    email: str
    name: str
    files: tuple[str, ...]


def _commits(ctx: LintContext, fork: str) -> list[Commit]:
    folders = [world.storage_dir for world in ctx.config.worlds]
    out = git.run(ctx.config.root, "log", "--format=%x1e%H%x1f%ae%x1f%an", "--name-only", f"{fork}..HEAD", "--",
                  *folders)
    commits = []
    for block in out.split("\x1e"):
        if not block.strip():
            continue
        head, _, names = block.partition("\n")
        sha, email, name = head.split("\x1f")
        commits.append(Commit(sha, email.lower(), name, tuple(n for n in names.splitlines() if n.strip())))
    return commits


def _comparable(data: dict[str, Any]) -> str:
    """An entry's meaning, without the fields archiving adds."""
    return json.dumps({k: v for k, v in data.items() if k not in ARCHIVE_FIELDS}, sort_keys=True, default=str)


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return _comparable(a) == _comparable(b)


def check(ctx: LintContext) -> Iterator[Finding]:
    if not ctx.base_ref:
        return
    fork = git.merge_base(ctx.config.root, ctx.base_ref)
    commits = _commits(ctx, fork)
    operators = {str(e).lower() for e in ctx.config.governance.operators or []}
    for commit in commits:
        if commit.email in operators:
            continue
        for path in commit.files:
            if "/telos/" in f"/{path}":
                yield Finding(path, 1, 1, SEVERITY, ID, f"telos changed in commit {commit.sha[:10]} by "
                              f"{commit.name} <{commit.email}>, who is not in governance.operators")
    before = entries_at(ctx.config.root, fork, [w.storage_dir for w in ctx.config.worlds])
    now: dict[str, Entry] = {}
    for entry in ctx.entries():
        now.setdefault(entry.id, entry)
        for alias in entry.aliases:
            now.setdefault(alias, entry)
    append_only = {c.name for c in ctx.config.categories if c.append_only}
    for memory_id, (path, old) in before.items():
        current = now.get(memory_id)
        blame = _blamed(commits, path)
        if current is None:
            if old.get("category") in append_only or "/archive/" in f"/{path}" or old.get("archived"):
                what = "an archived entry" if "/archive/" in f"/{path}" else f"{old.get('category')} entry"
                yield Finding(path, 1, 1, SEVERITY, ID, f"{what} {memory_id} was deleted{blame}; entries of "
                              "this kind are kept for audit", entry_id=memory_id)
            continue
        if old.get("category") in append_only and not _same(old, dict(current.data)):
            yield ctx.finding(current, ID, SEVERITY, f"{memory_id} is append-only ({old.get('category')}) but was "
                              f"edited{_blamed(commits, current.path)}; add a new entry instead")
        if old.get("superseded_by") and current.data.get("superseded_by") != old["superseded_by"]:
            yield ctx.finding(current, ID, SEVERITY, f"superseded_by: {old['superseded_by']} was removed from "
                              f"{memory_id}{_blamed(commits, current.path)}; supersede links are permanent")


def _blamed(commits: list[Commit], path: str) -> str:
    for commit in commits:
        if path in commit.files:
            return f" in commit {commit.sha[:10]} by {commit.name} <{commit.email}>"
    return ""
