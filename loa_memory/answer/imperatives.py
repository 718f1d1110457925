"""The one-line cues put in front of an agent, the same at ``recall``, at a tool call and in the session brief:
``BEFORE <trigger>: <lesson>``, ``PREFER (when <context>): <summary>``, ``FOLLOW <summary>``. A graduated cue
points to where its lesson lives now instead of repeating it."""

from __future__ import annotations

from loa_memory.model import Entry, headline


def correction_line(entry: Entry, trigger: str) -> str:
    """``BEFORE <trigger>: <lesson> (id)``, ``trigger`` being the phrasing that matched (or the first)."""
    trigger = trigger.rstrip(".")
    if entry.graduated_to:
        return f"BEFORE {trigger}: follow the convention in {entry.graduated_to} ({entry.id}, graduated)"
    return f"BEFORE {trigger}: {(entry.lesson or entry.content).rstrip('.')} ({entry.id})"


def preference_line(entry: Entry) -> str:
    """``PREFER (when <context>): <summary> (id)``."""
    context = str(entry.data.get("context") or "").rstrip(".")
    where = f" (when {context})" if context else ""
    if entry.graduated_to:
        return f"PREFER{where}: follow the convention in {entry.graduated_to} ({entry.id}, graduated)"
    return f"PREFER{where}: {headline(entry).rstrip('.')} ({entry.id})"


def procedure_line(entry: Entry) -> str:
    """``FOLLOW <summary> (id; its steps: loa-memory show id)``: the steps are too long for a cue."""
    return f"FOLLOW {headline(entry).rstrip('.')} ({entry.id}; its steps: loa-memory show {entry.id})"
