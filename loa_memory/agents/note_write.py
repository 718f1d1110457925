"""Writing notes (see ``notes``): create, edit, archive (a delete) and move (a rename, keeping the id).

Each call is one transaction under the grimoire lock on a grimoire without problems: the text is
validated as the loader will read it, passes the secret gate, and is written atomically (a move or a
folder archive as one journaled transaction), so a refused or failed write leaves every file as it was.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from loa_memory.agents.notes import NoteSpace, note_summary, resolve, split_note
from loa_memory.errors import GrimoireError, NotFound, UsageError, ValidationError
from loa_memory.model import Entry
from loa_memory.secrets.gate import check_name, check_secrets
from loa_memory.store import schema, yamlio
from loa_memory.store.load import Grimoire, MemoryFile, load_grimoire
from loa_memory.store.lock import locked
from loa_memory.store.parse import parse_file_text
from loa_memory.store.save import Changeset
from loa_memory.store.times import format_time, now_utc
from loa_memory.write.add import Written, complete_entry, recover, refuse_if_broken
from loa_memory.write.moves import stage_archive


@contextlib.contextmanager
def _transaction(space: NoteSpace) -> Iterator[tuple[Grimoire, Changeset]]:
    config = space.config
    with locked(config.local_dir):
        recover(config)
        grimoire = load_grimoire(config)
        refuse_if_broken(grimoire)
        changes = Changeset(config, grimoire)
        yield grimoire, changes
        changes.commit()


def _require_text(body: str) -> None:
    if not body.strip():
        raise UsageError("a note needs some text", hint="write what to remember; delete the note to drop it")


def _note_file(space: NoteSpace, rel: str) -> Path:
    path = resolve(space, rel)
    if path.suffix != ".md":
        raise UsageError(f"a note file is a Markdown file ending in .md: {rel!r}")
    return path


def _checked_text(space: NoteSpace, path: Path, front: str, body: str) -> str:
    """The note's file text, once it is known to load as a valid entry and to hold no secret."""
    text = f"---\n{front}---\n{body}"
    rel = space.repo_rel(path)
    mf = MemoryFile(path, rel, space.world, space.category, False)
    items, _broken = parse_file_text(text, mf, schema.memory_schema_for(space.config.categories))
    problems = [message for item in items for _line, _col, _rule, message in item[3]]
    if problems or not items or not isinstance(items[0][2], dict):
        raise ValidationError("the note would not be a valid memory: " + "; ".join(problems[:5] or ["no entry"]),
                              path=rel, hint="nothing was written")
    check_secrets(space.config, text, rel, 1)
    return text


def create_note(space: NoteSpace, rel: str, body: str, *, source: Mapping[str, Any] | None = None,
                moment: datetime | None = None) -> Written:
    """Write a new note at ``rel`` with a fresh id; refuses if a file or folder is already there, or if its path
    holds a secret (a file name is committed and listed like its text)."""
    check_name(space.config, rel, "the note's path")
    path = _note_file(space, rel)
    _require_text(body)
    with _transaction(space) as (grimoire, changes):
        if path.is_dir() or changes.text(path) is not None:
            raise UsageError(f"{rel} already exists", hint="edit it, or pick another name")
        fields = {"category": space.category.name, "summary": note_summary(body), "content": body.strip("\n"),
                  "source": dict(source or {})}
        data = complete_entry(space.config, fields, grimoire.ids(), moment)
        front = {key: value for key, value in data.items() if key != "content"}
        changes.write(path, _checked_text(space, path, yamlio.dump_mapping(front), body))
    return Written(data, space.repo_rel(path), 1, space.world)


