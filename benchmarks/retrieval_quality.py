"""Retrieval quality on real public text: recall@5 and MRR@10 per query kind, for BM25 alone, embeddings
alone and the hybrid, plus how often the current entry ranks above the one it replaced.

The data (benchmarks/data/retrieval/) are memories condensed from public ADRs, postmortems and runbooks,
with queries of five kinds: lookup, paraphrase (no shared content words), why, task, superseded.
Queries run in-process through the same `search` function as the CLI, with `history=True` (superseded
entries present), like `loa-memory search --history --format json`.

Modes: lexical, semantic, hybrid (our search), and fts5-porter, fts5-unicode61 (plain SQLite FTS5 over the same
fields, default bm25: the baseline the lexical mode must match; see benchmarks/fts5_baseline.py).

Run: python benchmarks/retrieval_quality.py [--data DIR] [--queries FILE ...] [--modes MODE ...]
     → prints the table and writes benchmarks/reports/retrieval-quality.md (or --report PATH)
e.g. python benchmarks/retrieval_quality.py --modes lexical fts5-porter fts5-unicode61 \
         --queries benchmarks/data/retrieval/queries.jsonl --no-report
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# rank with every vector: embed what is missing before answering, not in a background process
os.environ.setdefault("LOA_MEMORY_BACKGROUND", "inline")

from benchmarks import fts5_baseline
from loa_memory.repo.init import init_repo
from loa_memory.search.search import SearchOptions, search
from loa_memory.store import load_config, yamlio
from loa_memory.store.load import load_grimoire
from loa_memory.store.schema import load_schema
from loa_memory.write.add import markdown_text

DATA = Path(__file__).parent / "data" / "retrieval"
MODES = ("lexical", "semantic", "hybrid")
BASELINES = tuple(fts5_baseline.TOKENIZERS)  # plain SQLite FTS5 over the same fields, for comparison


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def seed(root: Path, memories: list[dict[str, Any]]) -> None:
    """Write the memories into a fresh grimoire (fields our schema does not know are dropped)."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    init_repo(root)
    config = load_config(root)
    known = set(load_schema("memory")["properties"])
    by_file: dict[Path, list[str]] = defaultdict(list)
    for memory in memories:
        data = {k: v for k, v in memory.items() if k in known}
        cat = config.category(data["category"])
        memdir = config.memory_dir()
        if cat.kind == "markdown":
            (memdir / cat.path).mkdir(parents=True, exist_ok=True)
            (memdir / cat.path / f"{data['id'].lower()}.md").write_text(markdown_text(data))
        else:
            by_file[memdir / cat.path].append(yamlio.dump_item(data))
    for path, items in by_file.items():
        path.write_text("".join(items))


