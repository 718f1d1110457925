"""``why``: artifact backlinks, blame → trailers, source.commit, question mode, supersede chains."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from loa_memory.answer.artifacts import PathTarget, path_relation
from loa_memory.answer.blame import trailer_ids
from loa_memory.answer.why import why
from loa_memory.store import load_config
from tests.fixtures import Cli, git, write

SOURCE = {"session_id": "s1", "timestamp": "2026-01-05T10:00:00Z"}
MIGRATION = "src/db/migrations/0042.py"


def add(loa: Cli, memory_id: str, category: str, summary: str, *, supersedes: str | None = None,
        **fields: Any) -> None:
    entry = {"id": memory_id, "category": category, "summary": summary, "content": fields.pop("content", summary),
             "confidence": 0.95, "source": {**SOURCE, **fields.pop("source", {})}, "ttl": "permanent", **fields}
    args = ("supersede", supersedes) if supersedes else ("add",)
    result = loa(*args, "--from-json", "-", input=json.dumps(entry))
    assert result.exit_code == 0, result.output


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def results(data: dict[str, Any]) -> list[tuple[str, str, list[tuple[str, str]]]]:
    return [(r["id"], r["status"], [(why["kind"], why["text"]) for why in r["reasons"]]) for r in data["results"]]


def test_artifact_folder_file_and_glob_match(loa: Cli, grimoire: Path) -> None:
    write(grimoire, MIGRATION, "up\ndown\n")
    write(grimoire, "src/api/v1.py", "x\n")
    add(loa, "MEM-20260105-001", "learning", "Migrations must be reversible", artifacts=[MIGRATION])
    add(loa, "MEM-20260105-002", "decision", "PostgreSQL over SQLite", artifacts=["src/db/"],
        rationale="JSONB", alternatives=[{"option": "SQLite", "rejected_because": "no concurrent writers"}])
    add(loa, "MEM-20260105-003", "fact", "Migrations are Python files", artifacts=["src/db/**/*.py"])
    add(loa, "MEM-20260105-004", "fact", "The API is versioned", artifacts=["src/api/"])

    data = loa.json("why", MIGRATION)
    assert data["mode"] == "path" and data["path"] == MIGRATION and data["commits"] == []
    assert results(data) == [
        ("MEM-20260105-002", "active", [("artifact", f"artifact src/db/ covers {MIGRATION}")]),
        ("MEM-20260105-001", "active", [("artifact", f"artifact {MIGRATION} names {MIGRATION}")]),
        ("MEM-20260105-003", "active", [("artifact", f"artifact src/db/**/*.py matches {MIGRATION}")]),
    ]
    assert data["results"][0]["alternatives"] == [{"option": "SQLite", "rejected_because": "no concurrent writers"}]
    assert data["results"][0]["rationale"] == "JSONB"
    assert data["results"][0]["reasons"][0] == {"kind": "artifact", "text": f"artifact src/db/ covers {MIGRATION}",
                                                "artifact": "src/db/", "relation": "covers"}

    folder = loa.json("why", "src/db")
    assert folder["path"] == "src/db/"
    assert [(r["id"], r["reasons"][0]["relation"]) for r in folder["results"]] == [
        ("MEM-20260105-002", "same"), ("MEM-20260105-001", "inside"), ("MEM-20260105-003", "inside")]


def test_line_blamed_to_commit_trailers(loa: Cli, grimoire: Path) -> None:
    add(loa, "MEM-20260105-001", "decision", "Index users.email")
    add(loa, "MEM-20260105-002", "correction", "Lock timeouts on big tables", trigger="add an index",
        lesson="create indexes concurrently")
    add(loa, "MEM-20260105-003", "learning", "Unrelated learning")
    write(grimoire, MIGRATION, "one\ntwo\nthree\n")
    first = commit(grimoire, "Add migration")
    write(grimoire, MIGRATION, "one\nTWO\nthree\n")
    second = commit(grimoire, "Index email\n\nBody text.\n\nMemory: MEM-20260105-001\n")
    write(grimoire, MIGRATION, "one\nTWO\nTHREE\n")
    third = commit(grimoire, "Concurrent index\n\nRefs: MEM-20260105-002, MEM-20990101-001\n")

    data = loa.json("why", f"{MIGRATION}:2")
    assert data["commits"] == [{"sha": second, "subject": "Index email", "found_by": "blame",
                                "memory_ids": ["MEM-20260105-001"]}]
    assert data["results"][0]["reasons"] == [{
        "kind": "commit", "text": f"blamed commit {second[:10]} (Index email), whose trailer names it",
        "commit": second, "found_by": "blame", "subject": "Index email", "via": "trailer"}]
    assert [r["id"] for r in data["results"]] == ["MEM-20260105-001"]

    data = loa.json("why", f"{MIGRATION}:3")
    assert [r["id"] for r in data["results"]] == ["MEM-20260105-002"]
    assert data["warnings"] == [f"commit {third[:10]} names MEM-20990101-001, which is not in the grimoire"]

    both = loa.json("why", f"{MIGRATION}:2-3")
    assert [r["id"] for r in both["results"]] == ["MEM-20260105-001", "MEM-20260105-002"]

    text = loa("why", f"{MIGRATION}:3")
    assert text.exit_code == 0
    assert text.stdout == (
        f"why {MIGRATION}:3:\n\n"
        "Correction MEM-20260105-002 (active): Lock timeouts on big tables\n"
        "  Before: add an index\n"
        "  Lesson: create indexes concurrently\n"
        f"  because blamed commit {third[:10]} (Concurrent index), whose trailer names it\n"
        f"note: commit {third[:10]} names MEM-20990101-001, which is not in the grimoire\n")

    write(grimoire, MIGRATION, "one\nTWO\nTHREE\nfour, not committed\n")
    assert loa.json("why", f"{MIGRATION}:4")["commits"] == []
    untouched = loa("why", f"{MIGRATION}:1")
    assert untouched.exit_code == 1
    assert untouched.stdout.startswith(f"no memories explain {MIGRATION}:1\n")
    assert loa.json("why", f"{MIGRATION}:1")["commits"][0]["sha"] == first

    whole = loa.json("why", MIGRATION)
    assert [c["sha"] for c in whole["commits"]] == [third, second, first]
    assert [(r["id"], r["reasons"][0]["found_by"]) for r in whole["results"]] == [
        ("MEM-20260105-001", "log"), ("MEM-20260105-002", "log")]


def test_source_commit_links_by_prefix(loa: Cli, grimoire: Path) -> None:
    write(grimoire, "src/app.py", "print('hi')\n")
    sha = commit(grimoire, "App entry point")
    add(loa, "MEM-20260105-001", "decision", "A single entry point", source={"commit": sha[:8]})
    add(loa, "MEM-20260105-002", "learning", "Other commit", source={"commit": "deadbeef"})
    for target in ("src/app.py", "src/app.py:1"):
        data = loa.json("why", target)
        how = "blamed" if target.endswith(":1") else "touched by"
        assert results(data) == [("MEM-20260105-001", "active", [
            ("commit", f"{how} commit {sha[:10]} (App entry point) is its source.commit")])]
        assert data["results"][0]["reasons"][0]["via"] == "source.commit"


def test_file_path_with_line_range(loa: Cli, grimoire: Path) -> None:
    write(grimoire, "src/app.py", "".join(f"line {n}\n" for n in range(1, 31)))
    add(loa, "MEM-20260105-001", "error", "Off by one in pagination", error="IndexError",
        resolution="use < not <=", source={"file_path": "src/app.py", "line_range": "10-20"})
    assert [r["id"] for r in loa.json("why", "src/app.py:15")["results"]] == ["MEM-20260105-001"]
    assert loa.json("why", "src/app.py:15")["results"][0]["reasons"][0]["text"] == \
        "file_path src/app.py:10-20 names src/app.py:15"
    assert loa("why", "src/app.py:25").exit_code == 1
    assert [r["id"] for r in loa.json("why", "src/app.py")["results"]] == ["MEM-20260105-001"]


def test_question_mode_puts_decisions_with_rejected_alternatives_first(loa: Cli) -> None:
    add(loa, "MEM-20260105-001", "learning", "URL path versioning makes API versions visible in access logs",
        content="With URL path versioning we can see which API version each client uses in the access logs.")
    add(loa, "MEM-20260105-002", "decision", "URL path versioning for the public API",
        content="We version the public API in the URL path (/v1/orders).", rationale="visible to caches and logs",
        alternatives=[{"option": "Accept header versioning", "rejected_because": "invisible to CDN caches"},
                      {"option": "query parameter"}])
    add(loa, "MEM-20260105-003", "fact", "The build uses Gradle", content="Gradle builds the Android app.")
    data = loa.json("why", "why did we pick URL path versioning")
    assert data["mode"] == "question" and data["path"] is None
    assert [r["id"] for r in data["results"]] == ["MEM-20260105-002", "MEM-20260105-001"]
    first = data["results"][0]
    assert first["alternatives"] == [
        {"option": "Accept header versioning", "rejected_because": "invisible to CDN caches"},
        {"option": "query parameter", "rejected_because": None}]
    assert first["rationale"] == "visible to caches and logs"
    assert first["reasons"][0]["kind"] == "search"
    text = loa("why", "why did we pick URL path versioning").stdout
    assert text.startswith("why 'why did we pick URL path versioning':\n\n"
                           "Decision MEM-20260105-002 (active): URL path versioning for the public API\n"
                           "  Rationale: visible to caches and logs\n"
                           "  Rejected: Accept header versioning — invisible to CDN caches\n"
                           "  Rejected: query parameter\n"
                           "  because matches the question")


def test_superseded_entries_bring_their_successor(loa: Cli, grimoire: Path) -> None:
    write(grimoire, "src/api/v1.py", "x\n")
    add(loa, "MEM-20260105-001", "decision", "Header versioning for the API", artifacts=["src/api/"],
        content="Version the API through the Accept header.")
    add(loa, "MEM-20260105-002", "decision", "URL path versioning for the API", supersedes="MEM-20260105-001",
        content="Version the API in the URL path instead of the Accept header.",
        alternatives=[{"option": "Accept header", "rejected_because": "CDN caches ignore it"}])
    data = loa.json("why", "src/api/v1.py")
    assert results(data) == [
        ("MEM-20260105-002", "active", [("successor", "replaces MEM-20260105-001, which matched")]),
        ("MEM-20260105-001", "superseded", [("artifact", "artifact src/api/ covers src/api/v1.py")]),
    ]
    assert data["results"][1]["superseded_by"] == "MEM-20260105-002"
    assert data["results"][0]["supersedes"] == [
        {"id": "MEM-20260105-001", "status": "superseded", "summary": "Header versioning for the API"}]

    asked = loa.json("why", "why version the API through the Accept header")
    assert [r["id"] for r in asked["results"]] == ["MEM-20260105-002"]
    assert asked["results"][0]["supersedes"][0]["id"] == "MEM-20260105-001"
    assert "Replaces: MEM-20260105-001 (superseded): Header versioning for the API" in \
        loa("why", "src/api/v1.py").stdout


def test_nothing_found_exits_1(loa: Cli, grimoire: Path) -> None:
    write(grimoire, "README.md", "hello\n")
    add(loa, "MEM-20260105-001", "fact", "The database is PostgreSQL", artifacts=["src/db/"])
    result = loa("why", "README.md")
    assert result.exit_code == 1
    assert result.stdout == ("no memories explain README.md\n  hint: record one with `loa-memory add decision ... "
                             "--artifact PATH`, or name it in a commit trailer `Memory: MEM-...`\n")
    missing = loa.json("why", "src/gone.py:3")
    assert missing["mode"] == "question" and missing["results"] == []
    assert missing["warnings"][0] == \
        f"src/gone.py:3 is not a file or folder in {grimoire}; it was answered as a question"
    assert loa("why", "why " * 200).exit_code == 1  # longer than a file name may be
    asked = loa("why", "quantum teleportation of kittens", "--format", "json")
    assert asked.exit_code == 1
    assert json.loads(asked.stdout)["results"] == []


@pytest.mark.parametrize(("target", "message"), [
    ("README.md:9", "README.md:9: README.md has only 1 line(s)"),
    ("src:3", "src:3: a folder has no lines"),
])
def test_bad_line_targets_are_usage_errors(loa: Cli, grimoire: Path, target: str, message: str) -> None:
    write(grimoire, "README.md", "hello\n")
    write(grimoire, "src/a.py", "a\n")
    result = loa("why", target)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {message}\n")


def test_expired_matches_are_only_mentioned(loa: Cli, grimoire: Path) -> None:
    write(grimoire, "src/db/x.py", "a\n")
    add(loa, "MEM-20260105-001", "learning", "Old lesson", artifacts=["src/db/"], ttl="30d")
    result = loa("why", "src/db/x.py")
    assert result.exit_code == 1
    assert result.stdout == ("no memories explain src/db/x.py\n  hint: record one with `loa-memory add decision ... "
                             "--artifact PATH`, or name it in a commit trailer `Memory: MEM-...`\n"
                             "note: 1 more matching memory is archived or expired: MEM-20260105-001 "
                             "(`loa-memory show ID`)\n")


def test_outside_git_there_are_no_commit_links(loa: Cli, grimoire: Path) -> None:
    write(grimoire, "src/db/x.py", "a\n")
    add(loa, "MEM-20260105-001", "decision", "PostgreSQL", artifacts=["src/db/"])
    commit(grimoire, "x\n\nMemory: MEM-20260105-001")
    shutil.rmtree(grimoire / ".git")
    result = why(load_config(grimoire), "src/db/x.py:1")
    assert result.commits == [] and [i.entry.id for i in result.items] == ["MEM-20260105-001"]


def test_paths_resolve_from_the_working_directory(grimoire: Path, loa: Cli) -> None:
    write(grimoire, "src/db/x.py", "a\n")
    add(loa, "MEM-20260105-001", "decision", "PostgreSQL", artifacts=["src/db/x.py"])
    result = why(load_config(grimoire), "x.py", cwd=grimoire / "src" / "db")
    assert result.mode == "path" and str(result.path) == "src/db/x.py"


@pytest.mark.parametrize(("pattern", "rel", "is_dir", "expected"), [
    ("src/db/", "src/db/m/1.py", False, "covers"),
    ("./src/db", "src/db/m/1.py", False, "covers"),
    ("src/dbx", "src/db/m/1.py", False, None),
    ("src/db/m/1.py", "src/db/m/1.py", False, "same"),
    ("src/db/m/1.py:3-4", "src/db/m/1.py", False, "same"),
    ("src/db/*.py", "src/db/m/1.py", False, None),
    ("src/db/*/*.py", "src/db/m/1.py", False, "glob"),
    ("src/**/*.py", "src/db/m/1.py", False, "glob"),
    ("**/m/", "src/db/m/1.py", False, "glob"),
    ("src/db/m/[0-9].py", "src/db/m/1.py", False, "glob"),
    ("src/db/m/1.py", "src/db", True, "inside"),
    ("src/db/*.py", "src/db", True, "inside"),
    ("src/api/*.py", "src/db", True, None),
])
def test_path_relation(pattern: str, rel: str, is_dir: bool, expected: str | None) -> None:
    assert path_relation(pattern, PathTarget(rel, is_dir)) == expected


def test_trailer_ids() -> None:
    message = ("Subject MEM-20260101-009\n\nBody mentions MEM-20260101-008.\n\n"
               "Memory: MEM-20260101-001\nmemories: MEM-20260101-002, MEM-20260101-003\n"
               "Refs: #12, MEM-20260101-001\nDecision: use X")
    assert trailer_ids(message) == ["MEM-20260101-001", "MEM-20260101-002", "MEM-20260101-003"]
