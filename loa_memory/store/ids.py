"""Memory ids: ``MEM-{YYYYMMDD}-{sequence}``, unique across every world and archive."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

ID_RE = re.compile(r"^MEM-([0-9]{8})-([0-9]{3,})$")


def is_valid_id(value: object) -> bool:
    return isinstance(value, str) and ID_RE.match(value) is not None


def shown_id(value: object) -> str:
    """``value`` quoted for an error message when it is a well-formed id; anything else (a mistyped id, a pasted
    token) only by its first characters and length, so that an error never prints what it refused."""
    text = str(value)
    if is_valid_id(text) or (len(text) <= 12 and text.isprintable()):
        return repr(text)
    return f"'{text[:4]}…' ({len(text)} characters, not an id of the form MEM-YYYYMMDD-NNN)"


def next_id(used: Iterable[str], day: date) -> str:
    """The next free id of ``day``: one past the highest sequence already used that day."""
    prefix = f"MEM-{day:%Y%m%d}-"
    highest = 0
    for memory_id in used:
        if memory_id.startswith(prefix):
            tail = memory_id[len(prefix):]
            if tail.isdigit():
                highest = max(highest, int(tail))
    return f"{prefix}{highest + 1:03d}"
