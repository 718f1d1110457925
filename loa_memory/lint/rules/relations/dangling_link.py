"""``links[].to``, ``related_memories``, and the ids a ledger (``patterns``) or a handoff (``memory_ids``,
``accepts``) or a negative result (``led_to``) names are memories that exist (an id or an alias).

Passing::

    links: [{to: MEM-20260101-001, relation: related_to}]

Failing (no such memory; relations must be one of derived_from related_to contradicts elaborates
example_of supersedes led_to thread, checked by the schema rule)::

    links: [{to: MEM-20990101-001, relation: related_to}]
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity

ID = "dangling-link"
SEVERITY: Severity = "error"
LIST_FIELDS = ("related_memories", "memory_ids", "patterns")
ID_FIELDS = ("accepts", "led_to")


def check(ctx: LintContext) -> Iterator[Finding]:
    known = set(ctx.by_id)
    for entry in ctx.having("links", *LIST_FIELDS, *ID_FIELDS):
        for index, link in enumerate(entry.data.get("links") or []):
            target = link.get("to") if isinstance(link, dict) else None
            if target and target not in known:
                yield ctx.finding(entry, ID, SEVERITY, f"links to {target}, which does not exist",
                                  key=("links", index))
        for key in LIST_FIELDS:
            values = entry.data.get(key)
            for index, target in enumerate(values if isinstance(values, list) else []):
                if target not in known:
                    yield ctx.finding(entry, ID, SEVERITY, f"{key} names {target}, which does not exist",
                                      key=(key, index))
        for key in ID_FIELDS:
            target = entry.data.get(key)
            if isinstance(target, str) and target and target not in known:
                yield ctx.finding(entry, ID, SEVERITY, f"{key} names {target}, which does not exist", key=key)
