"""Files changed that should not be: a file with errors --fix cannot repair, CRLF files, the real entry of a
duplicated id, and the MCP server's answer to a line that is not JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import MEMDIR, Cli, git

ENTRY = (
    "- id: {id}\n  category: fact\n  summary: {summary}\n  content: {content}\n  confidence: 0.9\n"
    "  source: {{session_id: s1, timestamp: '{when}'}}\n  ttl: permanent\n  tags: [{tag}]\n"
)


def entry(memory_id: str, summary: str, content: str, when: str = "2026-01-01T00:00:00Z", tag: str = "ok") -> str:
    return ENTRY.format(id=memory_id, summary=summary, content=content, when=when, tag=tag)


@pytest.mark.parametrize(
    "bad",
    [
        "- id: MEM-20260101-002\n  content: [unclosed\n",
        "- [1, 2]\n",
        "- just a string\n",
        "- id: MEM-20260101-002\n  content: a\n  content: b\n",
    ],
)
def test_lint_fix_never_rewrites_a_file_with_errors_it_cannot_repair(loa: Cli, bad: str) -> None:
    facts = loa.root / MEMDIR / "facts.yaml"
    facts.write_text(entry("MEM-20260101-001", "Fixable tag", "The tag needs a fix.", tag="tx_index") + bad)
    learnings = loa.root / MEMDIR / "learnings.yaml"
    learnings.write_text(
        entry("MEM-20260101-003", "Other file", "Fixed anyway.", tag="Other_Tag").replace(
            "category: fact", "category: learning"
        )
    )
    before = facts.read_bytes()
    done = loa("lint", "--fix")
    assert "Traceback" not in done.output
    assert facts.read_bytes() == before  # byte for byte
    assert "tags: [other-tag]" in learnings.read_text()  # a sound file is still fixed
    if "unclosed" not in bad and "content: b" not in bad:
        assert "skipped grimoires/loa/memory/facts.yaml" in done.stdout, done.output


@pytest.mark.parametrize(
    "command",
    [
        ("add", "fact", "Kafka carries the audit events", "--summary", "Kafka audit events"),
        ("supersede", "MEM-20260101-001", "The tag is fine now", "--summary", "Tag is fine"),
        ("lint", "--fix"),
    ],
)
def test_crlf_files_keep_crlf_endings(loa: Cli, command: tuple[str, ...]) -> None:
    facts = loa.root / MEMDIR / "facts.yaml"
    original = entry("MEM-20260101-001", "Old fact", "Something.", tag="Bad_Tag" if "--fix" in command else "ok")
    facts.write_bytes(original.replace("\n", "\r\n").encode())
    done = loa(*command)
    assert done.exit_code in (0, 1), done.output
    data = facts.read_bytes()
    assert data != original.replace("\n", "\r\n").encode(), done.output
    assert data.count(b"\n") == data.count(b"\r\n"), data  # no bare LF: no mixed endings
    assert loa("lint").exit_code in (0, 1)


def test_lint_fix_keeps_the_committed_entry_s_id_and_renumbers_the_injected_one(loa: Cli) -> None:
    facts = loa.root / MEMDIR / "facts.yaml"
    facts.write_text(
        entry("MEM-20260105-001", "Real decision", "The real entry, committed first.", when="2026-01-05T00:00:00Z")
    )
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "real entry")
    injected = entry(
        "MEM-20260105-001", "Injected copy", "An injected entry with an older timestamp.", when="2001-01-01T00:00:00Z"
    )
    facts.write_text(injected + facts.read_text())  # first in the file, and "older"
    done = loa("lint", "--fix")
    assert "renumbered" in done.stdout, done.output
    shown = loa.json("show", "MEM-20260105-001")
    assert shown["entry"]["summary"] == "Real decision", shown
    listed = {e["summary"]: e["id"] for e in loa.json("list")["entries"]}
    assert listed["Injected copy"] != "MEM-20260105-001"


def test_without_history_the_first_in_the_file_keeps_its_id(loa: Cli) -> None:
    facts = loa.root / MEMDIR / "facts.yaml"
    facts.write_text(
        entry("MEM-20260105-001", "First in file", "Written first.", when="2026-01-05T00:00:00Z")
        + entry("MEM-20260105-001", "Second in file", "Claims to be older.", when="2001-01-01T00:00:00Z")
    )
    assert "renumbered" in loa("lint", "--fix").stdout
    assert loa.json("show", "MEM-20260105-001")["entry"]["summary"] == "First in file"


@pytest.mark.parametrize(
    ("line", "code"), [("{not json", -32700), ("\x00\x01", -32700), ("[1, 2]", -32600), ('{"jsonrpc": "2.0"}', -32600)]
)
def test_the_mcp_server_answers_unparseable_input_with_a_json_rpc_error(grimoire: Path, line: str, code: int) -> None:
    pytest.importorskip("mcp")
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    done = subprocess.run(
        [sys.executable, "-m", "loa_memory", "mcp"],
        cwd=grimoire,
        text=True,
        capture_output=True,
        input=f"{line}\n{json.dumps(init)}\n",
        timeout=120,
        env={**os.environ, "LOA_MEMORY_SERVER": "off"},
    )
    answers = [json.loads(out) for out in done.stdout.splitlines() if out.strip()]
    assert answers[0] == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": code, "message": answers[0]["error"]["message"]},
    }
    assert answers[1]["id"] == 1 and "result" in answers[1]  # and it goes on serving
