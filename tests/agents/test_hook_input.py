"""An agent hook's JSON on stdin, and the commands that read it (recall and capture --hook-input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loa_memory.agents.hook_input import HookInput, parse_hook_input
from loa_memory.errors import UsageError
from tests.fixtures import Cli


def test_the_fields_of_each_event_are_read() -> None:
    hook = parse_hook_input(json.dumps({
        "session_id": "abc", "transcript_path": "~/.claude/projects/p/abc.jsonl", "cwd": "/work/shop",
        "permission_mode": "default", "hook_event_name": "UserPromptSubmit", "prompt": "add an endpoint"}))
    assert hook.event == "UserPromptSubmit" and hook.session_id == "abc" and hook.prompt == "add an endpoint"
    assert hook.transcript_path == Path.home() / ".claude/projects/p/abc.jsonl" and hook.cwd == "/work/shop"
    start = parse_hook_input('{"hook_event_name": "SessionStart", "source": "compact", "session_id": 7}')
    assert start.source == "compact" and start.session_id is None  # not a string: ignored
    assert parse_hook_input("") == HookInput()
    assert parse_hook_input('{"prompt": "   "}').prompt is None


@pytest.mark.parametrize("text, message", [("not json", "not JSON"), ("[1, 2]", "not a JSON object")])
def test_bad_input_is_a_usage_error(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_hook_input(text)


def test_a_transcript_is_required_only_when_asked_for(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no transcript_path"):
        HookInput().transcript()
    with pytest.raises(UsageError, match="does not exist"):
        HookInput(transcript_path=tmp_path / "gone.jsonl").transcript()
    (tmp_path / "t.jsonl").write_text("{}\n")
    assert HookInput(transcript_path=tmp_path / "t.jsonl").transcript() == tmp_path / "t.jsonl"


@pytest.fixture
def seeded(loa: Cli) -> Cli:
    assert loa("add", "correction", "An endpoint without an OpenAPI tag broke the client generator",
               "--trigger", "add an API endpoint", "--lesson", "tag it in app/routes/__init__.py").exit_code == 0
    return loa


def test_recall_takes_the_task_from_the_hook_prompt(seeded: Cli) -> None:
    hook = json.dumps({"session_id": "sess-9", "hook_event_name": "UserPromptSubmit",
                       "prompt": "Add an API endpoint for refunds"})
    result = seeded("recall", "--hook-input", "--track", input=hook)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# Memory for: Add an API endpoint for refunds\n")
    assert "- BEFORE add an API endpoint: tag it in app/routes/__init__.py" in result.stdout
    events = [json.loads(line) for line in (seeded.root / ".loa" / "usage.jsonl").read_text().splitlines()]
    assert {e["session_id"] for e in events} == {"sess-9"}
    economics = (seeded.root / ".loa" / "token_economics.jsonl").read_text().splitlines()
    assert json.loads(economics[-1])["session_id"] == "sess-9"
    as_json = seeded.json("recall", "--hook-input", input=hook)
    assert as_json["task"] == "Add an API endpoint for refunds" and as_json["corrections"]


def test_recall_in_a_hook_prints_nothing_when_nothing_bears_on_the_prompt(seeded: Cli) -> None:
    for hook in ('{"prompt": "thanks!"}', '{"hook_event_name": "UserPromptSubmit"}', ""):
        result = seeded("recall", "--hook-input", input=hook)
        assert (result.exit_code, result.stdout) == (0, ""), hook
    assert seeded("recall", "thanks!").stdout.startswith("# Memory for: thanks!")  # without a hook it says so


def test_recall_needs_a_task_and_a_long_prompt_makes_a_short_title(seeded: Cli) -> None:
    result = seeded("recall")
    assert result.exit_code == 2 and "recall needs a TASK" in result.stderr
    long_prompt = "Add an API endpoint " + "that does many things " * 20 + "\n```python\ncode()\n```"
    title = seeded("recall", long_prompt).stdout.splitlines()[0]
    assert title.startswith("# Memory for: Add an API endpoint") and title.endswith("…") and len(title) < 120
