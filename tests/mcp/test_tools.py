"""The tools in-process (no transport): the server's default world, crashes as tool errors, the CLI command."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("mcp")

from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.types import TextContent

from loa_memory.mcp.server import Memory
from tests.fixtures import Cli, write

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def two_worlds(repo: Path) -> Path:
    write(repo, ".loa.config.yaml", "memory_schema:\n  worlds:\n    loa: {}\n    research: {}\n")
    assert Cli(repo)("init").exit_code == 0
    return repo


def test_the_server_world_is_the_default_of_reads_and_writes(two_worlds: Path) -> None:
    Cli(two_worlds)("add", "fact", "The staging database is rebuilt every Monday", "--world", "loa")
    research = Memory(two_worlds, "research")
    added = research.add(category="fact", content="Staging benchmarks vary by ten percent between runs")
    assert not added.is_error and added.structured_content is not None
    assert added.structured_content["world"] == "research"
    assert added.structured_content["path"] == "grimoires/research/memory/facts.yaml"
    found = research.search(query="staging")
    assert found.structured_content is not None
    assert {r["world"] for r in found.structured_content["results"]} == {"research"}
    both = research.search(query="staging", worlds=["loa", "research"])
    assert both.structured_content is not None
    assert {r["world"] for r in both.structured_content["results"]} == {"loa", "research"}
    assert "Staging benchmarks" not in Memory(two_worlds, "loa").index_resource()
    assert "Staging benchmarks" in Memory(two_worlds).index_resource()


def test_an_unexpected_exception_is_a_tool_error_and_logged(grimoire: Path, caplog: pytest.LogCaptureFixture) -> None:
    memory = Memory(grimoire)

    def broken(config: object) -> dict[str, object]:
        raise RuntimeError("index exploded")

    with caplog.at_level(logging.ERROR, logger="loa_memory.mcp"):
        result = memory.call("search", broken, str)
    assert result.is_error and result.structured_content is not None
    assert result.structured_content["error"]["code"] == "internal"
    assert "unexpected RuntimeError in search: index exploded" in result.structured_content["error"]["message"]
    assert isinstance(result.content[0], TextContent) and result.content[0].text.startswith("error: unexpected")
    assert "index exploded" in caplog.text and "Traceback" in caplog.text
    assert not memory.list_().is_error  # the lock was released


def test_resource_refusals_are_resource_errors(grimoire: Path) -> None:
    memory = Memory(grimoire)
    with pytest.raises(ResourceNotFoundError, match="no memory with id 'MEM-20000101-001'"):
        memory.memory_resource("MEM-20000101-001")
    with pytest.raises(ResourceError, match="unknown world 'nowhere'"):
        memory.world_telos_resource("nowhere")
    assert memory.telos_resource().startswith("No telos yet")


def test_an_uninitialised_repository_is_a_tool_error_until_init(repo: Path) -> None:
    memory = Memory(repo)
    refused = memory.recall(task="anything")
    assert refused.is_error and refused.structured_content is not None
    assert refused.structured_content["error"]["code"] == "not-initialised"
    assert "loa-memory init" in refused.structured_content["error"]["hint"]
    Cli(repo)("init")
    assert not memory.recall(task="anything").is_error


def test_mcp_with_an_unknown_world_is_a_usage_error(grimoire: Path) -> None:
    result = Cli(grimoire)("mcp", "--world", "nowhere")
    assert result.exit_code == 2
    assert "unknown world 'nowhere'" in result.stderr and "Traceback" not in result.output


def test_mcp_without_the_sdk_says_what_to_install(grimoire: Path) -> None:
    code = "import sys; sys.modules['mcp'] = None; from loa_memory.cli import main; main(sys.argv[1:])"
    done = subprocess.run([sys.executable, "-c", code, "--root", str(grimoire), "mcp"], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL,
                          timeout=60)
    assert done.returncode == 2
    assert "error: `loa-memory mcp` cannot start" in done.stderr
    assert "install loa-memory[mcp]: pip install 'loa-memory[mcp]'" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_a_published_output_schema_is_advertised(grimoire: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import anyio

    from loa_memory.mcp import server as module

    schema = {"type": "object", "required": ["query", "results"], "properties": {"query": {"type": "string"}}}
    monkeypatch.setattr(module, "published_schema", lambda tool: schema if tool == "search" else None)
    tools = {tool.name: tool for tool in anyio.run(module.build_server(grimoire).list_tools)}
    assert tools["search"].output_schema == schema
    assert tools["recall"].output_schema is None


_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                           max_size=3), max_leaves=6)
_KEYS = st.sampled_from(["id", "category", "summary", "content", "confidence", "source", "ttl", "expires_at", "tags",
                         "supersedes", "links", "artifacts", "alternatives", "trigger", "session_id", "x-custom"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(_KEYS, _JSON, max_size=4), agent=st.none() | st.text(max_size=5))
def test_add_with_any_fields_is_written_or_refused_never_a_crash(grimoire: Path, fields: dict[str, object],
                                                                 agent: str | None) -> None:
    result = Memory(grimoire).add(category="fact", content="Hypothesis wrote this", fields=fields, agent=agent)
    assert result.structured_content is not None
    if result.is_error:
        assert result.structured_content["error"]["code"] != "internal", result.structured_content
    else:
        assert result.structured_content["action"] == "added"
