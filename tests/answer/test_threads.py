"""``why``: decision threads come back whole and in time order; negative results answer "why not X"."""

from __future__ import annotations

import json
from typing import Any

import pytest

from loa_memory.answer.negative import is_negative_question, subject_words
from loa_memory.answer.threads import all_threads
from loa_memory.store import load_config
from loa_memory.store.load import load_grimoire
from tests.fixtures import MEMDIR, Cli, write


def add(loa: Cli, memory_id: str, summary: str, day: str, *, category: str = "decision",
        supersedes: str | None = None, **fields: Any) -> None:
    entry = {"id": memory_id, "category": category, "summary": summary, "content": fields.pop("content", summary),
             "confidence": 0.95, "source": {"session_id": f"s-{day}", "timestamp": f"2026-{day}T10:00:00Z"},
             "ttl": "permanent", **fields}
    args = ("supersede", supersedes) if supersedes else ("add",)
    result = loa(*args, "--from-json", "-", input=json.dumps(entry))
    assert result.exit_code == 0, result.output


@pytest.fixture
def sessions(loa: Cli) -> Cli:
    """Three decisions about session storage over three months, plus an unrelated one."""
    add(loa, "MEM-20260105-001", "Keep user sessions in process memory", "01-05", thread="session-store",
        rationale="a single server; the simplest thing")
    add(loa, "MEM-20260305-001", "Keep user sessions in PostgreSQL", "03-05", supersedes="MEM-20260105-001",
        rationale="three servers now share sessions; PostgreSQL is already there",
        alternatives=[{"option": "Redis", "rejected_because": "one more service to run and back up"}])
    add(loa, "MEM-20260601-001", "Move user sessions to signed cookies", "06-01",
        links=[{"to": "MEM-20260305-001", "relation": "thread"}], rationale="no shared state between servers")
    add(loa, "MEM-20260110-001", "Version the API in the URL path", "01-10", rationale="visible in access logs")
    return loa


def test_a_thread_is_returned_whole_in_time_order(sessions: Cli) -> None:
    data = sessions.json("why", "why do we keep sessions in signed cookies")
    (thread,) = data["threads"]
    assert thread["name"] == "session-store"
    assert [(m["id"], m["status"], m["date"]) for m in thread["members"]] == [
        ("MEM-20260105-001", "superseded", "2026-01-05"), ("MEM-20260305-001", "active", "2026-03-05"),
        ("MEM-20260601-001", "active", "2026-06-01")]
    ids = [r["id"] for r in data["results"]]
    assert set(ids) >= {"MEM-20260105-001", "MEM-20260305-001", "MEM-20260601-001"}
    assert "MEM-20260110-001" not in ids
    kinds = {r["id"]: {reason["kind"] for reason in r["reasons"]} for r in data["results"]}
    assert "thread" in kinds["MEM-20260105-001"]
    text = sessions("why", "why do we keep sessions in signed cookies").stdout
    assert ("Thread session-store (3 entries, oldest first):\n"
            "  2026-01-05 MEM-20260105-001 decision (superseded): Keep user sessions in process memory — a single "
            "server; the simplest thing\n"
            "  2026-03-05 MEM-20260305-001 decision (active): Keep user sessions in PostgreSQL — three servers now "
            "share sessions; PostgreSQL is already there\n"
            "  2026-06-01 MEM-20260601-001 decision (active): Move user sessions to signed cookies — no shared "
            "state between servers\n") in text


def test_any_member_brings_the_thread_also_in_path_mode(sessions: Cli) -> None:
    write(sessions.root, "src/sessions.py", "STORE = 'cookie'\n")
    add(sessions, "MEM-20260602-001", "Session cookies are signed with a rotating key", "06-02",
        category="fact", thread="session-store", artifacts=["src/sessions.py"])
    data = sessions.json("why", "src/sessions.py")
    (thread,) = data["threads"]
    assert [m["id"] for m in thread["members"]] == ["MEM-20260105-001", "MEM-20260305-001", "MEM-20260601-001",
                                                    "MEM-20260602-001"]
    assert [r["id"] for r in data["results"]][:1] == ["MEM-20260305-001"]  # decisions first, then the fact


def test_a_plain_supersede_chain_is_not_a_thread(loa: Cli) -> None:
    add(loa, "MEM-20260105-001", "Use SQLite", "01-05")
    add(loa, "MEM-20260201-001", "Use PostgreSQL", "02-01", supersedes="MEM-20260105-001")
    assert all_threads(load_grimoire(load_config(loa.root))) == []
    assert loa.json("why", "why postgresql")["threads"] == []


