"""Every id is used once across all worlds, files and the archive.

Passing: ``MEM-20260101-001`` in decisions.yaml and ``MEM-20260101-002`` in facts.yaml.

Failing: two entries ``MEM-20260101-001`` — typically two branches that each added the day's first entry.
``lint --fix`` keeps the oldest, renumbers the others (their old id goes to ``aliases``) and rewrites the
references made in the same session and the supersede partner. (An alias may equal another entry's id:
that is what a renumbering leaves behind, and ``show`` prefers the real id.)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Entry, Finding, Severity

ID = "duplicate-id"
SEVERITY: Severity = "error"
FIXABLE = True


def check(ctx: LintContext) -> Iterator[Finding]:
    ids = [entry.id for entry in ctx.entries()]
    twice = {memory_id for memory_id, count in Counter(ids).items() if count > 1 and memory_id}
    owners: dict[str, list[Entry]] = defaultdict(list)
    for memory_id, entry in zip(ids, ctx.entries(), strict=True):
        if memory_id in twice:
            owners[memory_id].append(entry)
    for memory_id, places in owners.items():
        keep, *others = sorted(places, key=lambda e: (e.timestamp, e.path, e.line))
        for entry in others:
            yield ctx.finding(entry, ID, SEVERITY, f"{memory_id} is already the id of an older entry at "
                              f"{keep.path}:{keep.line}", key="id", fixable=True)
