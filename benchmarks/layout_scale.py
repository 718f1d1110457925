"""What one file per entry costs a big grimoire: `list`, `add` and `lint` on N facts in each layout, and `migrate`.

The grimoire is N synthetic ~780-byte facts (benchmarks/corpus.py) in `facts.yaml`; the `entries` copy is made by
`loa-memory migrate --layout entries` (timed). Each command runs as a user runs it (a new process, the warm
server off), cold (no `.loa/cache/`) and warm (median of 3).

Run: python benchmarks/layout_scale.py [--entries 2000]  → benchmarks/reports/layout-scale.md
"""

from __future__ import annotations

import argparse
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

REPORT = Path(__file__).resolve().parent / "reports" / "layout-scale.md"
CLI = [sys.executable, "-m", "loa_memory"]
ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "b",
    "GIT_AUTHOR_EMAIL": "b@example.com",
    "GIT_COMMITTER_NAME": "b",
    "GIT_COMMITTER_EMAIL": "b@example.com",
    "LOA_MEMORY_SERVER": "off",
}


def timed(root: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run([*CLI, "--root", str(root), *args], env=ENV, check=False, capture_output=True)
    return time.perf_counter() - start


def grimoire(base: Path, count: int, layout: str) -> tuple[Path, float]:
    root = base / layout
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run([*CLI, "--root", str(root), "init", "--layout", "lists"], env=ENV, check=True, capture_output=True)
    write_list_file(root / "grimoires/loa/memory/facts.yaml", count)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "grimoire"], cwd=root, check=True, env=ENV)
    moved = timed(root, "migrate", "--layout", "entries") if layout == "entries" else 0.0
    return root, moved


def measure(count: int) -> list[tuple[str, str, float]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for layout in ("lists", "entries"):
            root, moved = grimoire(Path(tmp), count, layout)
            if moved:
                rows.append((layout, f"migrate --layout entries ({count} entries)", moved))
            for label, args in (("list", ("list", "--format", "json")), ("lint", ("lint",))):
                shutil.rmtree(root / ".loa" / "cache", ignore_errors=True)
                rows.append((layout, f"{label}, cold", timed(root, *args)))
                rows.append((layout, f"{label}, warm", statistics.median(timed(root, *args) for _ in range(3))))
            adds = [
                timed(root, "add", "fact", f"Fact number {n} added at scale.", "--confidence", "0.9") for n in range(3)
            ]
            rows.append((layout, "add", statistics.median(adds)))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=REPORT)
    args = parser.parse_args()
    load = ", ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"
    rows = measure(args.entries)
    lines = [
        "# One file per entry at scale",
        "",
        f"`python benchmarks/layout_scale.py --entries {args.entries}`; load average before the run: {load}. "
        "Seconds, each command a new process (warm server off).",
        "",
        "| layout | command | seconds |",
        "|---|---|---|",
        *(f"| {layout} | {label} | {seconds:.2f} |" for layout, label, seconds in rows),
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines), "utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
