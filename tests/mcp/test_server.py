"""The MCP server driven by the SDK's own client over stdio: one real server process for the module."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import anyio
import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent

from loa_memory.mcp.server import published_schema
from loa_memory.search.embed import mpnet
from tests.fixtures import GIT_IDENTITY, MEMDIR, Cli, make_repo, write

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {"session_start", "recall", "cues_for_action", "search", "show", "why", "list", "lint", "add", "supersede",
         "feedback", "session_end"}
READ_ONLY = {"session_start", "recall", "cues_for_action", "search", "show", "why", "list", "lint"}
SECRET = "sk_live_" + "51HqLyjWDarjtT1zdp7dc9aB3dE5fG7h"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


MODEL_CACHE = str(mpnet.cache_dir().parent)  # where the user keeps the unpacked weights and built models


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository with a few memories, for the one server of this module."""
    repo = make_repo(tmp_path_factory.mktemp("mcp") / "repo")
    loa = Cli(repo)
    assert loa("init", "--layout", "lists").exit_code == 0  # written for list files: file order is add order
    assert loa("add", "decision", "Use PostgreSQL for the database layer: JSONB support and team expertise",
               "--summary", "PostgreSQL selected over SQLite", "--confidence", "0.95",
               "--alternative", "SQLite=no concurrent writers", "--artifact", "src/db/").exit_code == 0
    assert loa("add", "correction", "Dropping a column broke the nightly report", "--trigger",
               "drop a database column", "--lesson", "check the reporting views first").exit_code == 0
    return repo


@pytest.fixture(scope="module")
async def session(served: Path, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ClientSession]:
    home = tmp_path_factory.mktemp("home")
    env = {**GIT_IDENTITY, "HOME": str(home), "PYTHONPATH": str(ROOT), "LOA_AGENT": "mcp-test",
           "PATH": os.environ.get("PATH", ""), "LOA_MEMORY_BACKGROUND": "inline",  # answers equal the CLI's
           "LOA_MEMORY_MODEL_CACHE": MODEL_CACHE}
    params = StdioServerParameters(command=sys.executable, args=["-m", "loa_memory", "--root", str(served), "mcp"],
                                   env=env, cwd=str(home))
    with open(home / "server.log", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write_), ClientSession(read, write_) as client:
            await client.initialize()
            yield client


def _text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


async def _call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, _text(result)
    assert result.structured_content is not None
    schema = published_schema(tool)
    if schema is not None:
        jsonschema.validate(result.structured_content, schema)
    return result.structured_content


async def _refused(session: ClientSession, tool: str, **arguments: Any) -> CallToolResult:
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result
    assert (await session.call_tool("list", {"limit": 1})).is_error is False  # and the server keeps serving
    return result


def _memory_files(repo: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in (repo / MEMDIR).rglob("*") if p.is_file()}


@pytest.mark.anyio
async def test_lists_every_tool_with_described_typed_parameters(session: ClientSession) -> None:
    tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == TOOLS
    for name, tool in tools.items():
        assert tool.description and tool.description.strip(), name
        assert tool.input_schema["type"] == "object"
        for prop, spec in tool.input_schema["properties"].items():
            assert spec.get("description"), f"{name}.{prop} has no description"
        assert tool.annotations is not None and tool.annotations.read_only_hint is (name in READ_ONLY), name
        assert tool.output_schema == published_schema(name)
    assert tools["search"].input_schema["required"] == ["query"]
    assert set(tools["add"].input_schema["required"]) == {"category", "content"}
    assert tools["feedback"].input_schema["properties"]["outcome"]["enum"] == ["success", "failure"]


@pytest.mark.anyio
async def test_cues_for_action_fires_on_the_guarded_action_only(session: ClientSession) -> None:
    dropping = await _call(session, "cues_for_action", kind="write", paths=["migrations/0042_cleanup.py"],
                           text='def upgrade():\n    op.drop_column("invoices", "memo")\n')
    assert [c["imperative"].split(" (MEM-")[0] for c in dropping["cues"]] == [
        "BEFORE drop a database column: check the reporting views first"]
    assert dropping["classes"] == ["schema-drop"]
    adding = await _call(session, "cues_for_action", kind="write", paths=["migrations/0043_memo.py"],
                         text='def upgrade():\n    op.add_column("invoices", sa.Column("memo"))\n')
    assert adding["cues"] == []


