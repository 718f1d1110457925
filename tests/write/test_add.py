from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import pytest

from loa_memory.errors import GrimoireError, SecretRefused, UsageError, ValidationError
from loa_memory.store import load_config, load_grimoire, yamlio
from loa_memory.store.schema import is_datetime, load_schema
from loa_memory.write.add import add_entry, supersede_entry
from tests.fixtures import MEMDIR, git

COMPAT = Path(__file__).resolve().parents[1] / "compat" / "loa-memory.schema.json"
MOMENT = datetime(2026, 11, 22, 10, 30, tzinfo=UTC)

EXAMPLES = {
    "fact": {"content": "The API gateway times out after 30 seconds."},
    "decision": {"content": "Use PostgreSQL for JSONB.", "rationale": "team expertise",
                 "alternatives": [{"option": "SQLite", "rejected_because": "no concurrent writers"}]},
    "learning": {"content": "Pytest fixtures with tmp_path beat mocks for git.", "evidence": "three flaky mocks"},
    "error": {"content": "Migrations failed on CI.", "error": "relation users does not exist",
              "resolution": "run migrations before seeding"},
    "preference": {"content": "Prefer small modules.", "context": "package code"},
    "correction": {"content": "Dropping columns broke the reporting job.",
                   "trigger": "drop a database column", "lesson": "check the reporting views first"},
    "procedure": {"content": "1. bump version\n2. tag\n3. push the tag\n", "summary": "Release a version"},
    "note": {"content": "# Shop\n\n- exports stream rows\n", "summary": "Shop"},
    "episode": {"content": "Session fixed the flaky test.", "outcome": "success"},
    "telos": {"content": "Be the memory agents trust.", "summary": "Project purpose"},
}


def _compat_validator() -> jsonschema.protocols.Validator:
    schema = json.loads(COMPAT.read_text())
    checker = jsonschema.FormatChecker(formats=())
    checker.checks("date-time")(is_datetime)
    return jsonschema.Draft202012Validator(schema, format_checker=checker)


@pytest.mark.parametrize("category", sorted(EXAMPLES))
def test_every_category_round_trips_and_validates(grimoire: Path, category: str) -> None:
    config = load_config(grimoire)
    written = add_entry(config, {"category": category, "tags": ["Some Tag"], **EXAMPLES[category]}, moment=MOMENT)
    loaded = load_grimoire(config)
    assert loaded.problems == []
    entry = loaded.get(written.data["id"])
    assert dict(entry.data) == written.data
    assert entry.path == written.path and entry.line == written.line
    assert entry.tags == ["some-tag"]
    memory_schema = load_schema("memory")
    jsonschema.Draft202012Validator(memory_schema).validate(dict(entry.data))
    if category in ("fact", "decision", "learning", "error", "preference"):
        assert COMPAT.exists()
        _compat_validator().validate(dict(entry.data))


def test_ttl_gives_expires_at_and_permanent_omits_it(grimoire: Path) -> None:
    config = load_config(grimoire)
    learning = add_entry(config, {"category": "learning", "content": "x y z"}, moment=MOMENT).data
    decision = add_entry(config, {"category": "decision", "content": "a b c"}, moment=MOMENT).data
    assert learning["ttl"] == "90d"
    assert learning["expires_at"] == "2027-02-20T10:30:00Z"
    assert "expires_at" not in decision


def test_ids_are_sequential_per_day_and_unique(grimoire: Path) -> None:
    config = load_config(grimoire)
    ids = [add_entry(config, {"category": "fact", "content": f"fact {n}"}, moment=MOMENT).data["id"]
           for n in range(3)]
    assert ids == ["MEM-20261122-001", "MEM-20261122-002", "MEM-20261122-003"]


