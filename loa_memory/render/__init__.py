"""Formatting output: the only code that turns results into text, JSON or YAML."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

Format = Literal["text", "json", "yaml"]
FORMATS: tuple[str, ...] = ("text", "json", "yaml")


def to_json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)


def to_yaml(data: Any) -> str:
    import yaml

    return str(yaml.safe_dump(json.loads(to_json(data)), sort_keys=False, allow_unicode=True, width=100))


def render(data: Any, fmt: str, text: Callable[[Any], str]) -> str:
    """``data`` as JSON, YAML, or through the command's own ``text`` renderer."""
    if fmt == "json":
        return to_json(data)
    if fmt == "yaml":
        return to_yaml(data).rstrip("\n")
    return text(data)
