"""The `entries` layout (one file per memory), its random ids, `migrate` between layouts and `export`."""

from __future__ import annotations

import os
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from loa_memory.lifecycle.archival import archive_grimoire
from loa_memory.store import load_config, load_grimoire
from loa_memory.store.ids import ID_RE, next_id
from tests.fixtures import MEMDIR, Cli, git


@pytest.fixture
def fresh(repo: Path) -> Cli:
    """A repository after a plain `loa-memory init` (a new grimoire: the entries layout)."""
    loa = Cli(repo)
    assert loa("init").exit_code == 0
    return loa


def _files(root: Path, folder: str) -> list[str]:
    path = root / MEMDIR / folder
    return sorted(p.name for p in path.glob("*.yaml")) if path.is_dir() else []


def test_a_new_grimoire_keeps_one_file_per_entry_with_a_random_id(fresh: Cli) -> None:
    config_text = (fresh.root / ".loa.config.yaml").read_text()
    assert "layout: entries" in config_text
    assert not (fresh.root / MEMDIR / "decisions.yaml").exists()
    added = fresh.json("add", "decision", "Use PostgreSQL for JSONB.", "--confidence", "0.95")
    assert re.fullmatch(r"MEM-[0-9]{8}-[0-9a-z]{6}", added["id"]) and not added["id"][-6:].isdigit()
    assert added["path"] == f"{MEMDIR}/decisions/{added['id']}-use-postgresql-for-jsonb.yaml"
    text = (fresh.root / added["path"]).read_text()
    assert text.startswith(f"- id: {added['id']}\n  category: decision\n")  # a Loa list file of one item
    assert fresh.json("show", added["id"])["id"] == added["id"]
    assert [e["id"] for e in fresh.json("list")["entries"]] == [added["id"]]
    assert fresh("lint").exit_code == 0


def test_ids_of_both_forms_are_valid_and_random_ones_do_not_collide() -> None:
    day = date(2026, 11, 25)
    assert next_id({"MEM-20261125-001", "MEM-20261125-k3x9qa"}, day) == "MEM-20261125-002"
    ids = set()
    for _ in range(2000):
        ids.add(next_id(ids, day, "random"))
    assert len(ids) == 2000 and all(ID_RE.match(i) for i in ids)
    assert not any(i.rsplit("-", 1)[1].isdigit() for i in ids)


def test_lint_points_into_the_entry_file(fresh: Cli) -> None:
    added = fresh.json("add", "fact", "The API listens on 8080.", "--confidence", "0.95")
    path = fresh.root / added["path"]
    path.write_text(path.read_text().replace("confidence: 0.95", "confidence: 0.2"))
    result = fresh("lint")
    assert result.exit_code == 1
    assert f"{added['path']}:5:" in result.stdout and "(min-confidence)" in result.stdout


def test_supersede_and_archive_move_entry_files(fresh: Cli) -> None:
    old = fresh.json("add", "error", "Build fails on Python 3.10.", "--confidence", "0.9")
    new = fresh.json("supersede", old["id"], "Build fails on Python 3.10 and 3.11.", "--confidence", "0.9")
    assert "superseded_by: " + new["id"] in (fresh.root / old["path"]).read_text()
    later = datetime.now(UTC) + timedelta(days=400)
    archive_grimoire(load_config(fresh.root), now=later)
    assert _files(fresh.root, "errors") == []
    archived = _files(fresh.root, "archive/errors")
    assert archived == sorted([Path(old["path"]).name, Path(new["path"]).name])
    grimoire = load_grimoire(load_config(fresh.root))
    assert all(e.archived for e in grimoire.entries)


def _two_branches_same_id(loa: Cli) -> tuple[str, str]:
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "init")
    git(loa.root, "checkout", "-q", "-b", "feature")
    mine = loa.json("add", "decision", "Adopt gRPC for internal calls.", "--confidence", "0.95")
    loa("add", "learning", "gRPC needs HTTP/2 end to end.", "--link", f"related_to:{mine['id']}")
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "feature")
    git(loa.root, "checkout", "-q", "main")
    theirs = loa.json("add", "decision", "Use REST for public APIs.", "--confidence", "0.95")
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "main")
    assert mine["id"] == theirs["id"]
    git(loa.root, "config", "--unset", "merge.loa-memory.driver")
    merged = git(loa.root, "merge", "--no-edit", "-q", "feature")
    assert merged == ""
    return mine["path"], theirs["path"]


