"""Findings of the entry-local rules, remembered per item between runs (``.loa/cache/lint-entries.marshal``).

A rule that sets ``SCOPE = "entry"`` promises that what it finds in an entry depends only on that entry's
own text, the file it sits in and the config, never on other entries. Its findings are then stored by
(file, item hash), with lines relative to the item, and a later run checks only the items whose text is
new. A rule that also reads the clock says until when its answer holds with ``stable_until(entry, now)``;
a cached answer is used only from the time it was computed until then. The cache key holds the config, the
rules run and the rules' code, so any change there starts afresh; deleting the file only costs one full run.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding
from loa_memory.store.cache.disk import read_cache, source_fingerprint, write_cache

CACHE_VERSION = 1
_FILE = "lint-entries.marshal"
# what every cached answer also goes through, relative to the package
_CODE = ("lint/context.py", "lint/cache.py", "lint/rules/form/_loader.py", "model.py", "store/times.py",
         "store/schema.py", "schemas/memory.schema.json")

# a finding as stored: (line relative to its item, col, severity, rule, message, entry id, fixable, extra)
Stored = tuple[int, int, str, str, str, str | None, bool, dict[str, Any]]
# per file: (when computed, hashes of the items with no findings, findings of the others, when answers expire)
Record = tuple[float, list[str], dict[str, list[Stored]], dict[str, float]]


def is_entry_local(module: ModuleType) -> bool:
    return getattr(module, "SCOPE", None) == "entry"


def entry_findings(ctx: LintContext, rules: Sequence[ModuleType], *, save: bool = True) -> list[Finding]:
    """What ``rules`` (all entry-local) find in the focused files: cached answers for items seen before,
    fresh ones for the rest; ``save`` writes the cache back when something new was learnt."""
    if not rules:
        return []
    path = ctx.config.local_dir / "cache" / _FILE
    key = _key(ctx, rules)
    loaded = read_cache(path)
    files: dict[str, Record] = loaded["files"] if isinstance(loaded, dict) and loaded.get("key") == key else {}
    now = ctx.now.timestamp()
    found: list[Finding] = []
    stale: set[tuple[str, int]] = set()
    for mf in ctx.grimoire.files:
        if ctx.focus is not None and mf.rel not in ctx.focus:
            continue
        since, clean, answers, until = files.get(mf.rel) or (now + 1, [], {}, {})
        known = set(clean).union(answers) if since <= now else set()
        known.difference_update(digest for digest, moment in until.items() if moment <= now)
        for item in ctx.grimoire.items.get(mf.rel, ()):
            if item[0] not in known:
                stale.add((mf.rel, item[1]))
                continue
            for rel, col, severity, rule, message, entry_id, fixable, extra in answers.get(item[0], ()):
                found.append(Finding(mf.rel, item[1] + 1 + rel, col, severity, rule, message,  # type: ignore[arg-type]
                                     entry_id, fixable, extra))
    if not stale:
        return found
    narrow = dataclasses.replace(ctx, items=frozenset(stale), _lists={}, _status={}, _starts={}, _having={})
    fresh = [finding for module in rules for finding in module.check(narrow)]
    if save:
        _save(narrow, path, key, files, fresh, rules)
    return found + fresh


def _save(narrow: LintContext, path: Path, key: str, files: dict[str, Record], fresh: list[Finding],
          rules: Sequence[ModuleType]) -> None:
    """File this run's answers by item next to the reused ones and write the cache, if it learnt anything."""
    stale = narrow.items or frozenset()
    by_item: dict[tuple[str, int], list[Stored]] = defaultdict(list)
    for finding in fresh:
        start = narrow.item_line(finding.path, finding.line)
        if start is None or (finding.path, start) not in stale:
            return  # a finding outside the items asked about: this run's answers cannot be filed by item
        by_item[finding.path, start].append((finding.line - start - 1, finding.col, finding.severity, finding.rule,
                                             finding.message, finding.entry_id, finding.fixable,
                                             dict(finding.extra)))
    timed = [module for module in rules if hasattr(module, "stable_until")]
    entries = {(e.path, e.line - 1): e for e in narrow.targets()}
    learnt = False
    for mf in narrow.grimoire.files:
        if narrow.focus is not None and mf.rel not in narrow.focus:
            continue
        _since, _clean, old_answers, old_until = files.get(mf.rel) or (0.0, [], {}, {})
        clean: list[str] = []
        answers: dict[str, list[Stored]] = {}
        until: dict[str, float] = {}
        for digest, line, _data, _problems in narrow.grimoire.items.get(mf.rel, ()):
            if not digest:
                continue  # parsed with its whole file: no hash of its own to file it under
            if (mf.rel, line) in stale:
                learnt = True
                stored = by_item.get((mf.rel, line), [])
                limit = _until(entries.get((mf.rel, line)), timed, narrow)
            else:
                stored, limit = old_answers.get(digest, []), old_until.get(digest)
            if stored:
                answers[digest] = stored
            else:
                clean.append(digest)
            if limit is not None:
                until[digest] = limit
        files[mf.rel] = (narrow.now.timestamp(), clean, answers, until)
    if learnt:
        present = {mf.rel for mf in narrow.grimoire.files}
        write_cache(path, {"key": key, "files": {rel: record for rel, record in files.items() if rel in present}})


def _until(entry: Any, timed: list[ModuleType], ctx: LintContext) -> float | None:
    """When the clock-reading rules' answer for ``entry`` may change (None: never)."""
    if entry is None:
        return None
    limits = [limit.timestamp() for module in timed if (limit := module.stable_until(entry, ctx.now)) is not None]
    return min(limits, default=None)


def _key(ctx: LintContext, rules: Sequence[ModuleType]) -> str:
    config = ctx.config
    described = json.dumps([CACHE_VERSION, sorted(m.ID for m in rules), dict(config.settings),
                            [dataclasses.astuple(c) for c in config.categories],
                            [dataclasses.astuple(w) for w in config.worlds]], sort_keys=True, default=str)
    package = Path(__file__).parent.parent
    code = [package / name for name in _CODE] + [Path(str(m.__file__)) for m in rules if m.__file__]
    return hashlib.blake2b(f"{described}\x1f{source_fingerprint(code)}".encode(), digest_size=16).hexdigest()
