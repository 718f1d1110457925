"""Two worlds in one repository, end to end: scoped and unscoped reads, telos per world, lint per world,
ids unique across worlds (by construction, and caught by lint when two branches collide)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fixtures import Cli, git, write

LOA = "grimoires/loa/memory"
RESEARCH = "grimoires/research/memory"


def _commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


@pytest.fixture
def two(loa: Cli) -> dict[str, str]:
    """A repository with worlds loa and research, each with a telos, a decision about Postgres, and a fact."""
    result = loa("init", "--world", "research", "--description", "Experiments and their results")
    assert result.exit_code == 0, result.output
    ids = {}
    for world, text in (("loa", "Ship a reliable shop backend"), ("research", "Find the fastest query plans")):
        ids[f"{world}-telos"] = loa.json("add", "telos", text, "--summary", f"Purpose of {world}",
                                         "--world", world)["id"]
    ids["loa-decision"] = loa.json("add", "decision", "Use PostgreSQL for the shop database: JSONB support",
                                   "--confidence", "0.95", "--artifact", "src/db/", "--world", "loa")["id"]
    ids["research-decision"] = loa.json("add", "decision", "Benchmark PostgreSQL query plans with EXPLAIN ANALYZE",
                                        "--confidence", "0.95", "--artifact", "bench/", "--world", "research")["id"]
    ids["loa-fact"] = loa.json("add", "fact", "The shop serves 40 requests per second at peak",
                               "--world", "loa")["id"]
    ids["research-fact"] = loa.json("add", "fact", "Index-only scans halve the latency of the orders query",
                                    "--world", "research")["id"]
    _commit(loa.root, "two worlds")
    return ids


def _worlds_of(records: list[dict[str, object]]) -> set[object]:
    return {r["world"] for r in records}


def test_init_declares_a_second_world_keeping_the_config(loa: Cli) -> None:
    before = (loa.root / ".loa.config.yaml").read_text()
    assert loa("init", "--world", "research").exit_code == 0
    after = (loa.root / ".loa.config.yaml").read_text()
    assert "# author emails allowed to change telos files" in after  # comments survive
    assert "loa:\n      storage_dir: grimoires/loa/memory" in after and "research:" in after
    assert (loa.root / RESEARCH / "decisions.yaml").is_file() and (loa.root / RESEARCH / "handoffs").is_dir()
    assert f"{RESEARCH}/**/*.yaml merge=loa-memory" in (loa.root / ".gitattributes").read_text()
    assert loa("init", "--world", "research").stdout.startswith("already initialised")
    bad = loa("init", "--world", "../x")
    assert bad.exit_code == 2 and "world name" in bad.stderr and before != after
    assert (loa.root / ".loa.config.yaml").read_text() == after


def test_ids_are_unique_across_worlds_by_construction(loa: Cli, two: dict[str, str]) -> None:
    ids = list(two.values())
    assert len(set(ids)) == len(ids)
    more = [loa.json("add", "fact", f"Fact number {n}", "--world", ("loa", "research")[n % 2])["id"]
            for n in range(6)]
    assert len(set(more + ids)) == len(ids) + 6
    assert sorted(more) == more  # one sequence across both worlds


def test_list_show_and_stats_scoped_and_unscoped(loa: Cli, two: dict[str, str]) -> None:
    everything = loa.json("list")["entries"]
    assert _worlds_of(everything) == {"loa", "research"} and len(everything) == 6
    research = loa.json("list", "--world", "research")["entries"]
    assert _worlds_of(research) == {"research"} and len(research) == 3
    text = loa("list").stdout
    assert f"research/{two['research-fact']}" in text and f"loa/{two['loa-fact']}" in text
    assert "research/" not in loa("list", "--world", "loa").stdout
    shown = loa.json("show", two["research-fact"])
    assert shown["world"] == "research" and shown["multiple_worlds"] is True
    assert "world research" in loa("show", two["research-fact"]).stdout.splitlines()[0]
    assert loa("show", two["research-fact"], "--world", "loa").exit_code == 1
    stats = loa.json("stats", "--world", "research")
    assert stats["entries"] == 3 and stats["by_world"] == {"research": 3}
    assert loa.json("stats")["by_world"] == {"loa": 3, "research": 3}
    assert loa("stats", "--world", "nope").exit_code == 2


def test_search_recall_and_why_scoped_and_unscoped(loa: Cli, two: dict[str, str]) -> None:
    hits = loa.json("search", "postgresql", "--mode", "lexical")["results"]
    assert {h["id"] for h in hits} >= {two["loa-decision"], two["research-decision"]}
    assert _worlds_of(hits) == {"loa", "research"}
    scoped = loa.json("search", "postgresql", "--world", "research")["results"]
    assert scoped and _worlds_of(scoped) == {"research"}
    assert "research/" in loa("search", "postgresql", "--mode", "lexical").stdout
    # a scoped search leaves the other world in the index
    manifest = json.loads((loa.root / ".loa" / "index" / "manifest.json").read_text())
    assert any(rel.startswith(LOA) for rel in manifest["keys"])
    assert two["loa-decision"] in {h["id"] for h in loa.json("search", "postgresql", "--mode", "lexical")["results"]}
    shutil.rmtree(loa.root / ".loa" / "index")  # an index first rebuilt by a scoped search holds that world only
    assert _worlds_of(loa.json("search", "postgresql", "--mode", "lexical", "--world", "research")["results"]) \
        == {"research"}
    assert two["loa-decision"] in {h["id"] for h in loa.json("search", "postgresql", "--mode", "lexical")["results"]}
    recall = loa.json("recall", "query plans for the orders table in postgres", "--world", "research")
    assert recall["index"] and _worlds_of(recall["index"]) == {"research"}
    write(loa.root, "src/db/models.py", "ORDERS = 'orders'\n")
    assert loa.json("why", "src/db/", "--world", "research")["results"] == []
    assert [i["id"] for i in loa.json("why", "src/db/")["results"]] == [two["loa-decision"]]


def test_session_start_shows_each_worlds_telos(loa: Cli, two: dict[str, str]) -> None:
    scoped = loa.json("session", "start", "--world", "research")
    assert [t["id"] for t in scoped["telos"]] == [two["research-telos"]]
    assert all(item["world"] == "research" for key in ("telos", "decisions") for item in scoped[key])
    both = loa.json("session", "start")
    assert {t["id"] for t in both["telos"]} == {two["loa-telos"], two["research-telos"]}
    text = loa("session", "start").stdout
    assert "### Purpose of research (world research)" in text and "### Purpose of loa (world loa)" in text


def test_lint_per_world(loa: Cli, two: dict[str, str]) -> None:
    assert loa("lint", "--world", "research").exit_code == 0
    with (loa.root / LOA / "facts.yaml").open("a") as handle:
        handle.write("- id: MEM-20260101-900\n  category: fact\n  content: broken\n"
                     f"  links: [{{to: {two['research-fact']}, relation: related_to}}]\n")
    research = loa("lint", "--world", "research", "--format", "json")
    assert research.exit_code == 0, research.stdout
    bad = loa("lint", "--world", "loa")
    assert bad.exit_code == 1 and f"{LOA}/facts.yaml" in bad.stdout and RESEARCH not in bad.stdout
    assert "dangling-link" not in bad.stdout  # a link into another world is fine
    assert loa("lint").exit_code == 1
    assert loa("lint", "--world", "nope").exit_code == 2


def test_duplicate_ids_across_worlds_are_caught_and_fixed(loa: Cli, two: dict[str, str]) -> None:
    git(loa.root, "checkout", "-q", "-b", "shop")
    shop = loa.json("add", "fact", "Orders are kept for seven years", "--world", "loa")["id"]
    _commit(loa.root, "shop fact")
    git(loa.root, "checkout", "-q", "-b", "lab", "main")
    lab = loa.json("add", "fact", "Parallel seq scans help above a million rows", "--world", "research")["id"]
    _commit(loa.root, "lab fact")
    assert shop == lab  # each branch allocated the next free id on its own
    collision = loa("lint", "--base", "shop")
    assert collision.exit_code == 1 and "(id-collision)" in collision.stdout and RESEARCH in collision.stdout
    git(loa.root, "merge", "-q", "--no-edit", "shop")  # different worlds, different files: git merges silently
    duplicate = loa("lint")
    assert duplicate.exit_code == 1 and "(duplicate-id)" in duplicate.stdout
    assert loa("lint", "--world", "research").exit_code == 1  # the newer of the two is in research
    fixed = loa("lint", "--fix")
    assert fixed.exit_code == 0, fixed.output
    entries = loa.json("list")["entries"]
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)) == 8
    renumbered = next(e for e in entries if e["entry"].get("aliases"))
    assert renumbered["entry"]["aliases"] == [lab] and renumbered["world"] == "research"


def test_archive_review_and_promote_per_world(loa: Cli, two: dict[str, str]) -> None:
    stale = {"category": "learning", "content": "Vacuum tuning matters", "ttl": "1d",
             "source": {"session_id": "s", "timestamp": "2020-01-01T00:00:00Z"}}
    loa("add", "--from-json", "-", "--world", "research", input=json.dumps(stale))
    plan = loa.json("archive", "--dry-run", "--world", "loa")
    assert plan["entries"] == []
    plan = loa.json("archive", "--dry-run")
    assert [(e["world"], e["reason"]) for e in plan["entries"]] == [("research", "expired")]
    _commit(loa.root, "stale")
    review = loa.json("review", "HEAD~1..HEAD", "--world", "loa")
    assert review["added"] == []
    review = loa.json("review", "HEAD~1..HEAD")
    assert [a["world"] for a in review["added"]] == ["research"]
    for session in ("s1", "s2", "s3"):
        episode = {"category": "episode", "content": "Use pnpm, not npm", "session_id": session,
                   "action_types": ["preference"], "source": {"session_id": session}}
        assert loa("add", "--from-json", "-", "--world", "research", input=json.dumps(episode)).exit_code == 0
    assert loa.json("promote", "--dry-run", "--world", "loa")["promoted"] == []
    promoted = loa.json("promote")["promoted"]
    assert len(promoted) == 1 and promoted[0]["world"] == "research"
    assert promoted[0]["path"].startswith(RESEARCH)


def test_a_config_with_worlds_written_by_hand(repo: Path) -> None:
    write(repo, ".loa.config.yaml", "memory_schema:\n  worlds:\n    app: {}\n    ops:\n      storage_dir: ops/memory\n")
    loa = Cli(repo)
    assert loa("init").exit_code == 0
    assert (repo / "grimoires/app/memory/facts.yaml").is_file() and (repo / "ops/memory/telos").is_dir()
    added = loa.json("add", "fact", "Deploys run at 10:00 UTC", "--world", "ops")
    assert added["path"] == "ops/memory/facts.yaml" and added["world"] == "ops"
    assert loa.json("add", "fact", "The app is a monolith")["world"] == "app"  # the first world is the default
    assert loa("add", "fact", "x", "--world", "nope").exit_code == 2
