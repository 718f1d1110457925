"""Warn ``lifecycle.warn_before_archive_days`` (default 7) before an entry expires, so that someone can
renew it (supersede it with a fresh ttl) before it is archived.

Passing: ``expires_at`` a month away. Failing (warning): ``expires_at`` in three days.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity
from loa_memory.store.times import left_phrase

ID = "expiring-soon"
SEVERITY: Severity = "warning"


def check(ctx: LintContext) -> Iterator[Finding]:
    days = int(ctx.config.lifecycle.warn_before_archive_days)
    if days <= 0:
        return
    horizon = ctx.now + timedelta(days=days)
    for entry in ctx.targets(archived=False):
        if not entry.expires_at or ctx.status(entry) != "active":
            continue
        try:
            expires = datetime.fromisoformat(entry.expires_at)
        except ValueError:
            continue
        if expires.tzinfo and ctx.now < expires <= horizon:
            left = left_phrase(expires - ctx.now)
            yield ctx.finding(entry, ID, SEVERITY, f"expires {left} ({entry.expires_at}); renew it with "
                              "`loa-memory supersede` if it still holds", key="expires_at")
