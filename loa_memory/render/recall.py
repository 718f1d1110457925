"""Recall as Markdown, ready to paste into an agent's prompt."""

from __future__ import annotations

from typing import Any


def recall_markdown(data: dict[str, Any]) -> str:
    lines = [f"# Memory for: {data['task']}", f"_task type: {data['task_type']}; budget {data['budget']} tokens_", ""]
    if data["corrections"] or data["preferences"]:
        lines.append("## Before you start")
        lines += [f"- {c['imperative']}" for c in data["corrections"]]
        lines += [f"- {p['imperative']}" for p in data["preferences"]]
        lines.append("")
    if data["contradictions"]:
        lines.append("## Contradictions to resolve")
        lines += [f"- {c['a']} contradicts {c['b']}" for c in data["contradictions"]]
        lines.append("")
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
