"""Ids are ``MEM-YYYYMMDD-NNN`` (``id_style: loa``) or ``MEM-YYYYMMDD-k3x9qa`` (``id_style: random``) with a real
calendar date that is not in the future; timestamps are not in the future and ``expires_at`` is not before the
entry's own timestamp.

Passing::

    - id: MEM-20260201-001
      source: {session_id: s, timestamp: '2026-02-01T10:30:00Z'}

Failing::

    - id: MEM-20261340-001          # month 13
      source: {session_id: s, timestamp: '2099-01-01T00:00:00Z'}   # in the future
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from loa_memory.lint.context import LintContext
from loa_memory.lint.rules.form._loader import loader_findings
from loa_memory.model import Entry, Finding, Severity

ID = "id-format"
SEVERITY: Severity = "error"
SCOPE = "entry"  # findings depend on the entry alone: cached per item (lint/cache.py)
SLACK = timedelta(days=1)  # clocks and time zones differ
_UTC_FORM = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?Z")


def _parse(value: str) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else None


@functools.lru_cache(maxsize=4096)
def _day(digits: str) -> datetime | None:
    try:
        return datetime(int(digits[:4]), int(digits[4:6]), int(digits[6:8]), tzinfo=UTC)
    except ValueError:
        return None


def _after(value: str, horizon: datetime, horizon_text: str) -> bool:
    """``value`` is a timestamp later than ``horizon`` (a string compare for the usual UTC form)."""
    if _UTC_FORM.fullmatch(value) and value[:19] != horizon_text[:19]:
        return value[:19] > horizon_text[:19]
    stamp = _parse(value)
    return stamp is not None and stamp > horizon


def check(ctx: LintContext) -> Iterator[Finding]:
    yield from loader_findings(ctx, (ID,), SEVERITY)
    horizon = (ctx.now + SLACK).astimezone(UTC)
    horizon_text = horizon.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    for entry in ctx.targets():
        day = _day(entry.id[4:12])
        if day is None:
            yield ctx.finding(entry, ID, SEVERITY, f"{entry.id}: {entry.id[4:12]} is not a real date", key="id")
            continue
        if day > horizon:
            yield ctx.finding(entry, ID, SEVERITY, f"{entry.id} is dated in the future", key="id")
        if _after(entry.timestamp, horizon, horizon_text):
            yield ctx.finding(entry, ID, SEVERITY, f"source.timestamp {entry.timestamp} is in the future",
                              key=("source", "timestamp"))
        if entry.expires_at:
            stamp = _parse(entry.timestamp)
            expires = _parse(entry.expires_at)
            if stamp is not None and expires is not None and expires < stamp:
                yield ctx.finding(entry, ID, SEVERITY, f"expires_at {entry.expires_at} is before source.timestamp",
                                  key="expires_at")


def stable_until(entry: Entry, now: datetime) -> datetime | None:
    """When the answer for ``entry`` can next change as the clock moves on: a date in the future stops being
    one once ``now + SLACK`` reaches it (None: never)."""
    now = now.astimezone(UTC)
    moments = (_day(entry.id[4:12]), _parse(entry.timestamp))
    return min((moment - SLACK for moment in moments if moment is not None and moment - SLACK > now), default=None)
