"""store.memo: a long-lived process reuses what it loaded while the files are unchanged, and only then."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from loa_memory.store.cache import memo
from loa_memory.store.config import load_config
from loa_memory.store.load import load_grimoire
from tests.fixtures import MEMDIR, Cli, make_repo


@pytest.fixture
def enabled() -> Iterator[None]:
    memo.enable()
    yield
    memo._store = None


def test_off_by_default_every_load_is_fresh(loa: Cli) -> None:
    config = load_config(loa.root)
    assert not memo.enabled()
    assert load_grimoire(config) is not load_grimoire(config)


def test_reused_while_unchanged_and_reloaded_after_any_change(loa: Cli, enabled: None) -> None:
    assert loa("add", "fact", "Postgres is the main store", "--summary", "Postgres main store").exit_code == 0
    config = load_config(loa.root)
    first = load_grimoire(config)
    assert load_config(loa.root) is config and load_grimoire(config) is first
    assert loa("add", "fact", "Redis caches sessions", "--summary", "Redis sessions").exit_code == 0
    second = load_grimoire(config)
    assert second is not first and {e.summary for e in second.entries} >= {"Postgres main store", "Redis sessions"}
    facts = loa.root / MEMDIR / "facts.yaml"
    facts.write_text(facts.read_text().replace("Redis sessions", "Valkey sessions"))  # an editor, in place
    third = load_grimoire(config)
    assert third is not second and "Valkey sessions" in {e.summary for e in third.entries}
    (loa.root / MEMDIR / "decisions.yaml").unlink()
    assert load_grimoire(config) is not third


def test_a_config_edit_is_seen(loa: Cli, enabled: None) -> None:
    config = load_config(loa.root)
    path = loa.root / ".loa.config.yaml"
    path.write_text(path.read_text().replace("max_per_query: 10", "max_per_query: 3"))
    changed = load_config(loa.root)
    assert changed is not config and changed.retrieval.max_per_query == 3


def test_a_replaced_value_is_closed(enabled: None) -> None:
    closed: list[str] = []
    stamp = ["a"]
    assert memo.reuse("k", lambda: stamp[0], lambda: "one", close=closed.append) == "one"
    assert memo.reuse("k", lambda: stamp[0], lambda: "two", close=closed.append) == "one"
    stamp[0] = "b"
    assert memo.reuse("k", lambda: stamp[0], lambda: "three", close=closed.append) == "three"
    assert closed == ["one"]


def test_what_one_repository_loaded_is_dropped_alone(loa: Cli, tmp_path: Path, enabled: None) -> None:
    """The warm server serves several repositories: each one's state is kept apart and dropped on its own."""
    other = Cli(make_repo(tmp_path / "other"))
    assert other("init").exit_code == 0
    closed: list[object] = []
    values = {}
    for cli in (loa, other):
        with memo.scope(cli.root):
            values[cli.root] = load_grimoire(load_config(cli.root))
            memo.reuse(("probe", str(cli.root)), tuple, object, close=closed.append)
    assert memo.scopes() == {loa.root, other.root}
    assert memo.forget(loa.root) >= 3  # config, grimoire, probe
    assert len(closed) == 1 and memo.scopes() == {other.root}
    with memo.scope(other.root):
        assert load_grimoire(load_config(other.root)) is values[other.root]  # still held
    with memo.scope(loa.root):
        assert load_grimoire(load_config(loa.root)) is not values[loa.root]  # loaded afresh
    assert memo.forget("never seen") == 0
