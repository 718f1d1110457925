"""The cue lifecycle rules: stale-cue (code gone), unfired-cue (usage log), unresolved-contradiction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loa_memory.lint.coderefs import code_refs, is_code_name, is_path_like
from loa_memory.model import Entry
from tests.fixtures import MEMDIR, Cli, git, write

SOURCE = {"session_id": "s1", "timestamp": "2026-01-05T10:00:00Z"}


def add(loa: Cli, memory_id: str, **fields: Any) -> None:
    entry = {"id": memory_id, "category": "correction", "content": f"what went wrong ({memory_id})",
             "trigger": "change the billing code", "lesson": "run the billing tests", "confidence": 0.9,
             "source": SOURCE, **fields}
    result = loa("add", "--from-json", "-", input=json.dumps(entry))
    assert result.exit_code == 0, result.output


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def findings(loa: Cli, rule: str) -> list[dict[str, Any]]:
    return [f for f in loa.json("lint")["findings"] if f["rule"] == rule]


@pytest.mark.parametrize(("token", "kind"), [
    ("src/billing/dates.py", "path"), ("dates.py", "path"), ("src/", "path"), ("parse_date", "name"),
    ("UserModel.save()", "name"), ("fetchRows", "name"), ("Order::total", "name"), ("HTTPServer", "name"),
    ("migrate", None), ("uv add", None), ("CREATE INDEX", None), ("id", None), ("-rf", None), ("Redis", None),
])
def test_what_counts_as_code(token: str, kind: str | None) -> None:
    assert ("path" if is_path_like(token) else "name" if is_code_name(token) else None) == kind


def test_code_refs_of_a_cue() -> None:
    entry = Entry({"id": "MEM-20260105-001", "category": "correction", "artifacts": ["src/a.py:10-20", "./src/b/",
                                                                                   "/etc/passwd", "../x.py"],
                   "trigger": "call `parse_date` or `Order.total()` in `src/c.py`, or run `uv add`"}, "loa", "c", 1)
    refs = code_refs(entry)
    assert refs.artifacts == ("src/a.py", "src/b")
    assert refs.paths == ("src/c.py",)
    assert refs.names == ("parse_date", "Order.total")


def test_stale_cue_when_its_code_is_gone(loa: Cli) -> None:
    root = loa.root
    write(root, "src/billing/dates.py", "def parse_legacy_date(text):\n    return text\n")
    write(root, "src/billing/money.py", "def to_cents(amount):\n    return round(amount * 100)\n")
    commit(root, "billing code")
    add(loa, "MEM-20260105-001", trigger="change `parse_legacy_date` in the billing module",
        artifacts=["src/billing/dates.py"])
    add(loa, "MEM-20260105-002", trigger="call `requests.get` or `to_cents` without a timeout",
        artifacts=["src/billing/"])
    add(loa, "MEM-20260105-003", trigger="touch `src/billing/*.py`", artifacts=["src/**/money.py"])
    commit(root, "cues")
    assert findings(loa, "stale-cue") == []

    git(root, "rm", "-q", "src/billing/dates.py")
    commit(root, "drop the legacy parser")
    (stale,) = findings(loa, "stale-cue")
    assert (stale["entry_id"], stale["line"]) == ("MEM-20260105-001", 13)  # its artifacts
    assert stale["message"].startswith("stale cue: src/billing/dates.py no longer exists; `parse_legacy_date` was "
                                       "in the code at ")
    # `requests.get` was never in this code (an external API): never flagged; the cache answers the second run
    cache = root / ".loa" / "cache" / "code-refs.marshal"
    assert cache.exists()
    assert findings(loa, "stale-cue") == [stale]

    write(root, "src/billing/money.py", "def amount_in_cents(amount):\n    return round(amount * 100)\n")
    assert len(findings(loa, "stale-cue")) == 1  # the index decides: an unstaged edit is not seen yet
    git(root, "add", "-A")
    stale_names = {f["entry_id"]: f["message"] for f in findings(loa, "stale-cue")}
    assert "`to_cents` was in the code at" in stale_names["MEM-20260105-002"]
    assert "MEM-20260105-003" not in stale_names
    write(root, "src/billing/cents.py", "def to_cents(amount):\n    return amount\n")
    git(root, "add", "-A")  # only the newly staged file is grepped again
    assert [f["entry_id"] for f in findings(loa, "stale-cue")] == ["MEM-20260105-001"]
    cache.unlink()  # the cache only saves time: the answer from scratch is the same
    assert [f["entry_id"] for f in findings(loa, "stale-cue")] == ["MEM-20260105-001"]


def test_stale_cue_is_quiet_without_history_and_for_graduated_cues(loa: Cli) -> None:
    add(loa, "MEM-20260105-001", trigger="change `parse_legacy_date`")  # never committed: no recorded code
    add(loa, "MEM-20260105-002", artifacts=["src/gone.py"], graduated_to="tools/lint/x.py")
    assert findings(loa, "stale-cue") == []
    add(loa, "MEM-20260105-003", category="preference", content="keep money in cents", context="edit `src/m.py`")
    (stale,) = findings(loa, "stale-cue")
    assert stale["entry_id"] == "MEM-20260105-003" and "src/m.py no longer exists" in stale["message"]


def usage(root: Path, events: list[dict[str, Any]]) -> None:
    lines = [json.dumps({"event_id": f"e{n}", **event}) for n, event in enumerate(events)]
    write(root, ".loa/usage.jsonl", "\n".join(lines) + "\n")


def recalls(count: int, start: int = 1, day: str = "2026-02") -> list[dict[str, Any]]:
    return [{"type": "recall", "session_id": f"s{n}", "at": f"{day}-{n:02d}T10:00:00Z"} for n in range(start,
                                                                                                   start + count)]


def test_unfired_cue_counts_sessions_since_it_was_written(loa: Cli) -> None:
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("memory_schema:\n", "memory_schema:\n  lint:\n"
                                                 "    stale_cue_sessions: 3\n"))
    add(loa, "MEM-20260105-001")
    add(loa, "MEM-20260105-002")
    add(loa, "MEM-20260105-003", source={"session_id": "s9", "timestamp": "2026-02-03T00:00:00Z"})
    assert findings(loa, "unfired-cue") == []  # no usage log (a fresh clone): nothing to say
    usage(loa.root, recalls(2))
    assert findings(loa, "unfired-cue") == []  # two sessions are not enough
    usage(loa.root, [*recalls(4), {"type": "fired", "memory_id": "MEM-20260105-002", "session_id": "s3",
                                   "at": "2026-02-03T10:00:00Z"}])
    (unfired,) = findings(loa, "unfired-cue")
    assert unfired["entry_id"] == "MEM-20260105-001"
    assert unfired["message"].startswith("has not fired in the last 3 sessions that ran recall (since 2026-02-02)")
    assert unfired["severity"] == "warning"


def test_contradiction_surfaces_until_one_side_is_superseded(loa: Cli) -> None:
    add(loa, "MEM-20260105-001", category="decision", summary="Retry failed webhooks forever",
        content="Retry webhook deliveries until they succeed.", confidence=0.95)
    add(loa, "MEM-20260105-002", category="decision", summary="Give up on a webhook after 24 hours",
        content="Stop retrying webhook deliveries after 24 hours and alert.", confidence=0.95,
        links=[{"to": "MEM-20260105-001", "relation": "contradicts"}])
    (finding,) = findings(loa, "unresolved-contradiction")
    assert finding["entry_id"] == "MEM-20260105-002"
    assert finding["message"] == ('contradicts MEM-20260105-001 ("Retry failed webhooks forever") and both are '
                                  "active: `loa-memory supersede` the one that no longer holds")

    data = loa.json("recall", "retry failed webhook deliveries")
    assert data["contradictions"] == [{
        "a": "MEM-20260105-002", "b": "MEM-20260105-001", "a_says": "Give up on a webhook after 24 hours",
        "b_says": "Retry failed webhooks forever", "note": None,
        "resolve": "loa-memory supersede MEM-20260105-001 ... (or MEM-20260105-002)"}]
    markdown = loa("recall", "retry failed webhook deliveries").stdout
    assert ('## Conflicting memories\n- conflicting memories: MEM-20260105-002 says "Give up on a webhook after 24 '
            'hours"; MEM-20260105-001 says "Retry failed webhooks forever"; resolve with `loa-memory supersede`') \
        in markdown
    brief = loa("session", "start").stdout
    assert "## Conflicting memories\n- conflicting memories: MEM-20260105-002 says" in brief
    assert loa.json("session", "start")["contradictions"][0]["b"] == "MEM-20260105-001"

    assert loa("supersede", "MEM-20260105-001", "Retry webhooks for 24 hours, then alert",
               "--confidence", "0.95").exit_code == 0
    assert findings(loa, "unresolved-contradiction") == []
    assert loa.json("recall", "retry failed webhook deliveries")["contradictions"] == []
    assert "Conflicting" not in loa("session", "start").stdout


def test_lint_recall_why_and_session_start_change_no_file(loa: Cli) -> None:
    """The whole cue lifecycle is read-only until a command that writes is run."""
    root = loa.root
    write(root, "src/dates.py", "def parse_legacy_date(text):\n    return text\n")
    commit(root, "code")
    add(loa, "MEM-20260105-001", trigger="change `parse_legacy_date`", artifacts=["src/dates.py"])
    add(loa, "MEM-20260105-002", category="decision", summary="Queue jobs in PostgreSQL", confidence=0.95,
        content="Jobs go to a PostgreSQL table.", thread="job-queue",
        alternatives=[{"option": "Redis", "rejected_because": "no persistence in our hosting"}],
        links=[{"to": "MEM-20260105-001", "relation": "contradicts"}])
    add(loa, "MEM-20260105-003", category="learning", summary="Redis lost queued jobs", confidence=0.8,
        content="Jobs vanished on restart.", attempted="Redis as the job queue", failure_reason="no persistence",
        led_to="MEM-20260105-002", thread="job-queue")
    usage(root, recalls(25))
    git(root, "rm", "-q", "src/dates.py")
    commit(root, "everything")
    before = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
              if p.is_file() and ".git" not in p.parts and ".loa" not in p.parts}
    rules = {f["rule"] for f in loa.json("lint")["findings"]}
    assert {"stale-cue", "unfired-cue", "unresolved-contradiction"} <= rules
    for args in (("lint",), ("lint", "--format", "sarif"), ("recall", "change the legacy date parser"),
                 ("why", "why didn't we use redis"), ("why", "src"), ("session", "start"), ("graduate", "--meta"),
                 ("stats",), ("show", "MEM-20260105-002")):
        loa(*args)
    after = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
             if p.is_file() and ".git" not in p.parts and ".loa" not in p.parts}
    assert after == before
    assert git(root, "status", "--porcelain") == ""
    assert f"{MEMDIR}/corrections.yaml" in before


@given(trigger=st.text(max_size=200), artifacts=st.lists(st.text(max_size=40), max_size=4))
@settings(max_examples=200, deadline=None)
def test_code_refs_never_escape_the_repository(trigger: str, artifacts: list[str]) -> None:
    refs = code_refs(Entry({"id": "MEM-20260105-001", "category": "correction", "trigger": trigger,
                            "artifacts": artifacts}, "loa", "c", 1))
    for path in refs.all_paths:
        assert path and not path.startswith("/") and ".." not in path.split("/")
    assert all(is_code_name(name) or is_code_name(name + "()") for name in refs.names)
