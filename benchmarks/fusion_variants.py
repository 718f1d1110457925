"""Hybrid fusion variants on the retrieval benchmark: what the lexical term added to the cosine should be.

Each variant replaces ``loa_memory.search.rank.lexical_term`` (what an entry's words add to its cosine,
given its coverage, its BM25 over the best and the best coverage among the query's first 50 hits) and runs
every query of benchmarks/data/retrieval through ``search --history`` in hybrid mode. Semantic and lexical
alone are listed for reference. Hits are counted per kind (R@5), with the change from the old formula.

Run: python benchmarks/fusion_variants.py [--workdir DIR] [--no-report]
     → prints the table and writes benchmarks/reports/fusion-variants.md
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.retrieval_quality import DATA, evaluate, load_jsonl, seed
from loa_memory.search import rank
from loa_memory.search.search import SearchOptions, search
from loa_memory.store import load_config

Term = Callable[[float, float, float], float]


def _old(cov: float, bm25: float, best: float) -> float:
    return cov * cov * (rank.COVERAGE_BASE + rank.BM25_SHARE * bm25)


def _gated(low: float, high: float) -> Term:
    def term(cov: float, bm25: float, best: float) -> float:
        return min(max((best - low) / (high - low), 0.0), 1.0) * _old(cov, bm25, best)
    return term


def _above(floor: float) -> Term:
    def term(cov: float, bm25: float, best: float) -> float:
        return _old(max(0.0, (cov - floor) / (1.0 - floor)), bm25, best)
    return term


VARIANTS: dict[str, Term] = {
    "before: coverage² × (0.3 + 0.2 × BM25)": _old,
    "adopted: before × gate, best coverage 0.3 → 0.5": rank.lexical_term,
    "before × gate, best coverage 0.35 → 0.6": _gated(0.35, 0.6),
    "before × gate, best coverage 0.4 → 0.6": _gated(0.4, 0.6),
    "coverage³ × (0.3 + 0.2 × BM25)": lambda c, b, _: c ** 3 * (0.3 + 0.2 * b),
    "coverage⁴ × (0.5 + 0.2 × BM25)": lambda c, b, _: c ** 4 * (0.5 + 0.2 * b),
    "coverage counted above 0.3 only": _above(0.3),
    "coverage counted above 0.5 only": _above(0.5),
}


def run(root: Path, queries: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    results = [(f"{mode} alone", evaluate(root, queries, mode)) for mode in ("lexical", "semantic")]
    adopted = rank.lexical_term
    try:
        for label, term in VARIANTS.items():
            rank.lexical_term = term  # fuse looks the term up at each call
            results.append((label, evaluate(root, queries, "hybrid")))
            print(label, {k: round(v[0], 3) for k, v in results[-1][1]["table"].items()}, flush=True)
    finally:
        rank.lexical_term = adopted
    return results


def report(results: list[tuple[str, dict[str, Any]]], n_memories: int, n_queries: int) -> str:
    kinds = list(results[0][1]["table"])
    before = dict(results)[next(iter(VARIANTS))]["table"]
    head = "| variant | " + " | ".join(f"{k} R@5 (Δ hits) | {k} MRR@10" for k in kinds) + " | order |"
    lines = ["# Hybrid fusion variants (measured by benchmarks/fusion_variants.py)", "",
             f"{n_memories} memories, {n_queries} queries (benchmarks/data/retrieval), `search --history`; "
             "Δ hits: R@5 hits gained (+) or lost (−) against the old formula. "
             "order: current entry above the one it replaced, of the superseded queries.", "",
             head, "|---|" + "---|---|" * len(kinds) + "---|"]
    for label, result in results:
        cells = []
        for kind in kinds:
            r5, mrr, n = result["table"][kind]
            delta = round((r5 - before[kind][0]) * n)
            cells.append(f"{r5:.3f} ({delta:+d}) | {mrr:.3f}")
        ok, total = result["order"]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {ok}/{total} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=None,
                        help="keep the seeded repository (and its vectors) here and reuse it on the next run")
    parser.add_argument("--no-report", action="store_true", help="print only; leave the report file alone")
    args = parser.parse_args()
    memories = load_jsonl(DATA / "memories.jsonl")
    queries = [q for path in sorted(DATA.glob("queries*.jsonl")) for q in load_jsonl(path)]
    base = args.workdir or Path(tempfile.mkdtemp(prefix="loa-bench-fusion-"))
    try:
        root = base / "repo"
        if not (root / ".loa.config.yaml").exists():
            seed(root, memories)
        search(load_config(root), SearchOptions("warm up", k=1))
        results = run(root, queries)
    finally:
        if args.workdir is None:
            shutil.rmtree(base, ignore_errors=True)
    text = report(results, len(memories), len(queries))
    print(text)
    if not args.no_report:
        out = Path(__file__).parent / "reports" / "fusion-variants.md"
        out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
