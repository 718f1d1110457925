"""The text an embedder sees for a memory, and the hash that keys its cached vector."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from loa_memory.model import Entry


def embedding_text(entry: Entry) -> str:
    """Summary, then content, then tags: the words a paraphrased question is most likely to meet.

    The summary comes first because models truncate from the end (256 word pieces for MiniLM).
    """
    parts = [entry.summary.strip(), entry.content.strip()]
    for key in ("lesson", "trigger", "rationale", "resolution", "attempted", "failure_reason"):
        value = entry.data.get(key)
        if isinstance(value, str) and value.strip():
            parts.append(value.strip())
    if entry.tags:
        parts.append("Tags: " + ", ".join(entry.tags))
    return "\n".join(p for p in parts if p)


def text_hash(text: str) -> str:
    """A stable key for a text's vector (sha256, hex), independent of the embedder."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
