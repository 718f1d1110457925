"""No secret reaches a committed file by any write path or field, and no rejected value is printed.

Each case is a way past the gate an adversarial probe found: a token as a field *name*, an AWS key id in a tag or
thread name (lower-cased on the way in), a token in a note's file or folder name, a token cut by a line break or
hidden by zero-width or fullwidth characters, a private key with a lower-case header or without header lines; and
errors or logs that quoted what they refused. Every test checks both halves: the files under the repository (what
`git add` would commit) never hold the value, and stdout+stderr (or the tool's result) never show it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures import MEMDIR, Cli, git, write

# Synthetic values of the right shape (random-looking, not vendors' published examples).
TOKEN = "ghp_iM74ZerhGZDFSz3ogGb6zCPZ2aVDsX4pNgvb"
AWS_ID = "AKIA3OWXT7I3JKAYMXSQ"
KEY_BODY = (
    "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi6Z1Yd5cBmHpRDXVJZnV5k2Yh8\n"
    "q8ZkT2mW9xLp4RvB7nYcN3bV6cX1zL0kJ9hG8fD7sA6pO5iU4yT3rE2wQ1aS9dF\n"
    "Zr4Kp8Lm2Nq6Rs0Tu4Vw8Xy2Za6Bc0De4Fg8Hi2Jk6Lm0No4Pq8Rs2Tu6Vw0Xy4Za\n"
)
ZERO_WIDTH = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff")


def disguises(value: str) -> set[str]:
    """What a committed file or an output could hold of ``value``: itself, lower-cased, and its two halves' joint
    (a split token is still found by its middle)."""
    middle = value[len(value) // 2 - 6 : len(value) // 2 + 6]
    return {value, value.lower(), middle, middle.lower()}


def committed_text(root: Path) -> str:
    """Every file `git add -A` would stage (names and contents), plus the local logs under .loa/."""
    names = git(root, "ls-files", "--others", "--cached", "--exclude-standard").split("\n")
    texts = []
    for name in filter(None, names):
        texts.append(name)
        path = root / name
        if path.is_file():
            texts.append(path.read_text("utf-8", errors="replace"))
    for log in (root / ".loa").glob("*.jsonl"):
        texts.append(log.read_text("utf-8", errors="replace"))
    return "\n".join(texts)


def assert_nowhere(root: Path, shown: str, value: str = TOKEN) -> None:
    import unicodedata

    for text in (committed_text(root), shown):
        plain = unicodedata.normalize("NFKC", "".join(c for c in text if c not in ZERO_WIDTH))
        for form in disguises(value):
            assert form not in plain, f"{form!r} leaked:\n{text[-2000:]}"


# -- fields and names -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", [f"x-{TOKEN}", f"x_{TOKEN}", TOKEN, f"header.{TOKEN}"])
def test_a_token_as_a_field_name_is_refused(loa: Cli, key: str) -> None:
    entry = {"category": "fact", "content": "The mirror needs a header", key: "v"}
    result = loa("add", "--from-json", "-", input=json.dumps(entry))
    assert result.exit_code == 1, result.output
    assert "GitHub token" in result.stderr and "nothing was written" in result.stderr
    assert_nowhere(loa.root, result.output)


@pytest.mark.parametrize("option", ["--tags", "--thread"])
@pytest.mark.parametrize("value", [AWS_ID, AWS_ID.lower(), f"prod,{AWS_ID}"])
def test_an_aws_key_id_in_a_tag_or_thread_is_refused(loa: Cli, option: str, value: str) -> None:
    result = loa("add", "decision", "Use the shared bucket", "--rationale", "one place", option, value)
    assert result.exit_code == 1, result.output
    assert "AWS access key id" in result.stderr
    assert_nowhere(loa.root, result.output, AWS_ID)


def test_supersede_and_session_end_see_tags(loa: Cli) -> None:
    added = loa.json("add", "fact", "The bucket is in eu-west-1")
    superseded = loa("supersede", added["id"], "The bucket moved to eu-central-1", "--tags", AWS_ID.lower())
    ended = loa("session", "end", "--summary", "moved the bucket", "--tags", AWS_ID)
    for result in (superseded, ended):
        assert result.exit_code == 1, result.output
        assert_nowhere(loa.root, result.output, AWS_ID)


def test_mcp_fields_see_keys_and_tags(loa: Cli) -> None:
    pytest.importorskip("mcp")
    from loa_memory.mcp.server import Memory

    memory = Memory(loa.root)
    for result in (
        memory.add(category="fact", content="The mirror needs a header", fields={f"x-{TOKEN}": "v"}),
        memory.add(category="fact", content="The bucket is in eu-west-1", tags=[AWS_ID.lower()]),
    ):
        assert result.is_error
        shown = json.dumps(result.structured_content) + "".join(getattr(c, "text", "") for c in result.content)
        assert_nowhere(loa.root, shown)
        assert_nowhere(loa.root, shown, AWS_ID)


# -- disguised values -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        f"The mirror wants {TOKEN[:20]}\n{TOKEN[20:]} in its header",
        f"The mirror wants {TOKEN[:9]}\n{TOKEN[9:25]}\n{TOKEN[25:]} in its header",
        *(f"The mirror wants {TOKEN[:10]}{zw}{TOKEN[10:]} in its header" for zw in ZERO_WIDTH),
        "The mirror wants \uff47\uff48\uff50_" + TOKEN[4:] + " in its header",  # fullwidth ｇｈｐ_
        "The mirror wants " + "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in TOKEN),
    ],
)
def test_split_and_hidden_tokens_are_refused(loa: Cli, content: str) -> None:
    result = loa("add", "fact", content)
    assert result.exit_code == 1, result.output
    assert "GitHub token" in result.stderr
    assert_nowhere(loa.root, result.output)


@pytest.mark.parametrize(
    "content",
    [
        "Deploy key:\n-----begin rsa private key-----\n" + KEY_BODY + "-----end rsa private key-----",
        "Deploy key:\n-----Begin Private Key-----\n" + KEY_BODY,
        "Deploy key body, headers stripped:\n" + KEY_BODY,
        "Deploy key body: " + KEY_BODY.replace("\n", ""),
    ],
)
def test_private_keys_with_odd_headers_or_none_are_refused(loa: Cli, content: str) -> None:
    result = loa("add", "fact", content)
    assert result.exit_code == 1, result.output
    assert "private key" in result.stderr
    assert_nowhere(loa.root, result.output, KEY_BODY[16:64])


def test_hidden_token_positions_are_in_the_original_text() -> None:
    from loa_memory.secrets import scan_text

    text = f"a\u200bb\nsaw \uff47hp_{TOKEN[4:14]}\u200d{TOKEN[14:]} here"
    [hit] = scan_text(text)
    assert (hit.kind, hit.line, hit.col) == ("github-token", 2, 5)
    assert hit.digest == scan_text(TOKEN)[0].digest  # the allowlist names the token, not its disguise


@pytest.mark.parametrize(
    "sentence",
    [
        "you must pass timeout=30 to requests.get",
        "pass check_same_thread=False to sqlite3.connect",
        "set retries=3 before the upload",
        "use check_same_thread=False for the test database",
        "the tags are akia-migration and prod",
        "MEM-20260101-001 led to\nMEM-20260101-002 and commit\n3f2a9c1",
    ],
)
def test_everyday_sentences_pass(loa: Cli, sentence: str) -> None:
    assert loa("add", "fact", sentence).exit_code == 0


# -- notes and the memory-tool backend --------------------------------------------------------------------------


def test_memory_tool_refuses_a_token_in_a_note_name_or_split_in_an_insert(loa: Cli) -> None:
    pytest.importorskip("anthropic")
    from anthropic.lib.tools import ToolError

    from loa_memory.agents.anthropic_memory import GrimoireMemoryTool

    tool = GrimoireMemoryTool(loa.root)
    said = []
    for command in (
        {"command": "create", "path": f"/memories/{TOKEN}.md", "file_text": "a note"},
        {"command": "create", "path": f"/memories/x_{TOKEN}/a.md", "file_text": "a note"},
        {"command": "create", "path": "/memories/ok.md", "file_text": "the mirror is slow"},
        {
            "command": "insert",
            "path": "/memories/ok.md",
            "insert_line": 1,
            "insert_text": f"header {TOKEN[:20]}\n{TOKEN[20:]}\n",
        },
        {"command": "rename", "old_path": "/memories/ok.md", "new_path": f"/memories/{TOKEN}.md"},
    ):
        try:
            said.append(str(tool.call(command)))
        except ToolError as exc:
            said.append(f"ERROR: {exc.content}")
    assert [s.startswith("ERROR") for s in said] == [True, True, False, True, True], said
    assert_nowhere(loa.root, "\n".join(said))


def test_lint_and_scan_secrets_report_a_token_in_a_file_name_without_printing_it(loa: Cli) -> None:
    note = f"{MEMDIR}/notes/x-{TOKEN}.md"
    write(
        loa.root,
        note,
        "---\nid: MEM-20260101-001\ncategory: note\nsummary: s\nconfidence: 0.8\n"
        "source: {session_id: s, timestamp: '2026-01-01T00:00:00Z'}\nttl: permanent\n---\nbody\n",
    )
    linted = loa("lint")
    scanned = loa("scan-secrets", str(loa.root / note))
    for result in (linted, scanned):
        assert result.exit_code == 1, result.output
        assert "GitHub token" in result.output and "ghp_****(40 chars)" in result.output
        for form in disguises(TOKEN):
            assert form not in result.output


def test_scan_secrets_sees_split_and_hidden_tokens(loa: Cli) -> None:
    path = write(loa.root, "notes.txt", f"one {TOKEN[:10]}\u200b{TOKEN[10:]}\ntwo {TOKEN[:20]}\n  {TOKEN[20:]}\n")
    result = loa("scan-secrets", str(path))
    assert result.exit_code == 1
    assert result.stdout.count("GitHub token") == 2, result.output


# -- errors never quote a rejected value ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("add", "fact", "We tried the old mirror", "--led-to", TOKEN),
        ("add", "fact", "The mirror is slow", "--link", f"related_to:{TOKEN}"),
        ("add", "fact", "The mirror is slow", "--confidence", TOKEN),
        ("add", "fact", "The mirror is slow", "--ttl", TOKEN),
        ("show", TOKEN),
        ("supersede", TOKEN, "new text"),
        ("feedback", TOKEN, "--outcome", "success"),
        ("list", "--world", TOKEN),
        ("show", TOKEN.lower()),
        ("list", "--category", TOKEN),
        ("feedback", "--recall", TOKEN, "--outcome", "success"),
    ],
)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_errors_never_quote_a_rejected_value(loa: Cli, args: tuple[str, ...], fmt: str) -> None:
    result = loa(*args, "--format", fmt) if fmt == "json" else loa(*args)
    assert result.exit_code != 0, result.output
    assert "error" in result.output.lower()
    assert_nowhere(loa.root, result.output)


@pytest.mark.parametrize(
    "field",
    [
        {"aliases": [TOKEN]},
        {"expires_at": TOKEN},
        {"source": {"commit": TOKEN}},
        {"id": TOKEN},
        {"links": [{"type": "related_to", "to": TOKEN}]},
        {"supersedes": TOKEN},
    ],
)
def test_from_json_errors_never_quote_a_rejected_value(loa: Cli, field: dict[str, object]) -> None:
    entry = {"category": "fact", "content": "The mirror is slow", **field}
    result = loa("add", "--from-json", "-", input=json.dumps(entry))
    assert result.exit_code != 0, result.output
    assert_nowhere(loa.root, result.output)


def test_an_unknown_id_that_is_no_secret_is_shown_shortened(loa: Cli) -> None:
    secretish = "Zq8Kv2Lm9Xw4Rt7Yp3Bn6Cd1Fg5Hj0Aa"  # no known shape: the gate cannot flag it
    result = loa("show", secretish)
    assert result.exit_code == 1
    assert secretish not in result.output and "not an id of the form MEM-YYYYMMDD-NNN" in result.output


# -- capture and logs -------------------------------------------------------------------------------------------


def test_a_trailer_continued_on_a_second_line_is_withheld_and_said(loa: Cli) -> None:
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "init")
    write(loa.root, "src.txt", "x\n")
    git(loa.root, "add", "src.txt")
    git(
        loa.root,
        "commit",
        "-qm",
        f"Mirror setup\n\nLearning: the mirror header is {TOKEN[:20]}\n  {TOKEN[20:]} "
        "for now\nFact: the mirror runs nightly",
    )
    result = loa("capture", "--commit", "HEAD")
    assert result.exit_code == 0, result.output
    assert "[secret]" in result.output and "added 0 memories" in result.output
    assert_nowhere(loa.root, result.output)


def test_usage_logs_keep_no_query_text(loa: Cli) -> None:
    loa("add", "correction", "Never force-push main", "--trigger", "force-push to main", "--lesson", "open a PR")
    loa("recall", f"force-push the mirror branch with {TOKEN}", "--track")
    loa("search", f"mirror {TOKEN}", "--track")
    hook = json.dumps(
        {
            "hook_event_name": "UserPromptSubmit",
            "session_id": "s1",
            "transcript_path": "",
            "prompt": f"force-push with {TOKEN} please",
        }
    )
    loa("recall", "--hook-input", input=hook)
    log = (loa.root / ".loa" / "usage.jsonl").read_text("utf-8")
    assert '"type": "recall"' in log and "query_hash" in log
    assert "force-push" not in log and "mirror" not in log
    assert_nowhere(loa.root, "")


def test_lint_and_reads_never_quote_a_token_from_a_broken_entry(loa: Cli) -> None:
    # Already in a file (pasted by hand): every report names the problem, none prints the value.
    write(
        loa.root,
        f"{MEMDIR}/facts.yaml",
        "- id: MEM-20260101-001\n  category: fact\n  summary: s\n  content: the mirror is slow\n"
        f"  confidence: 0.8\n  source: {{session_id: s, timestamp: '2026-01-01T00:00:00Z', commit: {TOKEN}}}\n"
        f"  ttl: permanent\n  aliases: [{TOKEN}]\n  expires_at: {TOKEN}\n"
        f"  links: [{{relation: related_to, to: {TOKEN}}}]\n",
    )
    linted = loa("lint")
    assert linted.exit_code == 1 and "aliases.0: 'ghp_…' (40 characters) does not match" in linted.stdout
    assert "expires_at: 'ghp_…' (40 characters) is not a date-time" in linted.stdout
    for result in (
        linted,
        loa("lint", "--format", "json"),
        loa("list"),
        loa("list", "--format", "json"),
        loa("search", "mirror"),
        loa("add", "fact", "another fact"),
    ):
        for form in disguises(TOKEN):
            assert form not in result.output, result.output


@pytest.mark.parametrize("target", [TOKEN, AWS_ID.lower()])
def test_why_never_echoes_a_secret_it_was_asked_about(loa: Cli, target: str) -> None:
    loa("add", "fact", "The mirror runs nightly")
    for result in (loa("why", target), loa("why", target, "--format", "json")):
        assert result.exit_code in (0, 1), result.output
        for form in disguises(target):
            assert form not in result.output, result.output


def test_the_pre_commit_hook_refuses_disguised_tokens_and_token_names(loa: Cli) -> None:
    import os
    import subprocess

    root_of_package = Path(__file__).resolve().parents[2]
    assert loa("hooks", "install").exit_code == 0
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "init", "--no-verify")
    note = (
        "---\nid: MEM-20260101-001\ncategory: note\nsummary: s\nconfidence: 0.8\n"
        "source: {session_id: s, timestamp: '2026-01-01T00:00:00Z'}\nttl: permanent\n---\n"
    )
    cases = {
        f"{MEMDIR}/notes/x-{TOKEN}.md": note + "body\n",
        f"{MEMDIR}/notes/hidden.md": note + f"header {TOKEN[:12]}\u200b{TOKEN[12:]}\n",
        f"{MEMDIR}/notes/wrapped.md": note + f"header {TOKEN[:22]}\n{TOKEN[22:]}\n",
    }
    for rel, text in cases.items():
        write(loa.root, rel, text)
        git(loa.root, "add", "-A")
        env = {**os.environ, "PYTHONPATH": str(root_of_package)}
        done = subprocess.run(
            ["git", "-C", str(loa.root), "commit", "-qm", "note"], capture_output=True, text=True, env=env
        )
        assert done.returncode != 0, rel
        assert "GitHub token" in done.stdout + done.stderr
        for form in disguises(TOKEN):
            assert form not in done.stdout + done.stderr
        git(loa.root, "rm", "-q", "--cached", rel)
        (loa.root / rel).unlink()


@pytest.mark.parametrize("key", [f"x-{TOKEN}", f"x_{TOKEN}", f"x.{TOKEN}"])
def test_lint_sees_a_token_as_a_field_name_in_a_file(loa: Cli, key: str) -> None:
    added = loa.json("add", "fact", "The mirror needs a header")
    facts = loa.root / MEMDIR / "facts.yaml"
    facts.write_text(facts.read_text("utf-8").replace(f"id: {added['id']}\n", f"id: {added['id']}\n  {key}: v\n"))
    result = loa("lint")
    assert result.exit_code == 1 and "GitHub token" in result.stdout, result.output
    assert TOKEN not in result.output


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("search", {"query": "mirror", "k": TOKEN}),
        ("recall", {"task": "mirror", "budget": TOKEN}),
        ("feedback", {"memory_id": "MEM-20260101-001", "outcome": TOKEN}),
    ],
)
def test_mcp_argument_errors_never_quote_the_value(loa: Cli, tool: str, arguments: dict[str, object]) -> None:
    pytest.importorskip("mcp")
    import anyio
    from mcp.server.mcpserver.exceptions import ToolError

    from loa_memory.mcp.server import Memory, _tools

    [chosen] = [t for t in _tools(Memory(loa.root)) if t.name == tool]
    with pytest.raises(ToolError) as info:
        anyio.run(chosen.run, arguments, None)
    assert "Input should be" in str(info.value) or "input" in str(info.value).lower()
    for form in disguises(TOKEN):
        assert form not in str(info.value)


@pytest.mark.parametrize(
    "hidden",
    [
        f"{TOKEN[:12]}\u200b{TOKEN[12:]}",
        "\uff47\uff48\uff50" + TOKEN[3:],
        f"{TOKEN[:20]}\n{TOKEN[20:]}",
    ],
)
def test_a_transcript_with_a_hidden_token_is_captured_without_it(loa: Cli, tmp_path: Path, hidden: str) -> None:
    path = tmp_path / "session.jsonl"
    lines = [
        {"role": "user", "content": f"No, send {hidden} as the mirror header instead of asking me."},
        {"role": "assistant", "content": "Understood."},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = loa("capture", "--transcript", str(path))
    assert result.exit_code == 0, result.output
    assert_nowhere(loa.root, result.output)
