"""``links[].to`` and ``related_memories`` name memories that exist (an id or an alias).

Passing::

    links: [{to: MEM-20260101-001, relation: related_to}]

Failing (no such memory; relations must be one of derived_from related_to contradicts elaborates
example_of, checked by the schema rule)::

    links: [{to: MEM-20990101-001, relation: related_to}]
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Finding, Severity
from ..context import LintContext

ID = "dangling-link"
SEVERITY: Severity = "error"


def check(ctx: LintContext) -> Iterator[Finding]:
    known = set(ctx.by_id)
    for entry in ctx.entries():
        for index, link in enumerate(entry.data.get("links") or []):
            target = link.get("to") if isinstance(link, dict) else None
            if target and target not in known:
                yield ctx.finding(entry, ID, SEVERITY, f"links to {target}, which does not exist",
                                  key=("links", index))
        for index, target in enumerate(entry.data.get("related_memories") or []):
            if target not in known:
                yield ctx.finding(entry, ID, SEVERITY, f"related_memories names {target}, which does not exist",
                                  key=("related_memories", index))
