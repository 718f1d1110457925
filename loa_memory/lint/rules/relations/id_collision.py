"""With ``--base REF``: an id this branch added must not also have been added on REF since the two
diverged. Both branches pass CI on their own, and the merge silently keeps two entries with one id.

Passing: this branch added ``MEM-20261122-003``; ``origin/main`` added ``MEM-20261122-001`` and ``-002``.

Failing: both added ``MEM-20261122-001`` with different content. ``lint --fix --base REF`` renumbers this
branch's entry, rewrites the branch's references to it, and keeps the old id in ``aliases``.
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity
from loa_memory.store import git
from loa_memory.store.history import entries_at

ID = "id-collision"
SEVERITY: Severity = "error"
FIXABLE = True
NEEDS_BASE = True


def ids_at(ctx: LintContext, rev: str) -> set[str]:
    return set(entries_at(ctx.config.root, rev, [world.storage_dir for world in ctx.config.worlds]))


def branch_added(ctx: LintContext) -> tuple[set[str], set[str]]:
    """(ids the branch added since the merge base, ids the base added since then)."""
    assert ctx.base_ref is not None
    fork = git.merge_base(ctx.config.root, ctx.base_ref)
    before = ids_at(ctx, fork)
    theirs = ids_at(ctx, ctx.base_ref) - before
    ours = {entry.id for entry in ctx.entries()} - before
    return ours, theirs


def check(ctx: LintContext) -> Iterator[Finding]:
    if not ctx.base_ref:
        return
    ours, theirs = branch_added(ctx)
    for entry in ctx.entries():
        if entry.id in ours and entry.id in theirs:
            yield ctx.finding(entry, ID, SEVERITY, f"{entry.id} was also added on {ctx.base_ref} since this branch "
                              "forked: run `loa-memory lint --fix --base " + ctx.base_ref + "` to renumber it",
                              key="id", fixable=True)
