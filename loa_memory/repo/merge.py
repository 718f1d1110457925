"""The git merge driver for memory list files: entries are merged by id, field by field.

Independent additions on both sides are both kept (ours first, then theirs, each in its own order); one id
added on both sides for two different entries is renumbered on their side (the old id kept in ``aliases``,
their references to it in this file rewritten: references from other files are ``lint --fix``'s job); an
entry changed on one side takes that change; changed on both sides, fields merge 3-way: effectiveness
counters add up (base + both deltas), list fields (tags, links, aliases, related_memories, artifacts)
are unioned, and only the same field changed two different ways is a conflict, written as git conflict
markers around that one entry. Comments and formatting of untouched entries survive. Anything the driver
cannot parse falls back to git's own line merge, so nothing is ever dropped silently.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from loa_memory.errors import LoaError
from loa_memory.store import atomic, git, yamlio
from loa_memory.store.config import load_config
from loa_memory.store.ids import ID_PATTERN, next_id
from loa_memory.store.save import item_id
from loa_memory.tuning.summary import is_summary_text, merge_summary_texts
from loa_memory.write.renumber import rewrite_references

LIST_FIELDS = ("tags", "links", "aliases", "related_memories", "artifacts")


@dataclass(frozen=True)
class MergeResult:
    text: str
    conflicts: list[str]
    fallback: bool = False
    renumbered: tuple[tuple[str, str], ...] = ()  # (old, new) ids of their entries that collided with ours


def _items(text: str) -> tuple[str, dict[str, tuple[str, dict[str, Any]]], list[str]] | None:
    """(preamble, id → (item text, data), ids in order), or None when the file is not a block list."""
    split = yamlio.split_items(text)
    if split.items is None:
        return None
    preamble = text[: split.items[0].start] if split.items else text
    entries: dict[str, tuple[str, dict[str, Any]]] = {}
    order: list[str] = []
    for item in split.items:
        try:
            loaded = yamlio.load_text(item.text)
        except yamlio.YamlSyntaxError:
            return None
        if not isinstance(loaded, list) or len(loaded) != 1 or not isinstance(loaded[0], dict):
            return None
        memory_id = str(loaded[0].get("id") or item_id(item.text) or "")
        key = memory_id
        n = 2
        while key in entries:  # the same id twice in one file: keep both, lint reports it
            key = f"{memory_id}#{n}"
            n += 1
        entries[key] = (item.text if item.text.endswith("\n") else item.text + "\n", loaded[0])
        order.append(key)
    return preamble, entries, order


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def _union(*lists: Any) -> list[Any]:
    merged: list[Any] = []
    for values in lists:
        for value in values or []:
            if not any(_same(value, seen) for seen in merged):
                merged.append(value)
    return merged


def _counters(base: Any, ours: Any, theirs: Any) -> dict[str, Any]:
    base, ours, theirs = base or {}, ours or {}, theirs or {}
    merged: dict[str, Any] = {}
    for key in ("applications", "successes"):
        merged[key] = int(ours.get(key, 0)) + int(theirs.get(key, 0)) - int(base.get(key, 0))
    if merged["applications"]:
        merged["score"] = round(100 * merged["successes"] / merged["applications"])
    stamps = [v.get("last_applied") for v in (ours, theirs) if v.get("last_applied")]
    if stamps:
        merged["last_applied"] = max(stamps)
    return merged


def merge_fields(base: dict[str, Any], ours: dict[str, Any],
                 theirs: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Field-wise 3-way merge of one entry; returns the merged fields and the conflicting field names."""
    merged: dict[str, Any] = {}
    conflicts = []
    for key in dict.fromkeys([*ours, *theirs, *base]):
        b, o, t = base.get(key), ours.get(key), theirs.get(key)
        if _same(o, t):
            value = o
        elif _same(o, b):
            value = t
        elif _same(t, b):
            value = o
        elif key == "effectiveness":
            value = _counters(b, o, t)
        elif key in LIST_FIELDS:
            value = _union(o, t)
        else:
            conflicts.append(key)
            value = o
        if value is not None:
            merged[key] = value
    return merged, conflicts


def _plain_id(key: str) -> str:
    return key.split("#", 1)[0]


Items = dict[str, tuple[str, dict[str, Any]]]  # id → (item text, data)


@dataclass(frozen=True)
class Elsewhere:
    """What the driver knows beyond the one file it merges: ids in use in every memory file on both sides,
    and the ids their side mentions in other files (references a per-file merge could not rewrite)."""

    used: frozenset[str] = frozenset()
    mentioned: frozenset[str] = frozenset()


