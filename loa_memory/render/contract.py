"""The JSON contract of the CLI's outputs: one JSON Schema (draft 2020-12) per command, in ``schemas/output/``.

The schema of ``loa-memory hooks install --format json`` is ``schemas/output/hooks-install.schema.json``: the
command's words joined by ``-``. Schemas are found by that name, never through a list, so a new command only
has to ship its file. ``error.schema.json`` is the error envelope ``{"error": {"code", "message", "path", ...}}``
every command prints in JSON mode when it fails; ``common.schema.json`` holds the pieces the others share
(the entry record, a finding, a written entry ...). Each schema's ``$id`` carries the contract's version
(``.../schemas/output/v1/<name>.schema.json``): within v1 changes are additive only; a breaking change
ships as v2. The MCP server's tools return the same records, so they validate against the same schemas.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from loa_memory.errors import NotFound, ValidationError
from loa_memory.render import to_json

VERSION = "v1"
BASE_URI = f"https://loa-memory.dev/schemas/output/{VERSION}/"
ERROR = "error"
SHARED = ("common",)  # schema files that describe no output of their own
SUFFIX = ".schema.json"


def schema_name(command: str | Sequence[str]) -> str:
    """``"hooks install"`` or ``("hooks", "install")`` → ``"hooks-install"`` (the schema's file stem)."""
    words = command.split() if isinstance(command, str) else [w for part in command for w in part.split()]
    return "-".join(words)


def _folder() -> Traversable:
    return resources.files("loa_memory").joinpath("schemas", "output")


def _files() -> Iterator[Traversable]:
    return (item for item in _folder().iterdir() if item.name.endswith(SUFFIX) and item.is_file())


def schema_names() -> list[str]:
    """Every output schema shipped: command names (``hooks-install``), ``error`` and the shared ``common``."""
    return sorted(item.name[: -len(SUFFIX)] for item in _files())


def command_names() -> list[str]:
    """The schema names that describe a command's output (not ``error``, not the shared pieces)."""
    return [name for name in schema_names() if name != ERROR and name not in SHARED]


@functools.cache
def _load(name: str) -> dict[str, Any] | None:
    item = _folder().joinpath(f"{name}{SUFFIX}")
    if not item.is_file():
        return None
    schema: dict[str, Any] = json.loads(item.read_text("utf-8"))
    return schema


def schema_index() -> dict[str, Any]:
    """The published schemas: the contract's version and each schema's name, ``$id`` and title."""
    schemas = [{"name": name, "id": str(output_schema(name)["$id"]), "title": str(output_schema(name)["title"])}
               for name in schema_names()]
    return {"version": VERSION, "schemas": schemas}


def output_schema(command: str | Sequence[str]) -> dict[str, Any]:
    """The JSON Schema of a command's ``--format json`` output (``"error"``: the error envelope).

    Raises ``NotFound`` when the command publishes none.
    """
    name = schema_name(command)
    schema = _load(name) if name else None
    if schema is None:
        raise NotFound(f"no output schema named {name!r}",
                       hint=f"the schemas are: {', '.join(schema_names())}")
    return schema


@functools.cache
def _registry() -> Any:
    """Every shipped schema (outputs, and the memory and config schemas they may point into), by ``$id``."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resources_by_id = []
    for item in [*_files(), *resources.files("loa_memory").joinpath("schemas").iterdir()]:
        if item.name.endswith(SUFFIX) and item.is_file():
            contents = json.loads(item.read_text("utf-8"))
            resource = Resource.from_contents(contents, default_specification=DRAFT202012)
            resources_by_id.append((str(contents.get("$id") or item.name), resource))
    return Registry().with_resources(resources_by_id)


def standalone_schema(command: str | Sequence[str]) -> dict[str, Any]:
    """The command's schema with every ``$ref`` inlined: one self-contained document, for validators without a
    registry and for an MCP tool's ``outputSchema``. It accepts exactly what ``output_schema`` accepts."""
    schema = output_schema(command)
    inlined: dict[str, Any] = _inline(schema, _registry().resolver(base_uri=schema["$id"]), 0)
    return {"$schema": schema["$schema"], "$id": schema["$id"], **inlined}


def _inline(node: Any, resolver: Any, depth: int) -> Any:
    if depth > 32:
        raise ValueError("a $ref cycle in the output schemas")  # none today; a recursive type would need $defs
    if isinstance(node, list):
        return [_inline(value, resolver, depth) for value in node]
    if not isinstance(node, dict):
        return node
    out = {key: _inline(value, resolver, depth) for key, value in node.items()
           if key not in ("$ref", "$defs", "$id", "$schema")}
    if "$ref" not in node:
        return out
    resolved = resolver.lookup(node["$ref"])
    target = _inline(resolved.contents, resolved.resolver, depth + 1)
    if not out:
        return target
    return {**out, "allOf": [target, *out.get("allOf", [])]}  # $ref beside other keywords: both apply


@functools.cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(output_schema(name), registry=_registry())


def _where(path: Sequence[str | int]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def output_problems(command: str | Sequence[str], data: Any) -> list[str]:
    """What in ``data`` breaks the command's schema, as ``$.json.path: message`` lines (empty: it conforms).

    ``data`` is checked as the CLI would print it (``to_json``), so records and parsed output compare alike.
    """
    from jsonschema.exceptions import best_match

    validator = _validator(schema_name(command))
    instance = json.loads(to_json(data))
    problems = []
    for error in sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path]):
        detail = best_match([error])  # oneOf/anyOf: the closest branch says what is actually wrong
        message = detail.message if len(detail.message) <= 300 else detail.message[:297] + "..."
        problems.append(f"{_where(detail.absolute_path)}: {message}")
    return problems


def validate_output(command: str | Sequence[str], data: Any) -> None:
    """Raise ``ValidationError`` listing every way ``data`` breaks the command's published schema."""
    problems = output_problems(command, data)
    if problems:
        name = schema_name(command)
        raise ValidationError(f"output of {name!r} does not match its schema: " + "; ".join(problems[:10]),
                              path=f"loa_memory/schemas/output/{name}{SUFFIX}",
                              hint="fix the output or the schema (an additive schema change stays within "
                                   f"{VERSION}; a breaking one needs a new version)")
