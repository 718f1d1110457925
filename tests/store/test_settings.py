"""Config defaults live in one module (store/settings.py); the config schema states the same defaults."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path

from loa_memory.store.settings import SECTIONS, defaults, plain

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "loa_memory" / "schemas" / "config.schema.json").read_text())["properties"][
    "memory_schema"]["properties"]


def test_every_setting_has_the_same_default_in_the_schema() -> None:
    for name, value in defaults().items():
        if name not in SECTIONS:
            assert SCHEMA[name].get("default") == value, name
    for name, record in SECTIONS.items():
        keys = {f.name for f in fields(record)}
        assert keys == set(SCHEMA[name]["properties"]), name
        for f in fields(record):
            assert SCHEMA[name]["properties"][f.name]["default"] == plain(getattr(record(), f.name)), (name, f.name)


def test_every_setting_the_code_reads_is_a_known_key_with_a_default() -> None:
    """Reads go through the typed records (``config.lifecycle.warn_before_archive_days``), never a raw section
    dict with a default of its own at the call site."""
    read = set()
    for path in (ROOT / "loa_memory").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"\.section\(", text), f"{path}: reads a raw config section"
        read |= set(re.findall(r"\bconfig\.(" + "|".join(SECTIONS) + r")\.(\w+)", text))
        for var, section in re.findall(r"(\w+) = \w+(?:\.\w+)*config\.(" + "|".join(SECTIONS) + r")\b", text):
            read |= {(section, key) for key in re.findall(rf"\b{var}\.(\w+)", text)}
    assert read, "no setting read found: the pattern above is out of date"
    for section, key in sorted(read):
        assert "default" in SCHEMA[section]["properties"].get(key, {}), f"{section}.{key} has no schema default"
