"""`loa-memory add` into an empty grimoire vs a category file of 10,000 entries, and `--version`.

Targets (issue 2): add at 10k ≤ 2× add into an empty grimoire and < 0.5 s; `--version` < 0.25 s.
Run: python benchmarks/bench_add.py  → prints the table and writes benchmarks/reports/add.md
"""

from __future__ import annotations

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

CLI = [sys.executable, "-m", "loa_memory"]
ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}


def timed(args: list[str], cwd: Path, runs: int) -> list[float]:
    times = []
    for n in range(runs):
        start = time.perf_counter()
        subprocess.run([*args] if args[0] != "add" else [*CLI, *args, f"run {n}"], cwd=cwd, env=ENV,
                       check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def repo(base: Path, entries: int) -> Path:
    path = base / f"repo-{entries}"
    path.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    subprocess.run([*CLI, "init"], cwd=path, env=ENV, check=True, capture_output=True)
    if entries:
        write_list_file(path / "grimoires/loa/memory/facts.yaml", entries)
    return path


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "15"))
    base = Path(tempfile.mkdtemp(prefix="loa-bench-add-"))
    try:
        rows = []
        version = timed([*CLI, "--version"], base, runs)
        rows.append(("--version", statistics.median(version), max(version)))
        medians = {}
        for size in (0, 10_000):
            path = repo(base, size)
            first = timed(["add", "fact", "--summary", "cold"], path, 1)[0]
            warm = timed(["add", "fact"], path, runs)
            medians[size] = statistics.median(warm)
            rows.append((f"add, first call, {size:,} entries (cold cache)", first, first))
            rows.append((f"add, {size:,} entries", statistics.median(warm), max(warm)))
        ratio = medians[10_000] / medians[0]
        lines = ["# `add` and `--version` speed", "",
                 f"Machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; {runs} runs each, "
                 "wall time of the whole CLI process.", "",
                 "| what | median s | max s |", "|---|---|---|"]
        lines += [f"| {name} | {med:.3f} | {mx:.3f} |" for name, med, mx in rows]
        lines += ["", f"add at 10k / add into empty: **{ratio:.2f}×** (target ≤ 2×); "
                  f"add at 10k median **{medians[10_000]:.3f} s** (target < 0.5 s); "
                  f"--version median **{rows[0][1]:.3f} s** (target < 0.25 s)."]
        report = "\n".join(lines) + "\n"
        print(report)
        out = Path(__file__).parent / "reports" / "add.md"
        out.parent.mkdir(exist_ok=True)
        out.write_text(report)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