def evaluate(root: Path, queries: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    config = load_config(root)
    grimoire = load_grimoire(config)
    per_kind: dict[str, list[tuple[float, float]]] = defaultdict(list)
    order_ok = order_total = order_unseen = 0
    pairs = inverted = 0  # replaced entries shown, and those whose successor is not shown above them
    misses = []
    baseline = fts5_baseline.build(grimoire.entries, fts5_baseline.TOKENIZERS[mode]) if mode in BASELINES else None
    started = time.perf_counter()
    for query in queries:
        if baseline is not None:
            ids = baseline(query["query"], 10)
        else:
            result = search(config, SearchOptions(query["query"], k=10, history=True, mode=mode))  # type: ignore[arg-type]
            ids = [hit.entry.id for hit in result.hits]
        for n, memory_id in enumerate(ids):
            successor = grimoire.superseder(grimoire.by_id[memory_id])
            if successor is not None:
                pairs += 1
                inverted += successor.id not in ids[:n]
        relevant = set(query["relevant"])
        recall5 = 1.0 if relevant & set(ids[:5]) else 0.0
        rr = next((1.0 / n for n, i in enumerate(ids[:10], 1) if i in relevant), 0.0)
        per_kind[query["kind"]].append((recall5, rr))
        if not recall5:
            misses.append((query["id"], query["kind"], query["query"]))
        if query["kind"] == "superseded" and query.get("current") and query.get("replaced"):
            order_total += 1
            current, replaced = query["current"], query["replaced"]
            if current in ids and (replaced not in ids or ids.index(current) < ids.index(replaced)):
                order_ok += 1
            order_unseen += current not in ids
    elapsed = time.perf_counter() - started
    table = {kind: (sum(r for r, _ in v) / len(v), sum(m for _, m in v) / len(v), len(v))
             for kind, v in sorted(per_kind.items())}
    every = [pair for v in per_kind.values() for pair in v]
    table["overall"] = (sum(r for r, _ in every) / len(every), sum(m for _, m in every) / len(every), len(every))
    return {"table": table, "order": (order_ok, order_total), "order_unseen": order_unseen,
            "inverted": (inverted, pairs), "misses": misses,
            "ms_per_query": 1000 * elapsed / max(len(queries), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--queries", type=Path, nargs="*", default=None)
    parser.add_argument("--modes", nargs="*", default=list(MODES))
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="keep the seeded repository (and its vectors) here and reuse it on the next run")
    parser.add_argument("--no-report", action="store_true", help="print only; leave the report file alone")
    parser.add_argument("--report", type=Path, default=Path(__file__).parent / "reports" / "retrieval-quality.md",
                        help="where to write the report (default: benchmarks/reports/retrieval-quality.md)")
    args = parser.parse_args()
    memories = load_jsonl(args.data / "memories.jsonl")
    query_files = args.queries or sorted(args.data.glob("queries*.jsonl"))
    queries = [q for path in query_files for q in load_jsonl(path)]
    base = args.workdir or Path(tempfile.mkdtemp(prefix="loa-bench-quality-"))
    try:
        root = base / "repo"
        if not (root / ".loa.config.yaml").exists():
            seed(root, memories)
        if set(args.modes) - set(BASELINES):
            search(load_config(root), SearchOptions("warm up", k=1,  # build index (and vectors) once
                                                    mode="lexical" if set(args.modes) <= {"lexical", *BASELINES}
                                                    else None))
        results = {mode: evaluate(root, queries, mode) for mode in args.modes}
    finally:
        if args.workdir is None:
            shutil.rmtree(base, ignore_errors=True)
    kinds = list(next(iter(results.values()))["table"])
    lines = ["# Retrieval quality", "",
             f"{len(memories)} memories from public ADRs, postmortems and runbooks; {len(queries)} queries "
             f"({', '.join(p.name for p in query_files)}); search with history (superseded entries present).", "",
             "| kind | n | " + " | ".join(f"{m} R@5 | {m} MRR@10" for m in args.modes) + " |",
             "|---|---|" + "---|---|" * len(args.modes)]
    for kind in kinds:
        n = results[args.modes[0]]["table"][kind][2]
        cells = " | ".join(f"{results[m]['table'][kind][0]:.3f} | {results[m]['table'][kind][1]:.3f}"
                           for m in args.modes)
        lines.append(f"| {kind} | {n} | {cells} |")
    lines.append("")
    for mode in args.modes:
        ok, total = results[mode]["order"]
        unseen = results[mode]["order_unseen"]
        why = f" (in {unseen} the current entry is not in the top 10)" if unseen else ""
        inverted, pairs = results[mode]["inverted"]
        lines.append(f"- {mode}: current entry above the replaced one in {ok}/{total} superseded queries{why}; "
                     f"over all queries, {inverted} of the {pairs} replaced entries shown lack their successor "
                     f"above them; {results[mode]['ms_per_query']:.0f} ms per query in-process")
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    lines.append(f"\nTimes are wall clock on {os.cpu_count()} cores shared with other work, "
                 f"OPENBLAS_NUM_THREADS={threads} (with 2 BLAS threads and the other core busy, "
                 "embedding a query can take 10x longer).")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.show_misses:
        for mode in args.modes:
            for miss in results[mode]["misses"]:
                print(mode, *miss)
    if not args.no_report:
        args.report.parent.mkdir(exist_ok=True)
        args.report.write_text(report)


if __name__ == "__main__":
    main()
