"""The embeddings sidecar on real files: incremental, atomic, prunable, shared by processes."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from loa_memory.search.embed import Sidecar, text_hash
from loa_memory.search.embed.hashing import HashingEmbedder


class CountingEmbedder(HashingEmbedder):
    """The fallback embedder, counting what it is asked to embed."""

    def __init__(self) -> None:
        super().__init__(dim=64)
        self.calls: list[int] = []

    entries_per_second = 1000.0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(len(texts))
        return super().embed(texts)


def _items(texts: Sequence[str]) -> list[tuple[str, str]]:
    return [(text_hash(t), t) for t in texts]


TEXTS = ["run migrations before deploy", "postgres over sqlite for JSONB", "retry flaky network tests",
         "never commit secrets", "cache key includes the lockfile hash"]


def test_second_ensure_embeds_nothing(tmp_path: Path) -> None:
    e = CountingEmbedder()
    assert Sidecar(tmp_path, e).ensure(_items(TEXTS)) == 5
    assert sum(e.calls) == 5
    again = Sidecar(tmp_path, e)  # a new process would start like this: from the files
    assert again.ensure(_items(TEXTS)) == 0
    assert sum(e.calls) == 5
    assert len(again) == 5


def test_changed_text_embeds_one(tmp_path: Path) -> None:
    e = CountingEmbedder()
    side = Sidecar(tmp_path, e)
    side.ensure(_items(TEXTS))
    changed = [*TEXTS[:-1], "cache key includes the lockfile hash and the OS"]
    assert side.ensure(_items(changed)) == 1
    assert e.calls[-1] == 1


def test_matrix_rows_in_order_and_missing_rows_zero(tmp_path: Path) -> None:
    e = CountingEmbedder()
    side = Sidecar(tmp_path, e)
    side.ensure(_items(TEXTS))
    hashes = [text_hash(TEXTS[2]), "missing", text_hash(TEXTS[0])]
    m = side.matrix(hashes)
    np.testing.assert_array_equal(m[0], e.embed([TEXTS[2]])[0])
    assert not m[1].any()
    np.testing.assert_array_equal(m[2], e.embed([TEXTS[0]])[0])
    with pytest.raises(KeyError):
        side.matrix(hashes, missing="raise")


def test_float16_storage_is_close(tmp_path: Path) -> None:
    e = CountingEmbedder()
    side = Sidecar(tmp_path, e, dtype="float16")
    side.ensure(_items(TEXTS))
    np.testing.assert_allclose(side.matrix([text_hash(TEXTS[1])])[0], e.embed([TEXTS[1]])[0], atol=1e-3)


def test_search_ranks_and_filters(tmp_path: Path) -> None:
    e = CountingEmbedder()
    side = Sidecar(tmp_path, e)
    side.ensure(_items(TEXTS))
    best = side.search_text("run migration before deploying", k=2)
    assert best[0][0] == text_hash(TEXTS[0])
    assert len(best) == 2 and best[0][1] >= best[1][1]
    only = [text_hash(TEXTS[3]), text_hash(TEXTS[4]), "unknown"]
    assert {h for h, _ in side.search_text("migrations", only, k=10)} == set(only[:2])
    assert side.search(np.zeros(64, dtype=np.float32)) == []


def test_prune_drops_unreferenced_and_files(tmp_path: Path) -> None:
    e = CountingEmbedder()
    side = Sidecar(tmp_path, e)
    side.ensure(_items(TEXTS[:3]))
    side.ensure(_items(TEXTS[3:]))
    keep = [text_hash(t) for t in TEXTS[1:4]]
    assert side.prune(keep) == 2
    assert side.hashes() == set(keep)
    assert Sidecar(tmp_path, e).hashes() == set(keep)
    assert len(list(side.dir.glob("*.npy"))) == 2  # one segment: keys + vectors
    assert side.prune(keep) == 0
    assert side.prune([]) == 3 and len(side) == 0


def test_segments_are_merged(tmp_path: Path) -> None:
    e = CountingEmbedder()
    side = Sidecar(tmp_path, e, batch_size=1)
    texts = [f"memory number {i}" for i in range(20)]
    side.ensure(_items(texts))
    manifest = json.loads((side.dir / "manifest.json").read_text())
    assert len(manifest["segments"]) == bin(20).count("1")  # binary-counter merging
    assert len(list(side.dir.glob("*.npy"))) == 2 * len(manifest["segments"])
    assert Sidecar(tmp_path, e).hashes() == {text_hash(t) for t in texts}


def test_progress_and_batches(tmp_path: Path) -> None:
    e = CountingEmbedder()
    seen: list[tuple[int, int]] = []
    Sidecar(tmp_path, e, batch_size=2).ensure(_items(TEXTS), progress=lambda d, t: seen.append((d, t)))
    assert e.calls == [2, 2, 1]
    assert seen == [(2, 5), (4, 5), (5, 5)]


def test_corrupt_manifest_is_rebuilt(tmp_path: Path) -> None:
    e = CountingEmbedder()
    side = Sidecar(tmp_path, e)
    side.ensure(_items(TEXTS))
    (side.dir / "manifest.json").write_text("{not json")
    fresh = Sidecar(tmp_path, e)
    assert len(fresh) == 0
    assert fresh.ensure(_items(TEXTS)) == 5
    assert len(Sidecar(tmp_path, e)) == 5


def test_embedders_do_not_share_vectors(tmp_path: Path) -> None:
    Sidecar(tmp_path, HashingEmbedder(dim=64)).ensure(_items(TEXTS))
    other = Sidecar(tmp_path, HashingEmbedder(dim=32))
    assert len(other) == 0 and other.dir != Sidecar(tmp_path, HashingEmbedder(dim=64)).dir


def _worker(root: str, texts: list[str]) -> None:
    Sidecar(Path(root), HashingEmbedder(dim=64), batch_size=3).ensure(_items(texts))


def test_two_processes_at_once(tmp_path: Path) -> None:
    texts = [f"shared memory {i}" for i in range(40)]
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_worker, args=(str(tmp_path), texts[i::2] + texts[:10])) for i in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    side = Sidecar(tmp_path, HashingEmbedder(dim=64))
    assert side.hashes() == {text_hash(t) for t in texts}
    np.testing.assert_allclose(side.matrix([text_hash(texts[7])])[0],
                               HashingEmbedder(dim=64).embed([texts[7]])[0], atol=1e-3)
