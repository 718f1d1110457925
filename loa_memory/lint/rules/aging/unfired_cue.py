"""A cue that has not fired in the last ``lint.stale_cue_sessions`` sessions (default 20) may be obsolete.

Every ``recall`` logs the session it ran in and the corrections and preferences it put in front of the
agent (``.loa/usage.jsonl``). A cue is flagged when at least that many sessions recalled since the cue was
written and it fired (or was applied or given feedback) in none of the last that many. The log is local:
without one (a fresh clone) or with too few sessions, nothing is said. Graduated cues are skipped.

Passing: a correction that fired in one of the last 20 sessions, or a repository whose usage log has
fewer than 20 recalling sessions since the correction was written.

Failing (warning): a correction written before 20 sessions that each ran ``recall`` without it firing.
Reword its ``trigger`` so it matches how tasks are phrased, or archive it if the lesson no longer applies.
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity
from loa_memory.store.local.events import cue_history, read_events
from loa_memory.store.times import format_time, parse_time

ID = "unfired-cue"
SEVERITY: Severity = "warning"


def check(ctx: LintContext) -> Iterator[Finding]:
    cues = [e for e in ctx.targets(archived=False) if e.category in ("correction", "preference")
            and not e.graduated_to and ctx.status(e) == "active"]
    if not cues:
        return
    history = cue_history(read_events(ctx.config.local_dir, lock=False))
    if not history.known:
        return
    window = int(ctx.config.lint.stale_cue_sessions)
    for entry in cues:
        written = parse_time(entry.timestamp)
        since = history.sessions_since(format_time(written) if written else "")
        if len(since) < window:
            continue
        recent = since[-window:]
        if history.fired_sessions(entry.id, entry.aliases) & set(recent):
            continue
        first = history.first_seen[recent[0]][:10]
        yield ctx.finding(entry, ID, SEVERITY, f"has not fired in the last {window} sessions that ran recall "
                          f"(since {first}): reword its trigger to match how tasks are phrased, or archive it "
                          "if the lesson no longer applies",
                          key="trigger" if entry.category == "correction" else None,
                          extra={"sessions": window, "since": first})
