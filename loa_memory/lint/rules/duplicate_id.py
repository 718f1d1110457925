"""Every id is used once across all worlds, files and the archive.

Passing: ``MEM-20260101-001`` in decisions.yaml and ``MEM-20260101-002`` in facts.yaml.

Failing: two entries ``MEM-20260101-001`` — typically two branches that each added the day's first entry.
``lint --fix`` keeps the oldest, renumbers the others (their old id goes to ``aliases``) and rewrites the
references made in the same session and the supersede partner. (An alias may equal another entry's id:
that is what a renumbering leaves behind, and ``show`` prefers the real id.)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ...model import Entry, Finding, Severity
from ..context import LintContext

ID = "duplicate-id"
SEVERITY: Severity = "error"
FIXABLE = True


def check(ctx: LintContext) -> Iterator[Finding]:
    owners: dict[str, list[Entry]] = defaultdict(list)
    for entry in ctx.entries():
        if entry.id:
            owners[entry.id].append(entry)
    for memory_id, places in owners.items():
        if len(places) < 2:
            continue
        keep, *others = sorted(places, key=lambda e: (e.timestamp, e.path, e.line))
        for entry in others:
            yield ctx.finding(entry, ID, SEVERITY, f"{memory_id} is already the id of an older entry at "
                              f"{keep.path}:{keep.line}", key="id", fixable=True)
