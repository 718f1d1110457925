"""Memory file text to items: cut a list file into items, parse and validate each, locate problems.

An item is ``(hash of its text, first line in the file, data or None, problems)``, problems as
``(line relative to the item, col, rule, message)``. Markdown memories are one item; a list file
that cannot be cut by text is parsed whole (its items then have no hash).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loa_memory.model import Category
from loa_memory.store import schema as schema_mod
from loa_memory.store import yamlio

# An item as cached: (hash, first line relative to the file, data or None, problems relative to the item)
CachedItem = tuple[str, int, Any, list[tuple[int, int, str, str]]]


@dataclass(frozen=True)
class MemoryFile:
    """A memory file and what its place says about it."""

    path: Path
    rel: str
    world: str
    category: Category
    archived: bool
    entry_file: bool = False  # one entry's file in a category folder (the `entries` layout): cached per folder


def item_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def parse_file_text(text: str, mf: MemoryFile, schema: dict[str, Any], known: dict[str, CachedItem] | None = None,
                    splits: dict[str, list[yamlio.Item]] | None = None) -> tuple[list[CachedItem], bool]:
    """Parse and validate a memory file's text into cached items; the bool says it failed to parse.
    ``splits`` receives how the text was cut into items when it was (not for Markdown or whole-file parses)."""
    if mf.category.kind == "markdown":
        return [_parse_markdown(text, mf, schema)], False
    split = yamlio.split_items(text)
    if split.items is None:
        return _parse_whole(text, mf, schema)
    items, broken = parse_items(split.items, mf, schema, known or {})
    if items is None:
        return _parse_whole(text, mf, schema)
    if broken:
        # an item that does not parse alone may still parse in its file (an alias of an anchor in another
        # item, a quoted scalar running over a ``- `` at column 0): the whole text decides
        whole, whole_broken = _parse_whole(text, mf, schema)
        if not whole_broken:
            return whole, False
    if splits is not None:
        splits[mf.rel] = split.items
    return items, broken


def failed_to_parse(item: CachedItem) -> bool:
    """The item is YAML that does not parse (which makes its file broken)."""
    return item[2] is None and any(problem[2] == "yaml-syntax" for problem in item[3])


def parse_items(cut: list[yamlio.Item], mf: MemoryFile, schema: dict[str, Any],
                 known: dict[str, CachedItem]) -> tuple[list[CachedItem] | None, bool]:
    """Each cut item parsed (or taken from ``known`` by hash); None when one is not a single list item."""
    items: list[CachedItem] = []
    broken = False
    for item in cut:
        digest = item_hash(item.text)
        hit = known.get(digest)
        if hit is not None:
            items.append((digest, item.line, hit[2], hit[3]))
            broken = broken or failed_to_parse(hit)  # a known broken item still breaks the file
            continue
        try:
            loaded = yamlio.load_text(item.text, path=mf.rel)
        except yamlio.YamlSyntaxError as exc:
            broken = True
            items.append((digest, item.line, None, [((exc.line or 1) - 1, exc.col or 1, "yaml-syntax",
                                                      exc.message)]))
            continue
        if not isinstance(loaded, list) or len(loaded) != 1:
            return None, False
        items.append((digest, item.line, loaded[0], _check(loaded[0], item.text, (0,), schema)))
    return items, broken


def _parse_whole(text: str, mf: MemoryFile, schema: dict[str, Any]) -> tuple[list[CachedItem], bool]:
    try:
        loaded = yamlio.load_text(text, path=mf.rel)
    except yamlio.YamlSyntaxError as exc:
        return [("", 0, None, [((exc.line or 1) - 1, exc.col or 1, "yaml-syntax", exc.message)])], True
    if loaded is None:
        return [], False
    if not isinstance(loaded, list):
        return [("", 0, None, [(0, 1, "yaml-syntax",
                                "a memory file must be a YAML list of entries (`- id: ...`)")])], True
    node = yamlio.compose_text(text)
    items: list[CachedItem] = []
    for index, data in enumerate(loaded):
        spot = yamlio.locate(node, (index,)) or (0, 0)
        problems = [(line - spot[0], col, rule, msg)
                    for line, col, rule, msg in _check(data, text, (index,), schema)]
        items.append(("", spot[0], data, problems))
    return items, False


def _parse_markdown(text: str, mf: MemoryFile, schema: dict[str, Any]) -> CachedItem:
    digest = item_hash(text)
    parts = next(yamlio.iter_front_matter(text), None)
    if parts is None:
        return (digest, 0, None, [(0, 1, "front-matter",
                                   "a Markdown memory must open with YAML front matter between `---` lines")])
    front, body, _body_line = parts
    try:
        data = yamlio.load_text(front, path=mf.rel, line_offset=1)
    except yamlio.YamlSyntaxError as exc:
        return (digest, 0, None, [((exc.line or 1) - 1, exc.col or 1, "yaml-syntax", exc.message)])
    if not isinstance(data, dict):
        return (digest, 0, None, [(1, 1, "front-matter", "the front matter must be a mapping of fields")])
    if "content" not in data and body.strip():
        data["content"] = body.strip("\n")
    problems = [(line + 1, col, rule, msg) for line, col, rule, msg in _check(data, front, (), schema)]
    return (digest, 0, data, problems)


def _check(data: Any, text: str, prefix: tuple[str | int, ...],
           schema: dict[str, Any]) -> list[tuple[int, int, str, str]]:
    """Schema problems of one entry, located in ``text`` (0-based line relative to the item)."""
    if not isinstance(data, dict):
        return [(0, 1, "schema", "an entry must be a mapping of fields (`id: ...`, `category: ...`)")]
    problems = schema_mod.validate(data, schema)
    if not problems:
        return []
    node = yamlio.compose_text(text)
    base = yamlio.locate(node, prefix) or (0, 0)
    located = []
    for problem in problems:
        line, col = yamlio.locate(node, prefix + problem.path) or base
        located.append((line - base[0], col + 1, _rule_for(problem), problem.message))
    return located


def _rule_for(problem: schema_mod.SchemaProblem) -> str:
    """The lint rule a schema problem belongs to, where a more specific rule than ``schema`` exists."""
    head = problem.path[0] if problem.path else None
    if head == "confidence" and "minimum" in problem.message:
        return "min-confidence"
    if head in ("id", "supersedes", "superseded_by") and "does not match" in problem.message:
        return "id-format"
    if head == "tags" and "does not match" in problem.message:
        return "tag-format"
    if head == "summary" and len(problem.path) == 1 and "expected" not in problem.message:
        return "summary-length"
    if head == "content" and len(problem.path) == 1 and "expected" not in problem.message:
        return "content-length"
    return "schema"