def edit_note(space: NoteSpace, rel: str, transform: Callable[[str], str], *,
              moment: datetime | None = None) -> str:
    """Replace a note's body with ``transform(body)`` (which may raise to refuse); returns the new body.

    The id, source and the rest of the front matter stay; ``summary`` follows the new first line and
    ``updated_at`` is set.
    """
    path = _note_file(space, rel)
    with _transaction(space) as (_grimoire, changes):
        text = changes.text(path)
        if text is None:
            raise NotFound(f"no note {rel!r}")
        front, body = split_note(text)
        if front is None:
            raise GrimoireError(f"{rel} has no front matter, so it is not a memory", path=space.repo_rel(path),
                                line=1, hint="fix it by hand or run `loa-memory lint`")
        if "content" in (yamlio.load_text(front, path=space.repo_rel(path)) or {}):
            raise GrimoireError(f"{rel} keeps its content in the front matter, not in the body",
                                path=space.repo_rel(path), hint="edit this note by hand")
        new_body = transform(body)
        _require_text(new_body)
        stamp = format_time(moment or now_utc())
        new_front = yamlio.patch_item(front, {"summary": note_summary(new_body), "updated_at": stamp})
        changes.write(path, _checked_text(space, path, new_front, new_body))
    return new_body


def _held(space: NoteSpace, grimoire: Grimoire, target: Path) -> list[Entry]:
    """The active notes at ``target`` (a file) or under it (a folder), in this space."""
    root = space.config.root
    held = []
    for entry in grimoire.entries:
        path = root / entry.path
        if entry.archived or entry.world != space.world or entry.category != space.category.name:
            continue
        if path == target or target in path.parents:
            held.append(entry)
    return held


def archive_notes(space: NoteSpace, rel: str, *, moment: datetime | None = None) -> list[str]:
    """Move the note at ``rel``, or every note under the folder ``rel``, to the archive (reason: manual).

    ``rel`` "" is the whole notes folder. Returns the archived notes' paths relative to the repository.
    """
    target = resolve(space, rel) if rel else space.root
    with _transaction(space) as (grimoire, changes):
        entries = _held(space, grimoire, target)
        if not entries and not _is_empty_folder(target):
            raise NotFound(f"no note at {rel or 'the notes folder'!r}")
        stage_archive(changes, entries, "manual", moment)
    if not entries and target != space.root:  # a folder holding only empty folders: drop it
        _prune(space.root, [path / "-" for path in target.rglob("*") if path.is_dir()] + [target / "-"])
    _prune(space.root, [space.config.root / e.path for e in entries])
    return [e.path for e in entries]


def move_notes(space: NoteSpace, old_rel: str, new_rel: str) -> list[tuple[str, str]]:
    """Move a note or a folder of notes to ``new_rel``; every note keeps its id and its bytes.

    Refuses when ``new_rel`` exists or lies inside ``old_rel``. Returns (old, new) repository paths.
    """
    check_name(space.config, new_rel, "the new path")
    old, new = resolve(space, old_rel), resolve(space, new_rel)
    if old == space.root:
        raise UsageError("the notes folder itself cannot be moved")
    if old in new.parents:
        raise UsageError(f"cannot move {old_rel} into itself ({new_rel})")
    if old.is_file():
        _note_file(space, old_rel)
        _note_file(space, new_rel)
    moved: list[tuple[str, str]] = []
    with _transaction(space) as (grimoire, changes):
        if new.exists() or changes.text(new) is not None:
            raise UsageError(f"{new_rel} already exists", hint="pick another name, or delete it first")
        entries = _held(space, grimoire, old)
        if not entries:
            raise NotFound(f"no note at {old_rel!r}")
        for entry in entries:
            source = space.config.root / entry.path
            destination = new if source == old else new / source.relative_to(old)
            resolve(space, destination.relative_to(space.root).as_posix())
            changes.write(destination, changes.text(source))
            changes.write(source, None)
            moved.append((entry.path, space.repo_rel(destination)))
    _prune(space.root, [space.config.root / old_path for old_path, _ in moved])
    return moved


def _is_empty_folder(folder: Path) -> bool:
    return folder.is_dir() and not any(path.is_file() or path.is_symlink() for path in folder.rglob("*"))


def _prune(root: Path, removed: list[Path]) -> None:
    """Drop the folders that removing ``removed`` left empty, up to (not including) ``root``."""
    for path in removed:
        for folder in path.parents:
            if folder == root or root not in folder.parents:
                break
            with contextlib.suppress(OSError):
                os.rmdir(folder)  # fails, as wanted, on a folder that still holds something
