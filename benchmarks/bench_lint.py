"""Lint speed on a 10,000-entry grimoire: nothing cached, one entry changed, the pre-commit hook on one file,
and check-jsonschema on the same file for comparison (when installed).

Targets (issue 3): cold < 5 s, one entry changed < 1 s, hook on one file < 0.5 s.
Run: python benchmarks/bench_lint.py  → prints the table and writes benchmarks/reports/lint.md
(``BENCH_RUNS=3`` for fewer runs, ``BENCH_REFERENCE=0`` to skip check-jsonschema, ~100 s a run, while iterating).
The package's bytecode is compiled first, as an installed wheel's is: the figures are not Python compiling it.
"""

from __future__ import annotations

import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import write_list_file
from loa_memory.store.schema import load_schema

CLI = [sys.executable, "-m", "loa_memory"]
FACTS = "grimoires/loa/memory/facts.yaml"


def run(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, capture_output=True, check=False)
    return time.perf_counter() - start


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    compileall.compile_dir(Path(__file__).resolve().parents[1] / "loa_memory", quiet=1)
    base = Path(tempfile.mkdtemp(prefix="loa-bench-lint-"))
    try:
        repo = base / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
        subprocess.run([*CLI, "init"], cwd=repo, check=True, capture_output=True)
        write_list_file(repo / FACTS, 10_000)
        rows = []
        cold = []
        for _ in range(max(2, runs // 2)):
            shutil.rmtree(repo / ".loa" / "cache", ignore_errors=True)
            cold.append(run([*CLI, "lint"], repo))
        rows.append(("lint, 10,000 entries, nothing cached", statistics.median(cold)))
        warm = [run([*CLI, "lint"], repo) for _ in range(runs)]
        rows.append(("lint, nothing changed", statistics.median(warm)))
        changed = []
        path = repo / FACTS
        for n in range(runs):
            text = path.read_text()
            path.write_text(text.replace("confidence: 0.9\n", f"confidence: 0.9{n % 9}\n", 1))
            changed.append(run([*CLI, "lint"], repo))
        rows.append(("lint, one entry changed", statistics.median(changed)))
        hook = []
        scan = []
        for n in range(runs):
            text = path.read_text()
            path.write_text(text.replace("confidence: 0.9", f"confidence: 0.8{n % 9}", 1))
            hook.append(run([*CLI, "lint", FACTS], repo))
            scan.append(run([*CLI, "scan-secrets", FACTS], repo))
        rows.append(("pre-commit hook loa-memory-lint on the changed file (one entry changed)",
                     statistics.median(hook)))
        rows.append(("scan-secrets on the same file afterwards (cache warm)", statistics.median(scan)))
        checker = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
        ratio_note = "check-jsonschema not installed: `pip install check-jsonschema` to compare"
        if Path(checker).exists() and os.environ.get("BENCH_REFERENCE", "1") != "0":
            schema = base / "list.schema.json"
            schema.write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema",
                                          "type": "array", "items": load_schema("memory")}))
            ref = statistics.median([run([checker, "--schemafile", str(schema), str(path)], repo)
                                     for _ in range(max(2, runs // 2))])
            rows.append(("check-jsonschema on the same 10,000-entry file", ref))
            ratio_note = (f"check-jsonschema / loa-memory lint: {ref / rows[0][1]:.1f}× (cold), "
                          f"{ref / rows[2][1]:.1f}× (one entry changed)")
        lines = ["# Lint speed", "", f"Machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
                 f"median of {runs} runs, wall time of whole CLI processes; entries ~900 bytes.", "",
                 "| what | median s |", "|---|---|"]
        lines += [f"| {name} | {value:.3f} |" for name, value in rows]
        lines += ["", ratio_note, "", "Targets: cold < 5 s, one entry changed < 1 s, hook on one file < 0.5 s."]
        report = "\n".join(lines) + "\n"
        print(report)
        (Path(__file__).parent / "reports").mkdir(exist_ok=True)
        (Path(__file__).parent / "reports" / "lint.md").write_text(report)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
