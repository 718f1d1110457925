"""Converting a grimoire between its two layouts (``migrate``) and writing Loa's list files elsewhere (``export``).

``migrate --layout entries`` cuts each list file (``decisions.yaml``, and ``archive/decisions.yaml``) into one
file per entry (``decisions/<id>-<slug>.yaml``), each item's text kept byte for byte; ``--layout lists``
joins them back, oldest first. Everything, the config's ``layout`` included, is written as one crash-safe
transaction under the lock, then staged in git so that ``git status`` shows the move as one change. Nothing is
dropped: a file that does not parse, or that cannot be cut into items by text, refuses the whole migration.
Comment lines between list items are the one thing a list file holds that entry files have no place for:
they are counted in the report.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from loa_memory.errors import GrimoireError, UsageError
from loa_memory.model import Category, Layout
from loa_memory.store import atomic, git, yamlio
from loa_memory.store.config import CONFIG_NAME, Config, World, load_config
from loa_memory.store.ids import is_valid_id, next_id
from loa_memory.store.layout import entry_file_name, entry_folder
from loa_memory.store.load import Grimoire, load_grimoire
from loa_memory.store.lock import locked
from loa_memory.write.add import recover
from loa_memory.write.renumber import rewrite_references

_GITKEEP = ".gitkeep"


@dataclass
class LayoutReport:
    """What a migration or an export did."""

    layout: Layout
    worlds: list[str]
    entries: int = 0
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    comments_dropped: int = 0
    staged: bool = False
    unchanged: bool = False
    renumbered: int = 0  # export --loa-ids: ids given Loa's 3-digit form in the copy


def _list_categories(config: Config) -> list[Category]:
    return [cat for cat in config.categories if cat.kind == "list"]


def _bases(config: Config, world: World) -> Iterator[Path]:
    memdir = config.root / world.storage_dir
    yield memdir
    yield memdir / config.archive_dir


def _refuse_broken(grimoire: Grimoire) -> None:
    broken = grimoire.unreadable
    if broken:
        first = broken[0]
        raise GrimoireError(
            f"{first.path} does not parse ({first.message}), so no file was moved",
            path=first.path,
            line=first.line,
            col=first.col,
            hint="fix it first (`loa-memory lint` lists every problem), then migrate again",
        )


def _items(grimoire: Grimoire, path: Path, rel: str) -> list[tuple[str, dict[str, Any]]]:
    """(text, data) of each item of one list file, in file order; refuses a file it cannot cut by text."""
    text = path.read_text("utf-8")
    split = yamlio.split_items(text)
    parsed = [item for item in grimoire.items.get(rel, []) if isinstance(item[2], dict)]
    if split.items is None or len(split.items) != len(parsed):
        raise GrimoireError(
            f"{rel} is not in the block-list layout loa-memory can cut into entries (`- id: ...` items at column 0)",
            path=rel,
            line=1,
            hint="rewrite it as a block list, then migrate again; no file was moved",
        )
    return [
        (item.text if item.text.endswith("\n") else item.text + "\n", data)
        for item, (_digest, _line, data, _problems) in zip(split.items, parsed, strict=True)
    ]


def _comment_lines(text: str, items: list[yamlio.Item]) -> int:
    """Comment lines outside every item (a list file's header, notes between items)."""

    def count(part: str) -> int:
        return sum(1 for line in part.splitlines() if line.lstrip().startswith("#"))

    return count(text) - sum(count(item.text) for item in items)


def _free(path: Path, taken: set[Path]) -> Path:
    candidate, number = path, 2
    while candidate in taken or candidate.exists():
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
        number += 1
    taken.add(candidate)
    return candidate


def _to_entries(
    config: Config, grimoire: Grimoire, world: World, report: LayoutReport, files: dict[Path, str | None]
) -> None:
    taken: set[Path] = set()
    for base in _bases(config, world):
        for cat in _list_categories(config):
            source = base / cat.path
            if not source.is_file():
                continue
            rel = source.relative_to(config.root).as_posix()
            text = source.read_text("utf-8")
            split = yamlio.split_items(text)
            report.comments_dropped += _comment_lines(text, split.items or [])
            for item_text, data in _items(grimoire, source, rel):
                name = entry_file_name(str(data.get("id") or "entry"), str(data.get("summary") or ""))
                files[_free(base / entry_folder(cat) / name, taken)] = item_text
                report.entries += 1
            files[source] = None


def _sort_key(data: dict[str, Any]) -> tuple[str, str]:
    source = data.get("source")
    stamp = str(source.get("timestamp") or "") if isinstance(source, dict) else ""
    return stamp, str(data.get("id") or "")


def joined_lists(config: Config, grimoire: Grimoire, world: World) -> dict[Path, tuple[str, list[Path]]]:
    """Each list file of ``world`` as the ``lists`` layout has it: the list file's own items first, then the
    entry files' items, oldest first; with the entry files the text came from."""
    joined: dict[Path, tuple[str, list[Path]]] = {}
    for base in _bases(config, world):
        for cat in _list_categories(config):
            folder = base / entry_folder(cat)
            target = base / cat.path
            entry_files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
            if not entry_files:
                continue
            pieces: list[tuple[tuple[str, str], str]] = []
            for path in entry_files:
                rel = path.relative_to(config.root).as_posix()
                pieces += [(_sort_key(data), text) for text, data in _items(grimoire, path, rel)]
            head = target.read_text("utf-8") if target.is_file() else ""
            if head and not head.endswith("\n"):
                head += "\n"
            body = "".join(text for _key, text in sorted(pieces, key=lambda piece: piece[0]))
            joined[target] = (head + body, entry_files)
    return joined


def _to_lists(
    config: Config, grimoire: Grimoire, world: World, report: LayoutReport, files: dict[Path, str | None]
) -> None:
    for target, (text, sources) in joined_lists(config, grimoire, world).items():
        files[target] = text
        report.entries += len(sources)
        for path in sources:
            files[path] = None
        keep = sources[0].parent / _GITKEEP
        if keep.exists():
            files[keep] = None


def migrate_layout(config: Config, layout: Layout, worlds: Sequence[str] = ()) -> LayoutReport:
    """Move the chosen worlds (all by default) to ``layout`` and record it in the config, in one transaction."""
    chosen = [config.world(name) for name in worlds] if worlds else list(config.worlds)
    report = LayoutReport(layout, [w.name for w in chosen])
    if config.path is None:
        raise UsageError(f"no {CONFIG_NAME} to record the layout in", hint="run `loa-memory init --layout lists` first")
    with locked(config.local_dir):
        recover(config)
        grimoire = load_grimoire(config, use_cache=False)
        _refuse_broken(grimoire)
        files: dict[Path, str | None] = {}
        for world in chosen:
            (_to_entries if layout == "entries" else _to_lists)(config, grimoire, world, report, files)
        config_text = config.path.read_text("utf-8")
        new_config = _config_with_layout(config, config_text, layout, chosen)
        if new_config != config_text:
            files[config.path] = new_config
        if not files:
            report.unchanged = True
            return report
        if layout == "entries":  # an empty category folder stays visible in git, as `init` makes it
            for world in chosen:
                for cat in _list_categories(config):
                    folder = config.root / world.storage_dir / entry_folder(cat)
                    written = any(p.parent == folder for p, text in files.items() if text is not None)
                    if not written and not folder.is_dir():
                        files[folder / _GITKEEP] = ""
        atomic.write_many(sorted(files.items()), config.local_dir)
        load_config(config.root)  # the config just written must load (it is validated by its schema)
    for path, text in files.items():
        rel = path.relative_to(config.root).as_posix()
        (report.written if text is not None else report.removed).append(rel)
        if text is None:
            _drop_empty_folder(path.parent, config.root)
    report.staged = _stage(config, sorted(report.written + report.removed))
    return report


def _config_with_layout(config: Config, text: str, layout: Layout, chosen: list[World]) -> str:
    """The config's text with ``layout`` recorded: per world when only some worlds move, else shared."""
    declared = config.settings.get("worlds") or {}
    every = len(chosen) == len(config.worlds)
    for world in chosen:
        if not every or "layout" in (declared.get(world.name) or {}):
            text = yamlio.set_in_document(text, ("memory_schema", "worlds", world.name, "layout"), layout)
    if every and config.settings.get("layout") != layout:
        text = yamlio.set_in_document(text, ("memory_schema", "layout"), layout)
    return text


def _drop_empty_folder(folder: Path, root: Path) -> None:
    try:
        if folder != root and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    except OSError:
        pass


def _stage(config: Config, paths: list[str]) -> bool:
    """Stage the move in git (a grimoire outside a repository, or a git failure, just stays unstaged)."""
    from loa_memory.errors import GitError

    try:
        git.run(config.root, "add", "-A", "--", *paths)
    except GitError:
        return False
    return True


def export_lists(
    config: Config, destination: Path, worlds: Sequence[str] = (), *, loa_ids: bool = False
) -> LayoutReport:
    """Write the chosen worlds (all by default) to ``destination`` in the ``lists`` layout, as Loa reads them:
    ``<destination>/<storage_dir>/decisions.yaml``..., every other memory file copied as it is. With ``loa_ids``,
    ids of the random form become Loa's ``MEM-YYYYMMDD-NNN`` in the copy (oldest first, after the day's highest
    sequence; the old id kept in ``aliases``, every reference rewritten), which Loa's own schema requires.
    The grimoire itself is not touched."""
    chosen = [config.world(name) for name in worlds] if worlds else list(config.worlds)
    report = LayoutReport("lists", [w.name for w in chosen])
    destination = destination.resolve()
    for world in chosen:
        if destination.is_relative_to((config.root / world.storage_dir).resolve()):
            raise UsageError(
                f"{destination} is inside the grimoire {world.storage_dir}",
                hint="export to a folder outside it, e.g. `loa-memory export --layout lists /tmp/loa`",
            )
    grimoire = load_grimoire(config, [w.name for w in chosen])
    _refuse_broken(grimoire)
    out: dict[Path, str] = {}
    for world in chosen:
        memdir = config.root / world.storage_dir
        joined = joined_lists(config, grimoire, world)
        sources = {path for _text, paths in joined.values() for path in paths}
        for target, (text, paths) in joined.items():
            out[target] = text
            report.entries += len(paths)
        for path in sorted(memdir.rglob("*")):
            if (
                path.is_file()
                and path not in sources
                and path not in out
                and path.name != _GITKEEP
                and not any(part.startswith(".") for part in path.relative_to(memdir).parts)
            ):
                out[path] = path.read_text("utf-8")
    if loa_ids:
        mapping = _loa_id_mapping(grimoire)
        report.renumbered = len(mapping)
        out = {path: _with_ids(text, mapping, path.suffix == ".md") for path, text in out.items()}
    for path, text in sorted(out.items()):
        rel = path.relative_to(config.root)
        atomic.write_atomic(destination / rel, text)
        report.written.append((destination / rel).as_posix())
    return report


_LOA_FORM = re.compile(r"^MEM-[0-9]{8}-[0-9]{3}$")


def _loa_id_mapping(grimoire: Grimoire) -> dict[str, str]:
    """old id → a free ``MEM-YYYYMMDD-NNN`` of its day, for every id not of that form (oldest entry first)."""
    used = grimoire.ids()
    mapping: dict[str, str] = {}
    for entry in sorted(grimoire.entries + grimoire.invalid, key=lambda e: (e.timestamp, e.id)):
        if _LOA_FORM.match(entry.id) or entry.id in mapping or not is_valid_id(entry.id):
            continue
        day = date(int(entry.id[4:8]), int(entry.id[8:10]), int(entry.id[10:12]))
        mapping[entry.id] = next_id(used, day, "loa")
        used.add(mapping[entry.id])
    return mapping


def _updates(data: Any, mapping: dict[str, str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        return {}
    updates: dict[str, Any] = {}
    view = dict(data)
    for old, new in mapping.items():
        found = rewrite_references(view, old, new)
        view.update(found)
        updates.update(found)
    old_id = str(data.get("id"))
    if old_id in mapping:
        updates["id"] = mapping[old_id]
        updates["aliases"] = [*(data.get("aliases") or []), old_id]
    return updates


def _with_ids(text: str, mapping: dict[str, str], markdown: bool) -> str:
    """``text`` (a list file, or a Markdown memory) with the ids of ``mapping`` and the references to them renamed."""
    if not mapping or not any(old in text for old in mapping):
        return text
    if markdown:
        front = next(yamlio.iter_front_matter(text), None)
        if front is None:
            return text
        updates = _updates(yamlio.load_text(front[0]), mapping)
        return f"---\n{yamlio.patch_item(front[0], updates)}---\n{front[1]}" if updates else text
    split = yamlio.split_items(text)
    if split.items is None:
        return text
    pieces, pos = [], 0
    for item in split.items:
        pieces.append(text[pos : item.start])
        loaded = yamlio.load_text(item.text)
        updates = _updates(loaded[0] if isinstance(loaded, list) and loaded else None, mapping)
        pieces.append(yamlio.patch_item(item.text, updates) if updates else item.text)
        pos = item.end
    pieces.append(text[pos:])
    return "".join(pieces)
