"""The anthropic memory tool backend, driven the way the SDK drives it: by its tool runner, and by ``call()``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

anthropic = pytest.importorskip("anthropic")
httpx2 = pytest.importorskip("httpx2")

from anthropic.lib.tools import ToolError  # noqa: E402

from loa_memory.agents.anthropic_memory import AsyncGrimoireMemoryTool, GrimoireMemoryTool  # noqa: E402
from loa_memory.errors import UsageError  # noqa: E402
from loa_memory.store import load_config, load_grimoire, yamlio  # noqa: E402
from tests.fixtures import MEMDIR, Cli, write  # noqa: E402

NOTES = f"{MEMDIR}/notes"
ARCHIVE = f"{MEMDIR}/archive/notes"
SECRET = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"


def run_session(tool: Any, turns: Sequence[Sequence[dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    """Play a scripted model through the SDK's real tool runner (HTTP answered in-process); the tool results
    the model got back, turn by turn."""
    requests: list[dict[str, Any]] = []

    def answer(request: Any) -> Any:
        requests.append(json.loads(request.content))
        step = len(requests) - 1
        if step < len(turns):
            content = [{"type": "tool_use", "id": f"toolu_{step}_{i}", "name": "memory", "input": command}
                       for i, command in enumerate(turns[step])]
            stop = "tool_use"
        else:
            content, stop = [{"type": "text", "text": "Done."}], "end_turn"
        return httpx2.Response(200, json={"id": f"msg_{step}", "type": "message", "role": "assistant",
                                          "model": "claude-test", "content": content, "stop_reason": stop,
                                          "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}})

    client = anthropic.Anthropic(api_key="test", base_url="http://anthropic.invalid", max_retries=0,
                                 http_client=httpx2.Client(transport=httpx2.MockTransport(answer)))
    runner = client.beta.messages.tool_runner(model="claude-test", max_tokens=256, tools=[tool],
                                              messages=[{"role": "user", "content": "Keep notes on this project."}])
    runner.until_done()
    assert requests[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    return [request["messages"][-1]["content"] for request in requests[1:]]


def call(tool: GrimoireMemoryTool, **command: Any) -> str:
    """One command as the tool runner passes it (raw JSON input); a refusal comes back as its text."""
    try:
        return str(tool.call(command))
    except ToolError as exc:
        return f"ERROR: {exc.content}"


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted((root / MEMDIR).rglob("*")) if p.is_file()}


def front(path: Path) -> dict[str, Any]:
    parts = next(yamlio.iter_front_matter(path.read_text()))
    data = yamlio.load_text(parts[0])
    assert isinstance(data, dict)
    return data


@pytest.fixture
def tool(grimoire: Path) -> GrimoireMemoryTool:
    return GrimoireMemoryTool(grimoire, agent="support-bot", session_id="sess-42")


def test_a_scripted_session_of_all_six_commands(tool: GrimoireMemoryTool, grimoire: Path) -> None:
    progress = "<progress>\n  <task>CSV export</task>\n  <status>started</status>\n</progress>\n"
    results = run_session(tool, [
        [{"command": "view", "path": "/memories"}],
        [{"command": "create", "path": "/memories/progress.xml", "file_text": progress},
         {"command": "create", "path": "/memories/shop/billing.md",
          "file_text": "# Billing\n\n- call the BillingClient wrapper, never requests\n"}],
        [{"command": "str_replace", "path": "/memories/progress.xml", "old_str": "started", "new_str": "done"},
         {"command": "insert", "path": "/memories/shop/billing.md", "insert_line": 1,
          "insert_text": "Owner: payments team"}],
        [{"command": "view", "path": "/memories"},
         {"command": "view", "path": "/memories/shop/billing.md"}],
        [{"command": "rename", "old_path": "/memories/shop", "new_path": "/memories/payments"},
         {"command": "rename", "old_path": "/memories/progress.xml", "new_path": "/memories/export-progress.xml"}],
        [{"command": "delete", "path": "/memories/export-progress.xml"},
         {"command": "view", "path": "/memories/payments/billing.md", "view_range": [1, 2]}],
    ])
    texts = [[r["content"] for r in turn] for turn in results]
    assert not any(r.get("is_error") for turn in results for r in turn)
    header = "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:"
    assert [t.split("\n")[0] for t in texts[0]] == [header] and texts[0][0].endswith("\t/memories")
    assert texts[1] == ["File created successfully at: /memories/progress.xml",
                        "File created successfully at: /memories/shop/billing.md"]
    assert texts[2] == ["The memory file has been edited. Here is the snippet showing the change (with line "
                        "numbers):\n     1\t<progress>\n     2\t  <task>CSV export</task>\n     3\t  <status>done"
                        "</status>\n     4\t</progress>\n     5\t",
                        "The file /memories/shop/billing.md has been edited."]
    listing, view = texts[3]
    billing_body = "# Billing\nOwner: payments team\n\n- call the BillingClient wrapper, never requests\n"
    sizes = [line.split("\t") for line in listing.splitlines()[1:]]
    assert [path for _size, path in sizes] == ["/memories", "/memories/progress.xml", "/memories/shop/",
                                               "/memories/shop/billing.md"]
    assert sizes[1][0] == f"{len(progress) - 3}B" and sizes[3][0] == f"{len(billing_body)}B"
    assert view == ("Here's the content of /memories/shop/billing.md with line numbers:\n     1\t# Billing\n"
                    "     2\tOwner: payments team\n     3\t\n     4\t- call the BillingClient wrapper, never requests\n"
                    "     5\t")
    assert texts[4] == ["Successfully renamed /memories/shop to /memories/payments",
                        "Successfully renamed /memories/progress.xml to /memories/export-progress.xml"]
    assert texts[5] == ["Successfully deleted /memories/export-progress.xml",
                        "Here's the content of /memories/payments/billing.md with line numbers:\n     1\t# Billing\n"
                        "     2\tOwner: payments team"]

    billing = grimoire / NOTES / "payments" / "billing.md"
    archived = grimoire / ARCHIVE / "export-progress.xml.md"
    assert sorted(p.relative_to(grimoire / MEMDIR).as_posix() for p in (grimoire / MEMDIR).rglob("*.md")) == [
        "archive/notes/export-progress.xml.md", "notes/payments/billing.md"]
    assert billing.read_text().split("---\n", 2)[2] == billing_body
    note, old = front(billing), front(archived)
    assert note["category"] == "note" and note["summary"] == "Billing"
    assert note["source"]["agent"] == "support-bot" and note["source"]["session_id"] == "sess-42"
    assert note["source"]["capture"] == "memory-tool" and "updated_at" in note
    assert old["archived"] is True and old["archive_reason"] == "manual" and "archived_at" in old
    assert old["summary"] == "<progress>" and "<status>done</status>" in archived.read_text()
    loaded = load_grimoire(load_config(grimoire))
    assert loaded.problems == []
    ids = {e.path.removeprefix(MEMDIR + "/"): e.id for e in loaded.entries}
    assert ids == {"notes/payments/billing.md": note["id"], "archive/notes/export-progress.xml.md": old["id"]}
    assert Cli(grimoire)("lint").exit_code == 0


def test_rename_keeps_the_id_and_the_bytes(tool: GrimoireMemoryTool, grimoire: Path) -> None:
    call(tool, command="create", path="/memories/a/b/deep.txt", file_text="deep note\n")
    before = (grimoire / NOTES / "a" / "b" / "deep.txt.md").read_bytes()
    assert call(tool, command="rename", old_path="/memories/a", new_path="/memories/z/y") == \
        "Successfully renamed /memories/a to /memories/z/y"
    assert (grimoire / NOTES / "z" / "y" / "b" / "deep.txt.md").read_bytes() == before
    assert not (grimoire / NOTES / "a").exists()  # the folders it left empty are gone
    assert call(tool, command="view", path="/memories/z/y/b/deep.txt").endswith("     1\tdeep note\n     2\t")


@pytest.mark.parametrize("path", [
    "/memories/../etc/passwd", "/memories/a/../../outside.md", "/etc/passwd", "memories/x.md", "/memoriesx/y.md",
    "/memories/a\x00b.md", "/memories/.hidden.md", "/memories/a\\..\\b.md", "/memories/x.md/y.md", "/memories/./x.md",
    "../memories/x.md", "/memories/" + "n" * 300,
])
def test_unsafe_paths_are_refused_by_every_command(tool: GrimoireMemoryTool, grimoire: Path, path: str) -> None:
    call(tool, command="create", path="/memories/ok.md", file_text="fine\n")
    before = snapshot(grimoire)
    commands = [{"command": "view", "path": path}, {"command": "create", "path": path, "file_text": "x\n"},
                {"command": "str_replace", "path": path, "old_str": "x", "new_str": "y"},
                {"command": "insert", "path": path, "insert_line": 0, "insert_text": "x"},
                {"command": "delete", "path": path},
                {"command": "rename", "old_path": "/memories/ok.md", "new_path": path},
                {"command": "rename", "old_path": path, "new_path": "/memories/new.md"}]
    for command in commands:
        with pytest.raises(ToolError):
            tool.call(command)
    assert snapshot(grimoire) == before
    assert not (grimoire.parent / "outside.md").exists()


def test_symlinks_leading_out_are_refused(tool: GrimoireMemoryTool, grimoire: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("---\nid: x\n---\nnot yours\n")
    (grimoire / NOTES / "link").symlink_to(outside)
    assert call(tool, command="create", path="/memories/link/new.md", file_text="x\n").startswith("ERROR:")
    assert call(tool, command="view", path="/memories/link/secret.md").startswith("ERROR:")
    assert call(tool, command="delete", path="/memories/link").startswith("ERROR:")
    assert sorted(p.name for p in outside.iterdir()) == ["secret.md"]
    assert "link" not in call(tool, command="view", path="/memories")


def test_secrets_are_refused_and_nothing_is_written(tool: GrimoireMemoryTool, grimoire: Path) -> None:
    refused = call(tool, command="create", path="/memories/deploy.md", file_text=f"# Deploy\ntoken {SECRET}\n")
    assert refused.startswith("ERROR: refused: the entry contains GitHub token") and "at line 2" in refused
    assert SECRET not in refused
    call(tool, command="create", path="/memories/deploy.md", file_text="# Deploy\nask ops for the token\n")
    before = snapshot(grimoire)
    assert "refused" in call(tool, command="str_replace", path="/memories/deploy.md",
                             old_str="ask ops for the token", new_str=f"token {SECRET}")
    assert "refused" in call(tool, command="insert", path="/memories/deploy.md", insert_line=2,
                             insert_text=f"password = {SECRET}")
    assert snapshot(grimoire) == before
    assert not list((grimoire / MEMDIR).rglob("*.loa-tmp-*"))


def test_str_replace_needs_exactly_one_match_and_insert_a_line_in_range(tool: GrimoireMemoryTool,
                                                                      grimoire: Path) -> None:
    call(tool, command="create", path="/memories/todo.md", file_text="- a\n- b\n- a\n")
    before = snapshot(grimoire)
    assert call(tool, command="str_replace", path="/memories/todo.md", old_str="- a", new_str="- c") == (
        "ERROR: No replacement was performed. Multiple occurrences of old_str `- a` in lines: 1, 3. "
        "Please ensure it is unique")
    assert call(tool, command="str_replace", path="/memories/todo.md", old_str="- z", new_str="- c") == (
        "ERROR: No replacement was performed, old_str `- z` did not appear verbatim in /memories/todo.md.")
    assert call(tool, command="insert", path="/memories/todo.md", insert_line=9, insert_text="x") == (
        "ERROR: Invalid `insert_line` parameter: 9. It should be within the range [0, 3].")
    assert call(tool, command="str_replace", path="/memories/todo.md", old_str="- a\n- b\n- a\n", new_str="") == (
        "ERROR: a note needs some text (write what to remember; delete the note to drop it)")
    assert snapshot(grimoire) == before
    call(tool, command="insert", path="/memories/todo.md", insert_line=3, insert_text="- d\n")
    assert call(tool, command="view", path="/memories/todo.md").splitlines()[1:] == [
        "     1\t- a", "     2\t- b", "     3\t- a", "     4\t- d", "     5\t"]


def test_existing_and_missing_paths(tool: GrimoireMemoryTool, grimoire: Path) -> None:
    call(tool, command="create", path="/memories/a.md", file_text="A\n")
    call(tool, command="create", path="/memories/b.md", file_text="B\n")
    before = snapshot(grimoire)
    assert call(tool, command="create", path="/memories/a.md", file_text="again\n") == \
        "ERROR: File /memories/a.md already exists"
    assert call(tool, command="rename", old_path="/memories/a.md", new_path="/memories/b.md") == \
        "ERROR: The destination /memories/b.md already exists"
    assert call(tool, command="view", path="/memories/nope.md") == \
        "ERROR: The path /memories/nope.md does not exist. Please provide a valid path."
    assert call(tool, command="delete", path="/memories") == "ERROR: Cannot delete the /memories directory itself"
    assert call(tool, command="rename", old_path="/memories", new_path="/memories/x") == \
        "ERROR: Cannot rename the /memories directory itself"
    assert snapshot(grimoire) == before


def test_a_name_without_md_is_stored_with_it_and_listed_by_a_name_that_reaches_it(tool: GrimoireMemoryTool,
                                                                                 grimoire: Path) -> None:
    for path in ("/memories/notes.txt", "/memories/todo", "/memories/v1.2.md"):
        call(tool, command="create", path=path, file_text=f"{path}\n")
    assert sorted(p.name for p in (grimoire / NOTES).glob("*.md")) == ["notes.txt.md", "todo.md", "v1.2.md"]
    listed = [line.split("\t")[1] for line in call(tool, command="view", path="/memories").splitlines()[2:]]
    assert listed == ["/memories/notes.txt", "/memories/todo.md", "/memories/v1.2.md"]
    for path in [*listed, "/memories/todo"]:
        assert "with line numbers" in call(tool, command="view", path=path)


def test_delete_archives_a_folder_and_never_overwrites_the_archive(tool: GrimoireMemoryTool, grimoire: Path) -> None:
    for name in ("a", "b"):
        call(tool, command="create", path=f"/memories/old/{name}.md", file_text=f"{name}\n")
    assert call(tool, command="delete", path="/memories/old") == "Successfully deleted /memories/old"
    call(tool, command="create", path="/memories/old/a.md", file_text="a, second life\n")
    call(tool, command="delete", path="/memories/old/a.md")
    archived = sorted(p.relative_to(grimoire / ARCHIVE).as_posix() for p in (grimoire / ARCHIVE).rglob("*.md"))
    assert archived == ["old/a-2.md", "old/a.md", "old/b.md"]
    assert "second life" in (grimoire / ARCHIVE / "old" / "a-2.md").read_text()
    assert not (grimoire / NOTES / "old").exists()
    assert tool.clear_all_memory() == "All memory cleared"
    assert Cli(grimoire)("lint").exit_code == 0


def test_telos_and_list_categories_are_refused(grimoire: Path) -> None:
    with pytest.raises(UsageError, match="operators only"):
        GrimoireMemoryTool(grimoire, category="telos")
    with pytest.raises(UsageError, match="YAML lists"):
        GrimoireMemoryTool(grimoire, category="decision")


def test_writes_are_refused_while_the_grimoire_has_a_problem(tool: GrimoireMemoryTool, grimoire: Path) -> None:
    write(grimoire, f"{MEMDIR}/facts.yaml", "- id: MEM-20260101-001\n  category: fact\n  content: [unclosed\n")
    before = snapshot(grimoire)
    refused = call(tool, command="create", path="/memories/x.md", file_text="x\n")
    assert refused.startswith("ERROR: ") and "loa-memory lint" in refused
    assert snapshot(grimoire) == before


def test_a_note_over_the_size_limit_leaves_no_file(tool: GrimoireMemoryTool, grimoire: Path) -> None:
    refused = call(tool, command="create", path="/memories/big.md", file_text="word " * 5000)
    assert refused.startswith("ERROR: the note would not be a valid memory")
    assert not (grimoire / NOTES / "big.md").exists()
    assert not list((grimoire / MEMDIR).rglob("*.loa-tmp-*"))


def test_notes_are_found_by_search(tool: GrimoireMemoryTool, grimoire: Path) -> None:
    call(tool, command="create", path="/memories/billing.md",
         file_text="Always call the billing service through BillingClient.\n")
    found = Cli(grimoire).json("search", "billing service", "--mode", "lexical")
    assert [r["category"] for r in found["results"]] == ["note"]


def test_the_async_tool_runs_the_same_backend(grimoire: Path) -> None:
    tool = AsyncGrimoireMemoryTool(grimoire, agent="async-bot")

    async def session() -> list[str]:
        created = await tool.call({"command": "create", "path": "/memories/a.md", "file_text": "async\n"})
        viewed = await tool.call({"command": "view", "path": "/memories/a.md"})
        return [str(created), str(viewed)]

    created, viewed = asyncio.run(session())
    assert created == "File created successfully at: /memories/a.md"
    assert viewed.endswith("     1\tasync\n     2\t")
    assert front(grimoire / NOTES / "a.md")["source"]["agent"] == "async-bot"
