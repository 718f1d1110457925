"""``/memories`` paths: whatever the model sends, a path is refused or stays inside the notes folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from loa_memory.agents.memory_paths import file_rel, folder_rel, memory_parts, shown_name
from loa_memory.agents.notes import NoteSpace, note_space, resolve
from loa_memory.errors import UsageError
from loa_memory.store import load_config

NAME_CHARS = st.characters(blacklist_categories=["Cs"], blacklist_characters="/")
names = st.text(NAME_CHARS, min_size=1, max_size=12)
tricky = st.sampled_from(["..", ".", "", ".hidden", "a.md", "b.txt", "c", "v1.2", "x.backup.md", "\x00", "..\\..",
                          "n" * 250, "%2e%2e", " ", "é.md"])
paths = st.lists(st.one_of(names, tricky), max_size=5).map(lambda parts: "/memories/" + "/".join(parts))


@pytest.fixture
def space(grimoire: Path) -> NoteSpace:
    return note_space(load_config(grimoire))


def _inside(path: Path, root: Path) -> bool:
    real, real_root = os.path.realpath(path), os.path.realpath(root)
    return real == real_root or real.startswith(real_root + os.sep)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.one_of(paths, st.text(max_size=30)))
@example(path="/memories/../../etc/passwd")
@example(path="/memories/a/../../../x")
@example(path="/memories//a///b.md")
def test_a_path_is_refused_or_stays_inside_the_notes_folder(space: NoteSpace, path: str) -> None:
    try:
        parts = memory_parts(path)
    except UsageError:
        return
    assert all(part not in ("", ".", "..") and "\x00" not in part and not part.startswith(".") for part in parts)
    for to_rel in (folder_rel, file_rel):
        try:
            rel = to_rel(parts)
        except UsageError:
            continue
        if not rel:
            continue
        target = resolve(space, rel)
        assert _inside(target, space.root) and target != space.root
        if to_rel is file_rel:
            assert target.suffix == ".md"


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.one_of(names, tricky), min_size=1, max_size=4))
def test_the_listed_name_of_a_note_reaches_the_same_note(parts: list[str]) -> None:
    try:
        memory_parts("/memories/" + "/".join(parts))
        stored = file_rel(tuple(parts))
    except UsageError:
        return
    *folders, name = stored.split("/")
    listed = shown_name(name)
    assert file_rel((*folders, listed)) == stored
    if parts[-1].endswith(".md") and "." not in parts[-1][:-3]:
        assert listed == parts[-1]  # an ordinary "name.md" is listed as itself


def test_the_mapping_in_examples() -> None:
    assert file_rel(("progress.xml",)) == "progress.xml.md"
    assert file_rel(("project", "notes.md")) == "project/notes.md"
    assert file_rel(("todo",)) == "todo.md"
    assert [shown_name(n) for n in ("progress.xml.md", "notes.md", "todo.md", "v1.2.md")] == [
        "progress.xml", "notes.md", "todo.md", "v1.2.md"]
    assert memory_parts("/memories") == () and memory_parts("/memories/") == ()
    with pytest.raises(UsageError, match="must start with /memories"):
        memory_parts("/memoriesx")
    with pytest.raises(UsageError, match=r"may not end in \.md"):
        file_rel(("x.md", "y.md"))
