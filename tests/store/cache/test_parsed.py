"""The loader's chunked cache gives exactly what a load without any cache gives, whatever the edits."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loa_memory.store.cache import chunks
from loa_memory.store.config import load_config
from loa_memory.store.load import load_grimoire
from tests.fixtures import MEMDIR, Cli, initialised_repo

FACTS = f"{MEMDIR}/facts.yaml"


def _item(n: int, summary: str = "Use PostgreSQL for JSONB", extra: str = "") -> str:
    return (f"- id: MEM-20260101-{n:03d}\n  category: fact\n  summary: {summary}\n  content: |\n"
            f"    Line one of {n}.\n    Line two.\n  confidence: 0.9\n"
            f"  source: {{session_id: s{n}, timestamp: '2026-01-01T10:00:00Z'}}\n{extra}")


# what an edit may put in the file: items (valid, invalid, non-ASCII, broken YAML), trivia, and shapes that
# stop the file from being cut by text
BLOCKS = st.one_of(
    st.builds(_item, st.integers(1, 999)),
    st.builds(_item, st.integers(1, 999), st.sampled_from(["Élan vital → café", "日本語の要約", "x: y", "a\tb"])),
    st.builds(_item, st.integers(1, 999), st.just("ok"), st.sampled_from(
        ["  tags: [Bad Tag]\n", "  confidence2: 1\n", "  links: [{to: MEM-20990101-001, relation: x}]\n",
         "  broken: [unclosed\n", "  summary: twice\n", "\n\n", "# trailing comment\n"])),
    st.sampled_from(["# a comment\n", "\n", "\n\n\n", "#\n", "# ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5\n",
                     "- not a mapping\n", "-\n", "- [flow, item]\n", "  indented: continuation\n",
                     "top: level\n", "---\n", "[]\n", "- id: MEM-20260101-500\n  summary: [unclosed\n"]),
)
EDITS = st.lists(st.tuples(st.sampled_from(["insert", "replace", "delete", "swap", "strip-newline", "touch"]),
                           st.integers(0, 60), BLOCKS), min_size=1, max_size=8)


def _apply(blocks: list[str], edit: tuple[str, int, str]) -> None:
    kind, where, block = edit
    where = where % (len(blocks) + 1)
    if kind == "insert" or not blocks:
        blocks.insert(where, block)
    elif kind == "replace":
        blocks[where % len(blocks)] = block
    elif kind == "delete":
        del blocks[where % len(blocks)]
    elif kind == "swap":
        a, b = where % len(blocks), (where + 1) % len(blocks)
        blocks[a], blocks[b] = blocks[b], blocks[a]
    elif kind == "strip-newline":
        blocks[-1] = blocks[-1].rstrip("\n")


def _write(path: Path, text: str, tick: list[int]) -> None:
    """Write with a modification time of its own: two writes in one clock tick must not look alike."""
    path.write_bytes(text.encode("utf-8"))
    tick[0] += 1_000_000
    os.utime(path, ns=(tick[0], tick[0]))


def _state(root: Path, *, use_cache: bool) -> tuple[Any, ...]:
    grimoire = load_grimoire(load_config(root), use_cache=use_cache)
    return grimoire.items, sorted(grimoire.broken), grimoire.problems


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chunks, "CHUNK_ITEMS", 3)  # so that a file of a dozen items has several chunks


@settings(derandomize=True, max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(EDITS)
def test_cached_load_equals_uncached_load_after_any_edits(edits: list[tuple[str, int, str]]) -> None:
    with initialised_repo() as root:
        path = root / FACTS
        blocks = ["# facts\n", *(_item(n) for n in range(1, 13))]
        tick = [1_700_000_000_000_000_000]
        _write(path, "".join(blocks), tick)
        assert _state(root, use_cache=True) == _state(root, use_cache=False)
        for edit in edits:
            _apply(blocks, edit)
            _write(path, "".join(blocks), tick)
            cached = _state(root, use_cache=True)
            assert cached == _state(root, use_cache=False), edit
            assert _state(root, use_cache=True) == cached  # and again, now from the cache as it was left


def test_an_edit_re_cuts_only_the_chunks_it_touched(grimoire: Path) -> None:
    path = grimoire / FACTS
    blocks = [_item(n) for n in range(1, 31)]
    tick = [1_700_000_000_000_000_000]
    _write(path, "".join(blocks), tick)
    first = load_grimoire(load_config(grimoire))
    assert first.texts and not first.changes  # cut whole the first time
    blocks[14] = _item(15, "A changed summary")
    _write(path, "".join(blocks), tick)
    second = load_grimoire(load_config(grimoire))
    change = second.changes[FACTS]
    assert not second.texts
    assert [item.text for item in change.items] == blocks[12:15]  # the chunk of items 13-15, nothing else
    assert change.line == sum(block.count("\n") for block in blocks[:12])
    assert second.items == _state(grimoire, use_cache=False)[0]


def test_lost_or_damaged_cache_files_cost_only_a_parse(grimoire: Path) -> None:
    path = grimoire / FACTS
    tick = [1_700_000_000_000_000_000]
    _write(path, "".join(_item(n) for n in range(1, 20)), tick)
    expected = _state(grimoire, use_cache=False)
    load_grimoire(load_config(grimoire))
    cache = grimoire / ".loa" / "cache" / "load"
    for blob in next(p for p in cache.iterdir() if p.is_dir()).iterdir():
        blob.write_bytes(b"not marshal")
    assert _state(grimoire, use_cache=True) == expected  # unchanged file, unreadable blobs
    _write(path, path.read_text() + _item(99), tick)
    expected = _state(grimoire, use_cache=False)
    shutil.rmtree(next(p for p in cache.iterdir() if p.is_dir()))
    assert _state(grimoire, use_cache=True) == expected  # changed file, blobs gone
    for index in cache.glob("*.marshal"):
        index.write_bytes(b"\x00garbage")
    _write(path, path.read_text() + _item(98), tick)
    assert _state(grimoire, use_cache=True) == _state(grimoire, use_cache=False)
    folder = next(p for p in cache.iterdir() if p.is_dir())
    shutil.rmtree(folder)
    folder.write_text("a file where the blobs should go: nothing can be written there")
    _write(path, path.read_text() + _item(97), tick)
    assert _state(grimoire, use_cache=True) == _state(grimoire, use_cache=False)  # cached whole instead
    assert _state(grimoire, use_cache=True) == _state(grimoire, use_cache=False)


def test_writes_through_the_store_keep_the_cache_exact(grimoire: Path) -> None:
    tick = [1_700_000_000_000_000_000]
    _write(grimoire / FACTS, "".join(_item(n) for n in range(1, 11)), tick)
    loa = Cli(grimoire)
    load_grimoire(load_config(grimoire))
    first = loa.json("add", "fact", "Appended: the cache learns it without parsing it")["id"]
    loa.json("add", "fact", "Appended again")
    assert _state(grimoire, use_cache=True) == _state(grimoire, use_cache=False)
    assert loa("supersede", first, "A rewrite in the middle of the file").exit_code == 0
    assert _state(grimoire, use_cache=True) == _state(grimoire, use_cache=False)
