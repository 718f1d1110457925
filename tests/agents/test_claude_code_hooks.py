"""The shipped Claude Code hook settings, run the way Claude Code runs them, over a recorded session.

Each hook command is taken from ``examples/agent-hooks/claude-code/settings.json`` itself and run by a
shell in the project, with the hook's JSON on stdin, ``$CLAUDE_PROJECT_DIR`` set and ``loa-memory`` on
PATH (a shim for this interpreter), so the test breaks if the example does.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import loa_memory
from loa_memory.store import load_config, load_grimoire
from tests.fixtures import MEMDIR, Cli

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "examples" / "agent-hooks" / "claude-code" / "settings.json"
WRAPPER = ROOT / "examples" / "agent-hooks" / "shell" / "with-memory"
RECORDED = ROOT / "tests" / "examples" / "transcripts" / "claude-code-session.jsonl"
SESSION = "7f3c9a2e-4b1d-4e8a-9c55-2d6f0e1a8b34"
MATCHED_FIELD = {"SessionStart": "source", "SessionEnd": "reason", "PreCompact": "trigger"}


@pytest.fixture
def env(tmp_path: Path, grimoire: Path) -> dict[str, str]:
    """The environment of a hook: ``loa-memory`` on PATH and the project directory Claude Code sets."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "loa-memory"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m loa_memory "$@"\n')
    shim.chmod(0o755)
    package_root = str(Path(loa_memory.__file__).resolve().parents[1])
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "CLAUDE_PROJECT_DIR": str(grimoire),
            "PYTHONPATH": os.pathsep.join(filter(None, (package_root, os.environ.get("PYTHONPATH"))))}


def run_hooks(event: str, payload: dict[str, Any], cwd: Path, env: dict[str, str]) -> str:
    """Run every command the settings file registers for ``event`` (matchers applied); their joined stdout."""
    settings = json.loads(SETTINGS.read_text())
    outputs = []
    for group in settings["hooks"].get(event, []):
        matcher = group.get("matcher") or "*"
        if matcher != "*" and not re.fullmatch(matcher, str(payload.get(MATCHED_FIELD.get(event, ""), ""))):
            continue
        for hook in group["hooks"]:
            assert hook["type"] == "command"
            done = subprocess.run(["/bin/sh", "-c", hook["command"]], input=json.dumps(payload), text=True,
                                  capture_output=True, cwd=cwd, env=env, timeout=hook.get("timeout", 60))
            assert done.returncode == 0, done.stderr  # exit 2 would block the prompt or the stop
            assert "Traceback" not in done.stderr, done.stderr
            outputs.append(done.stdout)
    return "".join(outputs)


def recorded_transcript(tmp_path: Path, lines: int | None = None) -> Path:
    """The recorded Claude Code session, moved to today (its episodes live 30 days), where Claude Code keeps it."""
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    text = RECORDED.read_text().replace("2026-11-20", today)
    if lines is not None:
        text = "".join(text.splitlines(keepends=True)[:lines])
    path = tmp_path / ".claude" / "projects" / "-home-dev-projects-shop" / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def payload(event: str, transcript: Path, **extra: str) -> dict[str, Any]:
    return {"session_id": SESSION, "transcript_path": str(transcript), "cwd": os.environ.get("PWD", "/"),
            "permission_mode": "default", "hook_event_name": event, **extra}


