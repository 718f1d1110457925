"""Do corrections fire at the tool call that performs their trigger, and only there? Runs the PreToolUse hook path
(`recall --hook-input`'s library calls: parse the hook input, `action_from_hook`, `serve_action_cues`, the hook
JSON) on every call of benchmarks/data/action_cues, whose corrections are added with `add --from-json -` to a grimoire
that already holds the 400 memories of benchmarks/data/retrieval.

Reports: guarded calls whose correction fired; unrelated corrections per guarded call; corrections fired per
harmless call and per near miss (same area, not the guarded action); p50/p95 latency per call, in-process, with the
embedding model and the grimoire warm.

Run: python benchmarks/action_cues.py [--show] [--keep DIR] [--set FILE] [--no-report] → prints the table, writes
benchmarks/reports/action-cues.md (not with --no-report)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.recall_cues import seeded
from benchmarks.retrieval_quality import DATA, load_jsonl
from loa_memory.agents.hook_input import parse_hook_input
from loa_memory.agents.tool_call import action_from_hook
from loa_memory.answer.cues import action_record
from loa_memory.answer.cues.action import Action
from loa_memory.lifecycle.recall_log import serve_action_cues
from loa_memory.render.action_cues import pretooluse_output
from loa_memory.search.build import build_index
from loa_memory.store import load_config

SET = Path(__file__).parent / "data" / "action_cues" / "set.jsonl"


def _fired(root: Path, hook: dict[str, object]) -> tuple[list[str], str, float]:
    """The ids fired on one hook input, the hook's stdout, and the seconds it took."""
    started = time.perf_counter()
    config = load_config(root)
    hook_input = parse_hook_input(json.dumps({**hook, "cwd": str(root)}))
    action = rooted(action_from_hook(hook_input), root)
    ids: list[str] = []
    output = ""
    if action is not None:
        record = action_record(serve_action_cues(config, action, session_id="bench"))
        output = pretooluse_output(record)
        ids = [c["id"] for c in record["cues"]]
    return ids, output, time.perf_counter() - started


def rooted(action: Action | None, root: Path) -> Action | None:
    """``action`` with the set's paths, written under /repo/, put under the grimoire's ``root``."""
    if action is None or not action.paths:
        return action
    return type(action)(action.kind, tuple(p.replace("/repo/", f"{root}/", 1) for p in action.paths), action.text,
                        action.removed, action.description)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print each call's outcome")
    parser.add_argument("--keep", type=Path, help="seed the grimoire here once and reuse it on later runs")
    parser.add_argument("--set", type=Path, default=SET, help="the calls and corrections (default: the tuning set)")
    parser.add_argument("--report", type=Path, default=Path(__file__).parent / "reports" / "action-cues.md")
    parser.add_argument("--no-report", action="store_true", help="print only; leave the report file alone")
    args = parser.parse_args()
    os.environ["LOA_MEMORY_SERVER"] = "off"
    memories = load_jsonl(DATA / "memories.jsonl")
    rows = load_jsonl(args.set)
    base = args.keep or Path(tempfile.mkdtemp(prefix="loa-bench-action-"))
    root = base / "grimoire"
    try:
        ids, refused = seeded(root, memories, rows)
        build_index(load_config(root))
        _fired(root, {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "true"}})
        tally = {"call": [0, 0, 0], "near_miss": [0, 0, 0], "harmless": [0, 0, 0]}  # calls, right, others
        seconds = []
        lines = []
        for row in rows:
            if row["type"] == "correction":
                continue
            fired, output, took = _fired(root, row["hook"])
            seconds.append(took)
            key = str(row.get("correction", row.get("expect")))  # the third blind set names it ``expect``
            target = (ids.get(key) or f"refused:{key}") if row["type"] == "call" else None
            counts = tally[str(row["type"])]
            counts[0] += 1
            counts[1] += target in fired
            counts[2] += len([i for i in fired if i != target])
            names = [k for k, v in ids.items() if v in fired]
            decision = "ask" if '"ask"' in output else ("context" if output else "silent")
            lines.append(f"{row['type']:9} {row['key']} want={key if target else '-'} "
                         f"fired={names} {decision} {took * 1000:.0f} ms")
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    calls, near, harmless = tally["call"], tally["near_miss"], tally["harmless"]
    p50 = statistics.median(seconds) * 1000
    p95 = sorted(seconds)[max(0, round(0.95 * len(seconds)) - 1)] * 1000
    load = os.getloadavg()
    report = "\n".join([
        "# Action-time cues (PreToolUse)", "",
        f"The PreToolUse hook path over {len(memories)} memories of benchmarks/data/retrieval plus the "
        f"{len(ids)} corrections of {_shown(args.set)}"
        + (" (a tuning set: the classifier and the constants in `answer/cues/` were written while looking at it)."
           if args.set == SET else "."), "",
        "| measure | value |", "|---|---|",
        f"| guarded calls whose correction fired | {calls[1]}/{calls[0]} = {calls[1] / max(calls[0], 1):.2f} |",
        f"| unrelated corrections per guarded call | {calls[2] / max(calls[0], 1):.2f} |",
        f"| corrections per harmless call ({harmless[0]}) | {harmless[2] / max(harmless[0], 1):.2f} |",
        f"| corrections per near miss ({near[0]}) | {near[2] / max(near[0], 1):.2f} |",
        f"| latency per call, in-process, p50 / p95 | {p50:.0f} ms / {p95:.0f} ms |", "",
        *([f"Refused by `add` (their guarded calls count as misses): {', '.join(refused)}.", ""] if refused else []),
        f"Load average while it ran: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores).", ""])
    print(report)
    if args.show:
        print("\n".join(lines))
    if not args.no_report:
        args.report.write_text(report)


def _shown(path: Path) -> str:
    root = Path(__file__).resolve().parents[1]
    return str(path.resolve().relative_to(root)) if path.resolve().is_relative_to(root) else path.name


if __name__ == "__main__":
    main()
