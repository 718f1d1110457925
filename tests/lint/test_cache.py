"""What lint reports from its caches (loader chunks, per-entry findings, secrets, near-duplicate sketches) is
exactly what a run with no cache at all reports, through edits, deletions, renames, config changes, the
clock moving either way, lost cache files, and two processes at once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loa_memory.lint import LintOptions, run_lint
from loa_memory.store import yamlio
from loa_memory.store.cache import chunks
from loa_memory.store.config import load_config
from tests.fixtures import MEMDIR, Cli, make_repo

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
FILES = (f"{MEMDIR}/facts.yaml", f"{MEMDIR}/learnings.yaml", f"{MEMDIR}/archive/facts.yaml")
TOKEN = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
TEXTS = ("Run the database migrations before seeding the integration test database",
         "Cache keys are content hashes so renames never invalidate them",
         "The gateway closes idle connections after thirty seconds of silence")


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _entry(n: int, kind: str) -> dict[str, Any]:
    """An entry that trips one rule (or none): the material edits are made of."""
    text = TEXTS[n % len(TEXTS)] + ("" if kind == "near" else f" (number {n})")
    data: dict[str, Any] = {"id": f"MEM-20260101-{n:03d}", "category": "fact", "summary": text[:60],
                            "content": text, "confidence": 0.9,
                            "source": {"session_id": f"s{n}", "timestamp": "2026-01-01T10:00:00Z"},
                            "ttl": "permanent", "tags": ["cache"]}
    changes: dict[str, Callable[[], None]] = {
        "future": lambda: data["source"].update(timestamp=_stamp(NOW + timedelta(days=2))),
        "future-id": lambda: data.update(id=f"MEM-{(NOW + timedelta(days=3)):%Y%m%d}-{n:03d}"),
        "bad-date": lambda: data.update(id=f"MEM-20261340-{n:03d}"),
        "no-summary": lambda: data.pop("summary"),
        "empty-content": lambda: data.update(content=""),
        "unknown": lambda: data.update(colour="blue"),
        "decision": lambda: data.update(category="decision", rationale="because"),
        "learning": lambda: data.update(category="learning", ttl="90d"),
        "secret": lambda: data.update(content=f"deploy with {TOKEN} from the vault"),
        "supersedes": lambda: data.update(supersedes="MEM-20260101-001"),
        "dangling": lambda: data.update(links=[{"to": "MEM-20990101-001", "relation": "related_to"}]),
        "duplicate": lambda: data.update(id="MEM-20260101-001"),
        "expired": lambda: data.update(expires_at=_stamp(NOW - timedelta(days=2))),
        "expiring": lambda: data.update(expires_at=_stamp(NOW + timedelta(days=3))),
        "ineffective": lambda: data.update(effectiveness={"applications": 10, "successes": 1, "score": 10}),
        "bad-tag": lambda: data.update(tags=["Bad Tag"]),
        "low-confidence": lambda: data.update(confidence=0.1),
        "archived": lambda: data.update(archived=True, archived_at="2026-02-01T00:00:00Z", archive_reason="manual"),
    }
    if kind in changes:
        changes[kind]()
    return data


KINDS = ("ok", "ok", "near", "future", "future-id", "bad-date", "no-summary", "empty-content", "unknown",
         "decision", "learning", "secret", "supersedes", "dangling", "duplicate", "expired", "expiring",
         "ineffective", "bad-tag", "low-confidence", "archived", "ignored", "syntax")


def _block(n: int, kind: str) -> str:
    if kind == "syntax":
        return f"- id: MEM-20260101-{n:03d}\n  summary: [unclosed\n"
    text = yamlio.dump_item(_entry(n, "unknown" if kind == "ignored" else kind))
    if kind == "ignored":  # the pragma on the entry's first line silences its finding
        first, rest = text.split("\n", 1)
        return f"{first}  # loa: ignore[unknown-field]\n{rest}"
    return text


@dataclass
class Grimoire:
    """The memory files as lists of blocks (items, comments), the config's lint settings, and the clock."""

    files: dict[str, list[str]]
    settings: dict[str, Any] = field(default_factory=dict)
    now: datetime = NOW
    serial: int = 100

    def render(self, root: Path, tick: list[int]) -> None:
        for rel, blocks in self.files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(blocks), "utf-8")
            tick[0] += 1_000_000  # a modification time of its own: edits within one clock tick must not look alike
            os.utime(path, ns=(tick[0], tick[0]))
        config = root / ".loa.config.yaml"
        data = yaml.safe_load(config.read_text())
        data["memory_schema"]["lint"] = self.settings
        config.write_text(yaml.safe_dump(data))


EDIT = st.tuples(st.sampled_from(["edit", "insert", "delete", "move", "comment", "config", "time", "drop",
                                  "touch"]),
                 st.integers(0, 40), st.sampled_from(KINDS))
CONFIGS = ({}, {"max_content_length": 40}, {"rules": {"unknown-field": "off"}},
           {"rules": {"unknown-field": "error", "id-format": "warning"}}, {"near_duplicate_threshold": 0.5})
COMMENTS = ("# a note\n", "\n\n", f"# {TOKEN}\n", "#\n")
CACHES = ("lint-entries.marshal", "near-duplicate.marshal", "secrets.marshal", "load")


