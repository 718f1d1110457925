"""Every read command that skips a memory file because it does not parse says so (issue 19): on stderr as
``path:line:col: what is wrong; what to do``, as ``problems`` in JSON, in the agent's context for hooks;
exit codes stay what they were. Writes refuse only what they must."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures import MEMDIR, Cli

FACTS = f"{MEMDIR}/facts.yaml"
BROKEN = "- id: X\n  content: [unclosed\n"
READS = [("search", "postgres"), ("recall", "change the database schema"), ("why", "src/db/"), ("stats",)]


@pytest.fixture
def memory(loa: Cli) -> Cli:
    assert loa("add", "decision", "Use PostgreSQL for the database because of JSONB support",
               "--artifact", "src/db/").exit_code == 0
    assert loa("add", "fact", "The API is served by uvicorn behind nginx").exit_code == 0
    return loa


def _break(root: Path) -> tuple[Path, int]:
    path = root / FACTS
    line = path.read_text("utf-8").count("\n") + 3  # the error shows where the file ends, the list unclosed
    with path.open("a", encoding="utf-8") as handle:
        handle.write(BROKEN)
    return path, line


@pytest.mark.parametrize("args", READS, ids=lambda args: args[0])
def test_a_read_names_the_file_it_could_not_read(memory: Cli, args: tuple[str, ...]) -> None:
    clean = memory(*args)
    assert clean.stderr == ""
    _path, line = _break(memory.root)
    text = memory(*args)
    assert text.exit_code == clean.exit_code
    assert text.stderr.splitlines() == [
        f"{FACTS}:{line}:1: did not find expected ',' or ']'; memories there may be missing from this answer; "
        "fix the YAML by hand (loa-memory never rewrites a file it cannot parse); `loa-memory lint` shows every "
        "problem"]
    data = memory.json(*args)
    key = "unreadable" if args[0] == "stats" else "problems"
    assert data[key] == [{"path": FACTS, "line": line, "col": 1, "rule": "yaml-syntax",
                          "message": "did not find expected ',' or ']'"}]


def test_recall_from_a_hook_tells_the_agent_rather_than_failing(memory: Cli) -> None:
    _break(memory.root)
    for prompt in ("change the database schema", "tune the kubernetes helm chart"):  # findings, then none
        result = memory("recall", "--hook-input", input=json.dumps({"prompt": prompt}))
        assert result.exit_code == 0 and result.stderr == ""
        assert f"1 memory file could not be read: {FACTS}:" in result.stdout


def test_reads_of_a_clean_grimoire_report_no_problems(memory: Cli) -> None:
    for args in READS:
        data = memory.json(*args)
        assert data["unreadable" if args[0] == "stats" else "problems"] == []


def test_writes_refuse_only_the_broken_file_they_touch(memory: Cli) -> None:
    """One broken file, one schema nit elsewhere: reads name the broken file, an add elsewhere succeeds, an add
    to the broken file is refused at its place, and the broken file keeps every byte."""
    decisions = memory.root / MEMDIR / "decisions.yaml"
    decisions.write_text(decisions.read_text("utf-8").replace("  artifacts:", "  tags: [tx_index]\n  artifacts:"),
                         "utf-8")
    path, line = _break(memory.root)
    before = path.read_bytes()
    for args in READS:
        assert f"{FACTS}:{line}:1: " in memory(*args).stderr, args
    correction = {"category": "correction", "content": "Run migrations in a transaction",
                  "trigger": "writing a database migration", "lesson": "wrap the migration in a transaction"}
    added = memory("add", "--from-json", "-", input=json.dumps(correction))
    assert added.exit_code == 0, added.output
    assert added.stdout.startswith("added MEM-")
    assert f"{MEMDIR}/decisions.yaml:" in added.stderr and "(tag-format)" in added.stderr
    assert f"{FACTS}:{line}:1: " in added.stderr
    data = memory.json("add", "--from-json", "-", input=json.dumps({**correction, "content": "Another lesson"}))
    assert {p["rule"] for p in data["problems"]} == {"tag-format", "yaml-syntax"}
    refused = memory("add", "fact", "This fact would go into the file that does not parse")
    assert refused.exit_code == 1
    assert refused.stderr.startswith(f"error: {FACTS}:{line}:1: {FACTS} failed to parse"), refused.stderr
    assert path.read_bytes() == before
    ids = [entry["id"] for entry in memory.json("list", "--category", "correction")["entries"]]
    assert len(set(ids)) == 2
