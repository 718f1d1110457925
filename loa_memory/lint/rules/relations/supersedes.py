"""Supersede links are whole: every target exists, both sides name each other, no entry is replaced
twice (a fork), and no chain loops back on itself. One entry may replace several (a consolidation,
``supersedes: [MEM-a, MEM-b]``); each of them then names it in ``superseded_by``.

Passing::

    - id: MEM-20260101-001
      superseded_by: MEM-20260102-001
    - id: MEM-20260102-001
      supersedes: MEM-20260101-001

Passing (a consolidation)::

    - id: MEM-20260101-001
      superseded_by: MEM-20260103-001
    - id: MEM-20260102-001
      superseded_by: MEM-20260103-001
    - id: MEM-20260103-001
      supersedes: [MEM-20260101-001, MEM-20260102-001]

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
        for old_id in entry.replaces:
            old = by_id.get(old_id)
            if old is None:
                yield ctx.finding(entry, ID, SEVERITY, f"supersedes {old_id}, which does not exist",
                                  key="supersedes")
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
        elif not new.replaces:
            yield ctx.finding(new, ID, SEVERITY, f"{entry.id} names {new.id} as its successor, but {new.id} "
                              "has no `supersedes:`", fixable=False)
        elif not ({entry.id, *entry.aliases} & set(new.replaces)):
            yield ctx.finding(new, ID, SEVERITY, f"{entry.id} names {new.id} as its successor, but {new.id} "
                              f"supersedes {', '.join(new.replaces)}: add {entry.id} to its `supersedes:` list",
                              key="supersedes")
    for old_id, newer in replacers.items():
        if len(newer) > 1:
            names = ", ".join(e.id for e in newer)
            for entry in newer[1:]:
                yield ctx.finding(entry, ID, SEVERITY, f"{old_id} is superseded twice ({names}): a chain must "
                                  "not fork; supersede the newest entry instead", key="supersedes")
    yield from _cycles(ctx, by_id)


def _cycles(ctx: LintContext, by_id: dict[str, Entry]) -> Iterator[Finding]:
    """Each loop of ``supersedes`` links once (followed through every id of a consolidation)."""
    reported: set[str] = set()
    for entry in ctx.having("supersedes"):
        stack: list[tuple[Entry, list[str]]] = [(entry, [entry.id])]
        visited: set[str] = set()
        while stack:
            current, path = stack.pop()
            for old_id in current.replaces:
                old = by_id.get(old_id)
                if old is None:
                    continue
                if old.id in path:
                    loop = path[path.index(old.id):]
                    if not reported & set(loop):
                        reported.update(loop)
                        yield ctx.finding(entry, ID, SEVERITY,
                                          "supersede cycle: " + " -> ".join([*loop, old.id]), key="supersedes")
                elif old.id not in visited:
                    visited.add(old.id)
                    stack.append((old, [*path, old.id]))
