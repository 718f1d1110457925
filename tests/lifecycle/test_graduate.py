"""``graduate``: eligibility from fired sessions and effectiveness, proposals that write nothing, procedures and
lint rule stubs with a one-line pointer on the cue, meta-cues for a domain of corrections."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import referencing

from loa_memory.lifecycle.usage import record_recall
from loa_memory.search.embed import minilm
from loa_memory.store import load_config
from tests.fixtures import MEMDIR, Cli, git, write

SCHEMAS = Path(__file__).resolve().parents[2] / "loa_memory" / "schemas"
CUE = "MEM-20260105-001"
needs_model = pytest.mark.skipif(not minilm.is_available(), reason="MiniLM weights not installed")


def validate_output(data: Any) -> None:
    """``data`` follows schemas/output/graduate.schema.json."""
    memory = json.loads((SCHEMAS / "memory.schema.json").read_text())
    schema = json.loads((SCHEMAS / "output" / "graduate.schema.json").read_text())
    registry = referencing.Registry().with_resource(memory["$id"], referencing.Resource.from_contents(memory))
    jsonschema.Draft202012Validator(schema, registry=registry).validate(data)


def add_cue(loa: Cli, memory_id: str = CUE, **extra: Any) -> None:
    entry = {"id": memory_id, "category": "correction", "summary": "utcnow gave naive datetimes",
             "content": "datetime.utcnow() returned a naive datetime and the nightly report shifted by an hour.",
             "trigger": "call `datetime.utcnow()` to get the current time", "lesson": "use datetime.now(UTC)",
             "confidence": 0.9, "tags": ["datetime"],
             "source": {"session_id": "s0", "timestamp": "2026-01-05T10:00:00Z"}, **extra}
    assert loa("add", "--from-json", "-", input=json.dumps(entry)).exit_code == 0


def fire(loa: Cli, monkeypatch: pytest.MonkeyPatch, sessions: int, memory_id: str = CUE) -> None:
    config = load_config(loa.root)
    for number in range(sessions):
        monkeypatch.setenv("LOA_SESSION_ID", f"session-{number}")
        record_recall(config, [memory_id], query="get the current time")
    monkeypatch.delenv("LOA_SESSION_ID")


def follow(loa: Cli, times: int, memory_id: str = CUE) -> None:
    for _ in range(times):
        assert loa("feedback", memory_id, "--outcome", "success").exit_code == 0
    assert loa("score").exit_code == 0


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and ".git" not in p.parts and ".loa" not in p.parts}


@pytest.fixture
def eligible(loa: Cli, monkeypatch: pytest.MonkeyPatch) -> Cli:
    write(loa.root, "src/clock.py", "from datetime import datetime\nNOW = datetime.utcnow()\n")
    add_cue(loa, artifacts=["src/clock.py"])
    fire(loa, monkeypatch, 3)
    follow(loa, 3)
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-q", "-m", "seed")
    return loa


def test_without_yes_it_proposes_and_changes_nothing(eligible: Cli) -> None:
    before = snapshot(eligible.root)
    data = eligible.json("graduate", CUE)
    validate_output(data)
    assert data["applied"] is False and data["as"] == "procedure"
    assert data["eligibility"] == {"eligible": True, "fired_sessions": 3, "applications": 3, "successes": 3,
                                   "score": 100, "min_sessions": 3, "min_successes": 3, "min_score": 80,
                                   "shortfalls": []}
    kinds = [(w["kind"], w["path"]) for w in data["writes"]]
    assert kinds == [("procedure", f"{MEMDIR}/procedures/convention-use-datetime-now-utc.md"),
                     ("patch", f"{MEMDIR}/corrections.yaml")]
    assert data["writes"][1]["text"] == f"graduated_to: {data['pointer']}"
    text = eligible("graduate", CUE)
    assert text.exit_code == 0 and text.stdout.endswith("nothing was written; run again with --yes to write it\n")
    assert eligible("graduate", CUE, "--yes", "--dry-run").exit_code == 0
    assert snapshot(eligible.root) == before
    assert git(eligible.root, "status", "--porcelain") == ""


def test_yes_writes_the_procedure_and_a_one_line_pointer(eligible: Cli) -> None:
    proposal = eligible.json("graduate", CUE)
    data = eligible.json("graduate", CUE, "--yes")
    validate_output(data)
    assert data["applied"] is True and data["pointer"] == proposal["pointer"]
    procedure_path = eligible.root / data["writes"][0]["path"]
    assert procedure_path.read_text() == data["writes"][0]["text"]
    # the proposal is the same text but for the second it was computed in (a slow machine crosses one)
    assert _unstamped(procedure_path.read_text()) == _unstamped(proposal["writes"][0]["text"])
    diff = git(eligible.root, "diff", "-U0", "--", f"{MEMDIR}/corrections.yaml")
    added = [line for line in diff.splitlines() if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))]
    assert added == [f"+  graduated_to: {data['pointer']}"]
    shown = eligible.json("show", data["pointer"])
    assert shown["entry"]["category"] == "procedure"
    assert shown["entry"]["links"] == [{"to": CUE, "relation": "derived_from"}]
    assert "This convention graduated from correction MEM-20260105-001 after it fired in 3 sessions" \
        in shown["entry"]["content"]
    assert eligible("lint", "--strict").exit_code == 0
    again = eligible("graduate", CUE)
    assert again.exit_code == 2 and f"already graduated to {data['pointer']}" in again.stderr


def test_lint_rule_stub_is_a_working_check(eligible: Cli) -> None:
    data = eligible.json("graduate", CUE, "--as", "lint-rule", "--to", "tools/lint/no_utcnow.py", "--yes")
    validate_output(data)
    assert data["pointer"] == "tools/lint/no_utcnow.py"
    stub = eligible.root / "tools/lint/no_utcnow.py"
    run = subprocess.run([sys.executable, str(stub)], cwd=eligible.root, capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stdout.startswith("src/clock.py:2: use datetime.now(UTC) (graduated from MEM-20260105-001")
    write(eligible.root, "src/clock.py", "from datetime import UTC, datetime\nNOW = datetime.now(UTC)\n")
    assert subprocess.run([sys.executable, str(stub)], cwd=eligible.root, capture_output=True).returncode == 0
    corrections = (eligible.root / MEMDIR / "corrections.yaml").read_text()
    assert corrections.endswith("  graduated_to: tools/lint/no_utcnow.py\n")


def test_semgrep_stub_seeds_its_pattern_from_the_trigger(eligible: Cli) -> None:
    data = eligible.json("graduate", CUE, "--as", "lint-rule", "--to", "rules/no-utcnow.yaml")
    text = data["writes"][0]["text"]
    assert text.startswith("# Lint rule stub graduated from loa-memory correction MEM-20260105-001")
    from loa_memory.store import yamlio

    (rule,) = yamlio.load_text(text)["rules"]
    assert rule["pattern"] == "datetime.utcnow()" and rule["languages"] == ["python"]
    assert rule["metadata"] == {"loa-memory": CUE, "trigger": "call `datetime.utcnow()` to get the current time"}
    assert not (eligible.root / "rules").exists()


@pytest.mark.parametrize(("args", "code", "message"), [
    (("--as", "lint-rule"), 2, "--as lint-rule needs --to PATH"),
    (("--as", "lint-rule", "--to", "rules/x.txt"), 2, "cannot tell which linter rules/x.txt is for"),
    (("--as", "lint-rule", "--to", "src/clock.py"), 2, "src/clock.py already exists"),
    (("--as", "lint-rule", "--to", "../outside.py"), 2, "is outside the repository"),
    (("--as", "lint-rule", "--to", f"{MEMDIR}/x.py"), 2, "inside a memory folder"),
])
def test_bad_stub_paths_are_refused(eligible: Cli, args: tuple[str, ...], code: int, message: str) -> None:
    before = snapshot(eligible.root)
    result = eligible("graduate", CUE, *args, "--yes")
    assert (result.exit_code, message in result.stderr) == (code, True), result.output
    assert snapshot(eligible.root) == before


def test_ineligible_cue_is_refused_with_reasons_unless_forced(loa: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    add_cue(loa)
    fire(loa, monkeypatch, 1)
    follow(loa, 1)
    before = snapshot(loa.root)
    refused = loa("graduate", CUE, "--yes")
    assert refused.exit_code == 1
    assert "MEM-20260105-001 is not ready to graduate: fired in 1 of the 3 sessions needed" in refused.stderr
    assert "1 recorded successes, 3 needed" in refused.stderr and "--force" in refused.stderr
    error = json.loads(loa("graduate", CUE, "--format", "json").stdout)["error"]
    assert error["code"] == "not-eligible"
    assert snapshot(loa.root) == before
    forced = loa.json("graduate", CUE, "--force", "--yes")
    validate_output(forced)
    assert forced["applied"] and forced["forced"] and not forced["eligibility"]["eligible"]
    assert len(forced["eligibility"]["shortfalls"]) == 2
    assert "graduated from correction MEM-20260105-001 by decision (--force) before meeting the thresholds: it had " \
           "fired in 1 sessions (1 successes in 1 applications, score 100)" in forced["procedure"]["content"]


def test_thresholds_come_from_the_config(loa: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    add_cue(loa)
    fire(loa, monkeypatch, 1)
    follow(loa, 1)
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("  lifecycle:\n", "  lifecycle:\n    graduate_min_sessions: 1\n"
                                                 "    graduate_min_successes: 1\n    graduate_min_score: 100\n"))
    assert loa.json("graduate", CUE)["eligibility"]["eligible"] is True
    config.write_text(config.read_text().replace("graduate_min_score: 100", "graduate_min_score: 101"))
    result = loa("graduate", CUE)
    assert result.exit_code == 2 and "graduate_min_score" in result.stderr


def test_only_active_cues_graduate(loa: Cli) -> None:
    assert loa("add", "fact", "The gateway times out after 30 seconds").exit_code == 0
    fact = loa.json("list")["entries"][0]["id"]
    result = loa("graduate", fact)
    assert result.exit_code == 2 and "only corrections and preferences graduate" in result.stderr
    add_cue(loa)
    assert loa("supersede", CUE, "use datetime.now(UTC) everywhere", "--trigger", "get the current time",
               "--lesson", "use datetime.now(UTC)").exit_code == 0
    result = loa("graduate", CUE)
    assert result.exit_code == 2 and "is superseded; only active cues graduate" in result.stderr
    assert loa("graduate").exit_code == 2 and loa("graduate", "MEM-20990101-001").exit_code == 1


def test_graduated_cue_fires_as_a_pointer(eligible: Cli) -> None:
    pointer = eligible.json("graduate", CUE, "--yes")["pointer"]
    brief = eligible.json("session", "start")
    (line,) = [c["text"] for c in brief["corrections"]]
    assert line == f"BEFORE call `datetime.utcnow()` to get the current time: follow the convention in {pointer} " \
                   f"({CUE}, graduated)"


@needs_model
def test_recall_logs_a_fired_event_per_cue_with_the_session(loa: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    add_cue(loa)
    monkeypatch.setenv("LOA_SESSION_ID", "sess-a")
    data = loa.json("recall", "get the current time with datetime.utcnow in the scheduler")
    assert [c["id"] for c in data["corrections"]] == [CUE]
    events = [json.loads(line) for line in (loa.root / ".loa" / "usage.jsonl").read_text().splitlines()]
    assert [(e["type"], e.get("memory_id"), e["session_id"]) for e in events] == [
        ("recall", None, "sess-a"), ("fired", CUE, "sess-a")]
    assert loa("score").exit_code == 0
    assert "effectiveness" not in loa.json("show", CUE)["entry"]  # firing is not an application


META = [("Naive datetimes from the CSV importer shifted invoices by an hour", "parse dates from CSV imports",
         "attach the account's time zone before converting to UTC"),
        ("Comparing a naive and an aware datetime crashed the scheduler", "compare timestamps in the scheduler",
         "make both datetimes timezone-aware first"),
        ("Daylight saving moved the nightly job", "schedule a job at a local clock time",
         "store schedules in UTC and convert for display only"),
        ("Dropping a column broke the reporting views", "drop a column from a table",
         "check the reporting views first")]


def test_meta_cue_for_three_corrections_in_one_domain(loa: Cli) -> None:
    for content, trigger, lesson in META:
        assert loa("add", "correction", content, "--trigger", trigger, "--lesson", lesson).exit_code == 0
    ids = [e["id"] for e in loa.json("list")["entries"]]
    before = snapshot(loa.root)
    proposal = loa.json("graduate", "--meta")
    validate_output(proposal)
    assert snapshot(loa.root) == before
    (domain,) = proposal["domains"]
    assert (domain["domain"], domain["basis"], domain["corrections"]) == ("datetime", "action", ids[:3])
    assert domain["proposal"]["summary"] == "Datetime handling has caused bugs here three times"
    assert domain["proposal"]["lesson"].startswith("datetime handling has caused bugs here three times: attach the")
    assert domain["proposal"]["links"] == [{"to": i, "relation": "derived_from"} for i in ids[:3]]
    written = loa.json("graduate", "--meta", "--yes")
    validate_output(written)
    meta_id = written["written"][0]["id"]
    assert loa.json("show", meta_id)["entry"]["tags"] == ["datetime", "meta-cue"]
    assert loa.json("graduate", "--meta")["domains"][0]["covered_by"] == meta_id
    assert loa("lint", "--strict").exit_code == 0
    # a fourth datetime correction: the domain grew, the new meta-cue supersedes the old one
    assert loa("add", "correction", "A cron expression in local time skipped a run", "--trigger",
               "write a cron schedule in the local time zone", "--lesson", "write cron schedules in UTC").exit_code == 0
    grown = loa.json("graduate", "--meta", "--yes")
    (domain,) = grown["domains"]
    assert domain["supersedes"] == meta_id and len(domain["corrections"]) == 4
    assert domain["proposal"]["summary"] == "Datetime handling has caused bugs here four times"
    assert loa.json("show", meta_id)["status"] == "superseded"


def test_meta_needs_enough_corrections_and_no_id(loa: Cli) -> None:
    content, trigger, lesson = META[0]
    assert loa("add", "correction", content, "--trigger", trigger, "--lesson", lesson).exit_code == 0
    assert loa("graduate", "--meta").stdout == "no domain has 3 or more active corrections\n"
    assert loa("graduate", "--meta", CUE).exit_code == 2


@needs_model
def test_meta_cue_for_triggers_close_in_meaning(loa: Cli) -> None:
    for trigger in ("rename a public function of the SDK", "rename an exported method of the SDK client",
                    "change the signature of a public SDK function"):
        assert loa("add", "correction", f"Broke downstream users: {trigger}", "--trigger", trigger,
                   "--lesson", "deprecate first and keep the old name for one release").exit_code == 0
    (domain,) = loa.json("graduate", "--meta")["domains"]
    assert (domain["basis"], domain["label"], len(domain["corrections"])) == ("similar", "sdk", 3)
    assert domain["proposal"]["summary"] == "Sdk has caused bugs here three times"


def _unstamped(text: str) -> str:
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "<time>", text)
