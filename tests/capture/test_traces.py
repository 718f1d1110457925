"""Episode traces from recorded transcripts, and their consolidation into anti-pattern corrections."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from loa_memory.lifecycle.antipatterns import lesson_of, trigger_of
from tests.fixtures import MEMDIR, Cli, git

EXAMPLES = Path(__file__).parent.parent / "examples" / "transcripts"


def _trace(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [a["entry"] for a in report["added"] if a["entry"].get("action_types") == ["task"]]


def test_capture_fills_the_trace_of_a_task(loa: Cli, tmp_path: Path) -> None:
    (loa.root / "README.md").write_text("shop\n")
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "work")
    path = shutil.copy(EXAMPLES / "claude-code-tools.jsonl", tmp_path / "session.jsonl")
    traces = _trace(loa.json("capture", "--transcript", str(path)))
    assert len(traces) == 1  # the follow-up "yes" continues the task; the question after it used no tool
    trace = traces[0]
    assert trace["goal"] == "Add a --dry-run flag to the export command. Don't change the CSV format."
    assert trace["constraints"] == ["Don't change the CSV format."]
    assert trace["files"] == ["app/export.py", "tests/test_export_dry_run.js"]  # /etc/hosts is outside the project
    assert trace["artifacts"] == ["app/export.py", "tests/test_export_dry_run.js"]
    assert trace["actions"] == ["Read: app/export.py", "Edit: app/export.py", "Bash: npm test", "Bash: npm ci",
                                "Bash: npm test", "Write", "Write: tests/test_export_dry_run.js"]
    assert trace["errors"] == [
        {"action": "Bash: npm test", "error": "Error: Cannot find module 'csv-stringify'",
         "resolution": "run `npm ci` before retrying"},
        {"action": "Write", "error": "permission denied"},
    ]
    assert trace["outcome"] == "partial"
    assert trace["commit"] == git(loa.root, "rev-parse", "HEAD").strip()
    assert trace["source"]["capture"] == "trace" and trace["source"]["line_range"] == "1-15"
    assert trace["content"].endswith("Done: the export command takes --dry-run and prints the rows it would write.")
    assert loa("lint").exit_code == 0
    again = loa.json("capture", "--transcript", str(path))
    assert again["added"] == []
    assert [s["reason"] for s in again["skipped"] if s["summary"].startswith("Task:")] == ["duplicate"]


def test_a_resolution_in_the_agents_words_wins_and_a_correction_continues_the_task(loa: Cli, tmp_path: Path) -> None:
    path = shutil.copy(EXAMPLES / "claude-code-session.jsonl", tmp_path / "session.jsonl")
    (trace,) = _trace(loa.json("capture", "--transcript", str(path)))
    assert trace["goal"].startswith("Add a CSV export endpoint")
    assert "Keep it simple." in trace["constraints"]
    assert any(c.startswith("Don't call the billing service") for c in trace["constraints"])
    assert "No, that's wrong." not in trace["constraints"]
    assert trace["errors"] == [{"action": "Bash: pytest -q tests/api",
                                "error": "ModuleNotFoundError: No module named 'app.clients'",
                                "resolution": "I fixed it by adding an empty app/clients/__init__.py, and the tests "
                                              "pass now."}]
    assert trace["outcome"] == "completed" and "commit" not in trace  # no commit in this repository yet


def test_a_secret_in_a_tool_call_is_withheld_and_the_trace_kept(loa: Cli, tmp_path: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    records = [{"role": "user", "content": "Deploy the staging branch"},
               {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "Bash",
                                                  "input": {"command": f"GITHUB_TOKEN={token} ./deploy.sh"}}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "deployed"}]}]
    path = tmp_path / "deploy.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    (trace,) = _trace(loa.json("capture", "--transcript", str(path)))
    assert trace["actions"] == ["[withheld: GitHub token]"] and trace["outcome"] == "completed"
    assert token not in "".join(p.read_text() for p in (loa.root / MEMDIR).rglob("*.yaml"))


def _episode(session: str, resolution: str = "I fixed it by adding an empty app/clients/__init__.py.") -> str:
    return json.dumps({
        "category": "episode", "content": "Goal: run the api tests", "session_id": session, "action_types": ["task"],
        "goal": "run the api tests", "source": {"session_id": session},
        "errors": [{"action": "Bash: npm run lint", "error": "ESLint: 3 problems"},  # unresolved: never a lesson
                   {"action": "Bash: pytest -q tests/api", "resolution": resolution,
                    "error": "ModuleNotFoundError: No module named 'app.clients'"}]})


def test_three_episodes_with_one_error_and_resolution_become_one_correction(loa: Cli) -> None:
    ids = [loa.json("add", "--from-json", "-", input=_episode(s))["id"] for s in ("s1", "s2", "s3")]
    dry = loa.json("promote", "--dry-run")
    assert [p["kind"] for p in dry["promoted"]] == ["anti-pattern"]
    assert loa.json("list", "--category", "correction")["count"] == 0
    promoted = loa.json("promote")["promoted"]
    assert len(promoted) == 1
    correction = promoted[0]["entry"]
    assert correction["category"] == "correction"
    assert correction["trigger"] == "running `pytest -q tests/api`"
    assert correction["lesson"] == "Add an empty app/clients/__init__.py"
    assert correction["links"] == [{"to": i, "relation": "derived_from", "note": "errors[1]"} for i in ids]
    assert "anti-pattern" in correction["tags"]
    before = {p: p.read_bytes() for p in (loa.root / MEMDIR).rglob("*.yaml")}
    again = loa.json("promote")
    assert again["promoted"] == [] and [a["id"] for a in again["already_promoted"]] == [correction["id"]]
    assert {p: p.read_bytes() for p in (loa.root / MEMDIR).rglob("*.yaml")} == before
    recall = loa.json("recall", "run the api tests with pytest")
    assert correction["id"] in [c["id"] for c in recall["corrections"]]
    assert loa("lint").exit_code == 0


def test_two_sessions_are_not_enough(loa: Cli) -> None:
    for session in ("s1", "s2"):
        loa("add", "--from-json", "-", input=_episode(session))
    report = loa.json("promote")
    assert report["promoted"] == [] and [b["kind"] for b in report["below_threshold"]] == ["anti-pattern"]


@pytest.mark.parametrize(("resolution", "lesson"), [
    ("I fixed it by adding an empty app/clients/__init__.py, and the tests pass now.",
     "Add an empty app/clients/__init__.py"),
    ("The fix was to pin numpy below 2.", "Pin numpy below 2"),
    ("Resolved by running migrations first", "Run migrations first"),
    ("run `npm ci` before retrying", "Run `npm ci` before retrying"),
    ("The problem was a stale lock file.", "Check first: a stale lock file"),
    ("turns out the port was taken", "Check first: the port was taken"),
])
def test_lessons_are_imperatives(resolution: str, lesson: str) -> None:
    assert lesson_of(resolution) == lesson


def test_triggers_name_the_action() -> None:
    assert trigger_of("Bash: npm test") == "running `npm test`"
    assert trigger_of("Edit: src/app.py") == "Edit on src/app.py"
    assert trigger_of("WebFetch") == "WebFetch"
