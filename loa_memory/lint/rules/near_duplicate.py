"""Two active entries that say nearly the same thing (word-set Jaccard ≥ ``lint.near_duplicate_threshold``,
default 0.85) should be one: supersede the weaker, or let ``promote`` merge them.

Passing: "Use PostgreSQL for JSONB" and "Cache keys are content hashes".

Failing (warning): "Run the migrations before seeding the test database" twice, once with "the" dropped.
Entries of one supersede chain are exempt (only active entries are compared).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator

from ...model import Entry, Finding, Severity
from ..context import LintContext

ID = "near-duplicate"
SEVERITY: Severity = "warning"
_WORD = re.compile(r"[a-z0-9]{3,}")
_KEYS = 4
_TOO_COMMON = 200


def _words(entry: Entry) -> frozenset[str]:
    return frozenset(_WORD.findall(f"{entry.summary} {entry.content}".lower()))


def check(ctx: LintContext) -> Iterator[Finding]:
    threshold = float(ctx.config.section("lint").get("near_duplicate_threshold", 0.85))
    active = [e for e in ctx.entries(archived=False)
              if ctx.grimoire.status(e, ctx.now) == "active" and e.category not in ("episode", "ledger", "handoff")]
    words = [_words(e) for e in active]
    df: Counter[str] = Counter(w for ws in words for w in ws)
    index: dict[str, list[int]] = defaultdict(list)
    for number, ws in enumerate(words):
        for word in sorted(ws, key=lambda w: (df[w], w))[:_KEYS]:
            if df[word] <= _TOO_COMMON:
                index[word].append(number)
    seen: set[tuple[int, int]] = set()
    for members in index.values():
        for pos, a in enumerate(members):
            for b in members[pos + 1:]:
                pair = (a, b)
                if pair in seen or not words[a] or not words[b]:
                    continue
                seen.add(pair)
                union = len(words[a] | words[b])
                similarity = len(words[a] & words[b]) / union if union else 0.0
                if similarity >= threshold:
                    first, second = active[a], active[b]
                    yield ctx.finding(second, ID, SEVERITY, f"nearly the same as {first.id} ({similarity:.0%} of "
                                      "words shared): supersede one of them", key="content")
