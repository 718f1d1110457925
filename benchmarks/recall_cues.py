"""Do corrections fire on reworded tasks? Runs `recall` (the library function the CLI calls) on every task and counts
the corrections it shows.

Three sets: the task queries of benchmarks/data/retrieval against its 26 corrections, and the two sets of
benchmarks/data/cues, whose corrections are added with `add --from-json -` to a grimoire that already holds the
400 retrieval memories (as the held-out check does). Reports, per set: the share of tasks with a correction that
get it; unrelated corrections per such task; corrections shown on tasks with no correction.

Run: python benchmarks/recall_cues.py [--show-misses] → prints the table and writes benchmarks/reports/recall-cues.md
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("LOA_MEMORY_BACKGROUND", "inline")  # every vector before answering, no background process

from benchmarks.retrieval_quality import DATA, load_jsonl, seed
from loa_memory.answer.recall import RecallOptions, recall
from loa_memory.store import load_config

CUES = Path(__file__).parent / "data" / "cues"


@dataclass
class Outcome:
    name: str
    positives: int = 0
    hits: int = 0
    unrelated: int = 0
    negatives: int = 0
    on_negatives: int = 0
    misses: list[str] = field(default_factory=list)
    fired: list[str] = field(default_factory=list)

    def row(self) -> str:
        return (f"| {self.name} | {self.hits}/{self.positives} = {self.hits / max(self.positives, 1):.2f} | "
                f"{self.unrelated / max(self.positives, 1):.2f} | {self.negatives} | "
                f"{self.on_negatives / max(self.negatives, 1):.2f} |")


def _measure(name: str, root: Path, tasks: list[tuple[str, str | None]]) -> Outcome:
    """``tasks``: (text, the id of the correction it should get, or None)."""
    config = load_config(root)
    outcome = Outcome(name)
    for text, target in tasks:
        shown = [c.entry.id for c in recall(config, RecallOptions(text)).corrections]
        if target:
            outcome.positives += 1
            outcome.hits += target in shown
            outcome.unrelated += len([i for i in shown if i != target])
            if target not in shown:
                outcome.misses.append(text)
        else:
            outcome.negatives += 1
            outcome.on_negatives += len(shown)
            if shown:
                outcome.fired.append(f"{text} -> {', '.join(shown)}")
    return outcome


def _retrieval_tasks(memories: list[dict[str, object]]) -> list[tuple[str, str | None]]:
    corrections = {str(m["id"]) for m in memories if m["category"] == "correction"}
    tasks = []
    for path in sorted(DATA.glob("queries*.jsonl")):
        for query in load_jsonl(path):
            if query["kind"] == "task":
                targets = sorted(set(query["relevant"]) & corrections)
                tasks.append((query["query"], targets[0] if targets else None))
    return tasks


def _add_corrections(root: Path, rows: list[dict[str, object]]) -> dict[str, str]:
    """Add each correction with `loa-memory add --from-json -`; its set key -> the id it got."""
    ids = {}
    env = {**os.environ, "LOA_MEMORY_SERVER": "off"}
    for row in rows:
        if row["type"] != "correction":
            continue
        done = subprocess.run([sys.executable, "-m", "loa_memory", "--root", str(root), "--format", "json", "add",
                               "--from-json", "-"], input=json.dumps(row["entry"]), capture_output=True, text=True,
                              env=env, check=False)
        if done.returncode != 0:
            raise SystemExit(f"add failed for {row['key']}: {done.stdout}{done.stderr}")
        ids[str(row["key"])] = json.loads(done.stdout)["id"]
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--no-report", action="store_true", help="print only; leave the report file alone")
    args = parser.parse_args()
    memories = load_jsonl(DATA / "memories.jsonl")
    base = Path(tempfile.mkdtemp(prefix="loa-bench-cues-"))
    outcomes = []
    try:
        root = base / "retrieval"
        seed(root, memories)
        outcomes.append(_measure("retrieval tasks", root, _retrieval_tasks(memories)))
        for path in sorted(CUES.glob("set-*.jsonl")):
            root = base / path.stem
            seed(root, memories)
            rows = load_jsonl(path)
            ids = _add_corrections(root, rows)
            tasks = [(str(r["text"]), ids[str(r["correction"])] if r["type"] == "task" else None)
                     for r in rows if r["type"] in ("task", "negative")]
            outcomes.append(_measure(f"cues {path.stem}", root, tasks))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    report = "\n".join([
        "# Correction cues in recall", "",
        f"`recall TASK` over {len(memories)} memories of benchmarks/data/retrieval (26 corrections), plus the "
        "corrections of each set of benchmarks/data/cues added with `add --from-json -`.", "",
        "| set | tasks with a correction that get it | unrelated corrections per such task | tasks without one "
        "| corrections on tasks without one |",
        "|---|---|---|---|---|",
        *(o.row() for o in outcomes), "",
        "Held-out targets: at least 27 of 30 tasks get their correction, at most 1 unrelated correction per such "
        "task, at most 0.3 corrections on tasks without one.", ""])
    print(report)
    if args.show_misses:
        for outcome in outcomes:
            for text in outcome.misses:
                print(f"{outcome.name} MISS {text}")
            for text in outcome.fired:
                print(f"{outcome.name} FIRED {text}")
    if not args.no_report:
        (Path(__file__).parent / "reports" / "recall-cues.md").write_text(report)


if __name__ == "__main__":
    main()
