"""Two active entries that say nearly the same thing (word-set Jaccard ≥ ``lint.near_duplicate_threshold``,
default 0.85) should be one: supersede the weaker, or let ``promote`` merge them.

Passing: "Use PostgreSQL for JSONB" and "Cache keys are content hashes".

Failing (warning): "Run the migrations before seeding the test database" twice, once with "the" dropped.
Entries of one supersede chain are exempt (only active entries are compared). Candidates are found
with min-hash bands (4 bands of 3 minima), so the check stays near-linear; sketches are cached by the
entry's text (``.loa/cache/near-duplicate.marshal``), so a warm run only sketches what changed, and the
pairs are found afresh from the sketches every run.
"""

from __future__ import annotations

import hashlib
import operator
import re
import struct
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Entry, Finding, Severity
from loa_memory.store.cache.disk import read_cache, write_cache

ID = "near-duplicate"
SEVERITY: Severity = "warning"
_WORD = re.compile(r"[a-z0-9]{3,}")
_BANDS = ((0x9E3779B1, 0x7F4A7C15), (0x85EBCA77, 0x165667B1), (0xC2B2AE3D, 0x27D4EB2F), (0x2545F491, 0x61C88647))
_PER_BAND = 3
_BAND_BYTES = 1 + 4 * _PER_BAND  # how many minima, then the minima: equal bytes are equal bands
_MIN_BANDS = 2  # a pair must collide in two bands: one is often chance
_TOO_COMMON = 8  # a bucket this full is common words colliding, not a cluster of copies
_CACHE = "near-duplicate.marshal"
_CACHE_VERSION = 2


def _words(entry: Entry) -> frozenset[str]:
    return frozenset(_WORD.findall(f"{entry.summary} {entry.content}".lower()))


def _sketch(words: frozenset[str]) -> bytes:
    """The min-hash sketch of a word set: per band, the count and the smallest hashes, packed."""
    hashes = [zlib.crc32(word.encode()) for word in words]
    packed = b""
    for mult, add in _BANDS:
        minima = sorted([(h * mult + add) & 0xFFFFFFFF for h in hashes])[:_PER_BAND]
        packed += struct.pack(f"<B{_PER_BAND}I", len(minima), *minima, *[0] * (_PER_BAND - len(minima)))
    return packed


def check(ctx: LintContext) -> Iterator[Finding]:
    threshold = float(ctx.config.lint.near_duplicate_threshold)
    active = [e for e in ctx.entries(archived=False)
              if ctx.status(e) == "active" and e.category not in ("episode", "ledger", "handoff")]
    cache_path = ctx.config.local_dir / "cache" / _CACHE
    loaded = read_cache(cache_path)
    cached: dict[str, bytes] = loaded["sketches"] if isinstance(loaded, dict) and \
        loaded.get("version") == _CACHE_VERSION else {}
    keys = _keys(ctx, active)
    sketches = [cached.get(key) or _sketch(_words(entry)) for key, entry in zip(keys, active, strict=True)]
    if any(key not in cached for key in keys):
        write_cache(cache_path, {"version": _CACHE_VERSION, "sketches": dict(zip(keys, sketches, strict=True))})
    reported: set[int] = set()
    for a, b, similarity in sorted(_pairs(active, sketches, threshold)):
        if b in reported:
            continue
        reported.add(b)
        yield ctx.finding(active[b], ID, SEVERITY, f"nearly the same as {active[a].id} "
                          f"({similarity:.0%} of words shared): supersede one of them", key="content")


def _keys(ctx: LintContext, entries: list[Entry]) -> list[str]:
    """A key for each entry's text: the hash of its item where the loader cut one, else of its words' source."""
    return [ctx.grimoire.digest_of(e) or
            hashlib.blake2b(f"{e.summary}\x1f{e.content}".encode(), digest_size=16).hexdigest() for e in entries]


def _pairs(active: list[Entry], sketches: list[bytes], threshold: float) -> set[tuple[int, int, float]]:
    """Near-duplicate pairs ``(a, b, similarity)``, ``a < b``: candidates share a min-hash band in two bands
    (buckets of at most ``_TOO_COMMON``), then their word sets are compared."""
    collisions: dict[tuple[int, int], int] = defaultdict(int)
    for band in range(len(_BANDS)):
        part = operator.itemgetter(slice(band * _BAND_BYTES, (band + 1) * _BAND_BYTES))
        wanted = {key for key, size in Counter(map(part, sketches)).items() if 1 < size <= _TOO_COMMON}
        if not wanted:
            continue
        buckets: dict[bytes, list[int]] = defaultdict(list)
        for number in [n for n, key in enumerate(map(part, sketches)) if key in wanted]:
            buckets[part(sketches[number])].append(number)
        for members in buckets.values():
            for pos, a in enumerate(members):
                for b in members[pos + 1:]:
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
