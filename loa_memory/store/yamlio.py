"""YAML at the level of text: split list files into items, load items fast, dump and patch one item.

Reads use PyYAML's C loader with YAML 1.2 core-schema resolvers (``yes`` stays a string, timestamps
stay strings), no tags beyond the core ones (``!!python/object`` is an error, never executed) and
duplicate keys rejected. Writes use ruamel.yaml round-trip with one fixed style, applied to one item
at a time, so every other byte of a file is left as it was.
"""

from __future__ import annotations

import functools
import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from loa_memory.errors import LoaError

_LOADER_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SHARED_LENGTH = 40


# Bounds on what a few hundred bytes of YAML may cost: an alias repeats a whole anchored value, so nine
# anchors of nine aliases each stand for 9**9 values (an "alias bomb": harmless to the loader, which shares
# them, fatal to whatever walks or prints the data); and the C composer recurses once per nesting level.
MAX_ALIAS_VALUES = 10_000  # values that aliases may stand for in one document, all aliases together
MAX_DEPTH = 500  # nesting levels of flow collections or compact block sequences


class _Loader(_LOADER_BASE):  # type: ignore[misc]
    """Safe loader with YAML 1.2 core-schema scalars, duplicate-key detection and bounded alias expansion."""

    def construct_document(self, node: yaml.Node) -> Any:
        self._aliased = 0
        self._sizes: dict[int, int] = {}
        return super().construct_document(node)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node in self.constructed_objects:  # the node of an anchor, met again through an alias
            self._aliased = getattr(self, "_aliased", 0) + _values_in(node, self.__dict__.setdefault("_sizes", {}))
            if self._aliased > MAX_ALIAS_VALUES:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the aliases of this anchor (and earlier ones) stand for more than "
                    f"{MAX_ALIAS_VALUES:,} values: anchors and aliases this large are refused in memory files",
                    node.start_mark)
        return super().construct_object(node, deep)


def _values_in(node: yaml.Node, sizes: dict[int, int]) -> int:
    """How many values ``node`` holds once every alias in it is expanded (remembered per node)."""
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    open_: set[int] = set()
    while stack:
        current, done = stack.pop()
        if id(current) in sizes:
            continue
        children = _children(current)
        if done:
            open_.discard(id(current))
            sizes[id(current)] = 1 + sum(sizes.get(id(child), 1) for child in children)
            continue
        open_.add(id(current))
        stack.append((current, True))
        stack.extend((child, False) for child in children if id(child) not in sizes and id(child) not in open_)
    return sizes[id(node)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


_Loader.yaml_implicit_resolvers = {}
for _tag, _regexp, _first in (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     "-+0123456789."),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
):
    _Loader.add_implicit_resolver(_tag, re.compile(_regexp), list(_first))


def _construct_int(loader: Any, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    if text.startswith("0o"):
        return int(text[2:], 8)
    return int(text, 0) if text.startswith("0x") else int(text)


def _construct_mapping(loader: Any, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    result: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain scalar", key_node.start_mark)
        if key in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark)
        value = loader.construct_object(value_node, deep=True)
        # field names and short values repeat across thousands of entries: one shared string each, which
        # marshal (the load cache) then writes, and reads back, once
        result[sys.intern(key) if type(key) is str else key] = \
            sys.intern(value) if type(value) is str and len(value) <= _SHARED_LENGTH else value
    return result


_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _Loader.construct_yaml_str)


class YamlSyntaxError(LoaError):
    """Text that is not valid (safe) YAML; line and column are 1-based."""

    exit_code = 1
    code = "yaml-syntax"


CONFLICT_MARKER = re.compile(r"^(<{7}|={7}|>{7}|\|{7})(?: |$)", re.MULTILINE)


_NESTING = re.compile(r"[\[\]{}]")
_COMPACT_DEPTH = re.compile(rf"(?:[-?][ \t]+){{{MAX_DEPTH}}}")


def nesting_too_deep(text: str) -> int | None:
    """The 0-based offset where ``text`` nests deeper than ``MAX_DEPTH`` (the C parser would recurse that deep and
    may exhaust its stack), else None. Brackets inside quotes count too: an over-estimate no memory reaches."""
    if len(text) < MAX_DEPTH:
        return None
    depth = 0
    for match in _NESTING.finditer(text):
        depth = depth + 1 if match.group() in "[{" else max(depth - 1, 0)
        if depth > MAX_DEPTH:
            return match.start()
    compact = _COMPACT_DEPTH.search(text)
    return compact.start() if compact else None


