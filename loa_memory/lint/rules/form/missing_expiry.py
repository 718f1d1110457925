"""An entry with a day-count ``ttl`` carries the ``expires_at`` it implies (``source.timestamp`` + ttl),
so that reviewers see the date and archival needs no arithmetic. Permanent entries carry none.

Passing::

    ttl: 90d
    expires_at: '2026-05-02T10:30:00Z'

Failing (warning; ``lint --fix`` computes it)::

    ttl: 90d
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity
from loa_memory.store.times import expiry

ID = "missing-expiry"
SEVERITY: Severity = "warning"
SCOPE = "entry"  # findings depend on the entry alone: cached per item (lint/cache.py)
FIXABLE = True


def check(ctx: LintContext) -> Iterator[Finding]:
    for entry in ctx.targets():
        ttl = str(entry.data.get("ttl") or "")
        if not ttl.endswith("d") or entry.expires_at:
            continue
        computed = expiry(ttl, entry.timestamp)
        if computed:
            yield ctx.finding(entry, ID, SEVERITY, f"ttl {ttl} but no expires_at (it would be {computed})",
                              key="ttl", fixable=True, extra={"expires_at": computed})
