"""rank: the lexical term of hybrid fusion and its query gate."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loa_memory.search.rank import GATE_HITS, Weights, fuse, lexical_term


@pytest.mark.parametrize(("best", "gate"), [
    (0.0, 0.0), (0.2, 0.0), (0.3, 0.0), (0.35, 0.25), (0.4, 0.5), (0.5, 1.0), (0.8, 1.0), (1.0, 1.0),
])
def test_the_lexical_term_fades_in_with_the_best_coverage(best: float, gate: float) -> None:
    full = 0.25 * (0.3 + 0.2 * 0.5)  # coverage 0.5, BM25 half the best
    assert lexical_term(0.5, 0.5, best) == pytest.approx(gate * full)


def test_a_paraphrase_keeps_its_semantic_match_on_top() -> None:
    # no entry holds much of the query's words: the stray match must not outrank the better cosine
    ranked = fuse([("noise", 9.0, 0.35)], [("target", 0.40), ("noise", 0.36)], Weights())
    assert [f.key for f in ranked] == ["target", "noise"]
    assert ranked[1].score == pytest.approx(0.36 + 0.25 * 0.35 ** 2 * 0.5)


def test_an_entry_holding_every_query_word_is_still_lifted() -> None:
    ranked = fuse([("a", 5.0, 1.0), ("b", 5.0, 0.3)], [("a", 0.4), ("b", 0.45)], Weights())
    assert [f.key for f in ranked] == ["a", "b"]
    assert ranked[0].score == pytest.approx(0.4 + 0.5)


def test_lexical_mode_ignores_the_gate() -> None:
    ranked = fuse([("a", 4.0, 0.1), ("b", 8.0, 0.1)], [], Weights())
    assert [(f.key, f.score) for f in ranked] == [("b", pytest.approx(0.37)), ("a", pytest.approx(0.185))]


def test_lexical_mode_weighs_bm25_by_coverage() -> None:
    """Words alone: an entry holding most of the query beats one with a higher BM25 from one repeated word."""
    ranked = fuse([("repeats-one-word", 10.0, 0.25), ("holds-the-query", 7.0, 0.9)], [], Weights())
    assert [f.key for f in ranked] == ["holds-the-query", "repeats-one-word"]
    assert ranked[0].score == pytest.approx(0.7 * (0.3 + 0.7 * 0.9))


_hit = st.tuples(st.floats(0.1, 50.0), st.floats(0.0, 1.0))


@given(st.lists(_hit, min_size=GATE_HITS, max_size=GATE_HITS + 30), st.integers(0, 30))
def test_hits_past_the_first_fifty_change_no_other_score(hits: list[tuple[float, float]], extra: int) -> None:
    """search asks for more lexical hits when k grows; the scores of the first ones must not move."""
    lexical = sorted(((f"k{i}", bm25, cov) for i, (bm25, cov) in enumerate(hits)), key=lambda h: -h[1])
    semantic = [(key, 0.5) for key, _, _ in lexical]
    short = {f.key: f.score for f in fuse(lexical[:GATE_HITS], semantic, Weights())}
    longer = {f.key: f.score for f in fuse(lexical[:GATE_HITS + extra], semantic, Weights())}
    assert all(longer[key] == short[key] for key, _, _ in lexical[:GATE_HITS])
