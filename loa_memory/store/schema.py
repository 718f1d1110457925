"""The JSON Schemas shipped in the package, and cached validators built from them."""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import re
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from loa_memory.model import Category


class SchemaProblem(NamedTuple):
    """One schema violation: where in the instance (JSON path) and what is wrong."""

    path: tuple[str | int, ...]
    message: str


_SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"  # a plain path: every command reads one, and
# importlib.resources costs a few milliseconds more on the way


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema shipped in ``loa_memory/schemas`` (``memory``, ``config``, ...)."""
    result: dict[str, Any] = json.loads((_SCHEMAS / f"{name}.schema.json").read_text("utf-8"))
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
    result: dict[str, Any] = json.loads(_memory_schema_text(tuple(categories)))
    return result


def schema_key(categories: Iterable[Category]) -> str:
    """A digest that changes whenever validation results could change."""
    return hashlib.blake2b(_memory_schema_text(tuple(categories)).encode(), digest_size=12).hexdigest()


@functools.lru_cache(maxsize=8)
def _memory_schema_text(categories: tuple[Category, ...]) -> str:
    schema = copy.deepcopy(load_schema("memory"))
    schema["properties"]["category"] = {"enum": [c.name for c in categories]}
    rules = [rule for rule in schema["allOf"]
             if "confidence" not in rule.get("then", {}).get("properties", {})]
    for cat in categories:
        if cat.min_confidence > 0:
            rules.append({"if": {"properties": {"category": {"const": cat.name}}, "required": ["category"]},
                          "then": {"properties": {"confidence": {"minimum": cat.min_confidence}}}})
    schema["allOf"] = rules
    return json.dumps(schema, sort_keys=True)


@functools.cache
def _validator(schema_json: str) -> Any:
    """A compiled validator: jsonschema-rs (fast; 24 ms for 10k entries), else the jsonschema package."""
    schema = json.loads(schema_json)
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - exercised by test_schema_fallback
        return _PyValidator(schema)
    return _RsValidator(jsonschema_rs.validator_for(schema, validate_formats=True,
                                                    formats={"date-time": is_datetime}))


class _RsValidator:
    def __init__(self, compiled: Any) -> None:
        self.compiled = compiled

    def problems(self, instance: Any) -> list[SchemaProblem]:
        if self.compiled.is_valid(instance):
            return []
        found = []
        for error in self.compiled.iter_errors(instance):
            path = tuple(error.instance_path)
            kind = error.kind
            if kind.name == "additionalProperties":
                found += [SchemaProblem((*path, key), f"unknown field {key!r} in {_where(path)}")
                          for key in kind.unexpected if not str(key).startswith("x-")]
                continue
            found.append(SchemaProblem(path, _message(kind.name, path, error.instance, error.message,
                                                      getattr(kind, "value", None))))
        return found


class _PyValidator:
    def __init__(self, schema: dict[str, Any]) -> None:
        import jsonschema

        checker = jsonschema.FormatChecker(formats=())
        checker.checks("date-time")(is_datetime)
        self.compiled = jsonschema.validators.validator_for(schema)(schema, format_checker=checker)

    def problems(self, instance: Any) -> list[SchemaProblem]:
        found = []
        for error in self.compiled.iter_errors(instance):
            for leaf in _leaves(error):
                path = tuple(leaf.absolute_path)
                if leaf.validator == "additionalProperties":
                    known = set(leaf.schema.get("properties", {}))
                    found += [SchemaProblem((*path, key), f"unknown field {key!r} in {_where(path)}")
                              for key in sorted(map(str, leaf.instance))
                              if key not in known and not key.startswith("x-")]
                    continue
                found.append(SchemaProblem(path, _message(str(leaf.validator), path, leaf.instance, leaf.message,
                                                          leaf.validator_value)))
        return found


_LAST: list[Any] = [None, None]  # (schema object, validator): loads validate thousands of items against one


def validate(instance: Any, schema: dict[str, Any]) -> list[SchemaProblem]:
    """Every violation of ``schema`` by ``instance``, in document order, without duplicates."""
    if _LAST[0] is not schema:
        _LAST[:] = [schema, _validator(json.dumps(schema, sort_keys=True))]
    problems = _LAST[1].problems(instance)
    unique = list(dict.fromkeys(problems))
    return sorted(unique, key=lambda p: [str(s) for s in p.path])


def _leaves(error: Any) -> list[Any]:
    if error.validator in ("allOf", "if", "then") and error.context:
        return [leaf for e in error.context for leaf in _leaves(e)] or [error]
    return [error]


def _where(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path) or "entry"


def _short(value: Any) -> str:
    """A rejected value as a message may quote it: in full when short and made of short runs (a typo in a date
    or an id is worth seeing), else by its start and length, so that a pasted token or key is never printed."""
    if isinstance(value, str) and re.search(r"[A-Za-z0-9_+/=]{16,}", value):
        return f"'{value[:4]}…' ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= 60 else text[:45] + "…" + text[-10:]


def _message(kind: str, path: tuple[Any, ...], instance: Any, fallback: str, value: Any) -> str:
    where = _where(path)
    if kind == "required":
        missing = value if isinstance(value, str) else fallback.split("'")[1] if "'" in fallback else fallback
        return f"{where}: {missing!s} is required"
    if kind == "enum":
        return f"{where}: {_short(instance)} is not one of {', '.join(map(str, value or []))}"
    if kind == "pattern":
        return f"{where}: {_short(instance)} does not match {value}"
    if kind == "format":
        return f"{where}: {_short(instance)} is not a {value} (e.g. 2026-02-01T10:30:00Z)"
    if kind == "minLength" and instance == "":
        return f"{where} is empty"
    if kind in ("maxLength", "minLength") and isinstance(instance, str):
        limit = value if isinstance(value, int) else "the limit"
        size = "longer" if kind == "maxLength" else "shorter"
        return f"{where}: {len(instance)} characters, {size} than {limit}"
    if kind == "minimum" and where.endswith("confidence"):
        return f"{where}: {instance} is below this category's minimum of {value}"
    if kind == "type":
        wanted = value if isinstance(value, str) else " or ".join(map(str, value or []))
        got = "null" if instance is None else type(instance).__name__
        return f"{where}: expected {wanted}, got {got} {_short(instance)}"
    return f"{where}: {fallback}"
