"""Timestamps as memory files hold them: RFC 3339 strings in UTC, ``2026-02-01T10:30:00Z``."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta


def now_utc() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def format_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(value: str) -> datetime | None:
    """A timestamp string as an aware datetime (naive ones taken as UTC); None if it is not one."""
    try:
        parsed = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def expiry(ttl: str, timestamp: str) -> str | None:
    """``expires_at`` for a ttl such as ``90d`` counted from ``timestamp``; None when permanent."""
    match = re.fullmatch(r"([0-9]+)d", ttl or "")
    start = parse_time(timestamp)
    if not match or start is None:
        return None
    return format_time(start + timedelta(days=int(match.group(1))))


def days_phrase(days: int) -> str:
    """How long until a moment, from whole days left: "within a day", "in 1 day", "in 12 days"."""
    if days <= 0:
        return "within a day"
    return f"in {days} day{'s' if days != 1 else ''}"


def left_phrase(left: timedelta) -> str:
    """How long until a moment ``left`` away: hours under a day ("within a day (in 5 hours)"), else days."""
    if left.days <= 0:
        hours = max(1, round(left.total_seconds() / 3600))
        return f"within a day (in {hours} hour{'s' if hours != 1 else ''})" if hours < 24 else "within a day"
    return days_phrase(left.days)
