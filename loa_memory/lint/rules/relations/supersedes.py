"""Supersede links are whole: the target exists, both sides name each other, no entry is replaced
twice (a fork), and no chain loops back on itself.

Passing::

    - id: MEM-20260101-001
      superseded_by: MEM-20260102-001
    - id: MEM-20260102-001
      supersedes: MEM-20260101-001

Failing (the old entry lacks its back-link, so it still looks active; ``lint --fix`` adds it)::

    - id: MEM-20260101-001
    - id: MEM-20260102-001
      supersedes: MEM-20260101-001
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Entry, Finding, Severity

ID = "supersedes"
SEVERITY: Severity = "error"
FIXABLE = True


def check(ctx: LintContext) -> Iterator[Finding]:
    by_id = ctx.by_id
    replacers: dict[str, list[Entry]] = defaultdict(list)
    for entry in ctx.having("supersedes"):
        old_id = entry.supersedes
        if not old_id:
            continue
        old = by_id.get(old_id)
        if old is None:
            yield ctx.finding(entry, ID, SEVERITY, f"supersedes {old_id}, which does not exist", key="supersedes")
            continue
        replacers[old.id].append(entry)
        if old.superseded_by is None:
            yield ctx.finding(old, ID, SEVERITY, f"{old.id} is superseded by {entry.id} but has no "
                              f"`superseded_by: {entry.id}` back-link, so it still looks active",
                              fixable=True, extra={"superseded_by": entry.id})
        elif old.superseded_by != entry.id and old.superseded_by not in {e.id for e in replacers[old.id]}:
            yield ctx.finding(old, ID, SEVERITY, f"{old.id} says superseded_by {old.superseded_by}, "
                              f"but {entry.id} supersedes it", key="superseded_by")
    for entry in ctx.having("superseded_by"):
        new_id = entry.superseded_by
        if not new_id:
            continue
        new = by_id.get(new_id)
        if new is None:
            yield ctx.finding(entry, ID, SEVERITY, f"superseded_by {new_id}, which does not exist",
                              key="superseded_by")
        elif new.supersedes is None:
            yield ctx.finding(new, ID, SEVERITY, f"{entry.id} names {new.id} as its successor, but {new.id} "
                              "has no `supersedes:`", fixable=False)
    for old_id, newer in replacers.items():
        if len(newer) > 1:
            names = ", ".join(e.id for e in newer)
            for entry in newer[1:]:
                yield ctx.finding(entry, ID, SEVERITY, f"{old_id} is superseded twice ({names}): a chain must "
                                  "not fork; supersede the newest entry instead", key="supersedes")
    yield from _cycles(ctx, by_id)


def _cycles(ctx: LintContext, by_id: dict[str, Entry]) -> Iterator[Finding]:
    reported: set[str] = set()
    for entry in ctx.having("supersedes"):
        seen = [entry.id]
        current = entry
        while current.supersedes and current.supersedes in by_id:
            current = by_id[current.supersedes]
            if current.id in seen:
                loop = seen[seen.index(current.id):]
                if not reported & set(loop):
                    reported.update(loop)
                    yield ctx.finding(entry, ID, SEVERITY, "supersede cycle: " + " -> ".join([*loop, current.id]),
                                      key="supersedes")
                break
            seen.append(current.id)
