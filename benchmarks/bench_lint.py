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
import resource
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


def run(args: list[str], cwd: Path) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one command: on a busy machine the wall time grows with the
    load while the CPU time does not, so the table shows both."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median(times: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Median wall time, median CPU time, and the best wall time (what the command costs on a quiet machine)."""
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times), min(t[0] for t in times)


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
        rows.append(("lint, 10,000 entries, nothing cached", median(cold)))
        warm = [run([*CLI, "lint"], repo) for _ in range(runs)]
        rows.append(("lint, nothing changed", median(warm)))
        changed = []
        path = repo / FACTS
        for n in range(runs):
            text = path.read_text()
            path.write_text(text.replace("confidence: 0.9\n", f"confidence: 0.9{n % 9}\n", 1))
            changed.append(run([*CLI, "lint"], repo))
        rows.append(("lint, one entry changed", median(changed)))
        hook = []
        scan = []
        for n in range(runs):
            text = path.read_text()
            path.write_text(text.replace("confidence: 0.9", f"confidence: 0.8{n % 9}", 1))
            hook.append(run([*CLI, "lint", FACTS], repo))
            scan.append(run([*CLI, "scan-secrets", FACTS], repo))
        rows.append(("pre-commit hook loa-memory-lint on the changed file (one entry changed)", median(hook)))
        rows.append(("scan-secrets on the same file afterwards (cache warm)", median(scan)))
        checker = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
        ratio_note = "check-jsonschema not installed: `pip install check-jsonschema` to compare"
        if Path(checker).exists() and os.environ.get("BENCH_REFERENCE", "1") != "0":
            schema = base / "list.schema.json"
            schema.write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema",
                                          "type": "array", "items": load_schema("memory")}))
            ref = median([run([checker, "--schemafile", str(schema), str(path)], repo)
                          for _ in range(max(2, runs // 2))])
            rows.append(("check-jsonschema on the same 10,000-entry file", ref))
            compared = ((0, "cold"), (2, "one entry changed"), (3, "the hook on the changed file"))
            ratio_note = "check-jsonschema / loa-memory lint: " + ", ".join(
                f"{ref[0] / rows[row][1][0]:.1f}× wall, {ref[1] / rows[row][1][1]:.1f}× CPU ({what})"
                for row, what in compared)
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        lines = ["# Lint speed", "", f"Machine: {os.cpu_count()} cores (load average {load} at the end), Python "
                 f"{sys.version.split()[0]}; {runs} runs of whole CLI processes (cold: {max(2, runs // 2)}): the "
                 "median wall time, the median CPU time (user + system), the best wall time; entries ~900 bytes.", "",
                 "| what | median wall s | median CPU s | best wall s |", "|---|---|---|---|"]
        lines += [f"| {name} | {wall:.3f} | {cpu:.3f} | {best:.3f} |" for name, (wall, cpu, best) in rows]
        lines += ["", ratio_note, "", "Targets: cold < 5 s, one entry changed < 1 s, hook on one file < 0.5 s."]
        report = "\n".join(lines) + "\n"
        print(report)
        (Path(__file__).parent / "reports").mkdir(exist_ok=True)
        (Path(__file__).parent / "reports" / "lint.md").write_text(report)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
