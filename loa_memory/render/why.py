"""Text rendering of ``why`` answers: each memory, why it is there, and for decisions what was rejected."""

from __future__ import annotations

from typing import Any

_EXTRA = (("trigger", "Before"), ("lesson", "Lesson"), ("error", "Error"), ("resolution", "Resolution"),
          ("evidence", "Evidence"))


def _item_lines(rec: dict[str, Any], show_world: bool) -> list[str]:
    world = f"{rec['world']}/" if show_world else ""
    lines = [f"{rec['category'].capitalize()} {world}{rec['id']} ({rec['status']}): {rec['summary']}"]
    if rec.get("superseded_by"):
        lines.append(f"  Superseded by {rec['superseded_by']}")
    if rec.get("rationale"):
        lines.append(f"  Rationale: {rec['rationale']}")
    for alt in rec.get("alternatives") or []:
        because = f" — {alt['rejected_because']}" if alt.get("rejected_because") else ""
        lines.append(f"  Rejected: {alt['option']}{because}")
    entry = rec.get("entry") or {}
    for key, label in _EXTRA:
        value = entry.get(key)
        if value:
            lines.append(f"  {label}: {'; '.join(map(str, value)) if isinstance(value, list) else value}")
    negative = rec.get("negative") or {}
    if negative.get("attempted"):
        failed = f" — failed: {negative['failure_reason']}" if negative.get("failure_reason") else ""
        lines.append(f"  Tried: {negative['attempted']}{failed}")
    elif negative.get("failure_reason"):
        lines.append(f"  Failed: {negative['failure_reason']}")
    if negative.get("led_to"):
        summary = f": {negative['led_to_summary']}" if negative.get("led_to_summary") else ""
        lines.append(f"  Led to: {negative['led_to']}{summary}")
    for old in rec.get("supersedes") or []:
        lines.append(f"  Replaces: {old['id']} ({old['status']}): {old['summary']}")
    lines.extend(f"  because {reason['text']}" for reason in rec["reasons"])
    return lines


def why_text(data: dict[str, Any]) -> str:
    """The text of a ``why`` answer (``data`` is ``why_record``'s shape)."""
    if not data["results"]:
        lines = [f"no memories explain {data['path'] or repr(data['target'])}"]
        if data["mode"] == "path":
            lines.append("  hint: record one with `loa-memory add decision ... --artifact PATH`, "
                         "or name it in a commit trailer `Memory: MEM-...`")
    else:
        lines = [f"why {data['path'] or repr(data['target'])}:"]
        for thread in data.get("threads") or []:
            lines += ["", f"Thread {thread['name']} ({len(thread['members'])} entries, oldest first):"]
            for member in thread["members"]:
                why = f" — {member['rationale']}" if member.get("rationale") else ""
                lines.append(f"  {member['date']} {member['id']} {member['category']} ({member['status']}): "
                             f"{member['summary']}{why}")
        for rec in data["results"]:
            lines.append("")
            lines.extend(_item_lines(rec, bool(data.get("multiple_worlds"))))
    for warning in data.get("warnings", []):
        lines.append(f"note: {warning}")
    return "\n".join(lines)
