"""Memory ids: ``MEM-{YYYYMMDD}-{suffix}``, unique across every world and archive.

Two id styles (``memory_schema.id_style``):

- ``loa``: ``MEM-20260201-001``, a sequence per day, Loa's own form. Two branches that each add the day's
  first memory both take ``-001``: ``lint --base`` reports it before the merge, ``lint --fix`` repairs it after.
- ``random``: ``MEM-20260201-k3x9qa``, six random characters of ``[0-9a-z]`` (at least one letter, so it never
  reads as a sequence): 2.2e9 values a day, so two branches that add 40 memories each on one day share an
  id with a probability of about 1e-6. The default of a grimoire in the ``entries`` layout.

Both fit the one pattern ``^MEM-[0-9]{8}-[0-9a-z]{3,}$`` that the schema, the lint rules and every reader use.
"""

from __future__ import annotations

import re
import secrets
import string
from collections.abc import Iterable
from datetime import date
from typing import Literal

IdStyle = Literal["loa", "random"]
ID_RE = re.compile(r"^MEM-([0-9]{8})-([0-9a-z]{3,})$")
ID_PATTERN = "MEM-[0-9]{8}-[0-9a-z]{3,}"  # unanchored, for finding ids in text
SUFFIX_LENGTH = 6
_ALPHABET = string.digits + string.ascii_lowercase


def is_valid_id(value: object) -> bool:
    return isinstance(value, str) and ID_RE.match(value) is not None


def shown_id(value: object) -> str:
    """``value`` quoted for an error message when it is a well-formed id; anything else (a mistyped id, a pasted
    token) only by its first characters and length, so that an error never prints what it refused."""
    text = str(value)
    if is_valid_id(text) or (len(text) <= 12 and text.isprintable()):
        return repr(text)
    return f"'{text[:4]}…' ({len(text)} characters, not an id of the form MEM-YYYYMMDD-NNN)"


def next_id(used: Iterable[str], day: date, style: IdStyle = "loa") -> str:
    """A free id of ``day``: one past the highest sequence used that day (``loa``), or a random suffix."""
    prefix = f"MEM-{day:%Y%m%d}-"
    if style == "random":
        taken = set(used)
        while True:
            suffix = "".join(secrets.choice(_ALPHABET) for _ in range(SUFFIX_LENGTH))
            if not suffix.isdigit() and prefix + suffix not in taken:
                return prefix + suffix
    highest = 0
    for memory_id in used:
        if memory_id.startswith(prefix):
            tail = memory_id[len(prefix) :]
            if tail.isdigit():
                highest = max(highest, int(tail))
    return f"{prefix}{highest + 1:03d}"
