from __future__ import annotations

import sys

import pytest

from loa_memory.model import DEFAULT_CATEGORIES
from loa_memory.store import schema

GOOD = {"id": "MEM-20260101-001", "category": "decision", "content": "x", "confidence": 0.95,
        "source": {"session_id": "s", "timestamp": "2026-01-01T00:00:00Z"}}
BAD = [
    ({"confidence": 0.5}, ("confidence",), "below this category's minimum of 0.9"),
    ({"id": "../x"}, ("id",), "does not match"),
    ({"category": "rumour"}, ("category",), "'rumour' is not one of"),
    ({"alternatives": [{"rejected_because": "x"}]}, ("alternatives", 0), "option is required"),
    ({"confidence": "high"}, ("confidence",), "expected number"),
    ({"source": {"session_id": "s", "timestamp": "yesterday"}}, ("source", "timestamp"), "not a date-time"),
    ({"tags": ["Bad Tag"]}, ("tags", 0), "does not match"),
    ({"category": "correction", "confidence": 0.8}, (), "trigger is required"),
]


def _problems(instance: dict[str, object]) -> list[schema.SchemaProblem]:
    return schema.validate(instance, schema.memory_schema_for(DEFAULT_CATEGORIES))


@pytest.mark.parametrize(("change", "path", "words"), BAD)
def test_problems_name_the_field(change: dict[str, object], path: tuple[object, ...], words: str) -> None:
    problems = _problems(GOOD | change)
    assert any(p.path == path and words in p.message for p in problems), problems


def test_pure_python_fallback_reports_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [_problems(GOOD | change) for change, _, _ in BAD]
    monkeypatch.setitem(sys.modules, "jsonschema_rs", None)
    schema._validator.cache_clear()
    try:
        slow = [_problems(GOOD | change) for change, _, _ in BAD]
    finally:
        schema._validator.cache_clear()
    assert [[p.path for p in ps] for ps in slow] == [[p.path for p in ps] for ps in fast]
    for (_, path, words), problems in zip(BAD, slow, strict=True):
        assert any(p.path == path and words in p.message for p in problems), problems


@pytest.mark.parametrize(("value", "ok"), [
    ("2026-02-01T10:30:00Z", True), ("2026-02-01T10:30:00+02:00", True), ("2026-02-01T10:30:00", False),
    ("2026-02-01", False), ("2026-13-01T10:30:00Z", False), (5, True),
])
def test_is_datetime(value: object, ok: bool) -> None:
    assert schema.is_datetime(value) is ok
