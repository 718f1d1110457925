"""The cached load of a list file equals a fresh parse of it, and both agree with YAML read whole.

A cache that re-parses only part of a file must never call a broken file valid (issue 19): edits are
generated on list files with a fixed seed and, after each, the cached load (items and problems), the
uncached load and ``yaml.load`` of the whole text are compared.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loa_memory.store import yamlio
from loa_memory.store.cache import chunks
from loa_memory.store.config import load_config
from loa_memory.store.load import load_grimoire
from tests.fixtures import MEMDIR, Cli, initialised_repo

FACTS = f"{MEMDIR}/facts.yaml"
CORPUS = Path(__file__).resolve().parents[2]  # tests/


def _item(n: int, summary: str = "Use PostgreSQL for JSONB") -> str:
    return (f"- id: MEM-20260101-{n:03d}\n  category: fact\n  summary: {summary}\n  content: |\n"
            f"    Line one of {n}.\n  confidence: 0.9\n"
            f"  source: {{session_id: s{n}, timestamp: '2026-01-01T10:00:00Z'}}\n")


# text that YAML delimits differently from a cut at each `- ` at column 0, or that is no list at all
ODD = ["  indented: continuation\n", "\tx: 1\n", "\t\n", "---\n", "...\n", "[]\n", "top: level\n", "%YAML 1.2\n",
       "- &shared x\n", "- *shared\n", '- summary: "opens a quote\n', '  closes it"\n', "- 'one\n", "  two'\n",
       "- content: |+\n    kept\n\n\n", "# a comment\u2028- sneaked: in\n", "- a\r- b\n", "- [flow,\n", "  item]\n",
       "- {a: 1}\n", "-\n", "- not a mapping\n", "# comment\n", "\n", "   \n", "- x: [unclosed\n", "- key: value # c\n",
       "- ? complex\n  : key\n", "- a: >-\n    folded\n", "#\t tab in a comment\n", "- \n"]
BLOCKS = st.one_of(st.builds(_item, st.integers(1, 999)), st.sampled_from(ODD))
WHERE = st.one_of(st.just(0), st.just(-1), st.integers(0, 40))
EDITS = st.lists(st.tuples(st.sampled_from(["insert", "replace", "delete", "prefix", "suffix", "strip-newline"]),
                           WHERE, BLOCKS), min_size=1, max_size=6)


def _apply(blocks: list[str], edit: tuple[str, int, str]) -> None:
    kind, where, block = edit
    where = len(blocks) if where == -1 else where % (len(blocks) + 1)
    if kind == "insert" or not blocks:
        blocks.insert(where, block)
    elif kind == "replace":
        blocks[where % len(blocks)] = block
    elif kind == "delete":
        del blocks[where % len(blocks)]
    elif kind == "prefix":
        blocks[where % len(blocks)] = block + blocks[where % len(blocks)]
    elif kind == "suffix":
        blocks[where % len(blocks)] += block
    elif kind == "strip-newline":
        blocks[-1] = blocks[-1].rstrip("\n")


class _Writer:
    """Writes with a modification time of its own: two writes in one clock tick must not look alike."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tick = 1_700_000_000_000_000_000

    def __call__(self, text: str) -> None:
        self.path.write_bytes(text.encode("utf-8"))
        self.tick += 1_000_000
        os.utime(self.path, ns=(self.tick, self.tick))


def _state(root: Path, *, use_cache: bool) -> tuple[Any, ...]:
    grimoire = load_grimoire(load_config(root), use_cache=use_cache)
    return grimoire.items, sorted(grimoire.broken), grimoire.problems


def _whole(text: str) -> list[Any] | None:
    """What YAML makes of the whole text (None: it does not parse, or is no list)."""
    try:
        value = yamlio.load_text(text)
    except yamlio.YamlSyntaxError:
        return None
    return value if isinstance(value, list) else ([] if value is None else None)


def _check(root: Path, text: str) -> None:
    """The cached load (twice: building the cache, then from it) equals the uncached one; both equal YAML's."""
    cached = _state(root, use_cache=True)
    fresh = _state(root, use_cache=False)
    assert cached == fresh, text
    assert _state(root, use_cache=True) == cached, text
    items, broken, _problems = fresh
    truth = _whole(text)
    assert bool(broken) == (truth is None), (text, truth, broken)
    if truth is not None:
        assert [data for _hash, _line, data, _found in items[FACTS]] == truth, text


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chunks, "CHUNK_ITEMS", 3)  # so that a file of a dozen items has several chunks


