"""``links[].to``, ``related_memories`` and ``led_to`` name memories that exist (an id or an alias).

Passing::

    links: [{to: MEM-20260101-001, relation: related_to}]

Failing (no such memory; relations must be one of derived_from related_to contradicts elaborates
example_of supersedes led_to thread, checked by the schema rule)::

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
        led_to = entry.data.get("led_to")
        if isinstance(led_to, str) and led_to and led_to not in known:
            yield ctx.finding(entry, ID, SEVERITY, f"led_to names {led_to}, which does not exist", key="led_to")
        for index, target in enumerate(entry.data.get("related_memories") or []):
            if target not in known:
                yield ctx.finding(entry, ID, SEVERITY, f"related_memories names {target}, which does not exist",
                                  key=("related_memories", index))
