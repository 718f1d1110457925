"""Ledgers and handoffs: a scripted two-agent session, and the inputs that must be refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from loa_memory.store.schema import load_schema
from tests.fixtures import MEMDIR, Cli, git

SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _valid(name: str, data: Any) -> Any:
    jsonschema.validate(data, load_schema(f"output/{name}"))
    return data


def _commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def _memory_bytes(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in (root / MEMDIR).rglob("*") if p.is_file()}


def test_two_agents_checkpoint_hand_off_and_accept(loa: Cli) -> None:
    decision = loa.json("add", "decision", "Cursor pagination for list endpoints", "--confidence", "0.95")["id"]
    old_fact = loa.json("add", "fact", "Page size is 50")["id"]
    new_fact = loa.json("supersede", old_fact, "Page size is 100")["id"]
    _commit(loa.root, "memories")
    git(loa.root, "branch", "base")

    # eng-1 works, checkpoints, and hands over with work in progress in the tree
    checkpoint = _valid("ledger-checkpoint", loa.json(
        "ledger", "checkpoint", "--agent", "eng-1", "--task", "pagination for /users", "--file", "src/users.py",
        "--pattern", decision, "--status", "handed-off"))
    assert checkpoint["path"] == f"{MEMDIR}/ledgers/eng-1.yaml"
    (loa.root / "src").mkdir()
    (loa.root / "src" / "users.py").write_text("PAGE = 100\n")
    created = _valid("handoff-create", loa.json(
        "handoff", "create", "--from", "eng-1", "--to", "eng-2", "--done", "pagination for /users",
        "--artifact", "src/users.py", "--next", "same for /orders", "--known-issue", "count query is slow",
        "--memory", decision, "--memory", old_fact))
    handoff_id = created["id"]
    entry = created["entry"]
    assert created["path"].startswith(f"{MEMDIR}/handoffs/") and entry["to_agent"] == "eng-2"
    state = entry["git_state"]
    assert state["branch"] == "main" and state["commit"] == git(loa.root, "rev-parse", "HEAD").strip()
    assert state["dirty"] is True and "src/users.py" in state["dirty_files"]

    # eng-2 starts a session: the handoff is there, and eng-2 has no checkpoint yet
    brief = loa.json("session", "start", "--agent", "eng-2")
    assert [h["id"] for h in brief["handoffs"]] == [handoff_id] and brief["ledger"] == []
    text = loa("session", "start", "--agent", "eng-2").stdout
    assert "## Handoffs to you (pending)" in text and "next: same for /orders" in text
    assert f"loa-memory handoff accept {handoff_id} --agent eng-2" in text
    assert loa.json("session", "start", "--agent", "eng-1")["handoffs"] == []
    assert [c["id"] for c in loa.json("session", "start", "--agent", "eng-1")["ledger"]] == [checkpoint["id"]]
    pending = _valid("handoff-list", loa.json("handoff", "list", "--to", "eng-2", "--pending"))
    assert [h["id"] for h in pending["handoffs"]] == [handoff_id]

    # eng-2 accepts: the referenced memories come resolved, a superseded one with its successor
    accepted = _valid("handoff-accept", loa.json("handoff", "accept", "--agent", "eng-2"))
    assert accepted["handoff"]["id"] == handoff_id and accepted["already_accepted"] is False
    memories = {m["id"]: m for m in accepted["handoff"]["memories"]}
    assert memories[decision]["summary"] == "Cursor pagination for list endpoints"
    assert memories[old_fact]["status"] == "superseded"
    assert memories[old_fact]["superseded_by"]["id"] == new_fact
    assert accepted["handoff"]["accepted"]["by"] == "eng-2"
    shown = loa("handoff", "accept", handoff_id, "--agent", "eng-2")
    assert shown.exit_code == 0 and f"now: {new_fact}" in shown.stdout and "nothing was written" in shown.stdout

    # no longer pending; accepting again wrote nothing; lint and governance pass
    assert loa.json("handoff", "list", "--to", "eng-2", "--pending")["count"] == 0
    assert loa.json("session", "start", "--agent", "eng-2")["handoffs"] == []
    assert loa.json("handoff", "list", "--to", "eng-2")["handoffs"][0]["accepted"]["by"] == "eng-2"
    acceptances = [e for e in loa.json("list", "--category", "handoff")["entries"] if e["entry"].get("accepts")]
    assert len(acceptances) == 1 and acceptances[0]["entry"]["accepts"] == handoff_id
    assert loa("handoff", "accept", "--agent", "eng-2").exit_code == 1  # nothing pending any more
    _commit(loa.root, "session")
    assert loa("lint").exit_code == 0
    assert loa("lint", "--base", "base").exit_code == 0
    ledger = _valid("ledger-show", loa.json("ledger", "show", "eng-1"))
    assert ledger["latest"]["patterns"][0]["id"] == decision and ledger["count"] == 1


def test_session_start_takes_the_agent_from_loa_agent(loa: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    assert loa("handoff", "create", "--from", "eng-1", "--to", "eng-2", "--next", "review the PR").exit_code == 0
    monkeypatch.setenv("LOA_AGENT", "eng-2")
    assert len(loa.json("session", "start")["handoffs"]) == 1
    assert loa.json("handoff", "accept")["handoff"]["to"] == "eng-2"


def test_accepting_someone_elses_handoff_is_refused(loa: Cli) -> None:
    handoff_id = loa.json("handoff", "create", "--from", "eng-1", "--to", "eng-2", "--done", "x")["id"]
    before = _memory_bytes(loa.root)
    result = loa("handoff", "accept", handoff_id, "--agent", "eng-3")
    assert result.exit_code == 2 and "addressed to eng-2, not to eng-3" in result.stderr
    assert _memory_bytes(loa.root) == before


def test_a_secret_in_a_handoff_is_refused_and_nothing_is_written(loa: Cli) -> None:
    loa("handoff", "create", "--from", "eng-1", "--to", "eng-2", "--done", "first")
    before = _memory_bytes(loa.root)
    result = loa("handoff", "create", "--from", "eng-1", "--to", "eng-2", "--done", f"rotated the token {SECRET}")
    assert result.exit_code == 1 and "refused" in result.stderr and "GitHub" in result.stderr
    assert SECRET not in result.output
    assert _memory_bytes(loa.root) == before
    result = loa("ledger", "checkpoint", "--agent", "eng-1", "--task", "deploy", "--note", f"token {SECRET}")
    assert result.exit_code == 1 and _memory_bytes(loa.root) == before


@pytest.mark.parametrize("name", ["../etc", "a/b", "..", "Eng-1", "eng 1", "-x", "", "x" * 65, "eng-1/../../x",
                                  "C:\\agents"])
def test_path_like_or_bad_agent_names_are_refused(loa: Cli, name: str) -> None:
    before = _memory_bytes(loa.root)
    for args in (("ledger", "checkpoint", "--agent", name, "--task", "t"),
                 ("handoff", "create", "--from", name, "--to", "eng-2", "--done", "d"),
                 ("handoff", "create", "--from", "eng-1", "--to", name, "--done", "d"),
                 ("handoff", "accept", "--agent", name), ("ledger", "show", name),
                 *([("session", "start", "--agent", name)] if name else [])):  # empty: no agent
        result = loa(*args)
        assert result.exit_code == 2, (args, result.output)
        assert any(why in result.stderr for why in ("agent name", "is missing", "No such option")), result.stderr
    assert _memory_bytes(loa.root) == before
    assert sorted(p.name for p in (loa.root / MEMDIR / "ledgers").iterdir()) == [".gitkeep"]


def test_a_hand_written_ledger_entry_with_a_bad_agent_fails_lint(loa: Cli) -> None:
    path = loa.root / MEMDIR / "ledgers" / "eng-1.yaml"
    path.write_text("- id: MEM-20260101-001\n  category: ledger\n  content: x\n  agent: ../../etc\n  task: t\n"
                    "  status: in-progress\n  source: {session_id: s, timestamp: '2026-01-01T00:00:00Z'}\n")
    result = loa("lint")
    assert result.exit_code == 1 and "agent" in result.stdout and "(schema)" in result.stdout


def test_handoff_needs_work_and_known_memories(loa: Cli) -> None:
    result = loa("handoff", "create", "--from", "eng-1", "--to", "eng-2")
    assert result.exit_code == 2 and "--done" in result.stderr
    result = loa("handoff", "create", "--from", "eng-1", "--to", "eng-2", "--done", "x", "--memory", "MEM-20990101-001")
    assert result.exit_code == 1 and "MEM-20990101-001" in result.stderr
    result = loa("handoff", "create", "--from", "eng-1", "--to", "eng-1", "--done", "x")
    assert result.exit_code == 2
    missing = loa("ledger", "checkpoint", "--agent", "eng-1", "--task", "t", "--pattern", "MEM-20990101-001")
    assert missing.exit_code == 1


def test_ledger_keeps_every_checkpoint_and_shows_the_latest(loa: Cli) -> None:
    for task, status in (("design", "done"), ("build", "in-progress"), ("build", "blocked")):
        assert loa("ledger", "checkpoint", "--agent", "eng-1", "--task", task, "--status", status).exit_code == 0
    shown = loa.json("ledger", "show", "eng-1")
    assert shown["count"] == 3 and shown["latest"]["status"] == "blocked"
    text = (loa.root / MEMDIR / "ledgers" / "eng-1.yaml").read_text()
    assert text.count("- id: MEM-") == 3
    assert loa.json("ledger", "show", "eng-9")["latest"] is None


def test_handoff_outside_a_commit_has_no_sha(loa: Cli) -> None:
    created = loa.json("handoff", "create", "--from", "eng-1", "--to", "eng-2", "--done", "x")
    state = created["entry"]["git_state"]
    assert "commit" not in state and state["branch"] == "main" and state["dirty"] is True
    assert json.dumps(created)  # plain JSON values only
