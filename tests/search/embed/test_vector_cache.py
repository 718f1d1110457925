"""The user's vector cache: shared by clones, safe for concurrent writers, derived (deleting it loses nothing)."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

from loa_memory.search.embed.vector_cache import VectorCache, cache_root, open_cache
from tests.fixtures import Cli, git


@pytest.fixture
def user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "loa-memory" / "vectors"


def test_a_second_clone_embeds_nothing_already_embedded_on_the_machine(
    loa: Cli, tmp_path: Path, user_cache: Path
) -> None:
    for n in range(5):
        assert loa("add", "fact", f"Service {n} listens on port {8000 + n}", "--summary", f"Port of {n}").exit_code == 0
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "memories")
    first = loa.json("index")
    assert first["embedded"] == 5 and first["from_cache"] == 0
    assert cache_root() == user_cache and len(list(user_cache.glob("*.sqlite"))) == 1
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(loa.root), str(clone))
    second = Cli(clone).json("index")
    assert second["embedded"] == 0 and second["from_cache"] == 5 and second["vectors"] == 5
    shutil.rmtree(clone / ".loa")  # derived: a search in a clone without .loa/ embeds nothing either
    found = Cli(clone).json("search", "which port does service 3 use", "--mode", "semantic")
    assert found["not_embedded"] == 0 and found["results"]
    assert Cli(clone).json("index")["embedded"] == 0


def test_turned_off_nothing_is_shared(loa: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOA_MEMORY_VECTOR_CACHE", "off")
    assert cache_root() is None and open_cache("m", 4) is None
    assert loa("add", "fact", "Service 1 listens on port 8001", "--summary", "Port of 1").exit_code == 0
    assert loa.json("index")["embedded"] == 1
    shutil.rmtree(loa.root / ".loa")
    assert loa.json("index")["embedded"] == 1


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    dim = 8
    rows = {f"h{n:03d}": np.full(dim, n, dtype=np.float32) for n in range(200)}
    keys = sorted(rows)

    def write(part: list[str]) -> None:
        VectorCache(tmp_path, "model/v1", dim).put(part, np.stack([rows[k] for k in part]))

    # four writers, each with its own connection; their halves overlap, as two clones embedding one grimoire do
    threads = [threading.Thread(target=write, args=(keys[i * 50 : i * 50 + 100],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    cache = VectorCache(tmp_path, "model/v1", dim)
    got = cache.get([*keys, "missing"])
    assert len(cache) == 200 and sorted(got) == keys
    assert all(np.array_equal(got[k], rows[k]) for k in keys)
    assert VectorCache(tmp_path, "model/v2", dim).get(keys) == {}  # another embedder's vectors are never mixed in


def test_a_damaged_cache_is_a_miss_not_an_error(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path, "model/v1", 4)
    cache.path.write_bytes(b"not a database")
    assert cache.get(["a"]) == {}
    cache.put(["a"], np.ones((1, 4), dtype=np.float32))  # nothing raised; the next `index` embeds again
    assert len(cache) == 0