def test_add_leaves_comments_and_other_bytes_alone(grimoire: Path) -> None:
    config = load_config(grimoire)
    add_entry(config, {"category": "decision", "content": "first"}, moment=MOMENT)
    path = grimoire / MEMDIR / "decisions.yaml"
    hand = path.read_text().replace("  category: decision\n", "  category: decision   # chosen by hand\n", 1)
    hand = "# team notes: keep this comment\n" + hand + "\n# trailing comment\n"
    path.write_text(hand)
    git(grimoire, "add", "-A")
    git(grimoire, "commit", "-qm", "base")
    written = add_entry(config, {"category": "decision", "content": "second"}, moment=MOMENT)
    old_id = written.data["id"]
    text = path.read_text()
    assert text.startswith(hand)
    diff = git(grimoire, "diff", "-U0", "--", str(path))
    added = [line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert "".join(f"{line}\n" for line in added) == yamlio.dump_item(written.data)
    assert not [line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    supersede_entry(config, old_id, {"content": "third"}, moment=MOMENT)
    after = path.read_text()
    assert after.startswith("# team notes: keep this comment\n")
    assert "# chosen by hand" in after and "# trailing comment" in after
    diff = git(grimoire, "diff", "-U0", "--", str(path))
    removed = [line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    assert removed == []


def test_supersede_links_both_ways_and_refuses_a_fork(grimoire: Path) -> None:
    config = load_config(grimoire)
    old = add_entry(config, {"category": "decision", "content": "Use REST", "tags": ["api"]}, moment=MOMENT)
    new, _ = supersede_entry(config, old.data["id"], {"content": "Use gRPC internally"}, moment=MOMENT)
    loaded = load_grimoire(config)
    assert loaded.get(old.data["id"]).superseded_by == new.data["id"]
    assert new.data["supersedes"] == old.data["id"]
    assert new.data["tags"] == ["api"]
    assert loaded.status(loaded.get(old.data["id"])) == "superseded"
    with pytest.raises(UsageError, match=f"already superseded by {new.data['id']}"):
        supersede_entry(config, old.data["id"], {"content": "fork"}, moment=MOMENT)


def test_cross_file_supersede_writes_both_files(grimoire: Path) -> None:
    config = load_config(grimoire)
    old = add_entry(config, {"category": "learning", "content": "cache keys by path"}, moment=MOMENT)
    new, _ = supersede_entry(config, old.data["id"], {"category": "fact", "content": "cache keys by hash"})
    loaded = load_grimoire(config)
    assert loaded.get(old.data["id"]).superseded_by == new.data["id"]
    assert loaded.get(new.data["id"]).path.endswith("facts.yaml")


def test_invalid_entry_is_refused_and_nothing_written(grimoire: Path) -> None:
    config = load_config(grimoire)
    before = (grimoire / MEMDIR / "decisions.yaml").read_text()
    with pytest.raises(ValidationError, match="below this category's minimum"):
        add_entry(config, {"category": "decision", "content": "weak", "confidence": 0.5})
    with pytest.raises(ValidationError, match="MEM-YYYYMMDD-NNN"):
        add_entry(config, {"category": "decision", "content": "x", "id": "../x"})
    assert (grimoire / MEMDIR / "decisions.yaml").read_text() == before


def test_secret_in_content_is_refused(grimoire: Path) -> None:
    config = load_config(grimoire)
    before = (grimoire / MEMDIR / "facts.yaml").read_text()
    with pytest.raises(SecretRefused) as info:
        add_entry(config, {"category": "fact", "content": "deploy key AKIAZ7QH4GXN2PL5RT3W works"})
    assert "AKIAZ7QH4GXN2PL5RT3W" not in str(info.value)
    assert info.value.path == f"{MEMDIR}/facts.yaml"
    assert (grimoire / MEMDIR / "facts.yaml").read_text() == before


def test_broken_file_blocks_writes_and_is_untouched(grimoire: Path) -> None:
    config = load_config(grimoire)
    path = grimoire / MEMDIR / "facts.yaml"
    path.write_text("- id: MEM-20260101-001\n  content: [unclosed\n")
    with pytest.raises(GrimoireError) as info:
        add_entry(config, {"category": "fact", "content": "x"})
    assert info.value.path == f"{MEMDIR}/facts.yaml" and info.value.line == 3
    assert path.read_text() == "- id: MEM-20260101-001\n  content: [unclosed\n"


def test_markdown_memories_keep_body_as_content(grimoire: Path) -> None:
    config = load_config(grimoire)
    written = add_entry(config, EXAMPLES["procedure"] | {"category": "procedure"}, moment=MOMENT)
    assert written.path == f"{MEMDIR}/procedures/release-a-version.md"
    text = (grimoire / written.path).read_text()
    assert text.startswith("---\nid: MEM-20261122-001\n")
    assert text.endswith("---\n1. bump version\n2. tag\n3. push the tag\n")
    loaded = load_grimoire(config)
    assert loaded.get(written.data["id"]).content == "1. bump version\n2. tag\n3. push the tag"


def test_unknown_fields_are_kept_and_flagged_by_lint(grimoire: Path) -> None:
    from loa_memory.lint import LintOptions, run_lint

    config = load_config(grimoire)
    written = add_entry(config, {"category": "decision", "content": "Use gRPC", "supercedes": "MEM-20260101-001",
                                 "x-team": "payments"})
    assert load_grimoire(config).get(written.data["id"]).data["supercedes"] == "MEM-20260101-001"
    findings = run_lint(config, LintOptions()).findings
    assert [(f.rule, f.severity) for f in findings] == [("unknown-field", "warning")]
    assert "did you mean 'supersedes'" in findings[0].message
