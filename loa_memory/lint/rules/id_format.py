"""Ids are ``MEM-YYYYMMDD-NNN`` with a real calendar date that is not in the future; timestamps are
not in the future and ``expires_at`` is not before the entry's own timestamp.

Passing::

    - id: MEM-20260201-001
      source: {session_id: s, timestamp: '2026-02-01T10:30:00Z'}

Failing::

    - id: MEM-20261340-001          # month 13
      source: {session_id: s, timestamp: '2099-01-01T00:00:00Z'}   # in the future
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ...model import Finding, Severity
from ..context import LintContext
from ._loader import loader_findings

ID = "id-format"
SEVERITY: Severity = "error"
SLACK = timedelta(days=1)  # clocks and time zones differ


def _parse(value: str) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else None


def check(ctx: LintContext) -> Iterator[Finding]:
    yield from loader_findings(ctx, (ID,), SEVERITY)
    horizon = ctx.now + SLACK
    for entry in ctx.targets():
        digits = entry.id[4:12]
        try:
            day = datetime(int(digits[:4]), int(digits[4:6]), int(digits[6:8]), tzinfo=ctx.now.tzinfo)
        except ValueError:
            yield ctx.finding(entry, ID, SEVERITY, f"{entry.id}: {entry.id[4:12]} is not a real date", key="id")
            continue
        if day > horizon:
            yield ctx.finding(entry, ID, SEVERITY, f"{entry.id} is dated in the future", key="id")
        stamp = _parse(entry.timestamp)
        if stamp is not None and stamp > horizon:
            yield ctx.finding(entry, ID, SEVERITY, f"source.timestamp {entry.timestamp} is in the future",
                              key=("source", "timestamp"))
        expires = _parse(entry.expires_at or "")
        if stamp is not None and expires is not None and expires < stamp:
            yield ctx.finding(entry, ID, SEVERITY, f"expires_at {entry.expires_at} is before source.timestamp",
                              key="expires_at")