def test_loa_ids_in_entry_files_merge_then_show_refuses_and_fix_renames(repo: Path) -> None:
    loa = Cli(repo)
    assert loa("init").exit_code == 0
    config = repo / ".loa.config.yaml"
    config.write_text(config.read_text() + "  id_style: loa\n")
    mine, theirs = _two_branches_same_id(loa)
    memory_id = Path(mine).name[:16]
    shown = loa("show", memory_id)
    assert shown.exit_code == 1
    assert f"{memory_id} is the id of 2 entries" in shown.stderr and mine in shown.stderr and theirs in shown.stderr
    assert loa.json("show", memory_id)["error"]["code"] == "ambiguous-id"
    fixed = loa("lint", "--fix")
    assert fixed.exit_code == 0, fixed.output
    grimoire = load_grimoire(load_config(repo))
    ids = [e.id for e in grimoire.entries]
    assert len(ids) == len(set(ids))
    renamed = next(e for e in grimoire.entries if e.aliases)
    assert Path(renamed.path).name.startswith(renamed.id + "-")  # the file follows its new id
    learning = next(e for e in grimoire.entries if e.category == "learning")
    assert grimoire.get(learning.data["links"][0]["to"]).content == "Adopt gRPC for internal calls."
    assert loa("lint").exit_code == 0


def test_migrate_round_trip_loses_nothing_and_is_staged(loa: Cli) -> None:
    for number in range(7):
        category = ("decision", "fact", "learning")[number % 3]
        assert loa("add", category, f"Memory number {number} of the round trip.", "--confidence", "0.95").exit_code == 0
    first = loa.json("list")["entries"][0]["id"]
    assert loa("supersede", first, "Memory zero, replaced.", "--confidence", "0.95").exit_code == 0
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "lists")
    before = {
        name: (loa.root / MEMDIR / name).read_text() for name in ("decisions.yaml", "facts.yaml", "learnings.yaml")
    }
    # the header comment init writes is the one thing entry files have no place for: a comment-free round trip
    for name, text in before.items():
        before[name] = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
        (loa.root / MEMDIR / name).write_text(before[name])
    grimoire = load_grimoire(load_config(loa.root))
    data_before = sorted((e.id, repr(dict(e.data))) for e in grimoire.entries)
    moved = loa.json("migrate", "--layout", "entries")
    assert moved["entries"] == 8 and moved["staged"] and not moved["unchanged"]
    assert not (loa.root / MEMDIR / "decisions.yaml").exists()
    assert len(_files(loa.root, "decisions")) == 4
    assert "layout: entries" in (loa.root / ".loa.config.yaml").read_text()
    staged = git(loa.root, "status", "--short").splitlines()
    assert f"D  {MEMDIR}/decisions.yaml" in staged
    assert sum(line.startswith(f"A  {MEMDIR}/decisions/MEM-") for line in staged) == 4
    grimoire = load_grimoire(load_config(loa.root))
    assert sorted((e.id, repr(dict(e.data))) for e in grimoire.entries) == data_before
    assert loa("lint").exit_code == 0
    back = loa.json("migrate", "--layout", "lists")
    assert back["entries"] == 8
    for name, text in before.items():
        assert (loa.root / MEMDIR / name).read_text() == text, name
    assert not (loa.root / MEMDIR / "decisions").exists()
    assert loa("migrate", "--layout", "lists").stdout.startswith("already in the lists layout")


def test_migrate_refuses_a_broken_file_and_moves_nothing(loa: Cli) -> None:
    assert loa("add", "fact", "A fact that stays where it is.", "--confidence", "0.95").exit_code == 0
    config = (loa.root / ".loa.config.yaml").read_text()
    (loa.root / MEMDIR / "decisions.yaml").write_text("- id: MEM-20260101-001\n  summary: [unclosed\n")
    result = loa("migrate", "--layout", "entries")
    assert result.exit_code == 1
    assert f"{MEMDIR}/decisions.yaml:" in result.stderr and "no file was moved" in result.stderr
    assert (loa.root / MEMDIR / "facts.yaml").exists() and not (loa.root / MEMDIR / "facts").exists()
    assert (loa.root / ".loa.config.yaml").read_text() == config


def test_export_writes_loa_list_files_outside_the_grimoire(fresh: Cli, tmp_path: Path) -> None:
    ids = [fresh.json("add", "decision", f"Decision {n}.", "--confidence", "0.95")["id"] for n in range(3)]
    out = tmp_path / "export"
    result = fresh.json("export", "--layout", "lists", str(out))
    assert result["entries"] == 3
    exported = out / MEMDIR / "decisions.yaml"
    text = exported.read_text()
    assert [line.split(": ")[1] for line in text.splitlines() if line.startswith("- id:")] == sorted(
        ids, key=lambda i: text.index(i)
    )
    assert set(ids) <= set(re.findall(r"MEM-[0-9]{8}-[0-9a-z]+", text))
    assert _files(fresh.root, "decisions")  # the grimoire itself is untouched
    inside = fresh("export", "--layout", "lists", str(fresh.root / MEMDIR / "x"))
    assert inside.exit_code == 2 and "inside the grimoire" in inside.stderr


