"""The output schemas themselves: valid draft 2020-12, named and versioned by convention, complete, resolvable."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from pathlib import Path
from typing import Any

import click
import pytest
from jsonschema import Draft202012Validator

import loa_memory
from loa_memory.answer.browse import record, show_record
from loa_memory.cli import cli
from loa_memory.cli.invocation import format_param
from loa_memory.errors import LoaError, NotFound, ValidationError
from loa_memory.render import contract
from loa_memory.render.contract import (
    BASE_URI,
    ERROR,
    SHARED,
    command_names,
    output_problems,
    output_schema,
    schema_index,
    schema_name,
    schema_names,
    standalone_schema,
    validate_output,
)
from loa_memory.store.config import load_config
from loa_memory.store.load import load_grimoire
from tests.fixtures import Cli

ROOT = Path(__file__).resolve().parents[2]


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], click.Command]:
    found: dict[tuple[str, ...], click.Command] = {}
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            found.update(_commands(command, (*prefix, name)))
        else:
            found[(*prefix, name)] = command
    return found


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [ref for value in node.values() for ref in _refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in _refs(value)]
    return []


@pytest.mark.parametrize("name", schema_names())
def test_each_schema_is_valid_draft_2020_12_named_and_versioned(name: str) -> None:
    schema = output_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"{BASE_URI}{name}.schema.json"
    assert re.search(r"/v[0-9]+/", schema["$id"])
    assert schema["title"].strip() and schema["description"].strip()


@pytest.mark.parametrize("name", schema_names())
def test_every_ref_resolves(name: str) -> None:
    schema = output_schema(name)
    resolver = contract._registry().resolver(base_uri=schema["$id"])
    for ref in _refs(schema):
        assert resolver.lookup(ref).contents is not None, f"{name}: {ref} does not resolve"


def test_every_command_with_a_format_option_publishes_a_schema_and_every_schema_has_a_command() -> None:
    with_format = {schema_name(words) for words, command in _commands(cli).items()
                   if (param := format_param(command)) is not None and "json" in getattr(param.type, "choices", ())}
    without = [" ".join(words) for words, command in _commands(cli).items() if format_param(command) is None]
    docs = (ROOT / "docs" / "json.md").read_text("utf-8")
    no_output = docs[docs.index("## The schemas"):docs.index("## Copy-paste examples")]
    assert [name for name in without if f"`{name}` has no JSON output" not in no_output] == []
    assert with_format == set(command_names()), "schemas/output/ and the CLI's commands disagree"
    assert set(schema_names()) == {*command_names(), ERROR, *SHARED}


def _all_error_codes() -> set[str]:
    for module in pkgutil.walk_packages(loa_memory.__path__, "loa_memory."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    codes, todo = set(), [LoaError]
    while todo:
        cls = todo.pop()
        codes.add(cls.code)
        todo.extend(cls.__subclasses__())
    return codes


def test_every_error_code_is_in_the_envelope_schema_and_the_docs() -> None:
    codes = _all_error_codes()
    listed = set(output_schema(ERROR)["properties"]["error"]["properties"]["code"]["enum"])
    assert codes <= listed, f"error codes missing from error.schema.json: {sorted(codes - listed)}"
    docs = (ROOT / "docs" / "json.md").read_text("utf-8")
    assert [code for code in sorted(listed) if f"| `{code}` |" not in docs] == []


def test_docs_link_every_schema() -> None:
    docs = (ROOT / "docs" / "json.md").read_text("utf-8")
    missing = [name for name in schema_names() if f"(../schemas/output/{name}.schema.json)" not in docs]
    assert missing == [], f"docs/json.md does not link {missing}"


@pytest.mark.parametrize(("command", "name"), [
    ("list", "list"), ("hooks install", "hooks-install"), (("hooks", "install"), "hooks-install"),
    (("session", "start"), "session-start"), ("scan-secrets", "scan-secrets"), ("error", "error"),
])
def test_schema_names_join_the_command_words(command: Any, name: str) -> None:
    assert schema_name(command) == name
    assert output_schema(command)["$id"].endswith(f"/{name}.schema.json")


def _keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {key for value in node.values() for key in _keys(value)}
    if isinstance(node, list):
        return {key for value in node for key in _keys(value)}
    return set()


@pytest.mark.parametrize("name", schema_names())
def test_standalone_schemas_are_self_contained(name: str) -> None:
    schema = standalone_schema(name)
    Draft202012Validator.check_schema(schema)
    assert "$ref" not in _keys(schema) and schema["$id"] == output_schema(name)["$id"]


def test_standalone_schemas_accept_and_reject_what_the_published_ones_do(loa: Cli) -> None:
    added = loa.json("add", "decision", "Use PostgreSQL for JSONB", "--confidence", "0.95", "--tags", "db")
    outputs = {"add": added, "list": loa.json("list"), "show": loa.json("show", added["id"]),
               "search": loa.json("search", "postgres", "--explain"), "stats": loa.json("stats"),
               "lint": loa.json("lint", "--list-rules"), "error": loa.json("show", "MEM-20990101-001")}
    broken = {"list": {**outputs["list"], "count": "one"},
              "show": {**outputs["show"], "links": [{"id": "x", "relation": "likes"}]},
              "search": {**outputs["search"], "results": [{**outputs["search"]["results"][0], "extra": 1}]},
              "add": {**added, "entry": {**added["entry"], "tags": ["Not A Tag"]}}}
    for name, data in outputs.items():
        assert list(Draft202012Validator(standalone_schema(name)).iter_errors(data)) == [], name
    for name, data in broken.items():
        assert output_problems(name, data), name
        assert list(Draft202012Validator(standalone_schema(name)).iter_errors(data)), name


def test_a_command_without_a_schema_is_not_found() -> None:
    with pytest.raises(NotFound, match="no output schema named 'ledger-frobnicate'"):
        output_schema("ledger frobnicate")
    with pytest.raises(NotFound):
        output_problems("", {})


def test_a_wrong_payload_is_reported_with_where_and_what() -> None:
    good = {"entries": [], "count": 0, "problems": []}
    assert output_problems("list", good) == []
    bad = {"entries": [{"id": "MEM-20260101-001", "category": "decision", "world": "loa", "status": "lost",
                        "path": "a.yaml", "line": 0, "summary": "s", "entry": {}, "extra": 1}],
           "count": -1, "problems": []}
    problems = output_problems("list", bad)
    assert any(p.startswith("$.entries[0].status: 'lost' is not one of") for p in problems), problems
    assert any(p.startswith("$.entries[0].line: 0 is less than the minimum of 1") for p in problems), problems
    assert any(p.startswith("$.entries[0].entry: 'id' is a required property") for p in problems), problems
    assert any("'extra'" in p for p in problems), problems
    assert any(p.startswith("$.count: -1") for p in problems), problems
    with pytest.raises(ValidationError, match="output of 'list' does not match its schema"):
        validate_output("list", bad)


def test_one_of_branches_report_the_closest_mismatch() -> None:
    problems = output_problems("lint", {"findings": [], "counts": {"error": 0, "warning": 0, "info": 0},
                                        "files": "three"})
    assert problems == ["$.files: 'three' is not of type 'integer'"]


def test_error_envelope_is_closed_and_typed() -> None:
    ok = {"error": {"code": "not-found", "message": "no memory", "path": None, "line": None, "col": None,
                    "hint": None}}
    assert output_problems(ERROR, ok) == []
    assert output_problems(ERROR, {"error": {**ok["error"], "code": "oops"}})
    assert output_problems(ERROR, {"error": {"code": "usage", "message": "x"}})
    assert output_problems(ERROR, {"error": ok["error"], "output": {}})


def test_library_records_validate_as_the_cli_prints_them(loa: Cli) -> None:
    """The MCP server returns the same records as the CLI: validate_output works on them directly."""
    added = loa.json("add", "decision", "Use PostgreSQL for JSONB", "--confidence", "0.95")
    grimoire = load_grimoire(load_config(loa.root))
    validate_output("show", show_record(grimoire, added["id"]))
    records = [record(grimoire, entry) for entry in grimoire.entries]
    validate_output("list", {"entries": records, "count": len(records), "problems": []})


def test_the_index_lists_every_schema_with_its_versioned_id() -> None:
    index = schema_index()
    assert index["version"] == contract.VERSION
    assert [s["name"] for s in index["schemas"]] == schema_names()
    assert all(s["id"] == f"{BASE_URI}{s['name']}.schema.json" for s in index["schemas"])
    validate_output("schema", index)
    validate_output("schema", output_schema("search"))


def test_schema_files_are_shipped_as_package_data() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert '"schemas/output/*.json"' in pyproject
    for name in schema_names():
        json.loads((ROOT / "loa_memory" / "schemas" / "output" / f"{name}.schema.json").read_text("utf-8"))
