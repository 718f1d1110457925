"""Do corrections fire on reworded tasks? Runs `recall` (the library function the CLI calls) for every task
query of benchmarks/data/retrieval and counts, per task, the corrections shown.

Reports: the share of tasks whose relevant memory is a correction that get it; unrelated corrections per such
task; corrections shown on tasks with no correction. Writes benchmarks/reports/recall-cues.md.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.retrieval_quality import DATA, load_jsonl, seed
from loa_memory.retrieve.recall import RecallOptions, recall
from loa_memory.store import load_config


def main() -> None:
    memories = load_jsonl(DATA / "memories.jsonl")
    corrections = {m["id"] for m in memories if m["category"] == "correction"}
    tasks = [q for path in sorted(DATA.glob("queries*.jsonl")) for q in load_jsonl(path) if q["kind"] == "task"]
    base = Path(tempfile.mkdtemp(prefix="loa-bench-cues-"))
    try:
        root = base / "repo"
        seed(root, memories)
        config = load_config(root)
        hit = positives = unrelated = on_negatives = negatives = 0
        for task in tasks:
            shown = {c.entry.id for c in recall(config, RecallOptions(task["query"])).corrections}
            target = set(task["relevant"]) & corrections
            if target:
                positives += 1
                hit += bool(shown & target)
                unrelated += len(shown - target)
            else:
                negatives += 1
                on_negatives += len(shown)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    report = "\n".join([
        "# Correction cues in recall", "",
        f"{len(tasks)} task queries over {len(memories)} memories ({len(corrections)} corrections).", "",
        "| measure | value | target (held-out) |", "|---|---|---|",
        f"| tasks with a correction that get it | {hit}/{positives} = {hit / max(positives, 1):.2f} | ≥ 27/30 |",
        f"| unrelated corrections per such task | {unrelated / max(positives, 1):.2f} | ≤ 1 |",
        f"| corrections on tasks without one | {on_negatives / max(negatives, 1):.2f} | ≤ 0.3 |", ""])
    print(report)
    (Path(__file__).parent / "reports" / "recall-cues.md").write_text(report)


if __name__ == "__main__":
    main()
