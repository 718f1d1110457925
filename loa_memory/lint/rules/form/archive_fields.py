"""Archived entries say so: under ``archive/`` an entry carries ``archived: true``, ``archived_at`` and
``archive_reason`` (expired, superseded, manual, ineffective); outside it, no entry is ``archived: true``.

Passing (in ``archive/learnings.yaml``)::

    archived: true
    archived_at: '2026-03-01T00:00:00Z'
    archive_reason: expired

Failing: an entry in ``archive/`` without ``archive_reason``.
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity

ID = "archive-fields"
SEVERITY: Severity = "error"
SCOPE = "entry"  # findings depend on the entry alone: cached per item (lint/cache.py)


def check(ctx: LintContext) -> Iterator[Finding]:
    for entry in ctx.targets(archived=True):
        missing = [key for key in ("archived", "archived_at", "archive_reason") if key not in entry.data]
        if entry.data.get("archived") is False:
            missing.insert(0, "archived: true")
        if missing:
            yield ctx.finding(entry, ID, SEVERITY, f"archived entry lacks {', '.join(missing)}")
    for entry in ctx.targets(archived=False):
        if entry.data.get("archived") is True:
            yield ctx.finding(entry, ID, SEVERITY, "marked `archived: true` but not in the archive folder",
                              key="archived")