@pytest.fixture
def queue(loa: Cli) -> Cli:
    add(loa, "MEM-20260201-001", "Queue background jobs in a PostgreSQL table", "02-01",
        rationale="transactional enqueue with the data it belongs to",
        alternatives=[{"option": "RabbitMQ", "rejected_because": "another service to operate"}])
    add(loa, "MEM-20260115-001", "Redis job queue lost jobs on every restart", "01-15", category="learning",
        content="The Redis-backed queue dropped jobs whenever the container restarted.",
        attempted="Redis as the job queue (RQ)", failure_reason="our hosting gives Redis no persistence, so "
        "jobs were lost on every restart", led_to="MEM-20260201-001")
    add(loa, "MEM-20260110-001", "Cache rendered pages in Redis for five minutes", "01-10", category="fact",
        content="Rendered pages are cached in Redis with a five minute TTL.")
    add(loa, "MEM-20260120-001", "Background jobs must be idempotent", "01-20", category="fact")
    return loa


def test_a_negative_result_answers_why_not(queue: Cli) -> None:
    data = queue.json("why", "why didn't we use redis for the job queue")
    first = data["results"][0]
    assert first["id"] == "MEM-20260115-001"
    assert first["negative"] == {"attempted": "Redis as the job queue (RQ)",
                                 "failure_reason": "our hosting gives Redis no persistence, so jobs were lost on "
                                                   "every restart",
                                 "led_to": "MEM-20260201-001",
                                 "led_to_summary": "Queue background jobs in a PostgreSQL table"}
    assert any(r["kind"] == "negative" for r in first["reasons"])
    text = queue("why", "why didn't we use redis for the job queue").stdout
    assert ("Learning MEM-20260115-001 (active): Redis job queue lost jobs on every restart\n"
            "  Tried: Redis as the job queue (RQ) — failed: our hosting gives Redis no persistence, so jobs were lost "
            "on every restart\n"
            "  Led to: MEM-20260201-001: Queue background jobs in a PostgreSQL table\n") in text


def test_a_rejected_alternative_answers_why_not(queue: Cli) -> None:
    data = queue.json("why", "why not RabbitMQ?")
    first = data["results"][0]
    assert first["id"] == "MEM-20260201-001"
    assert {"kind": "alternative", "text": "rejected alternative RabbitMQ: another service to operate",
            "option": "RabbitMQ"} in first["reasons"]


def test_an_ordinary_question_is_unchanged(queue: Cli) -> None:
    data = queue.json("why", "how long are rendered pages cached")
    assert all(reason["kind"] == "search" for r in data["results"] for reason in r["reasons"])


@pytest.mark.parametrize(("question", "negative", "words"), [
    ("why didn't we use redis", True, ["redis"]),
    ("Why not the other way around?", True, []),
    ("why did we choose Kafka instead of RabbitMQ", True, ["kafka", "rabbitmq"]),
    ("what did we try before postgres", True, ["postgres"]),
    ("why do we use PostgreSQL", False, ["postgresql"]),
    ("why don’t we cache sessions", True, ["cache", "sessions"]),
])
def test_negative_questions_and_their_subject(question: str, negative: bool, words: list[str]) -> None:
    assert is_negative_question(question) is negative
    assert subject_words(question) == words


def test_add_writes_negative_result_and_thread_fields(loa: Cli) -> None:
    assert loa("add", "decision", "Queue jobs in PostgreSQL", "--confidence", "0.95", "--thread",
               "Job Queue").exit_code == 0
    decision = loa.json("list")["entries"][0]["id"]
    result = loa.json("add", "learning", "Redis lost our jobs", "--attempted", "Redis as the job queue",
                      "--failure-reason", "no persistence", "--led-to", decision, "--thread", "job-queue")
    entry = result["entry"]
    assert (entry["attempted"], entry["failure_reason"], entry["led_to"], entry["thread"], entry["ttl"]) == (
        "Redis as the job queue", "no persistence", decision, "job-queue", "permanent")  # learnings: 90d otherwise
    assert loa.json("show", decision)["entry"]["thread"] == "job-queue"  # normalised like a tag
    text = (loa.root / MEMDIR / "learnings.yaml").read_text()
    assert "  thread: job-queue\n" in text and f"  led_to: {decision}\n" in text
    missing = loa("add", "learning", "x", "--led-to", "MEM-20990101-001")
    assert missing.exit_code == 1 and "led_to names MEM-20990101-001, which is not in the grimoire" in missing.stderr
    result = loa("supersede", decision, "Queue jobs in PostgreSQL with SKIP LOCKED", "--confidence", "0.95")
    assert result.exit_code == 0
    newest = next(e for e in loa.json("list")["entries"] if e["entry"].get("supersedes") == decision)
    assert newest["entry"]["thread"] == "job-queue"  # a successor stays in its thread
    assert loa("lint", "--strict").exit_code == 0
