"""capture on real repositories: commit trailers, the post-commit hook, agent transcripts."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from loa_memory.capture.pipeline import CaptureOptions, capture
from loa_memory.store import load_config, load_grimoire
from loa_memory.store.times import format_time, parse_time
from tests.fixtures import MEMDIR, Cli, git, write

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = ROOT / "tests" / "examples" / "transcripts"
SESSION = "7f3c9a2e-4b1d-4e8a-9c55-2d6f0e1a8b34"
SECRET = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
TWO_TRAILERS = """Cache sessions in Redis

The API now runs on three hosts.

Decision: Use Redis for the session cache, not sticky sessions.
Rationale: sticky sessions broke blue-green deploys
Learning: redis-py pools are per process, so size them per worker
  rather than per host.
Signed-off-by: Test Author <author@example.com>
"""


def _commit(root: Path, message: str, name: str = "src/cache.py", text: str = "POOL = 40\n") -> str:
    write(root, name, text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


def _memory_bytes(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in (root / MEMDIR).rglob("*") if p.is_file()}


def _fresh(tmp_path: Path, name: str = "claude-code-session.jsonl") -> Path:
    """The example transcript moved to today, so that its 30-day episodes are not already expired."""
    copy = tmp_path / name
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    copy.write_text((TRANSCRIPTS / name).read_text("utf-8").replace("2026-11-20", today), "utf-8")
    return copy


def test_a_commit_with_two_trailers_gives_two_entries_carrying_its_sha(loa: Cli) -> None:
    sha = _commit(loa.root, TWO_TRAILERS)
    report = loa.json("capture", "--commit", "HEAD")
    assert [(a["category"], a["entry"]["source"]["commit"]) for a in report["added"]] == [
        ("decision", sha), ("learning", sha)]
    grimoire = load_grimoire(load_config(loa.root))
    assert grimoire.problems == []
    decision, learning = (grimoire.get(a["id"]) for a in report["added"])
    assert decision.data["content"] == "Use Redis for the session cache, not sticky sessions."
    assert decision.data["rationale"] == "sticky sessions broke blue-green deploys"
    assert decision.data["confidence"] >= 0.9 and learning.data["confidence"] >= 0.9
    assert learning.data["content"] == ("redis-py pools are per process, so size them per worker "
                                        "rather than per host.")
    source = dict(decision.data["source"])
    assert source["agent"] == "git-capture" and source["author"] == "Test Author"
    committed = parse_time(git(loa.root, "log", "-1", "--format=%cI").strip())
    assert committed is not None and source["timestamp"] == format_time(committed)
    assert decision.data["artifacts"] == ["src/cache.py"]
    assert loa("lint").exit_code == 0


def test_capturing_the_same_commit_again_adds_nothing(loa: Cli) -> None:
    _commit(loa.root, TWO_TRAILERS)
    assert len(loa.json("capture", "--commit", "HEAD")["added"]) == 2
    before = _memory_bytes(loa.root)
    again = loa.json("capture", "--commit", "HEAD")
    assert again["added"] == []
    assert [s["reason"] for s in again["skipped"]] == ["duplicate", "duplicate"]
    assert "from this commit" in again["skipped"][0]["detail"]
    assert _memory_bytes(loa.root) == before


def test_a_rebased_copy_of_a_captured_commit_adds_nothing(loa: Cli) -> None:
    _commit(loa.root, "base", "README.md", "readme\n")
    git(loa.root, "checkout", "-q", "-b", "feature")
    old = _commit(loa.root, TWO_TRAILERS)
    assert len(loa.json("capture", "--commit", "HEAD")["added"]) == 2
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "Memories")
    git(loa.root, "checkout", "-q", "main")
    _commit(loa.root, "meanwhile on main", "other.py", "x = 1\n")
    git(loa.root, "checkout", "-q", "feature")
    git(loa.root, "rebase", "-q", "main")
    assert git(loa.root, "rev-parse", "HEAD~1").strip() != old
    report = loa.json("capture", "--commit", "HEAD~1")
    assert report["added"] == []
    assert all("copy" in s["detail"] for s in report["skipped"]), report["skipped"]


def _run_git_commit(root: Path, message: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", message], capture_output=True, text=True,
                          env=env)


def test_the_post_commit_hook_captures_and_a_second_capture_adds_nothing(loa: Cli) -> None:
    assert "installed post-commit" in loa("hooks", "install").stdout
    write(loa.root, "src/cache.py", "POOL = 40\n")
    git(loa.root, "add", "-A")
    done = _run_git_commit(loa.root, TWO_TRAILERS)
    assert done.returncode == 0, done.stderr
    sha = git(loa.root, "rev-parse", "HEAD").strip()
    entries = load_grimoire(load_config(loa.root)).entries
    assert sorted(e.category for e in entries if e.data["source"].get("commit") == sha) == ["decision", "learning"]
    assert loa.json("capture", "--commit", "HEAD")["added"] == []


def test_the_post_commit_hook_never_fails_the_commit(loa: Cli) -> None:
    assert loa("hooks", "install", "post-commit").exit_code == 0
    (loa.root / MEMDIR / "facts.yaml").write_text("- id: [broken\n")  # capture will refuse to write
    git(loa.root, "add", "-A")
    done = _run_git_commit(loa.root, "Break facts\n\nFact: the gateway times out after 30 seconds")
    assert done.returncode == 0
    assert "the commit itself is fine" in done.stderr


@pytest.mark.parametrize(("message", "expected"), [
    ("Subject\n\nCorrection: never run migrations from the repo root", [
        {"category": "correction", "content": "never run migrations from the repo root",
         "trigger": "Subject", "lesson": "never run migrations from the repo root"}]),
    ("Subject\n\ntrigger: running alembic\nCORRECTION: use the backend/ folder\nLesson: cd backend first", [
        {"category": "correction", "content": "use the backend/ folder", "trigger": "running alembic",
         "lesson": "cd backend first"}]),
    ("Subject\n\nError: psycopg OperationalError on deploy\nResolution: wait for the database\nFact: CI has 2 cores",
     [{"category": "error", "content": "psycopg OperationalError on deploy", "error": "psycopg OperationalError on "
       "deploy", "resolution": "wait for the database"}, {"category": "fact", "content": "CI has 2 cores"}]),
    ("Decision: only a subject line", []),
    ("Subject\n\nDecision: a prose paragraph\nthat is not a trailer block at all", []),
])
def test_trailers_become_fields(loa: Cli, message: str, expected: list[dict[str, str]]) -> None:
    _commit(loa.root, message)
    report = capture(load_config(loa.root), CaptureOptions(revs=("HEAD",), dry_run=True))
    got = [{k: a.data[k] for k in expected[i]} for i, a in enumerate(report.added)] if expected else []
    assert got == expected
    assert len(report.added) == len(expected)


def test_since_captures_a_range_once(loa: Cli) -> None:
    base = _commit(loa.root, "base", "README.md", "readme\n")
    _commit(loa.root, "One\n\nFact: the API gateway times out after 30 seconds", "a.py", "a\n")
    _commit(loa.root, "Two\n\nPreference: prefer small modules", "b.py", "b\n")
    assert [a["category"] for a in loa.json("capture", "--since", base)["added"]] == ["fact", "preference"]
    assert loa.json("capture", "--since", base)["added"] == []


def test_a_claude_code_transcript_gives_typed_episodes_with_evidence(loa: Cli, tmp_path: Path) -> None:
    report = loa.json("capture", "--transcript", str(_fresh(tmp_path)))
    by_kind = {a["entry"]["action_types"][0]: a["entry"] for a in report["added"]}
    assert set(by_kind) == {"correction", "preference", "decision", "error", "task"}
    for kind, entry in by_kind.items():
        assert entry["category"] == "episode"
        assert entry["session_id"] == SESSION == entry["source"]["session_id"]
        assert entry["source"]["transcript"].endswith("claude-code-session.jsonl")
        assert entry["evidence"] and all(isinstance(q, str) for q in entry["evidence"])
        assert 0.5 <= entry["confidence"] <= 0.9, kind
    correction = by_kind["correction"]
    assert correction["evidence"] == ["No, that's wrong. Don't call the billing service with requests, use our "
                                      "BillingClient wrapper in app/clients/billing.py instead."]
    assert correction["trigger"] == "call the billing service with requests"
    assert correction["lesson"].startswith("Don't call the billing service")
    assert by_kind["preference"]["content"].startswith("I prefer small focused commits")
    decision = by_kind["decision"]
    assert decision["alternatives"] == [{"option": "building the file in memory"}]
    assert decision["rationale"] == "exports can reach 200k rows"
    error = by_kind["error"]
    assert error["error"] == "ModuleNotFoundError: No module named 'app.clients'"
    assert "__init__.py" in error["resolution"] and error["outcome"] == "resolved"
    assert loa("lint").exit_code == 0


def test_capturing_a_transcript_again_adds_nothing(loa: Cli, tmp_path: Path) -> None:
    path = _fresh(tmp_path)
    assert len(loa.json("capture", "--transcript", str(path))["added"]) == 5  # four cues and the task trace
    before = _memory_bytes(loa.root)
    with path.open("a") as handle:  # the agent went on: one more turn
        turn = {"role": "user", "content": "Never commit generated CSV fixtures."}
        handle.write(json.dumps({"type": "user", "sessionId": SESSION, "timestamp": datetime.now(UTC).isoformat(),
                                 "message": turn}) + "\n")
    again = loa.json("capture", "--transcript", str(path))
    assert [a["entry"]["content"] for a in again["added"]] == ["Never commit generated CSV fixtures."]
    assert {s["reason"] for s in again["skipped"]} == {"duplicate"} and len(again["skipped"]) == 5
    assert all(p.read_bytes().startswith(before[p]) for p in before)


def test_a_secret_in_a_transcript_is_skipped_and_never_written(loa: Cli, tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    lines = [{"role": "user", "content": f"No, use the deploy token {SECRET} instead of asking me."},
             {"role": "assistant", "content": "Understood."},
             {"role": "user", "content": "Always run the linters before pushing."}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = loa("capture", "--transcript", str(path))
    assert result.exit_code == 0, result.output
    assert SECRET not in result.output
    assert "[secret]" in result.stdout and "GitHub" in result.stdout
    report = loa.json("capture", "--transcript", str(path), "--dry-run")
    assert report["added"] == []  # the preference was added by the first run
    assert all(SECRET not in p.read_text() for p in (loa.root / MEMDIR).rglob("*.yaml"))
    episodes = [e.data["content"] for e in load_grimoire(load_config(loa.root)).entries if e.category == "episode"]
    assert episodes == ["Always run the linters before pushing."]


def test_dry_run_writes_nothing(loa: Cli, tmp_path: Path) -> None:
    _commit(loa.root, TWO_TRAILERS)
    before = _memory_bytes(loa.root)
    result = loa("capture", "--commit", "HEAD", "--transcript", str(_fresh(tmp_path)), "--dry-run")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("would add") == 8
    assert result.stdout.rstrip().endswith("(dry run: nothing was written)")
    assert _memory_bytes(loa.root) == before


@pytest.mark.parametrize("shape", ["text", "prefixed", "generic-jsonl"])
def test_other_transcript_shapes(loa: Cli, tmp_path: Path, shape: str) -> None:
    said = ["Let's use pnpm instead of npm because the lockfile is smaller.", "Stop adding comments to every line."]
    path = tmp_path / "notes.txt"
    if shape == "text":
        path.write_text("\n\n".join(said) + "\n")
    elif shape == "prefixed":
        path.write_text(f"User: {said[0]}\nAssistant: Switching to pnpm.\nUser: {said[1]}\n")
    else:
        path = tmp_path / "log.jsonl"
        path.write_text("".join(json.dumps({"role": "user", "content": [{"type": "text", "text": s}],
                                            "session_id": "s-42"}) + "\n" for s in said))
    report = loa.json("capture", "--transcript", str(path))
    assert [a["entry"]["action_types"] for a in report["added"]] == [["decision"], ["correction"]]
    if shape == "generic-jsonl":
        assert {a["entry"]["session_id"] for a in report["added"]} == {"s-42"}


def test_an_unresolved_error_and_low_confidence_are_reported_not_written(loa: Cli, tmp_path: Path) -> None:
    write(loa.root, ".loa.config.yaml", "memory_schema:\n  auto_capture:\n    min_confidence: 0.7\n")
    path = tmp_path / "t.txt"
    path.write_text("Tool: ValueError: bad port\nUser: Wait, use uv.\nUser: Always pin versions.\n")
    report = loa.json("capture", "--transcript", str(path))
    assert [a["entry"]["action_types"] for a in report["added"]] == [["preference"]]
    assert sorted(s["reason"] for s in report["skipped"]) == ["low-confidence", "unresolved"]


def test_capture_honours_auto_capture_switches(loa: Cli, tmp_path: Path) -> None:
    _commit(loa.root, TWO_TRAILERS)
    write(loa.root, ".loa.config.yaml", "memory_schema:\n  auto_capture:\n    commits: false\n")
    report = loa.json("capture", "--commit", "HEAD", "--transcript", str(_fresh(tmp_path)))
    assert {a["category"] for a in report["added"]} == {"episode"}
    assert report["notes"] == ["commit capture is off (memory_schema.auto_capture.commits: false)"]
    write(loa.root, ".loa.config.yaml", "memory_schema:\n  auto_capture:\n    enabled: false\n")
    assert loa.json("capture", "--commit", "HEAD")["added"] == []


def test_hook_input_reads_the_transcript_path_from_stdin(loa: Cli, tmp_path: Path) -> None:
    path = _fresh(tmp_path)
    hook = json.dumps({"session_id": "abc-123", "transcript_path": str(path), "cwd": str(loa.root),
                       "hook_event_name": "SessionEnd", "reason": "exit"})
    result = loa("capture", "--hook-input", "--quiet", input=hook)
    assert result.exit_code == 0, result.output
    assert result.stdout.count("added MEM-") == 5 and "skipped" not in result.stdout
    assert loa("capture", "--hook-input", "--quiet", input=hook).stdout == ""
    bad = loa("capture", "--hook-input", input="{}")
    assert bad.exit_code == 2 and "transcript_path" in bad.stderr


def test_capture_needs_something_to_read(loa: Cli) -> None:
    result = loa("capture")
    assert result.exit_code == 2 and "nothing to capture from" in result.stderr
    assert loa("capture", "--commit", "no-such-ref").exit_code == 2


def test_a_secret_in_a_trailer_is_skipped_and_the_other_trailers_are_kept(loa: Cli) -> None:
    _commit(loa.root, f"Deploy\n\nFact: the deploy token is {SECRET}\nDecision: deploy from tags only")
    result = loa("capture", "--commit", "HEAD")
    assert result.exit_code == 0, result.output
    assert SECRET not in result.output and "[secret]" in result.stdout
    assert [e.category for e in load_grimoire(load_config(loa.root)).entries] == ["decision"]
    assert all(SECRET not in p.read_text() for p in (loa.root / MEMDIR).rglob("*.yaml"))


def test_a_correction_of_a_command_holding_a_token_is_kept_and_the_token_withheld(loa: Cli, tmp_path: Path) -> None:
    command = f"git push --force https://x:{SECRET}@github.com/acme/api.git main"
    lines = [{"role": "user", "content": "Push the rebased branch."},
             {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                                "input": {"command": command}}]},
             {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "forced update"}]},
             {"role": "user", "content": "That's wrong: force pushing main is off limits here."}]
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = loa("capture", "--transcript", str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    assert SECRET not in result.output
    (entry,) = [a["entry"] for a in json.loads(result.stdout)["added"] if a["entry"]["action_types"] == ["correction"]]
    assert entry["lesson"] == "Force pushing main is off limits here."
    assert entry["trigger"].startswith("[withheld: ")
    assert all(SECRET not in p.read_text() for p in (loa.root / MEMDIR).rglob("*.yaml"))


def test_the_agents_answer_to_a_correction_is_its_resolution_and_a_token_in_it_withheld(
    loa: Cli, tmp_path: Path
) -> None:
    def session(answer: str) -> Path:
        lines = [{"role": "user", "content": "Add the Slack alert."},
                 {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Edit", "input": {
                     "file_path": "/srv/ops/alert.py", "old_string": "pass", "new_string": "URL = 'https://hooks'"}}]},
                 {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "updated"}]},
                 {"role": "user", "content": "No, the webhook URL is a credential: it never goes in the code."},
                 {"role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Read",
                                                    "input": {"file_path": "/srv/ops/alert.py"}}]},
                 {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "URL = ..."}]},
                 {"role": "assistant", "content": answer}]
        path = tmp_path / f"session-{len(answer)}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        return path

    def resolution(path: Path) -> str | None:
        result = loa("capture", "--transcript", str(path), "--format", "json")
        assert result.exit_code == 0, result.output
        (entry,) = [a["entry"] for a in json.loads(result.stdout)["added"]
                    if a["entry"]["action_types"] == ["correction"]]
        assert entry["lesson"] == "The webhook URL is a credential: it never goes in the code."
        return entry.get("resolution")

    said = "Right, moving it out. It now reads SLACK_WEBHOOK_URL from the environment. Tests pass."
    assert resolution(session(said)) == "Right, moving it out. It now reads SLACK_WEBHOOK_URL from the environment."
    assert resolution(session(f"Moved it. The old value was {SECRET}.")).startswith("[withheld: ")
    assert all(SECRET not in p.read_text() for p in (loa.root / MEMDIR).rglob("*.yaml"))
