"""The merge driver, through real git merges with the driver registered by `init`."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest

from loa_memory.repo.merge import merge_fields
from loa_memory.store import load_config, load_grimoire
from tests.fixtures import MEMDIR, Cli, git


def _commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def _merge(root: Path, branch: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(root), "merge", "--no-edit", "-q", branch], capture_output=True,
                          text=True)


@pytest.fixture
def base(loa: Cli) -> Cli:
    assert ".gitattributes" in (loa.root / ".gitattributes").name
    assert "merge=loa-memory" in (loa.root / ".gitattributes").read_text()
    assert loa("add", "decision", "Use PostgreSQL for JSONB", "--summary", "PostgreSQL", "--confidence", "0.95",
               "--tags", "db").exit_code == 0
    _commit(loa.root, "base")
    return loa


def _add_on(loa: Cli, branch: str, texts: list[str], start: str = "main") -> None:
    git(loa.root, "checkout", "-q", "-b", branch, start)
    for text in texts:
        assert loa("add", "decision", text, "--confidence", "0.95").exit_code == 0
    _commit(loa.root, f"{branch} adds")


def test_independent_additions_merge_without_conflict(base: Cli) -> None:
    _add_on(base, "a", ["Adopt gRPC for internal calls", "Cache keys are content hashes"])
    _add_on(base, "b", ["Deploy with blue-green releases"])
    git(base.root, "checkout", "-q", "a")
    done = _merge(base.root, "b")
    assert done.returncode == 0, done.stdout + done.stderr
    text = (base.root / MEMDIR / "decisions.yaml").read_text()
    assert "<<<<<<<" not in text
    grimoire = load_grimoire(load_config(base.root))
    assert sorted(e.content for e in grimoire.entries) == sorted([
        "Use PostgreSQL for JSONB", "Adopt gRPC for internal calls", "Cache keys are content hashes",
        "Deploy with blue-green releases"])
    ids = [e.id for e in grimoire.entries]
    if len(set(ids)) < len(ids):  # both branches allocated the same id: lint finds it
        assert base("lint").exit_code == 1 and "duplicate-id" in base("lint").stdout


def _edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new, 1))


def test_different_fields_of_one_entry_merge_and_counters_add(base: Cli) -> None:
    decisions = base.root / MEMDIR / "decisions.yaml"
    _edit(decisions, "  tags: [db]\n", "  tags: [db]\n  effectiveness: {applications: 4, successes: 3, score: 75}\n")
    _commit(base.root, "scored")
    git(base.root, "checkout", "-q", "-b", "a")
    _edit(decisions, "summary: PostgreSQL", "summary: PostgreSQL over SQLite")
    _edit(decisions, "applications: 4, successes: 3, score: 75", "applications: 6, successes: 5, score: 83")
    _commit(base.root, "a")
    git(base.root, "checkout", "-q", "-b", "b", "main")
    _edit(decisions, "tags: [db]", "tags: [db, postgres]")
    _edit(decisions, "applications: 4, successes: 3, score: 75", "applications: 5, successes: 3, score: 60")
    _commit(base.root, "b")
    git(base.root, "checkout", "-q", "a")
    done = _merge(base.root, "b")
    assert done.returncode == 0, done.stdout + done.stderr
    (entry,) = load_grimoire(load_config(base.root)).entries
    assert entry.summary == "PostgreSQL over SQLite"
    assert entry.tags == ["db", "postgres"]
    assert entry.data["effectiveness"] == {"applications": 7, "successes": 5, "score": 71}


def test_a_true_conflict_is_confined_to_its_entry_and_lint_names_it(base: Cli) -> None:
    _add_on(base, "seed", ["Adopt gRPC for internal calls"])
    decisions = base.root / MEMDIR / "decisions.yaml"
    git(base.root, "checkout", "-q", "-b", "a")
    _edit(decisions, "summary: PostgreSQL", "summary: PostgreSQL 16")
    _commit(base.root, "a")
    git(base.root, "checkout", "-q", "-b", "b", "seed")
    _edit(decisions, "summary: PostgreSQL", "summary: PostgreSQL 15")
    _commit(base.root, "b")
    git(base.root, "checkout", "-q", "a")
    done = _merge(base.root, "b")
    assert done.returncode != 0
    text = decisions.read_text()
    assert text.count("<<<<<<< ours") == 1 and "Adopt gRPC for internal calls" in text
    block = text[text.index("<<<<<<<"): text.index(">>>>>>> theirs")]
    assert "gRPC" not in block
    result = base("lint")
    assert result.exit_code == 1 and "decisions.yaml" in result.stdout and "(yaml-syntax)" in result.stdout


def test_fifty_scripted_merges_lose_nothing(loa: Cli) -> None:
    rng = random.Random(7)
    assert loa("add", "fact", "Base fact", "--confidence", "0.9", "--tags", "shared").exit_code == 0
    _commit(loa.root, "base")
    expected = {"Base fact"}
    for n in range(50):
        left = [f"merge {n} left fact {k}" for k in range(rng.randint(1, 20))]
        right = [f"merge {n} right fact {k}" for k in range(rng.randint(1, 20))]
        for branch, texts in ((f"l{n}", left), (f"r{n}", right)):
            git(loa.root, "checkout", "-q", "-b", branch, "main")
            text = (loa.root / MEMDIR / "facts.yaml").read_text()
            offset = 500 if branch[0] == "l" else 600
            items = "".join(f"- id: MEM-2026{1 + n % 12:02d}{1 + n % 28:02d}-{offset + k:03d}\n"
                            f"  category: fact\n  content: {t}\n  confidence: 0.9\n"
                            f"  source: {{session_id: s, timestamp: '2026-01-01T00:00:00Z'}}\n"
                            for k, t in enumerate(texts))
            if n % 5 == 0:  # edits to a shared entry: a tag on one side, the confidence on the other
                if branch[0] == "l":
                    text = re.sub(r"  tags: \[(shared[^\]]*)\]\n", rf"  tags: [\1, t{n}]\n", text, count=1)
                else:
                    text = re.sub(r"  confidence: [0-9.]+\n", f"  confidence: 0.{91 + n % 8}\n", text, count=1)
            (loa.root / MEMDIR / "facts.yaml").write_text(text + items)
            _commit(loa.root, branch)
        git(loa.root, "checkout", "-q", "main")
        assert _merge(loa.root, f"l{n}").returncode == 0
        done = _merge(loa.root, f"r{n}")
        assert done.returncode == 0, done.stdout + done.stderr
        expected |= set(left) | set(right)
    grimoire = load_grimoire(load_config(loa.root))
    assert grimoire.problems == []
    assert {e.content for e in grimoire.entries} == expected
    shared = next(e for e in grimoire.entries if e.content == "Base fact")
    assert shared.tags == ["shared", *[f"t{n}" for n in range(0, 50, 5)]]
    assert shared.confidence == float(f"0.{91 + 45 % 8}")


def test_merge_fields_table() -> None:
    base = {"id": "X", "summary": "a", "tags": ["x"], "links": []}
    merged, conflicts = merge_fields(base, {**base, "summary": "b", "tags": ["x", "y"]},
                                     {**base, "tags": ["x", "z"], "superseded_by": "MEM-20260101-002"})
    assert merged == {"id": "X", "summary": "b", "tags": ["x", "y", "z"], "links": [],
                      "superseded_by": "MEM-20260101-002"}
    assert conflicts == []
    assert merge_fields(base, {**base, "summary": "b"}, {**base, "summary": "c"})[1] == ["summary"]


def test_rebase_and_cherry_pick_use_the_driver(base: Cli) -> None:
    _add_on(base, "feature", ["Adopt gRPC for internal calls"])
    _add_on(base, "other", ["Deploy with blue-green releases"])
    git(base.root, "checkout", "-q", "feature")
    rebased = subprocess.run(["git", "-C", str(base.root), "rebase", "-q", "other"], capture_output=True, text=True)
    assert rebased.returncode == 0, rebased.stdout + rebased.stderr
    contents = {e.content for e in load_grimoire(load_config(base.root)).entries}
    assert {"Adopt gRPC for internal calls", "Deploy with blue-green releases"} <= contents
    git(base.root, "checkout", "-q", "-b", "picker", "main")
    _add_on(base, "third", ["Cache keys are content hashes"], start="main")
    git(base.root, "checkout", "-q", "picker")
    assert loa_add(base, "Run migrations before seeding")
    _commit(base.root, "picker adds")
    picked = subprocess.run(["git", "-C", str(base.root), "cherry-pick", "third"], capture_output=True, text=True)
    assert picked.returncode == 0, picked.stdout + picked.stderr
    contents = {e.content for e in load_grimoire(load_config(base.root)).entries}
    assert {"Cache keys are content hashes", "Run migrations before seeding"} <= contents


def loa_add(loa: Cli, text: str) -> bool:
    return loa("add", "decision", text, "--confidence", "0.95").exit_code == 0
