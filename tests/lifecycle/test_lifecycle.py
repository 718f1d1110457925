"""Lifecycle on real repositories: archive, feedback and score, sessions, stats."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
import yaml

from loa_memory.lifecycle.effectiveness import score_grimoire
from loa_memory.lifecycle.feedback import record_feedback
from loa_memory.lifecycle.usage import record_applications
from loa_memory.store import atomic
from loa_memory.store.config import load_config
from loa_memory.store.times import format_time, now_utc
from tests.fixtures import MEMDIR, Cli, git, write

ROOT = Path(__file__).resolve().parents[2]
SECRET = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"


def _item(mem_id: str, category: str, summary: str, stamp: str, **extra: str) -> str:
    lines = [f"- id: {mem_id}", f"  category: {category}", f"  summary: {summary}", f"  content: {summary}.",
             "  confidence: 0.95", f"  source: {{session_id: s1, timestamp: '{stamp}'}}"]
    lines += [f"  {key}: {value}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


def _seed(root: Path) -> dict[str, str]:
    """One entry per case; returns the text of each item by id."""
    now = now_utc()
    recent = format_time(now - timedelta(days=1))
    soon = format_time(now + timedelta(days=3))
    items = {
        "MEM-20200101-001": _item("MEM-20200101-001", "fact", "Service A listens on 8080", "2020-01-01T00:00:00Z",
                                  ttl="permanent",
                                  links="[{to: MEM-20200102-001, relation: derived_from}]"),
        "MEM-20200101-002": _item("MEM-20200101-002", "fact", "Old port fact", "2020-01-01T00:00:00Z",
                                  ttl="permanent", superseded_by="MEM-20200101-003"),
        "MEM-20200101-003": _item("MEM-20200101-003", "fact", "New port fact", "2020-02-01T00:00:00Z",
                                  ttl="permanent", supersedes="MEM-20200101-002"),
        "MEM-20200101-004": _item("MEM-20200101-004", "fact", "Recently replaced fact", "2020-01-01T00:00:00Z",
                                  ttl="permanent", superseded_by="MEM-20200101-005"),
        "MEM-20200101-005": _item("MEM-20200101-005", "fact", "Its fresh successor", recent,
                                  ttl="permanent", supersedes="MEM-20200101-004"),
        "MEM-20200103-001": _item("MEM-20200103-001", "learning", "Expired learning", "2020-01-03T00:00:00Z",
                                  ttl="30d", expires_at="'2020-02-02T00:00:00Z'"),
        "MEM-20200103-002": _item("MEM-20200103-002", "learning", "Learning about to expire", recent,
                                  ttl="4d", expires_at=f"'{soon}'"),
        "MEM-20200103-003": _item("MEM-20200103-003", "learning", "Ineffective learning", recent, ttl="permanent",
                                  effectiveness="{applications: 10, successes: 1, score: 10}"),
        "MEM-20200103-004": _item("MEM-20200103-004", "learning", "Poor but barely tried", recent, ttl="permanent",
                                  effectiveness="{applications: 3, successes: 0, score: 0}"),
        "MEM-20200102-001": _item("MEM-20200102-001", "episode", "Episode a fact derives from",
                                  "2020-01-02T00:00:00Z", ttl="30d", expires_at="'2020-02-01T00:00:00Z'"),
        "MEM-20200102-002": _item("MEM-20200102-002", "episode", "Forgotten episode", "2020-01-02T00:00:00Z",
                                  ttl="30d", expires_at="'2020-02-01T00:00:00Z'"),
    }
    facts = [k for k in items if k.startswith("MEM-20200101")]
    learnings = [k for k in items if k.startswith("MEM-20200103")]
    write(root, f"{MEMDIR}/facts.yaml", "# facts\n" + "".join(items[k] for k in facts))
    write(root, f"{MEMDIR}/learnings.yaml", "".join(items[k] for k in learnings))
    write(root, f"{MEMDIR}/episodic/2020-01-02.yaml", items["MEM-20200102-001"] + items["MEM-20200102-002"])
    write(root, f"{MEMDIR}/telos/purpose.md", "---\nid: MEM-20200101-009\ncategory: telos\nsummary: Why we build\n"
          "confidence: 1.0\nsource: {session_id: op, timestamp: '2020-01-01T00:00:00Z'}\nttl: permanent\n---\n"
          "Ship a payments API that never loses money.\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "seed")
    return items


DUE = {"MEM-20200101-002": "superseded", "MEM-20200103-001": "expired", "MEM-20200103-003": "ineffective",
       "MEM-20200102-002": "expired"}


def test_dry_run_lists_due_and_expiring_and_writes_nothing(loa: Cli) -> None:
    _seed(loa.root)
    plan = loa.json("archive", "--dry-run")
    assert {e["id"]: e["reason"] for e in plan["entries"]} == DUE
    assert [e["id"] for e in plan["expiring_soon"]] == ["MEM-20200103-002"]
    assert plan["kept"] == [{"id": "MEM-20200102-001", "why": "MEM-20200101-001 derives from it"}]
    assert git(loa.root, "status", "--porcelain") == ""
    check = loa("archive", "--check")
    assert check.exit_code == 1
    assert "would archive MEM-20200103-001 (expired: expired on 2020-02-02T00:00:00Z)" in check.stdout
    assert "[warning] MEM-20200103-002 expires in" in check.stdout


def test_archive_moves_exactly_the_due_entries_with_their_reasons(loa: Cli) -> None:
    items = _seed(loa.root)
    result = loa("archive")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "archived 4 entries"
    diff = git(loa.root, "diff", "-U0", "--", MEMDIR)
    removed = [ln[1:] for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    added = [ln for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    assert sorted(removed) == sorted(ln for mem_id in DUE for ln in items[mem_id].splitlines())
    assert added == []  # active files only lose the moved items; every other byte stays
    archived = {}
    for path in (loa.root / MEMDIR / "archive").rglob("*.yaml"):
        for entry in yaml.safe_load(path.read_text()):
            archived[entry["id"]] = (path.relative_to(loa.root / MEMDIR).as_posix(), entry)
    assert {k: v[1]["archive_reason"] for k, v in archived.items()} == DUE
    assert archived["MEM-20200102-002"][0] == "archive/episodic/2020-01-02.yaml"
    assert all(v[1]["archived"] is True and v[1]["archived_at"] for v in archived.values())
    lint = loa.json("lint")
    assert lint["findings"] == [f for f in lint["findings"] if f["rule"] == "expiring-soon"], lint
    assert loa("lint").exit_code == 0
    assert loa.json("archive")["entries"] == []
    assert loa.json("stats")["last_runs"]["archive"]["summary"]["moved"] == 0


def test_superseded_retention_is_configurable(loa: Cli) -> None:
    _seed(loa.root)
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("warn_before_archive_days: 7",
                                                 "warn_before_archive_days: 7\n    superseded_retention_days: 0"))
    due = {e["id"]: e["reason"] for e in loa.json("archive", "--dry-run")["entries"]}
    assert due["MEM-20200101-004"] == "superseded"  # successor a day old, retention 0 days


def _entries(root: Path) -> dict[str, dict[str, object]]:
    found = {}
    for path in (root / MEMDIR).glob("*.yaml"):
        for entry in yaml.safe_load(path.read_text()) or []:
            found[entry["id"]] = entry
    return found


def _add(loa: Cli, *args: str) -> str:
    return str(loa.json("add", *args)["id"])


def test_counts_equal_the_events_and_score_twice_changes_nothing(loa: Cli) -> None:
    ids = [_add(loa, "fact", f"Fact number {n} about the gateway", "--confidence", "0.9") for n in range(4)]
    config = load_config(loa.root)
    for n in range(100):
        record_applications(config, [ids[n % 4]], source="recall" if n % 2 else "search", query="q")
    outcomes = {mem_id: [0, 0] for mem_id in ids}
    for n in range(40):
        mem_id = ids[n % 4]
        success = n % 5 != 0
        outcomes[mem_id][0 if success else 1] += 1
        if n < 4:
            assert loa("feedback", mem_id, "--outcome", "success" if success else "failure").exit_code == 0
        else:
            record_feedback(config, mem_id, "success" if success else "failure", note=f"run {n}")
    assert loa.json("stats")["usage"] == {"events": 140, "pending": 140}
    report = loa.json("score")
    assert report["folded_events"] == 140
    entries = _entries(loa.root)
    for mem_id in ids:
        eff = entries[mem_id]["effectiveness"]
        assert isinstance(eff, dict)
        assert eff["applications"] == 25 and eff["successes"] == outcomes[mem_id][0]
        assert eff["score"] == round(100 * outcomes[mem_id][0] / 25)
        assert all(type(eff[k]) is int for k in ("applications", "successes", "score"))  # mergeable counters
    snapshot = {p: p.read_bytes() for p in (loa.root / MEMDIR).rglob("*.yaml")}
    assert loa.json("score") == {"folded_events": 0, "skipped_events": 0, "pending_events": 0, "updated": [],
                                 "queued_for_archival": []}
    assert {p: p.read_bytes() for p in (loa.root / MEMDIR).rglob("*.yaml")} == snapshot
    assert loa.json("stats")["usage"] == {"events": 140, "pending": 0}
    assert {f["rule"] for f in loa.json("lint")["findings"]} <= {"low-effectiveness", "near-duplicate"}


def test_outcome_without_application_counts_as_one(loa: Cli) -> None:
    mem_id = _add(loa, "fact", "The cache holds ten minutes", "--confidence", "0.9")
    config = load_config(loa.root)
    record_applications(config, [mem_id], source="recall")
    for _ in range(3):
        record_feedback(config, mem_id, "success")
    score_grimoire(config)
    eff = _entries(loa.root)[mem_id]["effectiveness"]
    assert eff == {"applications": 3, "successes": 3, "score": 100, "last_applied": eff["last_applied"]}


def test_a_crash_mid_commit_neither_loses_nor_double_counts(loa: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [_add(loa, "fact", f"Crash fact {n}", "--confidence", "0.9") for n in range(2)]
    config = load_config(loa.root)
    record_applications(config, ids * 3, source="recall")
    real_apply = atomic._apply

    def crash(steps: list[dict[str, str | None]]) -> None:
        real_apply(steps[:1])  # one file renamed, then the power goes
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "_apply", crash)
    with pytest.raises(KeyboardInterrupt):
        score_grimoire(config)
    monkeypatch.setattr(atomic, "_apply", real_apply)
    record_applications(config, ids[:1], source="recall")
    assert loa("score").exit_code == 0  # rolls the interrupted transaction forward, then folds the new event
    assert loa("score").exit_code == 0
    counts = {mem_id: _entries(loa.root)[mem_id]["effectiveness"]["applications"] for mem_id in ids}  # type: ignore[index]
    assert counts == {ids[0]: 4, ids[1]: 3}


def test_concurrent_writers_lose_no_event(loa: Cli) -> None:
    mem_id = _add(loa, "fact", "Concurrent fact", "--confidence", "0.9")
    code = ("import sys; from loa_memory.store.config import load_config; "
            "from loa_memory.lifecycle.usage import record_applications as r; c = load_config(sys.argv[1]) if False "
            "else load_config(__import__('pathlib').Path(sys.argv[1]))\n"
            "for _ in range(50): r(c, [sys.argv[2]], source='recall')")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(loa.root), mem_id], env={"PYTHONPATH": str(ROOT)})
             for _ in range(3)]
    assert [p.wait() for p in procs] == [0, 0, 0]
    assert loa.json("score")["folded_events"] == 150
    assert _entries(loa.root)[mem_id]["effectiveness"]["applications"] == 150  # type: ignore[index]


def test_ineffective_entries_are_queued_then_archived(loa: Cli) -> None:
    mem_id = _add(loa, "learning", "Mocks catch migration bugs", "--confidence", "0.8")
    config = load_config(loa.root)
    for _ in range(5):
        record_feedback(config, mem_id, "failure")
    report = loa("score")
    assert f"{mem_id}: ineffective (score 0 after 5 applications), queued for archival" in report.stdout
    assert [e["reason"] for e in loa.json("archive")["entries"]] == ["ineffective"]
    assert loa("lint").exit_code == 0


def test_feedback_refuses_unknown_ids_and_secret_notes(loa: Cli) -> None:
    missing = loa("feedback", "MEM-20990101-001", "--outcome", "success")
    assert missing.exit_code == 1 and "no memory with id 'MEM-20990101-001'" in missing.stderr
    assert "loa-memory list" in missing.stderr
    mem_id = _add(loa, "fact", "The queue is FIFO", "--confidence", "0.9")
    refused = loa("feedback", mem_id, "--outcome", "success", "--note", f"used token {SECRET}")
    assert refused.exit_code == 1 and "GitHub token" in refused.stderr and SECRET not in refused.output
    usage = loa.root / ".loa" / "usage.jsonl"
    assert not usage.exists() or SECRET not in usage.read_text()
    bad = loa("feedback", mem_id, "--outcome", "maybe")
    assert bad.exit_code == 2


def _session_seed(loa: Cli) -> None:
    write(loa.root, f"{MEMDIR}/telos/purpose.md", "---\nid: MEM-20200101-009\ncategory: telos\n"
          "summary: Why we build\nsource: {session_id: op, timestamp: '2020-01-01T00:00:00Z'}\n---\n"
          "Ship a payments API that never loses money.\n")
    _add(loa, "correction", "Views break", "--trigger", "drop a column", "--lesson", "check the reporting views")
    _add(loa, "preference", "Use pytest fixtures over setUp", "--context", "writing tests")
    for n in range(7):
        _add(loa, "decision", f"Decision number {n}", "--confidence", "0.95")
    for n in range(3):
        assert loa("session", "end", "--summary", f"Session {n} shipped part {n}.").exit_code == 0
    _add(loa, "episode", "A captured commit event")


def test_session_start_orders_layers_and_keeps_the_budget(loa: Cli) -> None:
    _session_seed(loa)
    brief = loa.json("session", "start")
    assert [t["id"] for t in brief["telos"]] == ["MEM-20200101-009"]
    assert brief["corrections"][0]["text"].startswith("BEFORE drop a column: check the reporting views (")
    assert brief["preferences"][0]["text"].startswith("PREFER (when writing tests): Use pytest fixtures")
    assert [d["summary"] for d in brief["decisions"]] == [f"Decision number {n}" for n in (6, 5, 4, 3, 2)]
    assert [e["summary"] for e in brief["episodes"]] == [f"Session {n} shipped part {n}." for n in (2, 1, 0)]
    assert brief["omitted"] == []
    text = loa("session", "start").stdout
    headings = [ln for ln in text.splitlines() if ln.startswith("## ")]
    assert headings == ["## Purpose (telos)", "## Before you act", "## Preferences", "## Recent decisions",
                        "## Recent sessions"]
    assert "Ship a payments API that never loses money." in text
    small = loa.json("session", "start", "--budget", "60")
    assert small["tokens"] <= 60 and small["omitted"]
    assert small["telos"] and small["corrections"]  # the first layers win the budget
    assert not small["episodes"]


def test_session_start_reports_the_expiry_check(loa: Cli) -> None:
    _seed(loa.root)
    text = loa("session", "start").stdout
    assert "## Expiry check" in text and "due for archival: MEM-20200103-001 (expired" in text
    assert "expires in 3 days: MEM-20200103-002" in text or "expires in 2 days: MEM-20200103-002" in text
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("check_on_session_start: true", "check_on_session_start: false"))
    assert loa.json("session", "start")["expiry_check"] is None


def test_session_end_writes_an_episode_through_the_gate(loa: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOA_SESSION_ID", "sess-42")
    done = loa.json("session", "end", "--summary", "Moved billing to queues; tests pass.", "--outcome", "success")
    entry = done["entry"]
    assert (entry["category"], entry["session_id"], entry["outcome"], entry["action_types"]) == (
        "episode", "sess-42", "success", ["session-summary"])
    assert done["path"].startswith(f"{MEMDIR}/episodic/")
    assert "action_types: [session-summary]" in (loa.root / done["path"]).read_text()
    before = git(loa.root, "status", "--porcelain")
    refused = loa("session", "end", "--summary", f"Rotated the token {SECRET}")
    assert refused.exit_code == 1 and SECRET not in refused.output
    assert git(loa.root, "status", "--porcelain") == before
    assert (loa.root / MEMDIR / "telos" / ".gitkeep").exists()


def test_stats_counts(loa: Cli) -> None:
    _seed(loa.root)
    stats = loa.json("stats")
    assert stats["entries"] == 12
    assert stats["by_category"] == {"episode": 2, "fact": 5, "learning": 4, "telos": 1}
    assert stats["by_status"] == {"active": 7, "superseded": 2, "expired": 3, "archived": 0}
    assert stats["by_tier"] == {"high": 0, "medium": 0, "low": 0, "ineffective": 2, "unscored": 5}
    assert stats["due_for_archival"] == {"superseded": 1, "expired": 2, "ineffective": 1}
    assert [e["id"] for e in stats["expiring_soon"]] == ["MEM-20200103-002"]
    assert stats["last_runs"]["archive"] is None
    loa("archive")
    loa("lint", "--fix")
    stats = loa.json("stats")
    assert stats["by_status"]["archived"] == 4
    assert stats["last_runs"]["archive"]["summary"]["moved"] == 4
    assert stats["last_runs"]["lint-fix"]["summary"] == {"fixes": 0, "remaining": 1}
    assert "archive: 20" in loa("stats").stdout


def test_post_merge_hook_scores_and_never_fails(loa: Cli) -> None:
    mem_id = _add(loa, "fact", "Merges keep counters", "--confidence", "0.9")
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "base")
    assert loa("hooks", "install").exit_code == 0
    git(loa.root, "checkout", "-qb", "topic")
    write(loa.root, "README.md", "topic\n")
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "topic")
    git(loa.root, "checkout", "-q", "main")
    record_applications(load_config(loa.root), [mem_id], source="recall")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(loa.root.parent)}
    done = subprocess.run(["git", "-C", str(loa.root), "merge", "-q", "--no-edit", "topic"], capture_output=True,
                          text=True, env={**env, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.com",
                                          "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.com"})
    assert done.returncode == 0, done.stderr
    assert _entries(loa.root)[mem_id]["effectiveness"]["applications"] == 1  # type: ignore[index]
    hook = (ROOT / "loa_memory" / "repo" / "githooks" / "post-merge")
    broken = subprocess.run(["sh", str(hook)], cwd=loa.root, env={**env, "LOA_MEMORY": "false"},
                            capture_output=True, text=True)
    assert broken.returncode == 0 and "score did not run" in broken.stderr


def test_score_adds_to_existing_counters_and_patches_markdown(loa: Cli) -> None:
    write(loa.root, f"{MEMDIR}/facts.yaml", "- id: MEM-20260101-001\n  category: fact\n  summary: Counted before\n"
          "  content: Counted on another branch.\n  confidence: 0.9\n"
          "  source: {session_id: s1, timestamp: '2026-01-01T00:00:00Z'}\n"
          "  effectiveness: {applications: 4, successes: 4, score: 100, last_applied: '2026-01-02T00:00:00Z'}\n"
          "  tags: [kept]   # a comment that stays\n\n# trailing comment\n")
    write(loa.root, f"{MEMDIR}/procedures/release.md", "---\nid: MEM-20260101-002\ncategory: procedure\n"
          "summary: Release steps\nconfidence: 0.9\nsource: {session_id: s1, timestamp: '2026-01-01T00:00:00Z'}\n"
          "---\n1. Tag.\n2. Push.\n")
    config = load_config(loa.root)
    record_applications(config, ["MEM-20260101-001", "MEM-20260101-002"], source="recall")
    record_feedback(config, "MEM-20260101-001", "failure")
    assert loa("score").exit_code == 0
    facts = (loa.root / MEMDIR / "facts.yaml").read_text()
    assert "  effectiveness:\n    applications: 5\n    successes: 4\n    score: 80\n    last_applied: '20" in facts
    assert "  tags: [kept]   # a comment that stays\n" in facts and facts.endswith("\n# trailing comment\n")
    release = (loa.root / MEMDIR / "procedures" / "release.md").read_text()
    assert "effectiveness:\n  applications: 1\n  successes: 0\n  score: 0\n" in release
    assert release.endswith("---\n1. Tag.\n2. Push.\n")
    assert loa("lint").exit_code == 0


def test_two_branches_each_scored_then_merged_add_up(loa: Cli) -> None:
    mem_id = _add(loa, "fact", "The gateway times out after 30 seconds", "--confidence", "0.9")
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "base")
    config = load_config(loa.root)
    for branch, applied, successes in (("left", 10, 7), ("right", 6, 2)):
        git(loa.root, "checkout", "-q", "-b", branch, "main")
        record_applications(config, [mem_id] * applied, source="recall", query="q")
        for _ in range(successes):
            record_feedback(config, mem_id, "success")
        assert loa("score").exit_code == 0
        git(loa.root, "commit", "-qam", f"{branch} scored")
    git(loa.root, "checkout", "-q", "left")
    merged = subprocess.run(["git", "-C", str(loa.root), "merge", "--no-edit", "-q", "right"], capture_output=True,
                            text=True)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    eff = _entries(loa.root)[mem_id]["effectiveness"]
    assert (eff["applications"], eff["successes"], eff["score"]) == (16, 9, 56)
    assert loa("score").exit_code == 0 and _entries(loa.root)[mem_id]["effectiveness"]["applications"] == 16
