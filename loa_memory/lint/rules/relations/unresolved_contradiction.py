"""Two active memories linked ``contradicts`` disagree until one supersedes the other.

``recall`` and ``session start`` show both sides of such a pair ("conflicting memories: A says ...;
B says ..."); this rule lists them, once per pair, at the link. Superseding, archiving or expiry of
either side resolves it (the link stays, for history).

Passing: ``links: [{to: MEM-20260101-001, relation: contradicts}]`` where MEM-20260101-001 is superseded.

Failing (warning): the same link while both entries are active. Decide which one holds and
``loa-memory supersede`` the other.
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity
from loa_memory.store.relations import contradictions, contradicts_links

ID = "unresolved-contradiction"
SEVERITY: Severity = "warning"


def check(ctx: LintContext) -> Iterator[Finding]:
    for pair in contradictions(ctx.grimoire, ctx.now):
        holder, other = pair.holder, pair.other
        if ctx.focus is not None and holder.path not in ctx.focus:
            continue
        index = next(i for i, target, _ in contradicts_links(holder) if target in (other.id, *other.aliases))
        says = _short(other.summary or other.content)
        yield ctx.finding(holder, ID, SEVERITY, f"contradicts {other.id} (\"{says}\") and both are active: "
                          "`loa-memory supersede` the one that no longer holds",
                          key=("links", index), extra={"other": other.id})


def _short(text: str, limit: int = 80) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= limit else line[:limit - 3] + "..."
