from __future__ import annotations

from pathlib import Path

import pytest

from loa_memory.errors import ConfigError, NotInitialised
from loa_memory.store.config import find_root, load_config
from tests.fixtures import write


def test_defaults_follow_the_design_table(grimoire: Path) -> None:
    config = load_config(grimoire)
    assert config.category("decision").min_confidence == 0.9
    assert config.category("learning").ttl == "90d"
    assert config.world().storage_dir == "grimoires/loa/memory"


def test_root_is_found_from_a_subdirectory(grimoire: Path) -> None:
    sub = grimoire / "src" / "deep"
    sub.mkdir(parents=True)
    assert find_root(sub) == grimoire.resolve()


def test_missing_config_and_grimoire_says_run_init(repo: Path) -> None:
    with pytest.raises(NotInitialised) as info:
        load_config(repo)
    assert "loa-memory init" in str(info.value)


@pytest.mark.parametrize(("body", "line", "words"), [
    ("memory_schema:\n  retrieval:\n    max_per_query: 5\n    recency_wieght: 0.2\n", 5, "recency_wieght"),
    ("memory_schema:\n  lifecycle:\n    warn_before_archive_days: soon\n", 4, "expected integer"),
    ("memory_schema:\n  categories:\n    decision: {min_confidence: 2}\n", 4, "maximum"),
    ("memory_schema:\n  storage_dir: [a\n", 4, "expected"),
])
def test_bad_keys_name_the_file_and_line(repo: Path, body: str, line: int, words: str) -> None:
    write(repo, ".loa.config.yaml", "other_tool: {x: 1}\n" + body)
    with pytest.raises(ConfigError) as info:
        load_config(repo)
    assert info.value.path == ".loa.config.yaml"
    assert info.value.line == line
    assert words in info.value.message


def test_worlds_and_category_overrides(repo: Path) -> None:
    write(repo, ".loa.config.yaml", "memory_schema:\n  worlds:\n    loa: {}\n    research: {}\n"
          "  categories:\n    decision: {min_confidence: 0.7}\n    risk: {path: risks.yaml, ttl: 60d}\n")
    config = load_config(repo)
    assert [w.storage_dir for w in config.worlds] == ["grimoires/loa/memory", "grimoires/research/memory"]
    assert config.category("decision").min_confidence == 0.7
    assert config.category("risk").ttl == "60d"


def test_storage_dir_outside_the_repository_is_refused(repo: Path) -> None:
    write(repo, ".loa.config.yaml", "memory_schema:\n  storage_dir: ../elsewhere\n")
    with pytest.raises(ConfigError, match="relative path inside"):
        load_config(repo)
