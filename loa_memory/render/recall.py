"""Recall as Markdown, ready to paste into an agent's prompt."""

from __future__ import annotations

from typing import Any

from loa_memory.render.problems import context_line


def recall_markdown(data: dict[str, Any]) -> str:
    lines = [f"# Memory for: {_title(data['task'])}",
             f"_task type: {data['task_type']}; budget {data['budget']} tokens_", ""]
    if data["corrections"] or data["preferences"]:
        lines.append("## Before you start")
        lines += [f"- {c['imperative']}" for c in data["corrections"]]
        lines += [f"- {p['imperative']}" for p in data["preferences"]]
        lines.append("")
    if data["contradictions"]:
        lines += [*contradiction_lines(data["contradictions"]), ""]
    if data["index"]:
        lines.append("## Relevant memories")
        lines += [f"- {i['id']} [{i['category']}] {i['summary']}" for i in data["index"]]
        lines.append("")
    if data["timeline"]:
        lines.append("## Recent decisions")
        lines += [f"- {t['date']} {t['id']} {t['summary']}" for t in data["timeline"]]
        lines.append("")
    if data["entries"]:
        lines.append("## Details")
        for entry in data["entries"]:
            lines.append(f"### {entry['text'].splitlines()[0]}")
            lines += entry["text"].splitlines()[1:]
            lines.append("")
    if data.get("problems"):
        lines += [f"_{context_line(data['problems'])}_", ""]
    econ = data["economics"]
    lines.append(f"_tokens: {econ['total_tokens']} of {econ['budget']} (discovery {econ['discovery_tokens']}, "
                 f"read {econ['read_tokens']}, cues {econ['cue_tokens']}); loading everything would cost "
                 f"{econ['full_load_tokens']} (saved {econ['savings_pct']}%)_")
    if data.get("recall_id"):
        lines.append(f"_recall {data['recall_id']}, weight profile {data['profile']['name']} "
                     f"({data['profile']['selected_by']})_")
    for warning in data.get("warnings", []):
        lines.append(f"_note: {warning}_")
    return "\n".join(lines)


def _title(task: str, width: int = 100) -> str:
    """The task's first line, cut to ``width`` (a hook passes whole prompts, pasted code included)."""
    first = task.strip().splitlines()[0] if task.strip() else ""
    return first if len(first) <= width else first[:width - 1].rstrip() + "…"


def contradiction_lines(pairs: list[dict[str, Any]]) -> list[str]:
    """A Markdown section naming both sides of every unresolved contradiction."""
    lines = ["## Conflicting memories"]
    for pair in pairs:
        note = f" ({pair['note']})" if pair.get("note") else ""
        lines.append(f"- conflicting memories{note}: {pair['a']} says \"{pair['a_says']}\"; {pair['b']} says "
                     f"\"{pair['b_says']}\"; resolve with `loa-memory supersede` (the one that no longer holds)")
    return lines
