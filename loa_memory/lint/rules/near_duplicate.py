"""Two active entries that say nearly the same thing (word-set Jaccard ≥ ``lint.near_duplicate_threshold``,
default 0.85) should be one: supersede the weaker, or let ``promote`` merge them.

Passing: "Use PostgreSQL for JSONB" and "Cache keys are content hashes".

Failing (warning): "Run the migrations before seeding the test database" twice, once with "the" dropped.
Entries of one supersede chain are exempt (only active entries are compared). Candidates are found
with min-hash bands (4 bands of 3 minima), so the check stays near-linear; sketches are cached by the
entry's text, so a warm run only sketches what changed.
"""

from __future__ import annotations

import hashlib
import heapq
import re
import zlib
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from ...model import Entry, Finding, Severity
from ...store.cache import read_cache, write_cache
from ..context import LintContext

ID = "near-duplicate"
SEVERITY: Severity = "warning"
_WORD = re.compile(r"[a-z0-9]{3,}")
_BANDS = ((0x9E3779B1, 0x7F4A7C15), (0x85EBCA77, 0x165667B1), (0xC2B2AE3D, 0x27D4EB2F), (0x2545F491, 0x61C88647))
_PER_BAND = 3
_MIN_BANDS = 2  # a pair must collide in two bands: one is often chance
_TOO_COMMON = 8  # a bucket this full is common words colliding, not a cluster of copies
_CACHE = "near-duplicate.marshal"


def _words(entry: Entry) -> frozenset[str]:
    return frozenset(_WORD.findall(f"{entry.summary} {entry.content}".lower()))


def _sketch(words: frozenset[str]) -> list[tuple[int, ...]]:
    hashes = [zlib.crc32(word.encode()) for word in words]
    return [tuple(heapq.nsmallest(_PER_BAND, [(h * mult + add) & 0xFFFFFFFF for h in hashes]))
            for mult, add in _BANDS]


def check(ctx: LintContext) -> Iterator[Finding]:
    threshold = float(ctx.config.section("lint").get("near_duplicate_threshold", 0.85))
    active = [e for e in ctx.entries(archived=False)
              if ctx.status(e) == "active" and e.category not in ("episode", "ledger", "handoff")]
    cache_path = ctx.config.local_dir / "cache" / _CACHE
    loaded = read_cache(cache_path)
    if not isinstance(loaded, dict) or loaded.get("threshold") != threshold:
        loaded = {}
    cached: dict[bytes, Any] = loaded.get("sketches", {})
    keys = [hashlib.blake2b(f"{e.summary}\x1f{e.content}".encode(), digest_size=8).digest() for e in active]
    position = {key: n for n, key in enumerate(keys)}
    sketches = {key: cached[key] if key in cached else _sketch(_words(active[n])) for n, key in enumerate(keys)}
    changed = {n for n, key in enumerate(keys) if key not in cached}
    # pairs among unchanged entries were measured last time; only pairs touching a changed entry are new
    pairs = {(position[a], position[b], sim) for a, b, sim in loaded.get("pairs", [])
             if a in position and b in position and position[a] not in changed and position[b] not in changed}
    if changed:
        pairs |= _new_pairs(active, [sketches[key] for key in keys], changed, threshold)
    ordered = sorted((min(a, b), max(a, b), sim) for a, b, sim in pairs)
    if changed or len(ordered) != len(loaded.get("pairs", [])) or (keys and set(cached) != set(keys)):
        write_cache(cache_path, {"threshold": threshold, "sketches": sketches,
                                 "pairs": [(keys[a], keys[b], sim) for a, b, sim in ordered]})
    reported: set[int] = set()
    for a, b, similarity in ordered:
        if b in reported:
            continue
        reported.add(b)
        yield ctx.finding(active[b], ID, SEVERITY, f"nearly the same as {active[a].id} "
                          f"({similarity:.0%} of words shared): supersede one of them", key="content")


def _new_pairs(active: list[Entry], sketches: list[Any], changed: set[int],
               threshold: float) -> set[tuple[int, int, float]]:
    """Near-duplicate pairs with at least one changed entry, found through shared min-hash bands."""
    buckets: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for number, sketch in enumerate(sketches):
        for band, minima in enumerate(sketch):
            buckets[(band, *minima)].append(number)
    collisions: dict[tuple[int, int], int] = defaultdict(int)
    for members in buckets.values():
        if 1 < len(members) <= _TOO_COMMON and changed.intersection(members):
            for pos, a in enumerate(members):
                for b in members[pos + 1:]:
                    if a in changed or b in changed:
                        collisions[(a, b)] += 1
    words: dict[int, frozenset[str]] = {}
    found = set()
    for (a, b), count in collisions.items():
        if count < _MIN_BANDS:
            continue
        if a not in words:
            words[a] = _words(active[a])
        if b not in words:
            words[b] = _words(active[b])
        union = len(words[a] | words[b])
        similarity = round(len(words[a] & words[b]) / union, 4) if union else 0.0
        if similarity >= threshold:
            found.add((a, b, similarity))
    return found