@pytest.mark.anyio
async def test_cues_for_action_reads_an_edit_under_the_keys_of_its_file(session: ClientSession, served: Path) -> None:
    from tests.answer.test_enclosing_lines import DEPLOYMENT

    (served / "k8s").mkdir(exist_ok=True)
    (served / "k8s" / "api.yaml").write_text(DEPLOYMENT)
    liveness = await _call(session, "cues_for_action", kind="edit", paths=["k8s/api.yaml"],
                           removed="path: /livez", text="path: /health/db")
    assert "liveness-dependency" in liveness["classes"]
    readiness = await _call(session, "cues_for_action", kind="edit", paths=["k8s/api.yaml"],
                            removed="path: /ready", text="path: /health/db")
    assert "liveness-dependency" not in readiness["classes"]


@pytest.mark.anyio
async def test_search_and_recall_return_what_the_cli_prints_as_json(session: ClientSession, served: Path) -> None:
    found = await _call(session, "search", query="which database did we choose")
    assert found["results"][0]["summary"] == "PostgreSQL selected over SQLite"
    assert found == Cli(served).json("search", "which database did we choose")
    recalled = await _call(session, "recall", task="write a migration that drops the legacy_flag column")
    assert [c["imperative"].split(" (MEM-")[0] for c in recalled["corrections"]] == [
        "BEFORE drop a database column: check the reporting views first"]
    from_cli = Cli(served).json("recall", "write a migration that drops the legacy_flag column")
    assert recalled.pop("recall_id") != from_cli.pop("recall_id")  # every recall gets its own id
    assert recalled == from_cli
    result = await session.call_tool("recall", {"task": "write a migration that drops the legacy_flag column"})
    assert "## Before you start" in _text(result)  # the text is the CLI's Markdown, for a prompt
    assert {p.name for p in (await session.list_prompts()).prompts} == {"recall", "session_start"}
    prompt = await session.get_prompt("recall", {"task": "write a migration that drops the legacy_flag column"})
    same = re.compile(r"_recall [0-9a-f]+, ")  # each recall has its own id
    assert same.sub("", prompt.messages[0].content.text) == same.sub("", _text(result))  # type: ignore[union-attr]


@pytest.mark.anyio
async def test_add_is_found_by_search_and_shown_and_superseded(session: ClientSession, served: Path) -> None:
    added = await _call(session, "add", category="decision", content="Serve the API under /v2 paths; clients pin "
                        "the version in the URL", summary="URL path versioning for the public API",
                        tags=["api", "Versioning"], confidence=0.92, rationale="caches and logs see the version",
                        alternatives=[{"option": "header versioning", "rejected_because": "invisible in logs"}])
    new_id = added["id"]
    assert added["action"] == "added" and added["world"] == "loa" and added["path"] == f"{MEMDIR}/decisions.yaml"
    assert added["entry"]["tags"] == ["api", "versioning"]
    assert added["entry"]["source"]["agent"] == "mcp-test"
    assert added["entry"]["alternatives"] == [{"option": "header versioning", "rejected_because": "invisible in logs"}]
    assert Cli(served).json("show", new_id)["entry"] == added["entry"]
    found = await _call(session, "search", query="how is the API versioned")
    assert found["results"][0]["id"] == new_id

    newer = await _call(session, "supersede", old_id=new_id, content="Serve the API under /v3 paths from 2027",
                        summary="URL path versioning, now /v3")
    assert newer["supersedes"] == new_id and newer["category"] == "decision"
    shown = await _call(session, "show", memory_id=new_id)
    assert shown["status"] == "superseded"
    assert [r["id"] for r in shown["superseded_by_chain"]] == [newer["id"]]
    found = await _call(session, "search", query="how is the API versioned")
    assert found["results"][0]["id"] == newer["id"]
    again = await _refused(session, "supersede", old_id=new_id, content="a third try")
    assert again.structured_content is not None and again.structured_content["error"]["code"] == "usage"
    assert f"already superseded by {newer['id']}" in _text(again)