def _renumber_theirs(b_items: Items, o_items: Items, t_items: Items, t_order: list[str],
                     elsewhere: Elsewhere | None) -> tuple[Items, list[str], list[tuple[str, str]]]:
    """Their side with a new id for each entry both sides added under one id with different content (the old id
    kept in ``aliases``), and their references to it (supersedes, superseded_by, links, led_to...) rewritten."""
    clashes = [key for key in t_order if key in o_items and key not in b_items and "#" not in key
               and o_items[key][0] != t_items[key][0] and not _same(o_items[key][1], t_items[key][1])]
    if elsewhere is None:
        return t_items, t_order, []  # without the other files, a new id could collide or a reference go astray
    clashes = [key for key in clashes if key not in elsewhere.mentioned]
    if not clashes:
        return t_items, t_order, []
    used = {_plain_id(key) for items in (b_items, o_items, t_items) for key in items} | elsewhere.used
    used |= {str(alias) for items in (b_items, o_items, t_items) for _text, data in items.values()
             for alias in data.get("aliases") or () if isinstance(data.get("aliases"), list)}
    pairs: list[tuple[str, str]] = []
    for old in clashes:
        tail = old.rsplit("-", 1)[-1]
        try:
            day = date(int(old[4:8]), int(old[8:10]), int(old[10:12]))
        except ValueError:
            continue
        new = next_id(used, day, "loa" if tail.isdigit() else "random")
        used.add(new)
        pairs.append((old, new))
    renamed = dict(pairs)
    items: dict[str, tuple[str, dict[str, Any]]] = {}
    for key in t_order:
        text, data = t_items[key]
        updates: dict[str, Any] = {}
        view = dict(data)
        for old, new in pairs:
            found = rewrite_references(view, old, new)
            view.update(found)
            updates.update(found)
        if key in renamed:
            updates["id"] = renamed[key]
            updates["aliases"] = [*(data.get("aliases") or []), key]
        if updates:
            text = yamlio.patch_item(text, updates)
            data = {**data, **updates}
        items[renamed.get(key, key)] = (text if text.endswith("\n") else text + "\n", data)
    return items, [renamed.get(key, key) for key in t_order], pairs


def merge_texts(base: str, ours: str, theirs: str, marker: int = 7,
                elsewhere: Elsewhere | None = None) -> MergeResult:
    """Merge three versions of a memory list file; with ``elsewhere``, an id both sides added for different
    entries is renumbered on their side (unless their other files mention it: ``lint --fix`` sorts that out)."""
    parsed = [_items(text) for text in (base, ours, theirs)]
    if any(p is None for p in parsed):
        return MergeResult("", [], fallback=True)
    (_, b_items, _), (preamble, o_items, o_order), (_, t_items, t_order) = parsed  # type: ignore[misc]
    t_items, t_order, renumbered = _renumber_theirs(b_items, o_items, t_items, t_order, elsewhere)
    pieces: list[str] = []
    conflicts: list[str] = []
    order = [*o_order, *[key for key in t_order if key not in o_items]]
    for key in order:
        in_base, in_ours, in_theirs = key in b_items, key in o_items, key in t_items
        if in_ours and in_theirs:
            o_text, o_data = o_items[key]
            t_text, t_data = t_items[key]
            b_data = b_items[key][1] if in_base else {}
            if o_text == t_text or _same(o_data, t_data) or (in_base and _same(t_data, b_data)):
                pieces.append(o_text)
            elif in_base and _same(o_data, b_data):
                pieces.append(t_text)
            elif not in_base:  # the same id in a form the renumbering leaves alone: keep both, lint reports it
                pieces.extend([o_text, t_text])
            else:
                fields, clashing = merge_fields(b_data, o_data, t_data)
                if clashing:
                    conflicts.append(f"{key}: {', '.join(clashing)}")
                    pieces.append(f"{'<' * marker} ours\n{o_text}{'=' * marker}\n{t_text}{'>' * marker} theirs\n")
                else:
                    changed = {k: v for k, v in fields.items() if not _same(v, o_data.get(k))}
                    removed = tuple(k for k in o_data if k not in fields)
                    pieces.append(yamlio.patch_item(o_text, changed, removed) if changed or removed else o_text)
        elif in_ours:
            o_text, o_data = o_items[key]
            if in_base and _same(o_data, b_items[key][1]):
                continue  # theirs removed it (archived or moved) and we did not change it
            if in_base:
                conflicts.append(f"{key}: removed on their side, changed on ours")
            pieces.append(o_text)
        else:
            t_text, t_data = t_items[key]
            if in_base and _same(t_data, b_items[key][1]):
                continue  # we removed it, they did not change it
            if in_base:
                conflicts.append(f"{key}: removed on our side, changed on theirs")
            pieces.append(t_text)
    return MergeResult(preamble + "".join(pieces), conflicts, renumbered=tuple(renumbered))


def _elsewhere(root: Path, name: str) -> Elsewhere | None:
    """Ids in use in every memory file of HEAD and of the commit being merged, and those their side mentions
    outside the file ``name`` (None outside a merge, rebase or cherry-pick, or when git cannot tell)."""
    theirs = git.merging_rev(root) if name else None
    if theirs is None:
        return None
    try:
        config = load_config(root, require=False)
    except LoaError:
        return None
    folders = [world.storage_dir for world in config.worlds]
    ours = git.grep_matches(root, "HEAD", ID_PATTERN, folders)
    their = git.grep_matches(root, theirs, ID_PATTERN, folders)
    return Elsewhere(frozenset(m for _p, m in ours + their), frozenset(m for p, m in their if p != name))


def run_merge_driver(base: Path, ours: Path, theirs: Path, marker: int = 7, name: str = "") -> int:
    """git's merge driver protocol: merge into ``ours`` in place; 0 clean, 1 conflicts left for the user."""
    base_text, ours_text, theirs_text = (p.read_text("utf-8") if p.exists() else "" for p in (base, ours, theirs))
    if is_summary_text(ours_text) or is_summary_text(theirs_text):  # the retrieval-weights summary: add counters
        summary = merge_summary_texts(base_text, ours_text, theirs_text)
        if summary is not None:
            atomic.write_atomic(ours, summary)
            return 0
    elsewhere = _elsewhere(Path.cwd(), name)
    result = merge_texts(base_text, ours_text, theirs_text, marker=marker, elsewhere=elsewhere)
    if result.fallback:
        merged = git.merge_file(ours, base, theirs, name)
        atomic.write_atomic(ours, merged.text)
        return 0 if merged.clean else 1
    atomic.write_atomic(ours, result.text)
    return 1 if result.conflicts else 0