def load_text(text: str, *, path: str = "<text>", line_offset: int = 0) -> Any:
    """Parse YAML text safely; errors carry ``path:line:col`` shifted by ``line_offset``. Text that does not
    parse because it holds git's conflict markers is reported as the merge conflict it is."""
    try:
        return _load_text(text, path, line_offset)
    except YamlSyntaxError:
        marker = CONFLICT_MARKER.search(text)
        if marker is None:
            raise
    line = text.count("\n", 0, marker.start()) + 1 + line_offset
    redo = f"`git checkout --merge -- {path}`" if not path.startswith("<") else "`git checkout --merge -- FILE`"
    raise YamlSyntaxError(f"unresolved merge conflict (a `{marker[1]}` line): resolve it, keeping the entries of "
                          f"both sides and deleting the marker lines, or run {redo} to redo the merge with "
                          "loa-memory's merge driver (`loa-memory hooks install` sets it up)", path=path, line=line,
                          col=1, hint="then run `loa-memory lint`")


def _load_text(text: str, path: str, line_offset: int) -> Any:
    deep = nesting_too_deep(text)
    if deep is not None:
        line = text.count("\n", 0, deep)
        raise YamlSyntaxError(f"nested more than {MAX_DEPTH} levels deep: refused", path=path,
                              line=line + 1 + line_offset, col=deep - (text.rfind("\n", 0, deep) + 1) + 1,
                              hint="memory files hold flat records; flatten this value")
    try:
        return yaml.load(text, Loader=_Loader)
    except RecursionError:
        raise YamlSyntaxError(f"nested too deeply (more than {MAX_DEPTH} levels): refused", path=path,
                              line=line_offset + 1, col=1, hint="memory files hold flat records; flatten it") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1 + line_offset) if mark else line_offset + 1
        col = (mark.column + 1) if mark else 1
        problem = exc.problem or exc.context or "invalid YAML"
        if "could not determine a constructor" in problem:
            problem = "YAML tags such as '!!python/...' are not allowed in memory files"
        raise YamlSyntaxError(problem, path=path, line=line, col=col,
                              hint="fix the YAML by hand; loa-memory never rewrites a file it cannot parse") from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(str(exc), path=path, line=line_offset + 1, col=1) from None


def compose_text(text: str) -> yaml.Node | None:
    """The node tree of ``text`` (with marks), for locating fields by path (None when it nests too deeply)."""
    if nesting_too_deep(text) is not None:
        return None
    return yaml.compose(text, Loader=_Loader)


def locate(node: yaml.Node | None, path: tuple[str | int, ...]) -> tuple[int, int] | None:
    """0-based (line, col) of the deepest node of ``path`` that exists in ``node``."""
    if node is None:
        return None
    best = (node.start_mark.line, node.start_mark.column)
    for step in path:
        child: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if getattr(key_node, "value", None) == step:
                    best = (key_node.start_mark.line, key_node.start_mark.column)
                    child = value_node
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            child = node.value[step]
            best = (child.start_mark.line, child.start_mark.column)
        if child is None:
            break
        node = child
    return best


@dataclass(frozen=True)
class Item:
    """One top-level ``- `` item of a YAML list file: its text and where it starts (0-based line)."""

    text: str
    line: int
    start: int  # character offsets of the item's text within the file
    end: int


@dataclass(frozen=True)
class Split:
    """A list file cut into items, or ``None`` items when its shape needs a whole-file parse."""

    items: list[Item] | None


_COLUMN0 = re.compile(r"\n(?=[^\s#])")
# a block scalar that keeps its trailing blank lines (``|+``, ``>2+``): they are part of the item then
_KEEP_CHOMPING = re.compile(r"[|>](?:[1-9]?\+|\+[1-9])[ \t]*(?:#[^\n]*)?$", re.MULTILINE)
# line breaks YAML knows besides ``\n`` (a lone ``\r`` too): the cut by text would not see them
_OTHER_BREAKS = re.compile("\r(?!\n)|[\x85\u2028\u2029]")


def _item_end(text: str, start: int, chunk_end: int) -> int:
    """Where an item's own text ends: before trailing blank lines and column-0 comments (unless a block
    scalar in it keeps trailing blank lines: then the item runs to the next one)."""
    end = chunk_end
    first_line_end = text.find("\n", start, chunk_end)
    if "+" in text[start:chunk_end] and _KEEP_CHOMPING.search(text, start, chunk_end):
        return end
    while first_line_end != -1 and end > first_line_end + 1:
        body_end = end - 1 if text[end - 1] == "\n" else end
        line_start = text.rfind("\n", start, body_end) + 1
        line = text[line_start:body_end]
        if line.strip() and not line.startswith("#"):
            break
        end = line_start
    return end


def _is_trivia(gaps: str, *, empty_list: bool) -> bool:
    """The text between items (and before the first) holds nothing YAML reads: blank lines, comments and
    at most one ``---`` before the first item (or, in a file without items, ``[]``)."""
    if "\t" in gaps:
        return False
    if not gaps.strip():
        return True
    try:
        value = load_text(gaps)
    except YamlSyntaxError:
        return False
    return value is None or (empty_list and value == [])


