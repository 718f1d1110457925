"""Every id is used once across all worlds, files and the archive.

Passing: ``MEM-20260101-001`` in decisions.yaml and ``MEM-20260101-002`` in facts.yaml.

Failing: two entries ``MEM-20260101-001`` — typically two branches that each added the day's first entry.
``lint --fix`` keeps the id of the *real* entry and renumbers the others (their old id goes to ``aliases``),
rewriting the references made in the same session and the supersede partner. The real entry is the one
already committed (in the file as it is at ``--base``, else at ``HEAD``); among several, or outside git, the
first in file order. Never the oldest ``source.timestamp``: that is text anyone can write, and an entry
injected with an old timestamp would take the id of the one it copies. (An alias may equal another entry's id:
that is what a renumbering leaves behind, and ``show`` prefers the real id.)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Entry, Finding, Severity

ID = "duplicate-id"
SEVERITY: Severity = "error"
FIXABLE = True


def check(ctx: LintContext) -> Iterator[Finding]:
    ids = [entry.id for entry in ctx.entries()]
    twice = {memory_id for memory_id, count in Counter(ids).items() if count > 1 and memory_id}
    owners: dict[str, list[Entry]] = defaultdict(list)
    for memory_id, entry in zip(ids, ctx.entries(), strict=True):
        if memory_id in twice:
            owners[memory_id].append(entry)
    committed = _committed(ctx, [entry for places in owners.values() for entry in places])
    for memory_id, places in owners.items():
        keep, *others = sorted(places, key=lambda e: (id(e) not in committed, e.path, e.line))
        for entry in others:
            yield ctx.finding(entry, ID, SEVERITY, f"{memory_id} is already the id of an older entry at "
                              f"{keep.path}:{keep.line}", key="id", fixable=True)


def _committed(ctx: LintContext, entries: list[Entry]) -> set[int]:
    """The entries (by object id) whose id and first content line are in their file as committed."""
    if not entries:
        return set()
    from loa_memory.errors import LoaError
    from loa_memory.store import git

    rev = ctx.base_ref or "HEAD"
    texts: dict[str, str] = {}
    for path in dict.fromkeys(entry.path for entry in entries):
        try:
            texts[path] = git.run(ctx.config.root, "show", f"{rev}:{path}")
        except LoaError:  # not in git, no commit yet, a new file
            texts[path] = ""
    found = set()
    for entry in entries:
        text = texts.get(entry.path, "")
        first = entry.content.strip().splitlines()[0] if entry.content.strip() else ""
        if entry.id in text and first in text:
            found.add(id(entry))
    return found