def _edit(state: Grimoire, root: Path, edit: tuple[str, int, str]) -> None:
    action, where, kind = edit
    rel = FILES[where % len(FILES)]
    blocks = state.files[rel]
    spot = where % (len(blocks) + 1)
    state.serial += 1
    if action == "edit" and blocks:
        blocks[spot % len(blocks)] = _block(state.serial, kind)
    elif action in ("insert", "edit"):
        blocks.insert(spot, _block(state.serial, kind))
    elif action == "delete" and blocks:
        del blocks[spot % len(blocks)]
    elif action == "move" and blocks:  # a rename of the entry's file: another category, or the archive
        state.files[FILES[(where + 1) % len(FILES)]].append(blocks.pop(spot % len(blocks)))
    elif action == "comment":
        blocks.insert(spot, COMMENTS[where % len(COMMENTS)])
    elif action == "config":
        state.settings = dict(CONFIGS[where % len(CONFIGS)])
    elif action == "time":
        state.now += timedelta(days=(where % 9) - 4)
    elif action == "drop":
        target = root / ".loa" / "cache" / CACHES[where % len(CACHES)]
        shutil.rmtree(target, ignore_errors=True) if target.is_dir() else target.unlink(missing_ok=True)


def _findings(root: Path, now: datetime, paths: tuple[str, ...] = ()) -> tuple[Any, ...]:
    result = run_lint(load_config(root), LintOptions(paths=[str(root / p) for p in paths], now=now))
    return ([(f.path, f.line, f.col, f.severity, f.rule, f.message, f.entry_id, f.fixable, dict(f.extra))
             for f in result.findings], result.files, result.entries)


@contextmanager
def _repos() -> Iterator[tuple[Path, Path]]:
    """A repository whose caches live on between checks, and one that is checked with no cache at all."""
    with tempfile.TemporaryDirectory() as tmp:
        roots = []
        for name in ("cached", "fresh"):
            root = make_repo(Path(tmp) / name)
            assert Cli(root)("init").exit_code == 0
            roots.append(root)
        yield roots[0], roots[1]


def _check(state: Grimoire, cached: Path, fresh: Path, tick: list[int]) -> None:
    state.render(cached, tick)
    shutil.rmtree(fresh / ".loa", ignore_errors=True)
    state.render(fresh, tick)
    for paths in ((), (FILES[0],)):  # the whole grimoire, and the pre-commit hook's one file
        assert _findings(cached, state.now, paths) == _findings(fresh, state.now, paths)
        shutil.rmtree(fresh / ".loa", ignore_errors=True)


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chunks, "CHUNK_ITEMS", 2)  # a dozen entries make several chunks


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(KINDS), min_size=3, max_size=10), st.lists(EDIT, min_size=1, max_size=6))
def test_cached_lint_equals_uncached_lint_after_any_edits(kinds: list[str],
                                                          edits: list[tuple[str, int, str]]) -> None:
    state = Grimoire({FILES[0]: ["# facts\n", *(_block(n, kind) for n, kind in enumerate(kinds, 1))],
                      FILES[1]: [_block(50, "learning")], FILES[2]: []})
    tick = [1_700_000_000_000_000_000]
    with _repos() as (cached, fresh):
        _check(state, cached, fresh, tick)
        for edit in edits:
            _edit(state, cached, edit)
            _check(state, cached, fresh, tick)


def test_a_future_timestamp_is_re_checked_once_the_clock_passes_it(loa: Cli) -> None:
    state = Grimoire({FILES[0]: [_block(1, "ok"), _block(2, "future"), _block(3, "future-id")], FILES[1]: [],
                      FILES[2]: []})
    state.render(loa.root, [1_700_000_000_000_000_000])
    rules = [f[4] for f in _findings(loa.root, NOW)[0]]
    assert rules == ["id-format", "id-format"]
    assert _findings(loa.root, NOW + timedelta(days=5))[0] == []  # from the cache: answers had an expiry
    assert [f[4] for f in _findings(loa.root, NOW)[0]] == rules  # and back: answers from the future are not used


def test_two_processes_linting_at_once_leave_caches_that_stay_exact(loa: Cli) -> None:
    state = Grimoire({FILES[0]: [_block(n, kind) for n, kind in enumerate(KINDS, 1)], FILES[1]: [], FILES[2]: []})
    tick = [1_700_000_000_000_000_000]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    command = [sys.executable, "-m", "loa_memory", "--root", str(loa.root), "lint", "--format", "json"]
    with tempfile.TemporaryDirectory() as tmp:
        fresh = make_repo(Path(tmp) / "fresh")
        assert Cli(fresh)("init").exit_code == 0
        for round_ in range(3):
            state.files[FILES[0]].insert(round_ * 3, _block(200 + round_, KINDS[round_ * 5]))
            state.render(loa.root, tick)
            runs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE) for _ in range(2)]
            outputs = [run.communicate()[0] for run in runs]
            assert outputs[0] == outputs[1]
            shutil.rmtree(fresh / ".loa", ignore_errors=True)
            state.render(fresh, tick)
            assert loa.json("lint")["findings"] == Cli(fresh).json("lint")["findings"]  # the caches they left


def test_the_code_the_cache_depends_on_exists() -> None:
    from loa_memory.lint import cache

    package = Path(cache.__file__).parents[1]
    assert [name for name in cache._CODE if not (package / name).is_file()] == []
