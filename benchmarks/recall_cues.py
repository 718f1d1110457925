"""Do corrections fire on reworded tasks? Runs `recall` (the library function the CLI calls) on every task and counts
the corrections it shows.

The task queries of benchmarks/data/retrieval against its 26 corrections, and each set of
benchmarks/data/cues, whose corrections are added with `add --from-json -` to a grimoire that already holds the
400 retrieval memories (as the held-out check does). Reports, per set: the share of tasks with a correction that
get it; unrelated corrections per such task; corrections shown on tasks with no correction.

Run: python benchmarks/recall_cues.py [--show-misses] → prints the table and writes benchmarks/reports/recall-cues.md;
python benchmarks/recall_cues.py --set FILE [--keep DIR] [--report FILE] measures one set (a held-out one).
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


def _add_corrections(root: Path, rows: list[dict[str, object]], refused: list[str] | None = None) -> dict[str, str]:
    """Add each correction with `loa-memory add --from-json -`; its set key -> the id it got. A correction the CLI
    refuses stops the run, or, with ``refused``, is noted there and left out."""
    ids = {}
    env = {**os.environ, "LOA_MEMORY_SERVER": "off"}
    for row in rows:
        if row["type"] != "correction":
            continue
        done = subprocess.run([sys.executable, "-m", "loa_memory", "--root", str(root), "--format", "json", "add",
                               "--from-json", "-"], input=json.dumps(row["entry"]), capture_output=True, text=True,
                              env=env, check=False)
        if done.returncode != 0 and refused is not None:
            refused.append(str(row["key"]))
            continue
        if done.returncode != 0:
            raise SystemExit(f"add failed for {row['key']}: {done.stdout}{done.stderr}")
        ids[str(row["key"])] = json.loads(done.stdout)["id"]
    return ids


def seeded(root: Path, memories: list[dict[str, object]], rows: list[dict[str, object]]) -> tuple[dict[str, str],
                                                                                                list[str]]:
    """A grimoire at ``root`` with ``memories`` and the corrections of ``rows`` (seeded once: a later call with the
    same ``root`` reuses it); the corrections' set keys -> ids, and the keys ``add`` refused."""
    if not (root / ".ids.json").exists():
        seed(root, memories)
        refused: list[str] = []
        ids = _add_corrections(root, rows, refused)
        (root / ".refused.json").write_text(json.dumps(refused))
        (root / ".ids.json").write_text(json.dumps(ids))
    refused_file = root / ".refused.json"
    return (json.loads((root / ".ids.json").read_text()),
            json.loads(refused_file.read_text()) if refused_file.exists() else [])


def _task(row: dict[str, object], ids: dict[str, str]) -> tuple[str, str | None]:
    """A task row's text and the id of the correction it should fire (None for a negative). Two shapes: ``text`` and
    ``correction`` with type task/negative, or (the third blind set) ``task`` and ``expect``, null for a negative."""
    text = str(row.get("text", row.get("task")))
    key = row.get("correction", row.get("expect")) if row["type"] == "task" else None
    return text, (ids.get(str(key), f"refused:{key}") if key else None)


def _one_set(args: argparse.Namespace, memories: list[dict[str, object]]) -> None:
    """``--set``: one set's corrections among the retrieval memories, its tasks and negatives."""
    rows = load_jsonl(args.set)
    base = args.keep or Path(tempfile.mkdtemp(prefix="loa-bench-cues-"))
    try:
        ids, refused = seeded(base / "grimoire", memories, rows)
        tasks = [_task(r, ids) for r in rows if r["type"] in ("task", "negative")]
        outcome = _measure(_shown(args.set), base / "grimoire", tasks)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    load = os.getloadavg()
    report = "\n".join([
        "# Correction cues in recall: one set", "",
        f"`recall TASK` over {len(memories)} memories of benchmarks/data/retrieval plus the corrections of "
        f"{_shown(args.set)} added with `add --from-json -`.", "",
        "| set | tasks with a correction that get it | unrelated corrections per such task | tasks without one "
        "| corrections on tasks without one |", "|---|---|---|---|---|", outcome.row(), "",
        *([f"Refused by `add` (their tasks count as misses): {', '.join(refused)}.", ""] if refused else []),
        f"Load average while it ran: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores).", ""])
    print(report)
    if args.show_misses:
        print("\n".join([f"MISS {t}" for t in outcome.misses] + [f"FIRED {t}" for t in outcome.fired]))
    if not args.no_report:
        args.report.write_text(report)


def _shown(path: Path) -> str:
    root = Path(__file__).resolve().parents[1]
    return str(path.resolve().relative_to(root)) if path.resolve().is_relative_to(root) else path.name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--set", type=Path, help="measure only this set (corrections, tasks, negatives)")
    parser.add_argument("--keep", type=Path, help="with --set: seed the grimoire here once and reuse it")
    parser.add_argument("--report", type=Path, default=Path(__file__).parent / "reports" / "recall-cues.md")
    parser.add_argument("--no-report", action="store_true", help="print only; leave the report file alone")
    args = parser.parse_args()
    memories = load_jsonl(DATA / "memories.jsonl")
    if args.set:
        _one_set(args, memories)
        return
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
        args.report.write_text(report)


if __name__ == "__main__":
    main()