def test_the_example_hooks_write_and_read_memory_over_a_recorded_session(grimoire: Path, env: dict[str, str],
                                                                         tmp_path: Path) -> None:
    loa = Cli(grimoire)
    assert loa("add", "correction", "A new endpoint without an OpenAPI tag broke the client generator",
               "--trigger", "add an API endpoint", "--lesson", "tag it in app/routes/__init__.py").exit_code == 0
    assert loa("add", "decision", "Order exports are CSV files with a header row; amounts in cents",
               "--summary", "Order exports: CSV with a header row", "--confidence", "0.95").exit_code == 0
    transcript = recorded_transcript(tmp_path, lines=6)  # the session so far: up to the user's correction

    brief = run_hooks("SessionStart", payload("SessionStart", transcript, source="startup"), grimoire, env)
    assert "## Before you act\n- BEFORE add an API endpoint: tag it in app/routes/__init__.py" in brief
    assert "Order exports: CSV with a header row" in brief

    prompt = "Add a CSV export endpoint for orders under /api/orders/export. Keep it simple."
    recalled = run_hooks("UserPromptSubmit", payload("UserPromptSubmit", transcript, prompt=prompt), grimoire, env)
    assert recalled.startswith(f"# Memory for: {prompt}")
    assert "- BEFORE add an API endpoint: tag it in app/routes/__init__.py" in recalled
    assert "Order exports: CSV with a header row" in recalled
    assert run_hooks("UserPromptSubmit", payload("UserPromptSubmit", transcript, prompt="thanks!"),
                     grimoire, env) == ""  # nothing bears on it: nothing is added to the context

    compacted = run_hooks("PreCompact", payload("PreCompact", transcript, trigger="auto"), grimoire, env)
    # the correction, before compaction summarises it away, and the trace of the task so far
    assert compacted.count("added MEM-") == 2 and "Task: Add a CSV export endpoint" in compacted
    transcript = recorded_transcript(tmp_path)  # the session went on to its end
    ended = run_hooks("SessionEnd", payload("SessionEnd", transcript, reason="prompt_input_exit"), grimoire, env)
    assert ended.count("added MEM-") == 3  # the rest; the correction is not captured twice

    episodes = [e for e in load_grimoire(load_config(grimoire)).entries if e.category == "episode"]
    by_kind = {e.data["action_types"][0]: e.data for e in episodes}
    assert sorted(by_kind) == ["correction", "decision", "error", "preference", "task"]  # task: the trace
    assert all(e["session_id"] == SESSION for e in by_kind.values())
    assert by_kind["correction"]["lesson"].startswith("Don't call the billing service with requests")
    assert by_kind["preference"]["content"].startswith("I prefer small focused commits")
    assert by_kind["decision"]["rationale"] == "exports can reach 200k rows"
    assert by_kind["error"]["error"] == "ModuleNotFoundError: No module named 'app.clients'"
    assert all(p.parent.name == "episodic" for p in (grimoire / MEMDIR).rglob("*.yaml") if "episodic" in str(p))
    assert loa("lint").exit_code == 0

    next_brief = run_hooks("SessionStart", payload("SessionStart", transcript, source="startup"), grimoire, env)
    assert "BillingClient" in next_brief  # the next session starts with what the last one taught
    next_prompt = "Call the billing service to get the order totals"
    next_recall = run_hooks("UserPromptSubmit", payload("UserPromptSubmit", transcript, prompt=next_prompt),
                            grimoire, env)
    assert "BillingClient" in next_recall


def test_the_hooks_never_fail_the_session(tmp_path: Path, env: dict[str, str], repo: Path) -> None:
    """Not initialised, a missing transcript, input that is not JSON: the hooks exit 0 and add nothing."""
    bare = tmp_path / "bare"
    bare.mkdir()
    env = {**env, "CLAUDE_PROJECT_DIR": str(bare)}
    missing = tmp_path / "missing.jsonl"
    for event in ("SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd"):
        assert run_hooks(event, payload(event, missing, prompt="add an endpoint"), bare, env) == ""
    settings = json.loads(SETTINGS.read_text())
    command = settings["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
    done = subprocess.run(["/bin/sh", "-c", command], input="not json", text=True, capture_output=True,
                          cwd=repo, env={**env, "CLAUDE_PROJECT_DIR": str(repo)})
    assert done.returncode == 0 and done.stdout == "" and "not JSON" in done.stderr


def test_the_shell_wrapper_briefs_any_agent_and_captures_its_transcript(grimoire: Path, env: dict[str, str],
                                                                         tmp_path: Path) -> None:
    assert Cli(grimoire)("add", "preference", "Prefer httpx over requests in new code").exit_code == 0
    transcript = recorded_transcript(tmp_path)
    agent = f'cp "$LOA_BRIEF" {tmp_path}/seen-brief.md; exit 3'  # an agent that reads the brief and fails
    done = subprocess.run([str(WRAPPER), "--transcript", str(transcript), "--", "/bin/sh", "-c", agent],
                          text=True, capture_output=True, cwd=grimoire, env=env, timeout=120)
    assert done.returncode == 3, done.stderr  # the agent's own exit status
    assert "Prefer httpx over requests" in (tmp_path / "seen-brief.md").read_text()
    assert done.stdout.count("added MEM-") == 5  # four cues and the task's trace
    episodes = [e for e in load_grimoire(load_config(grimoire)).entries if e.category == "episode"]
    assert len(episodes) == 5
