"""What the built-in synonym groups (loa_memory/search/synonyms.py) do to retrieval: R@5 per query kind on
benchmarks/data/retrieval, and on the embedder probe's 60 paraphrase pairs among 100 memories, with the groups
and without them, in lexical and hybrid mode.

Run: python benchmarks/synonyms.py [--workdir DIR] [--no-report]
     → prints the tables and writes benchmarks/reports/synonyms.md
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.data.paraphrase_probe import DISTRACTORS, PAIRS
from benchmarks.retrieval_quality import DATA, evaluate, load_jsonl, seed
from loa_memory.search import synonyms
from loa_memory.search.search import SearchOptions, search
from loa_memory.store import load_config

MODES = ("lexical", "hybrid")


def _probe_memories() -> list[dict[str, object]]:
    texts = [memory for memory, _ in PAIRS] + DISTRACTORS
    return [{"id": f"MEM-20240101-{n:03d}", "category": "fact", "summary": text, "content": text,
             "confidence": 0.9, "source": {"session_id": "bench", "timestamp": "2024-01-01T00:00:00Z"}}
            for n, text in enumerate(texts, 1)]


def _probe(root: Path, mode: str) -> int:
    config = load_config(root)
    hits = 0
    for n, (_, query) in enumerate(PAIRS, 1):
        ids = [hit.entry.id for hit in search(config, SearchOptions(query, k=5, mode=mode)).hits]  # type: ignore[arg-type]
        hits += f"MEM-20240101-{n:03d}" in ids
    return hits


def _with_groups(on: bool) -> None:
    synonyms.GROUPS = BUILT_IN if on else ()
    synonyms._table.cache_clear()


BUILT_IN = synonyms.GROUPS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=None, help="keep the seeded repositories here")
    parser.add_argument("--no-report", action="store_true")
    args = parser.parse_args()
    base = args.workdir or Path(tempfile.mkdtemp(prefix="loa-bench-synonyms-"))
    queries = [q for path in sorted(DATA.glob("queries*.jsonl")) for q in load_jsonl(path)]
    try:
        bench, probe = base / "repo", base / "probe"
        for root, memories in ((bench, load_jsonl(DATA / "memories.jsonl")), (probe, _probe_memories())):
            if not (root / ".loa.config.yaml").exists():
                seed(root, memories)
        rows = []
        for on in (False, True):
            _with_groups(on)
            for mode in MODES:
                table = evaluate(bench, queries, mode)["table"]
                rows.append((on, mode, table, _probe(probe, mode)))
    finally:
        _with_groups(True)
        if args.workdir is None:
            shutil.rmtree(base, ignore_errors=True)
    kinds = list(rows[0][2])
    lines = ["# Synonym groups", "",
             f"R@5 on benchmarks/data/retrieval ({len(queries)} queries, search with history) and on the paraphrase "
             f"probe ({len(PAIRS)} pairs sharing no content word, among {len(PAIRS) + len(DISTRACTORS)} memories).",
             "", "| groups | mode | " + " | ".join(kinds) + " | probe |", "|---|---|" + "---|" * (len(kinds) + 1)]
    for on, mode, table, probe_hits in rows:
        cells = " | ".join(f"{table[kind][0]:.3f}" for kind in kinds)
        lines.append(f"| {'built-in' if on else 'none'} | {mode} | {cells} | {probe_hits}/{len(PAIRS)} |")
    report = "\n".join(lines) + "\n"
    print(report)
    if not args.no_report:
        (Path(__file__).parent / "reports" / "synonyms.md").write_text(report)


if __name__ == "__main__":
    main()