def test_export_with_loa_ids_validates_against_loas_schema(fresh: Cli, tmp_path: Path) -> None:
    import json

    import jsonschema
    import yaml

    first = fresh.json("add", "decision", "Use PostgreSQL.", "--confidence", "0.95")["id"]
    second = fresh.json("supersede", first, "Use PostgreSQL 16.", "--confidence", "0.95")["id"]
    fresh("add", "learning", "JSONB needs GIN indexes.", "--link", f"related_to:{second}")
    out = tmp_path / "export"
    assert fresh.json("export", "--layout", "lists", "--loa-ids", str(out))["renumbered"] == 3
    loa_schema = json.loads((Path(__file__).resolve().parents[1] / "compat" / "loa-memory.schema.json").read_text())
    decisions = yaml.safe_load((out / MEMDIR / "decisions.yaml").read_text())
    learnings = yaml.safe_load((out / MEMDIR / "learnings.yaml").read_text())
    for entry in decisions + learnings:
        jsonschema.validate(entry, loa_schema)
    old, new = decisions
    old, new = (old, new) if old["content"] == "Use PostgreSQL." else (new, old)
    assert old["aliases"] == [first] and new["aliases"] == [second]
    assert old["superseded_by"] == new["id"] and new["supersedes"] == old["id"]
    assert learnings[0]["links"] == [{"to": new["id"], "relation": "related_to"}]


def test_ledgers_and_episodes_get_one_file_per_entry_too(fresh: Cli) -> None:
    first = fresh.json("ledger", "checkpoint", "--agent", "claude", "--task", "migrate the layout")
    second = fresh.json("ledger", "checkpoint", "--agent", "claude", "--task", "write the tests")
    assert first["path"] == f"{MEMDIR}/ledgers/claude-{first['id']}.yaml" != second["path"]
    episode = fresh.json("session", "end", "--summary", "moved the grimoire to one file per entry")
    assert re.fullmatch(rf"{MEMDIR}/episodic/[0-9-]{{10}}-MEM-[0-9a-z-]+\.yaml", episode["path"]), episode["path"]
    assert "write the tests" in fresh("ledger", "show", "claude").stdout
    assert fresh("lint").exit_code == 0


def test_entry_folders_are_cached_per_folder_and_equal_a_fresh_parse(fresh: Cli) -> None:
    added = [fresh.json("add", "fact", f"Fact {n} for the cache.", "--confidence", "0.95") for n in range(3)]
    config = load_config(fresh.root)

    def snapshot(use_cache: bool) -> list[tuple[str, int, str, str]]:
        grimoire = load_grimoire(config, use_cache=use_cache)
        return sorted((e.path, e.line, e.id, e.summary) for e in grimoire.entries) + sorted(
            (p.path, p.line, p.rule, p.message) for p in grimoire.problems
        )

    assert snapshot(True) == snapshot(False)
    assert len(list((fresh.root / ".loa" / "cache" / "load").glob("*.dir.marshal"))) == 1
    path = fresh.root / added[1]["path"]
    path.write_text(path.read_text().replace("summary: Fact 1", "summary: Fact one"))
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10_000_000))
    (fresh.root / added[2]["path"]).unlink()
    cached = snapshot(True)
    assert cached == snapshot(False)
    assert sorted(row[3] for row in cached) == ["Fact 0 for the cache.", "Fact one for the cache."]


def test_init_where_list_files_are_already_there_keeps_the_list_layout(repo: Path) -> None:
    decisions = repo / MEMDIR / "decisions.yaml"
    decisions.parent.mkdir(parents=True)
    decisions.write_text(
        "- id: MEM-20260101-001\n  category: decision\n  summary: Kept\n  content: Kept\n"
        "  confidence: 0.95\n  source: {session_id: s, timestamp: '2026-01-01T10:00:00Z'}\n"
    )
    loa = Cli(repo)
    assert loa("init").exit_code == 0
    assert "layout: lists" in (repo / ".loa.config.yaml").read_text()
    added = loa.json("add", "decision", "Another decision.", "--confidence", "0.95")
    assert re.fullmatch(r"MEM-[0-9]{8}-[0-9]{3}", added["id"])  # and Loa's ids go on
    assert decisions.read_text().count("- id:") == 2