def split_items(text: str) -> Split:
    """Cut a block-style YAML list into its top-level items, without parsing.

    An item runs from a ``- `` at column 0 to its last indented line; blank lines and column-0
    comments after it belong to no item. What YAML itself delimits is cut, nothing else: a file in
    another shape (flow list, document markers, column-0 or indented content outside the items, tabs
    there, line breaks other than ``\n``) returns ``Split(None)`` and is parsed whole. Items that
    refer to each other (aliases) or that a quoted scalar spans are found when an item fails to parse
    alone (``parse.py`` then parses the file whole).
    """
    if _OTHER_BREAKS.search(text):
        return Split(None)
    starts: list[int] = []
    column0 = [0] if text[:1] and not text[:1].isspace() and text[:1] != "#" else []
    column0 += [match.start() + 1 for match in _COLUMN0.finditer(text)]
    for position in column0:
        if text.startswith("- ", position) or text.startswith("-\n", position) or text[position:] == "-":
            starts.append(position)
        elif starts:
            return Split(None)
    if not starts:
        return Split([]) if _is_trivia(text, empty_list=True) else Split(None)
    items: list[Item] = []
    gaps = [text[: starts[0]]]
    line = gaps[0].count("\n")
    bounds = [*starts, len(text)]
    for index, start in enumerate(starts):
        chunk_end = bounds[index + 1]
        end = _item_end(text, start, chunk_end)
        items.append(Item(text[start:end], line, start, end))
        gaps.append(text[end:chunk_end])
        line += text.count("\n", start, chunk_end)
    if not _is_trivia("".join(gaps), empty_list=False):
        return Split(None)
    return Split(items)


@functools.cache
def _rt() -> Any:
    from ruamel.yaml import YAML

    rt = YAML()
    rt.indent(mapping=2, sequence=2, offset=0)
    rt.width = 4096
    rt.preserve_quotes = True
    return rt


FLOW_LISTS = frozenset({"tags", "aliases", "related_memories", "action_types", "artifacts", "files",
                        "memory_ids", "patterns", "files_modified"})


def _to_rt(value: Any, key: str | None = None) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import LiteralScalarString

    if isinstance(value, dict):
        mapping = CommentedMap()
        for k, v in value.items():
            mapping[k] = _to_rt(v, str(k))
        return mapping
    if isinstance(value, list):
        seq = CommentedSeq([_to_rt(v) for v in value])
        if key in FLOW_LISTS and all(isinstance(v, (str, int, float)) for v in value):
            seq.fa.set_flow_style()
        return seq
    if isinstance(value, str) and "\n" in value.strip("\n"):
        return LiteralScalarString(value)
    return value


def dump_item(data: dict[str, Any]) -> str:
    """The text of one list item (``- key: ...``) in the house style."""
    stream = io.StringIO()
    _rt().dump([_to_rt(data)], stream)
    return stream.getvalue()


def dump_mapping(data: dict[str, Any]) -> str:
    """A block mapping in the house style (Markdown front matter)."""
    stream = io.StringIO()
    _rt().dump(_to_rt(data), stream)
    return stream.getvalue()


def patch_item(item_text: str, updates: dict[str, Any], remove: tuple[str, ...] = ()) -> str:
    """Set or remove top-level fields of one list item (or a bare mapping), keeping comments and formatting.

    New keys go at the end of the item; changed keys keep their place.
    """
    doc = _rt().load(item_text)
    mapping = doc[0] if isinstance(doc, list) else doc
    for key in remove:
        if key in mapping:
            del mapping[key]
    for key, value in updates.items():
        mapping[key] = _to_rt(value, key)
    stream = io.StringIO()
    _rt().dump(doc, stream)
    return stream.getvalue()


def set_in_document(text: str, keys: tuple[str, ...], value: Any, remove: tuple[str, ...] = ()) -> str:
    """Set ``keys`` (a path of mapping keys, made where missing) in a YAML document, keeping its comments;
    ``remove`` names keys of the innermost parent mapping to delete."""
    doc = _rt().load(text) if text.strip() else None
    if doc is None:
        from ruamel.yaml.comments import CommentedMap

        doc = CommentedMap()
    mapping = doc
    for key in keys[:-1]:
        if not isinstance(mapping.get(key), dict):
            mapping[key] = _to_rt({})
        mapping = mapping[key]
    for key in remove:
        mapping.pop(key, None)
    mapping[keys[-1]] = _to_rt(value, keys[-1])
    stream = io.StringIO()
    _rt().dump(doc, stream)
    return stream.getvalue()


def iter_front_matter(text: str) -> Iterator[tuple[str, str, int]]:
    """Yield ``(front_matter, body, body_line)`` of a Markdown file that opens with ``---``."""
    if not text.startswith("---"):
        return
    lines = text.splitlines(keepends=True)
    if lines[0].strip() != "---":
        return
    for number in range(1, len(lines)):
        if lines[number].strip() in ("---", "..."):
            yield "".join(lines[1:number]), "".join(lines[number + 1:]), number + 1
            return
