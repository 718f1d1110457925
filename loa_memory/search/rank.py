"""Hybrid ranking, as pure functions: fuse lexical and semantic results, then weight each entry.

Fusion adds to the semantic cosine a lexical term that counts only when an entry holds most of the
query's words, and only for a query whose words some entry mostly holds (see ``fuse``). Weights then
follow the task strategy (category), confidence, recency, effectiveness tier and memory tier
(episodic entries decay).
Every factor is recorded so ``--explain`` can show why an entry ranked where it did.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from loa_memory.model import CAPTURED_KINDS, Entry
from loa_memory.store.times import parse_time

COVERAGE_BASE = 0.3  # hybrid: what matching every query word is worth, on top of the cosine
BM25_SHARE = 0.2  # hybrid: extra for the strongest BM25 score among the query's hits
# hybrid: the lexical term fades in as the best coverage among the first 50 hits goes from 0.3 to 0.5
# (the first 50, not all: a search's pool of hits grows with k, and the top k must not depend on k)
GATE_FROM, GATE_TO, GATE_HITS = 0.3, 0.5, 50
# lexical alone (mode lexical, or no vectors yet): BM25F × (0.3 + 0.7 × coverage). BM25F sums each word's weight,
# so one rare word repeated in a long entry can outrank an entry holding most of the query; plain FTS5 scored
# better on task queries for that reason (benchmarks/reports/lexical.md)
LEXICAL_COVERAGE_FLOOR = 0.3


@dataclass(frozen=True)
class Weights:
    """Knobs of the ranking; ``category`` comes from the task strategy."""

    lexical: float = 1.0
    semantic: float = 1.0
    recency_weight: float = 0.1
    episodic_half_life_days: float = 14.0
    category: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Fused:
    """One candidate after fusion, with what each retriever said about it (None: not retrieved)."""

    key: str
    score: float
    lexical_rank: int | None
    lexical_score: float | None
    coverage: float | None
    semantic_rank: int | None
    semantic_score: float | None


def lexical_term(coverage: float, bm25: float, best_coverage: float) -> float:
    """What the words add to an entry's cosine in hybrid fusion.

    ``coverage²`` × (0.3 + 0.2 × ``bm25``, the entry's BM25 over the best), times the query's gate:
    0 while none of the best 50 BM25 hits holds more than 30% of the query's (idf-weighted) words,
    rising to 1 at 50%.
    A paraphrase shares no content word with its target, so the words it does share with other
    entries are incidental; on benchmarks/data/retrieval the gate turns one paraphrase miss into a hit
    and raises paraphrase MRR@10 without losing a hit of any other kind (benchmarks/fusion_variants.py).
    """
    gate = min(max((best_coverage - GATE_FROM) / (GATE_TO - GATE_FROM), 0.0), 1.0)
    return gate * coverage * coverage * (COVERAGE_BASE + BM25_SHARE * bm25)


def lexical_only(bm25: float, coverage: float) -> float:
    """An entry's score when words are all there is: its BM25F (over the best), weighed by the share of the
    query's (idf-weighted) words it holds: ``bm25 × (0.3 + 0.7 × coverage)``."""
    return bm25 * (LEXICAL_COVERAGE_FLOOR + (1.0 - LEXICAL_COVERAGE_FLOOR) * coverage)


def fuse(lexical: Sequence[tuple[str, float, float]], semantic: Sequence[tuple[str, float]],
         weights: Weights) -> list[Fused]:
    """Combine lexical hits (key, BM25, coverage) with semantic ones (key, cosine), each best first.

    Hybrid score = cosine + ``lexical_term``. Coverage is the share of the query's (idf-weighted)
    words an entry contains: a paraphrase shares few words with its target, so stray word matches add
    little, while an entry holding every query word is lifted clearly. Measured on
    benchmarks/data/retrieval (see docs/retrieval.md): it loses 2 of 50 paraphrases that the cosine
    alone finds and beats both retrievers on task queries. With semantic results alone, the cosine is used;
    with lexical ones alone, ``lexical_only``.
    """
    lex = {key: (rank, score, cov) for rank, (key, score, cov) in enumerate(lexical, 1)}
    sem = {key: (rank, score) for rank, (key, score) in enumerate(semantic, 1)}
    top = max((score for _, score, _ in lexical), default=0.0) or 1.0
    best_coverage = max((cov for _, _, cov in lexical[:GATE_HITS]), default=0.0)
    use_lex = weights.lexical if lexical else 0.0
    use_sem = weights.semantic if semantic else 0.0
    result = []
    for key in dict.fromkeys([*lex, *sem]):
        lex_rank, lex_score, coverage = lex.get(key, (None, None, None))
        sem_rank, cosine = sem.get(key, (None, None))
        bm25 = (lex_score or 0.0) / top
        if not use_sem:
            score = use_lex * lexical_only(bm25, coverage or 0.0)
        else:
            lexical_part = lexical_term(coverage or 0.0, bm25, best_coverage)
            score = use_sem * max(cosine or 0.0, 0.0) + use_lex * lexical_part
        result.append(Fused(key, score, lex_rank, lex_score, coverage, sem_rank, cosine))
    result.sort(key=lambda f: (-f.score, f.key))
    return result


TIER_FACTOR = {"high": 1.15, "medium": 1.0, "unscored": 1.0, "low": 0.85, "ineffective": 0.5}


def category_weight(entry: Entry, weights: Weights) -> float:
    """The task strategy's weight for the entry's category. An episode that records a correction, decision,
    preference or error (its ``action_types``, as session capture writes them) counts as that category if
    the strategy weighs it higher: a correction taught in the last session is a correction."""
    weight = weights.category.get(entry.category, 1.0)
    if entry.category == "episode":
        for kind in entry.action_types:
            if kind in CAPTURED_KINDS:
                weight = max(weight, weights.category.get(kind, 1.0))
    return weight


def entry_factors(entry: Entry, weights: Weights, now: datetime) -> dict[str, float]:
    """The multipliers applied to one entry's fused score, by name."""
    age_days = 0.0
    stamp = parse_time(entry.timestamp)
    if stamp is not None:
        age_days = max(0.0, (now - stamp).total_seconds() / 86400)
    factors = {
        "category": category_weight(entry, weights),
        "confidence": 0.75 + 0.25 * min(max(entry.confidence, 0.0), 1.0),
        "recency": 1.0 + weights.recency_weight * math.exp(-age_days / 180.0),
        "effectiveness": TIER_FACTOR[entry.effectiveness.tier],
    }
    if entry.category == "episode":
        retention = math.exp(-math.log(2) * age_days / max(weights.episodic_half_life_days, 0.1))
        factors["episodic_decay"] = 0.6 * (0.3 + 0.7 * retention)
    return factors


def max_factor(weights: Weights) -> float:
    """An upper bound of the product of ``entry_factors``: no entry is weighed up by more."""
    category = max([1.0, *weights.category.values()])
    return category * (1.0 + max(weights.recency_weight, 0.0)) * max(TIER_FACTOR.values())


def weigh(fused: Fused, entry: Entry, weights: Weights, now: datetime) -> tuple[float, dict[str, float]]:
    """The final score of a fused candidate, and the factors that made it."""
    factors = entry_factors(entry, weights, now)
    score = fused.score
    for value in factors.values():
        score *= value
    return score, factors
