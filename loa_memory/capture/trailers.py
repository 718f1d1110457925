"""Memory trailers in a commit message: ``Decision:``, ``Learning:``, ``Error:``, ``Fact:``, ``Preference:``,
``Correction:``, and the trailers that qualify them.

Trailers follow git's rules (``git interpret-trailers --parse``): they sit in the message's last paragraph,
never in the subject; a line that starts with whitespace continues the trailer above it; keys are matched
without regard to case. ::

    Switch the session store to Redis

    Decision: Use Redis for sessions because the API now runs on three hosts.
    Rationale: sticky sessions broke blue-green deploys
    Correction: never call flush() from a request handler
    Trigger: clearing a cache from a web request
    Lesson: schedule a background job instead

A qualifier (``Resolution:`` for an error, ``Trigger:``/``Lesson:`` for a correction, ``Rationale:`` for a
decision, ``Context:`` for a preference) belongs to the nearest memory trailer of its category above it,
or, if there is none above, to the first one below it.
"""

from __future__ import annotations

import re
from typing import Any

CATEGORY_BY_KEY = {"decision": "decision", "learning": "learning", "error": "error", "fact": "fact",
                   "preference": "preference", "correction": "correction"}
QUALIFIER_BY_KEY = {"resolution": ("error", "resolution"), "trigger": ("correction", "trigger"),
                    "lesson": ("correction", "lesson"), "rationale": ("decision", "rationale"),
                    "context": ("preference", "context")}
_TRAILER = re.compile(r"^([A-Za-z0-9][A-Za-z0-9-]*)[ \t]*:[ \t]*(.*)$")
# trailers git itself writes; with one of them, a paragraph counts as trailers at 25% trailer lines
_GIT_KEYS = {"signed-off-by", "co-authored-by", "reviewed-by", "acked-by", "change-id"}


def _paragraphs(message: str) -> list[list[str]]:
    paragraphs: list[list[str]] = [[]]
    for line in message.strip("\n").splitlines():
        if line.strip():
            paragraphs[-1].append(line.rstrip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return [p for p in paragraphs if p]


def parse_trailers(message: str) -> list[tuple[str, str]]:
    """``(key, value)`` pairs of the message's trailer block, keys lower-cased, continuation lines unfolded."""
    paragraphs = _paragraphs(message)
    if len(paragraphs) < 2:
        return []
    block = paragraphs[-1]
    pairs: list[tuple[str, str]] = []
    others = 0
    for line in block:
        match = _TRAILER.match(line)
        if line[:1] in " \t" and pairs:
            key, value = pairs[-1]
            pairs[-1] = (key, f"{value} {line.strip()}".strip())
        elif match:
            pairs.append((match[1].lower(), match[2].strip()))
        else:
            others += 1
    if not pairs:
        return []
    if others and not (any(key in _GIT_KEYS for key, _ in pairs) and len(pairs) * 3 >= others):
        return []
    return [(key, value) for key, value in pairs if value]


def trailer_memories(message: str) -> list[dict[str, Any]]:
    """One ``{category, content, ...qualifiers}`` dict per memory trailer, in message order."""
    memories: list[dict[str, Any]] = []
    pending: list[tuple[str, str, str]] = []  # qualifiers seen before any memory of their category
    for key, value in parse_trailers(message):
        if key in CATEGORY_BY_KEY:
            memory: dict[str, Any] = {"category": CATEGORY_BY_KEY[key], "content": value}
            for item in [p for p in pending if p[0] == memory["category"]]:
                memory.setdefault(item[1], item[2])
                pending.remove(item)
            memories.append(memory)
        elif key in QUALIFIER_BY_KEY:
            category, field = QUALIFIER_BY_KEY[key]
            owner = next((m for m in reversed(memories) if m["category"] == category), None)
            if owner is None:
                pending.append((category, field, value))
            else:
                owner.setdefault(field, value)
    return memories
