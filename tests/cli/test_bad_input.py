"""Bad memory files: every reading command names file:line, exits non-zero, runs nothing, changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures import MEMDIR, Cli

GOOD = """- id: MEM-20260101-001
  category: decision
  summary: Use PostgreSQL
  content: Use PostgreSQL for JSONB.
  confidence: 0.95
  source: {session_id: s1, timestamp: '2026-01-01T00:00:00Z'}
"""
ENTRY = """- id: {id}
  category: {category}
  content: {content}
  confidence: {confidence}
  source: {{session_id: s1, timestamp: '2026-01-02T00:00:00Z'}}
"""
DEFAULTS = {"id": "MEM-20260102-001", "category": "decision", "content": "A second decision",
            "confidence": "0.95"}

CASES = {
    "malformed-yaml": ({"content": "[unclosed, list"}, 10, "expected"),
    "wrong-type": ({"confidence": "high"}, 10, "confidence"),
    "unknown-category": ({"category": "rumour"}, 8, "rumour"),
    "id-not-mem": ({"id": "ENTRY-1"}, 7, "ENTRY-1"),
    "confidence-below-minimum": ({"confidence": "0.5"}, 10, "minimum"),
    "path-like-id": ({"id": "../x"}, 7, "../x"),
    "python-tag": ({"content": "!!python/object/apply:os.system ['touch PWNED']"}, 9, "not allowed"),
}


@pytest.fixture(params=sorted(CASES))
def broken(request: pytest.FixtureRequest, grimoire: Path) -> tuple[Path, int, str, bytes]:
    fields, line, words = CASES[request.param]
    path = grimoire / MEMDIR / "decisions.yaml"
    path.write_text(GOOD + ENTRY.format(**(DEFAULTS | fields)))
    return path, line, words, path.read_bytes()


UNPARSEABLE = ("malformed-yaml", "python-tag")


@pytest.mark.parametrize("command", [("add", "fact", "a new fact"), ("supersede", "MEM-20260101-001", "replacement")])
def test_writes_go_past_problems_elsewhere_and_refuse_a_file_that_does_not_parse(
        broken: tuple[Path, int, str, bytes], command: tuple[str, ...], loa: Cli,
        request: pytest.FixtureRequest) -> None:
    path, line, words, before = broken
    result = loa(*command)
    assert "Traceback" not in result.output
    assert f"{MEMDIR}/decisions.yaml:{line}:" in result.stderr and words in result.stderr
    assert not (loa.root / "PWNED").exists() and not Path("PWNED").exists()
    if command[0] == "add" or request.node.callspec.params["broken"] not in UNPARSEABLE:
        assert result.exit_code == 0, result.output  # the problem is not in what the write touches
        assert "did not block this write" in result.stderr
    else:
        assert result.exit_code == 1 and "failed to parse, so loa-memory will not write to it" in result.stderr
    if command[0] == "add" or request.node.callspec.params["broken"] in UNPARSEABLE:
        assert path.read_bytes() == before


@pytest.mark.parametrize("command", [("list",), ("list", "--format", "json"), ("show", "MEM-20260101-001")])
def test_reading_commands_report_and_change_nothing(broken: tuple[Path, int, str, bytes], command: tuple[str, ...],
                                                    loa: Cli) -> None:
    path, line, words, before = broken
    result = loa(*command)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert f"{MEMDIR}/decisions.yaml:{line}:" in result.output or f'"line": {line}' in result.output
    assert words in result.output
    assert path.read_bytes() == before
    assert not (loa.root / "PWNED").exists() and not Path("PWNED").exists()
    if command[0] == "list":
        assert "MEM-20260101-001" in result.stdout or "malformed" in str(broken)


def test_list_shows_valid_entries_of_other_files(broken: tuple[Path, int, str, bytes], loa: Cli) -> None:
    (loa.root / MEMDIR / "facts.yaml").write_text(
        "- id: MEM-20260103-001\n  category: fact\n  content: Facts still list\n  confidence: 0.9\n"
        "  source: {session_id: s, timestamp: '2026-01-03T00:00:00Z'}\n")
    result = loa("list")
    assert result.exit_code == 1
    assert "Facts still list" in result.stdout
