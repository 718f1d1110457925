"""Branches that only add memories merge where no merge driver runs; the PR check and the driver's renumbering.

A few runs of benchmarks/merge_layout.py (the full measurement runs 50: benchmarks/reports/merge-layout.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.merge_layout import PrCheck, Tally, measure
from loa_memory.repo.merge import Elsewhere, merge_texts
from loa_memory.store import yamlio
from tests.fixtures import MEMDIR, Cli, git

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "examples" / "github" / "loa-memory.yml"


def test_scripted_merges_without_a_driver() -> None:
    results = measure(runs=2, adds=6, lists_runs=1)
    for label, (merge, rebase) in ((k, v) for k, v in results.items() if k != "pr-check"):
        if "random ids" in label:  # the layout and ids of a new grimoire: nothing to repair, ever
            assert merge == Tally(2, 0, 0, 0, 0, 0), merge
            assert rebase == Tally(2, 0, 0, 0, 0, 0), rebase
        else:  # the old list files conflict without the driver: what the new layout is for
            assert merge.conflicts == 1 and rebase.conflicts == 1
    check: PrCheck = results["pr-check"]
    assert check.collisions == 12 and check.reported == 12 and check.missed == 0
    assert check.merge_conflicts == 0 and check.left_after_fix == 0
    assert check.wrong_references == 0 and check.lost == 0 and check.fix_commands == 2


def _commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def test_the_pr_workflow_runs_locally_and_reports_a_collision(loa: Cli, tmp_path: Path) -> None:
    assert loa("add", "fact", "A base fact.", "--confidence", "0.95").exit_code == 0
    _commit(loa.root, "base")
    git(loa.root, "checkout", "-q", "-b", "feature")
    mine = loa.json("add", "decision", "Adopt gRPC for internal calls.", "--confidence", "0.95")["id"]
    _commit(loa.root, "feature")
    git(loa.root, "checkout", "-q", "main")
    assert loa.json("add", "decision", "Use REST for public APIs.", "--confidence", "0.95")["id"] == mine
    _commit(loa.root, "main")
    git(loa.root, "checkout", "-q", "feature")
    summary = tmp_path / "summary.md"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                str(ROOT / "examples" / "github" / "run_locally.py"),
                "--base",
                "main",
                "--workflow",
                str(WORKFLOW),
                "--summary",
                str(summary),
            ],
            cwd=loa.root,
            env=env,
            capture_output=True,
            text=True,
        )

    failed = run()
    assert failed.returncode == 1, failed.stdout + failed.stderr
    sarif = json.loads((loa.root / "loa-memory.sarif").read_text())
    rules = [result["ruleId"] for result in sarif["runs"][0]["results"]]
    assert rules == ["id-collision"]
    text = summary.read_text()
    assert "## Memory lint against" in text and f"{mine} was also added on main" in text
    assert "Adopt gRPC for internal calls." in text  # review's Markdown
    assert loa("lint", "--fix", "--base", "main").exit_code == 0
    (loa.root / "loa-memory.sarif").unlink()
    _commit(loa.root, "renumbered")
    summary.unlink()
    passed = run()
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert json.loads((loa.root / "loa-memory.sarif").read_text())["runs"][0]["results"] == []


def _item(memory_id: str, content: str, **extra: object) -> str:
    return yamlio.dump_item(
        {"id": memory_id, "category": "decision", "summary": content, "content": content, "confidence": 0.95, **extra}
    )


def test_the_driver_renumbers_their_entry_and_its_references_in_the_file() -> None:
    base = _item("MEM-20261125-001", "Base")
    ours = base + _item("MEM-20261125-002", "Ours")
    theirs = (
        base
        + _item("MEM-20261125-002", "Theirs")
        + _item("MEM-20261125-003", "Theirs later", supersedes="MEM-20261125-002")
    )
    elsewhere = Elsewhere(
        frozenset({"MEM-20261125-001", "MEM-20261125-002", "MEM-20261125-003", "MEM-20261125-004"}), frozenset()
    )
    merged = merge_texts(base, ours, theirs, elsewhere=elsewhere)
    assert not merged.conflicts and merged.renumbered == (("MEM-20261125-002", "MEM-20261125-005"),)
    items = {item["content"]: item for item in yamlio.load_text(merged.text)}
    assert items["Ours"]["id"] == "MEM-20261125-002"
    assert items["Theirs"]["id"] == "MEM-20261125-005" and items["Theirs"]["aliases"] == ["MEM-20261125-002"]
    assert items["Theirs later"]["supersedes"] == "MEM-20261125-005"
    # their other files mention the id: a per-file merge cannot rewrite those references; lint --fix will
    held = merge_texts(base, ours, theirs, elsewhere=Elsewhere(elsewhere.used, frozenset({"MEM-20261125-002"})))
    assert held.renumbered == () and [i["id"] for i in yamlio.load_text(held.text)].count("MEM-20261125-002") == 2


@pytest.mark.parametrize("how", ["merge", "rebase"])
def test_a_real_merge_or_rebase_through_the_driver_leaves_no_duplicate(loa: Cli, how: str) -> None:
    _commit(loa.root, "init")
    git(loa.root, "checkout", "-q", "-b", "feature")
    mine = loa.json("add", "decision", "Adopt gRPC for internal calls.", "--confidence", "0.95")["id"]
    _commit(loa.root, "feature")
    git(loa.root, "checkout", "-q", "main")
    assert loa.json("add", "decision", "Use REST for public APIs.", "--confidence", "0.95")["id"] == mine
    _commit(loa.root, "main")
    if how == "merge":
        git(loa.root, "merge", "--no-edit", "-q", "feature")
    else:
        git(loa.root, "checkout", "-q", "feature")
        git(loa.root, "rebase", "-q", "main")
    entries = yamlio.load_text((loa.root / MEMDIR / "decisions.yaml").read_text())
    assert sorted(e["id"] for e in entries) == [mine, mine[:-3] + "002"]
    assert loa("lint").exit_code == 0