@pytest.mark.anyio
async def test_supersede_takes_a_list_of_ids(session: ClientSession, served: Path) -> None:
    first = await _call(session, "add", category="fact", content="The orders service retries webhooks 3 times")
    second = await _call(session, "add", category="fact", content="The billing service retries webhooks 5 times")
    merged = await _call(session, "supersede", old_id=[first["id"], second["id"]],
                         content="Every service retries webhooks 5 times, then alerts")
    assert merged["supersedes"] == [first["id"], second["id"]]
    for old in (first, second):
        assert (await _call(session, "show", memory_id=old["id"]))["status"] == "superseded"


@pytest.mark.anyio
async def test_sees_what_other_processes_wrote_meanwhile(session: ClientSession, served: Path) -> None:
    written = Cli(served).json("add", "learning", "The nightly job runs at 02:00 UTC and takes forty minutes",
                               "--summary", "Nightly job timing")
    found = await _call(session, "search", query="when does the nightly job run")
    assert found["results"][0]["id"] == written["id"]
    write(served, f"{MEMDIR}/telos/purpose.md", "---\nid: MEM-20260101-900\ncategory: telos\nsummary: Why this "
          "project exists\nsource: {session_id: s1, timestamp: '2026-01-01T00:00:00Z'}\n---\nHelp agents remember "
          "what the team decided.\n")
    telos = await session.read_resource("loa://telos")
    assert "# Why this project exists" in telos.contents[0].text
    assert "Help agents remember" in telos.contents[0].text
    world = await session.read_resource("loa://telos/loa")
    assert world.contents[0].text == telos.contents[0].text
    brief = await _call(session, "session_start")
    assert [t["id"] for t in brief["telos"]] == ["MEM-20260101-900"]


@pytest.mark.anyio
async def test_resources_list_the_index_and_one_memory(session: ClientSession, served: Path) -> None:
    assert {str(r.uri) for r in (await session.list_resources()).resources} == {"loa://index", "loa://telos"}
    templates = {t.uri_template for t in (await session.list_resource_templates()).resource_templates}
    assert templates == {"loa://telos/{world}", "loa://memory/{memory_id}"}
    listing = Cli(served).json("list")
    index = (await session.read_resource("loa://index")).contents[0].text
    assert all(e["id"] in index for e in listing["entries"])
    assert index.splitlines()[-1] == f"{listing['count']} memories"
    first = listing["entries"][0]
    shown = (await session.read_resource(f"loa://memory/{first['id']}")).contents[0].text
    assert shown.startswith(f"{first['id']} ({first['category']}, active)")
    with pytest.raises(MCPError, match="no memory with id"):
        await session.read_resource("loa://memory/MEM-20000101-001")
    with pytest.raises(MCPError, match="unknown world"):
        await session.read_resource("loa://telos/nowhere")
    assert (await session.read_resource("loa://index")).contents[0].text == index


@pytest.mark.anyio
async def test_feedback_sessions_why_and_lint(session: ClientSession, served: Path) -> None:
    listing = await _call(session, "list", categories=["decision"])
    decision = listing["entries"][0]
    assert decision["summary"] == "PostgreSQL selected over SQLite"
    fed = await _call(session, "feedback", memory_id=decision["id"], outcome="success", note="picked the right DB")
    assert fed["memory_id"] == decision["id"] and fed["outcome"] == "success"
    assert json.loads((served / ".loa" / "usage.jsonl").read_text().splitlines()[-1])["event_id"] == fed["event_id"]

    ended = await _call(session, "session_end", summary="Versioned the public API", tags=["api"])
    assert ended["category"] == "episode" and ended["entry"]["action_types"] == ["session-summary"]
    brief = await _call(session, "session_start", budget=4000)
    assert ended["id"] in [e["id"] for e in brief["episodes"]]
    prompt = await session.get_prompt("session_start")
    assert "# Session brief" in prompt.messages[0].content.text  # type: ignore[union-attr]

    write(served, "src/db/schema.sql", "create table users (id int);\n")
    why = await _call(session, "why", target="src/db/schema.sql")
    assert [r["id"] for r in why["results"]] == [decision["id"]]
    linted = await _call(session, "lint")
    assert linted == Cli(served).json("lint") and linted["counts"]["error"] == 0
    result = await session.call_tool("lint", {})
    assert "0 error(s)" in _text(result)


