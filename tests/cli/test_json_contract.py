"""JSON mode end to end: errors are one JSON envelope on stdout, the harness checks every output, `schema` works.

(Every ``--format json`` output anywhere in the suite is validated by ``tests.fixtures.check_contract``.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from loa_memory.cli import cli
from loa_memory.cli.invocation import resolve
from loa_memory.lint import RULES_BY_ID
from loa_memory.render.contract import output_problems, output_schema, schema_names
from tests.fixtures import MEMDIR, Cli, Outcome, check_contract, write


def _envelope(result: Outcome, code: str, exit_code: int) -> dict[str, Any]:
    assert result.exit_code == exit_code, result.output
    data = json.loads(result.stdout)  # stdout holds exactly one JSON document
    assert set(data) == {"error"}
    assert data["error"]["code"] == code, data
    assert output_problems("error", data) == []
    return dict(data["error"])


@pytest.mark.parametrize("args", [
    ("show", "--format", "json"),                       # missing argument, command-level --format
    ("--format", "json", "show"),                       # global --format
    ("show", "--format=json"),
    ("list", "--format", "json", "--bogus"),            # unknown option after --format
    ("--format", "json", "recall", "x", "--budget", "3"),  # out of range
    ("--format", "json", "nosuch"),                     # unknown command
    ("nosuch", "--format", "json"),
])
def test_usage_errors_are_a_json_envelope_with_exit_2(loa: Cli, args: tuple[str, ...]) -> None:
    error = _envelope(loa(*args), "usage", 2)
    assert error["message"] and "Usage:" not in error["message"]
    assert error["hint"].startswith("`loa-memory")
    assert loa(*args).stderr == ""


def test_a_bare_group_names_its_subcommands(loa: Cli) -> None:
    error = _envelope(loa("--format", "json", "hooks"), "usage", 2)
    assert error["message"] == "`loa-memory hooks` needs a command: install, uninstall"
    assert error["hint"] == "`loa-memory hooks --help` describes them"


def test_usage_errors_in_text_mode_stay_click_text(loa: Cli) -> None:
    result = loa("show")
    assert result.exit_code == 2 and result.stdout == ""
    assert "Missing argument 'MEMORY_ID'" in result.stderr
    # the command's own --format wins over the global one
    markdown = loa("--format", "json", "recall", "x", "--format", "markdown", "--budget", "3")
    assert markdown.exit_code == 2 and markdown.stdout == "" and "--budget" in markdown.stderr


def test_not_found_is_a_json_envelope_with_exit_1(loa: Cli) -> None:
    error = _envelope(loa("show", "MEM-20990101-001", "--format", "json"), "not-found", 1)
    assert error == {"code": "not-found", "message": "no memory with id 'MEM-20990101-001'", "path": None,
                     "line": None, "col": None,
                     "hint": "`loa-memory list` shows the ids; ids look like MEM-20260201-001"}
    _envelope(loa("feedback", "MEM-20990101-001", "--outcome", "success", "--format", "json"), "not-found", 1)
    _envelope(loa("schema", "nosuch", "--format", "json"), "not-found", 1)


def test_config_errors_are_a_json_envelope_with_exit_2(loa: Cli) -> None:
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text("utf-8") + "  retreival: {}\n", "utf-8")
    error = _envelope(loa("list", "--format", "json"), "config", 2)
    assert error["path"] == ".loa.config.yaml" and error["line"] is not None
    assert "retreival" in error["message"]


def test_no_grimoire_is_a_json_envelope(repo: Path) -> None:
    error = _envelope(Cli(repo)("--format", "json", "stats"), "not-initialised", 2)
    assert "loa-memory init" in error["hint"]


def test_invalid_memory_files_list_their_problems(loa: Cli) -> None:
    write(loa.root, f"{MEMDIR}/facts.yaml", "- id: MEM-20260101-001\n  category: [unclosed\n")
    error = _envelope(loa("add", "fact", "A new fact", "--format", "json"), "invalid-grimoire", 1)
    assert error["problems"][0]["path"] == f"{MEMDIR}/facts.yaml"


def test_a_refused_secret_is_a_json_envelope(loa: Cli) -> None:
    secret = "sk_live_" + "51HqLyjWDarjtT1zdp7dc9aB3dE5fG7h"
    error = _envelope(loa("add", "fact", f"Stripe key {secret}", "--format", "json"), "secret", 1)
    assert secret not in json.dumps(error)


def test_a_crash_in_json_mode_is_an_internal_envelope(loa: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object, **_kw: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr("loa_memory.lifecycle.stats.grimoire_stats", broken)
    error = _envelope(loa("stats", "--format", "json"), "internal", 3)
    assert error["message"] == "unexpected RuntimeError: simulated bug"
    log = Path(error["path"])
    assert "simulated bug" in log.read_text("utf-8")
    log.unlink()


@pytest.mark.parametrize(("argv", "words", "fmt", "eager"), [
    (["list", "--format", "json"], ("list",), "json", False),
    (["--format", "json", "list"], ("list",), "json", False),
    (["--root", "x", "--format=json", "hooks", "install"], ("hooks", "install"), "json", False),
    (["--format", "yaml", "lint"], ("lint",), None, False),                 # lint has no yaml: its default
    (["--format", "json", "recall", "t", "--format", "markdown"], ("recall",), "markdown", False),
    (["--format", "text", "review", "a..b"], ("review",), None, False),
    (["search", "--format", "q", "--format", "json"], ("search",), "json", False),  # last one wins
    (["--format", "json", "merge-driver", "a", "b", "c"], ("merge-driver",), "json", False),
    (["--format", "json", "list", "--help"], ("list",), "json", True),
    (["--format", "json", "--version"], (), "json", True),
    (["nosuch", "--format", "json"], (), "json", False),
    (["session"], ("session",), None, False),
])
def test_resolve_reads_the_command_and_format(argv: list[str], words: tuple[str, ...], fmt: str | None,
                                              eager: bool) -> None:
    found = resolve(cli, argv)
    assert (found.words, found.fmt, found.eager) == (words, fmt, eager)


def test_the_harness_rejects_output_that_breaks_the_contract() -> None:
    argv = ["--root", "r", "list", "--format", "json"]
    check_contract(argv, Outcome(0, '{"entries": [], "count": 0, "problems": []}', ""))
    with pytest.raises(AssertionError, match=r"\$\.count: 'none' is not of type 'integer'"):
        check_contract(argv, Outcome(0, '{"entries": [], "count": "none", "problems": []}', ""))
    with pytest.raises(AssertionError, match="printed something else"):
        check_contract(argv, Outcome(0, "3 memories", ""))
    with pytest.raises(AssertionError, match="printed nothing on stdout in JSON mode"):
        check_contract(argv, Outcome(2, "", "error: boom"))
    with pytest.raises(AssertionError, match="printed an error envelope but exited 0"):
        check_contract(argv, Outcome(0, '{"error": {}}', ""))
    with pytest.raises(AssertionError, match="without --format printed on stdout"):
        check_contract(["--format", "json", "merge-driver", "a", "b", "c"], Outcome(0, "{}", ""))


def test_yaml_output_follows_the_same_schema(loa: Cli) -> None:
    loa("add", "fact", "The CI runs on two cores", "--summary", "CI has two cores")
    result = loa("list", "--format", "yaml")  # validated by the harness too
    assert result.exit_code == 0 and "summary: CI has two cores" in result.stdout


def test_lint_list_rules_and_fix_speak_json(loa: Cli) -> None:
    rules = loa.json("lint", "--list-rules")["rules"]
    assert {r["id"] for r in rules} == set(RULES_BY_ID)
    assert all(r["summary"] and r["enabled"] for r in rules)
    text = loa("lint", "--list-rules").stdout.splitlines()
    assert len(text) == len(rules) and text[0].startswith(rules[0]["id"])
    write(loa.root, f"{MEMDIR}/facts.yaml", "- id: MEM-20260101-001\n  category: fact\n  content: Tagged\n"
          "  confidence: 0.9\n  source: {session_id: s1, timestamp: '2026-01-01T00:00:00Z'}\n  tags: [Mixed_Case]\n")
    fixed = loa.json("lint", "--fix")
    assert [(f["entry_id"], f["rule"]) for f in fixed["fixes"]][:1] == [("MEM-20260101-001", "tag-format")]
    assert "fixes" not in loa.json("lint")


def test_schema_command_prints_the_published_schemas(loa: Cli) -> None:
    listed = loa("schema")
    assert listed.exit_code == 0
    assert [line.split()[0] for line in listed.stdout.splitlines()] == schema_names()
    assert loa.json("schema", "search") == output_schema("search")
    assert loa.json("schema", "hooks", "install") == loa.json("schema", "hooks-install")
    assert json.loads(loa("schema", "error").stdout) == output_schema("error")
    standalone = loa.json("schema", "list", "--standalone")
    assert standalone["$id"] == output_schema("list")["$id"] and "common.schema.json" not in json.dumps(standalone)
    _envelope(loa("schema", "--standalone", "--format", "json"), "usage", 2)


def test_the_commands_no_other_test_runs_in_json_match_their_schemas(repo: Path) -> None:
    """init, feedback, hooks and scan-secrets speak JSON too (the harness validates each call)."""
    loa = Cli(repo)
    created = loa.json("init")
    assert ".loa.config.yaml" in created["created"] and created["worlds"] == ["loa"]
    assert loa.json("init")["created"] == []
    memory = loa.json("add", "fact", "The gateway times out after 30 seconds")["id"]
    event = loa.json("feedback", memory, "--outcome", "success", "--note", "it did")
    assert (event["memory_id"], event["outcome"], event["type"]) == (memory, "success", "outcome")
    assert loa.json("hooks", "install", "pre-commit") == {"installed": ["pre-commit"]}
    assert loa.json("hooks", "uninstall") == {"removed": ["pre-commit"]}
    leaky = write(repo, "notes.txt", "stripe: " + "sk_live_" + "51HqLyjWDarjtT1zdp7dc9aB3dE5fG7h" + "\n")
    found = loa("scan-secrets", str(leaky), "--format", "json")
    assert found.exit_code == 1
    assert [f["rule"] for f in json.loads(found.stdout)["findings"]] == ["secret"]
