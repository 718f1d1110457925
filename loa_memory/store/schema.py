"""The JSON Schemas shipped in the package, and cached validators built from them."""

from __future__ import annotations

import copy
import functools
import hashlib
import json
from collections.abc import Iterable
from datetime import datetime
from importlib import resources
from typing import Any, NamedTuple

from ..model import Category


class SchemaProblem(NamedTuple):
    """One schema violation: where in the instance (JSON path) and what is wrong."""

    path: tuple[str | int, ...]
    message: str


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema shipped in ``loa_memory/schemas`` (``memory``, ``config``, ...)."""
    text = resources.files("loa_memory").joinpath("schemas", f"{name}.schema.json").read_text("utf-8")
    result: dict[str, Any] = json.loads(text)
    return result


def is_datetime(value: object) -> bool:
    """RFC 3339 date-time with a time zone (``2026-02-01T10:30:00Z``); non-strings pass (``type`` checks them)."""
    if not isinstance(value, str):
        return True
    if len(value) < 20 or value[10] not in "Tt":
        return False
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return False
    return parsed.tzinfo is not None


def memory_schema_for(categories: Iterable[Category]) -> dict[str, Any]:
    """The memory schema adjusted to a config's categories (added ones, changed minimum confidences)."""
    schema = copy.deepcopy(load_schema("memory"))
    cats = list(categories)
    schema["properties"]["category"] = {"enum": [c.name for c in cats]}
    rules = [rule for rule in schema["allOf"]
             if "confidence" not in rule.get("then", {}).get("properties", {})]
    for cat in cats:
        if cat.min_confidence > 0:
            rules.append({"if": {"properties": {"category": {"const": cat.name}}, "required": ["category"]},
                          "then": {"properties": {"confidence": {"minimum": cat.min_confidence}}}})
    schema["allOf"] = rules
    return schema


def schema_key(categories: Iterable[Category]) -> str:
    """A digest that changes whenever validation results could change."""
    blob = json.dumps(memory_schema_for(categories), sort_keys=True).encode()
    return hashlib.blake2b(blob, digest_size=12).hexdigest()


@functools.cache
def _validator(schema_json: str) -> Any:
    import jsonschema

    checker = jsonschema.FormatChecker(formats=())
    checker.checks("date-time")(is_datetime)
    cls = jsonschema.validators.validator_for(json.loads(schema_json))
    return cls(json.loads(schema_json), format_checker=checker)


def validate(instance: Any, schema: dict[str, Any]) -> list[SchemaProblem]:
    """Every violation of ``schema`` by ``instance``, most specific first, in document order."""
    validator = _validator(json.dumps(schema, sort_keys=True))
    problems = []
    for error in validator.iter_errors(instance):
        for leaf in _leaves(error):
            path = tuple(leaf.absolute_path)
            if leaf.validator == "additionalProperties":
                for key in _unknown_keys(leaf):
                    problems.append(SchemaProblem((*path, key), f"unknown field {key!r} in {_where(path)}"))
                continue
            problems.append(SchemaProblem(path, _describe(leaf)))
    seen: set[SchemaProblem] = set()
    unique = [p for p in problems if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]
    return sorted(unique, key=lambda p: [str(s) for s in p.path])


def _leaves(error: Any) -> list[Any]:
    if error.validator in ("allOf", "anyOf", "oneOf", "if", "then") and error.context:
        best = [e for e in error.context if e.validator not in ("if",)]
        if error.validator in ("anyOf", "oneOf"):
            return [error]
        return [leaf for e in best for leaf in _leaves(e)] or [error]
    return [error]


def _where(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path) or "entry"


def _unknown_keys(error: Any) -> list[str]:
    known = set(error.schema.get("properties", {}))
    return sorted(str(k) for k in error.instance if k not in known and not str(k).startswith("x-"))


def _describe(error: Any) -> str:
    where = _where(tuple(error.absolute_path))
    if error.validator == "required":
        return f"{where}: {error.message.replace(' is a required property', '')} is required"
    if error.validator == "enum":
        return f"{where}: {error.instance!r} is not one of {', '.join(map(str, error.validator_value))}"
    if error.validator == "pattern":
        return f"{where}: {error.instance!r} does not match {error.validator_value}"
    if error.validator == "format":
        return f"{where}: {error.instance!r} is not a {error.validator_value} (e.g. 2026-02-01T10:30:00Z)"
    if error.validator == "minimum" and where.endswith("confidence"):
        return f"{where}: {error.instance} is below this category's minimum of {error.validator_value}"
    if error.validator == "type" and isinstance(error.instance, (dict, list)):
        return f"{where}: expected {error.validator_value}, got a {type(error.instance).__name__}"
    return f"{where}: {error.message}"