@pytest.mark.anyio
@pytest.mark.parametrize(("tool", "arguments", "expected"), [
    ("search", {"query": "x", "k": "many"}, "k\n  Input should be a valid integer"),
    ("search", {"k": 3}, "query\n  Field required"),
    ("recall", {"task": "x", "budget": 10}, "budget\n  Input should be greater than or equal to 50"),
    ("feedback", {"memory_id": "MEM-20260101-001", "outcome": "maybe"}, "outcome\n  Input should be 'success'"),
    ("add", {"category": "fact", "content": "x", "confidence": 2}, "confidence\n  Input should be less than"),
    ("add", {"category": "fact"}, "content\n  Field required"),
    ("no_such_tool", {}, "Unknown tool"),
])
async def test_bad_arguments_are_tool_errors(session: ClientSession, tool: str, arguments: dict[str, Any],
                                             expected: str) -> None:
    result = await _refused(session, tool, **arguments)
    assert expected in _text(result)


@pytest.mark.anyio
@pytest.mark.parametrize(("tool", "arguments", "code", "expected"), [
    ("show", {"memory_id": "MEM-20000101-001"}, "not-found", "no memory with id 'MEM-20000101-001'"),
    ("feedback", {"memory_id": "MEM-20000101-001", "outcome": "failure"}, "not-found", "no memory with id"),
    ("add", {"category": "rumour", "content": "x"}, "config", "unknown category 'rumour'"),
    ("add", {"category": "fact", "content": "x", "world": "nowhere"}, "config", "unknown world 'nowhere'"),
    ("add", {"category": "fact", "content": "x", "fields": {"id": "MEM-1"}}, "invalid-entry", "is not of the form"),
    ("search", {"query": "   "}, "usage", "the query is empty"),
    ("lint", {"rules": ["no-such-rule"]}, "usage", "unknown rule 'no-such-rule'"),
    ("list", {"worlds": ["nowhere"]}, "config", "unknown world 'nowhere'"),
])
async def test_refusals_carry_the_cli_error_record(session: ClientSession, served: Path, tool: str,
                                                   arguments: dict[str, Any], code: str, expected: str) -> None:
    before = _memory_files(served)
    result = await _refused(session, tool, **arguments)
    assert result.structured_content is not None
    assert result.structured_content["error"]["code"] == code
    assert expected in result.structured_content["error"]["message"]
    assert _text(result).startswith("error: ")
    assert _memory_files(served) == before


@pytest.mark.anyio
async def test_a_secret_is_refused_and_nothing_is_written(session: ClientSession, served: Path) -> None:
    before = _memory_files(served)
    result = await _refused(session, "add", category="fact", content=f"Payments use the Stripe key {SECRET}")
    assert result.structured_content is not None
    assert result.structured_content["error"]["code"] == "secret"
    assert "Stripe" in _text(result) and SECRET not in _text(result) and SECRET not in json.dumps(
        result.structured_content)
    note = await _refused(session, "feedback", memory_id=Cli(served).json("list")["entries"][0]["id"],
                          outcome="success", note=f"used {SECRET}")
    assert note.structured_content is not None and note.structured_content["error"]["code"] == "secret"
    assert _memory_files(served) == before
    usage = served / ".loa" / "usage.jsonl"
    assert not usage.exists() or SECRET not in usage.read_text()


@pytest.mark.anyio
async def test_concurrent_writes_get_distinct_ids(session: ClientSession, served: Path) -> None:
    ids: list[str] = []

    async def add(n: int) -> None:
        ids.append((await _call(session, "add", category="fact", content=f"Concurrent fact number {n}"))["id"])

    async with anyio.create_task_group() as group:
        for n in range(4):
            group.start_soon(add, n)
    assert len(set(ids)) == 4
    listed = {e["id"] for e in Cli(served).json("list", "--category", "fact")["entries"]}
    assert set(ids) <= listed
