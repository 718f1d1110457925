"""Every id (and every alias) is used once across all worlds, files and the archive.

Passing: ``MEM-20260101-001`` in decisions.yaml and ``MEM-20260101-002`` in facts.yaml.

Failing: two entries ``MEM-20260101-001`` — typically two branches that each added the day's first entry.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ...model import Entry, Finding, Severity
from ..context import LintContext

ID = "duplicate-id"
SEVERITY: Severity = "error"
FIXABLE = False  # renumbering with reference rewriting arrives with the merge tooling


def check(ctx: LintContext) -> Iterator[Finding]:
    owners: dict[str, list[tuple[Entry, str]]] = defaultdict(list)
    for entry in ctx.entries():
        if entry.id:
            owners[entry.id].append((entry, "id"))
        for alias in entry.aliases:
            owners[alias].append((entry, "aliases"))
    for memory_id, places in owners.items():
        if len(places) < 2:
            continue
        first = places[0][0]
        for entry, key in places[1:]:
            where = f"{first.path}:{first.line}"
            what = "an alias" if key == "aliases" else "an id"
            yield ctx.finding(entry, ID, SEVERITY, f"{memory_id} is already used as {what} at {where}",
                              key=key)