@pytest.fixture(scope="module")
def shared_root() -> Iterator[Path]:
    with initialised_repo() as root:
        yield root


@settings(derandomize=True, max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(EDITS)
def test_cached_load_equals_a_fresh_parse_and_yaml_after_any_edits(shared_root: Path,
                                                                 edits: list[tuple[str, int, str]]) -> None:
    shutil.rmtree(shared_root / ".loa" / "cache", ignore_errors=True)
    write = _Writer(shared_root / FACTS)
    blocks = ["# facts\n", *(_item(n) for n in range(1, 11))]
    write("".join(blocks))
    _check(shared_root, "".join(blocks))
    for edit in edits:
        _apply(blocks, edit)
        write("".join(blocks))
        _check(shared_root, "".join(blocks))


def test_an_indented_first_line_breaks_a_warm_cached_file(grimoire: Path) -> None:
    """The case that escaped: a 149-entry file, the cache warm, then an indented line put before everything."""
    loa = Cli(grimoire)
    path = grimoire / FACTS
    good = "".join(_item(n) for n in range(1, 150))
    path.write_text(good, "utf-8")
    assert loa("list").exit_code == 0  # warms the cache (two chunks of 100 and 49 items)
    broken = "  indented: continuation\n" + good
    path.write_text(broken, "utf-8")
    _check(grimoire, broken)
    grimoire_now = load_grimoire(load_config(grimoire))
    assert grimoire_now.broken == {FACTS} and not grimoire_now.entries
    lint = loa("lint")
    assert lint.exit_code == 1 and f"{FACTS}:2:1:" in lint.output and "yaml-syntax" in lint.output
    add = loa("add", "fact", "A new fact that must not go into a file that does not parse")
    assert add.exit_code != 0 and f"{FACTS}:2:1" in add.output
    assert path.read_text("utf-8") == broken


@pytest.mark.parametrize("text", [
    "  indented: continuation\n" + _item(1),
    "[]\n" + _item(1),
    "---\n---\n" + _item(1),
    "\t\n" + _item(1),
    _item(1) + "\t\n" + _item(2),
    '- summary: "opens\n- id: MEM-20260101-002"\n',
    "- &shared {a: 1}\n- *shared\n",
    "- content: |+\n    kept\n\n\n" + _item(2),
    _item(1) + "# a comment\u2028- sneaked: in\n" + _item(2),
    "- a\r- b\n",
])
def test_text_yaml_reads_otherwise_than_its_cut_is_parsed_whole(shared_root: Path, text: str) -> None:
    shutil.rmtree(shared_root / ".loa" / "cache", ignore_errors=True)
    write = _Writer(shared_root / FACTS)
    write("".join(_item(n) for n in range(1, 11)))
    _state(shared_root, use_cache=True)
    write(text)
    _check(shared_root, text)


def _corpus() -> list[Path]:
    return sorted(path for path in CORPUS.rglob("*.y*ml") if path.suffix in (".yaml", ".yml"))


def test_the_corpus_has_list_files() -> None:
    assert len(_corpus()) >= 20


@pytest.mark.parametrize("path", _corpus(), ids=lambda path: path.relative_to(CORPUS).as_posix())
def test_every_corpus_yaml_file_loads_alike_cached_and_fresh(shared_root: Path, path: Path) -> None:
    """Each YAML file of the test suite, as facts.yaml, then edited at its head, middle and end."""
    try:
        text = path.read_text("utf-8")
    except UnicodeDecodeError:
        pytest.skip("not UTF-8")
    shutil.rmtree(shared_root / ".loa" / "cache", ignore_errors=True)
    write = _Writer(shared_root / FACTS)
    base = text + "".join(_item(n) for n in range(900, 905))  # long enough for several chunks
    lines = base.splitlines(keepends=True)
    for edited in (base, "  indented: continuation\n" + base, "# head\n" + base,
                   "".join(lines[: len(lines) // 2]) + "- x: [unclosed\n" + "".join(lines[len(lines) // 2:]),
                   base + "- id: X\n  content: [unclosed\n", base):
        write(edited)
        _check(shared_root, edited)
