"""Text renderings of entries, lists and ``show`` records."""

from __future__ import annotations

import textwrap
from typing import Any

from loa_memory.model import replaced_ids

_STATUS_MARK = {"active": "", "superseded": " [superseded]", "expired": " [expired]", "archived": " [archived]"}


def entry_line(rec: dict[str, Any], *, show_world: bool = False) -> str:
    world = f"{rec['world']}/" if show_world else ""
    return f"{world}{rec['id']}  {rec['category']:<10}  {rec['summary']}{_STATUS_MARK.get(rec['status'], '')}"


def list_text(data: dict[str, Any]) -> str:
    records = data["entries"]
    worlds = {r["world"] for r in records}
    lines = [entry_line(r, show_world=len(worlds) > 1) for r in records]
    lines.append(f"{len(records)} memor{'y' if len(records) == 1 else 'ies'}")
    return "\n".join(lines)


_SKIP = {"id", "category", "summary", "content", "supersedes", "superseded_by"}


def _field(key: str, value: Any) -> list[str]:
    if isinstance(value, dict):
        inner = ", ".join(f"{k}: {v}" for k, v in value.items())
        return [f"  {key}: {inner}"]
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            return [f"  {key}:"] + ["    - " + ", ".join(f"{k}: {v}" for k, v in v.items()) for v in value]
        return [f"  {key}: {', '.join(map(str, value))}"]
    return [f"  {key}: {value}"]


def show_text(rec: dict[str, Any]) -> str:
    entry = rec["entry"]
    world = f"world {rec['world']}, " if rec.get("multiple_worlds") else ""
    lines = [f"{rec['id']} ({world}{rec['category']}, {rec['status']}) {rec['path']}:{rec['line']}"]
    if rec.get("resolved_from"):
        lines.append(f"  (found through its old id {rec['resolved_from']})")
    lines.append(f"  {rec['summary']}")
    lines.append("")
    lines.extend(textwrap.indent(str(entry.get("content", "")).rstrip(), "    ").splitlines())
    lines.append("")
    for key, value in entry.items():
        if key not in _SKIP:
            lines.extend(_field(key, value))
    if rec["supersedes_chain"]:
        lines.append("  supersedes:")
        lines.extend(f"    <- {r['id']} ({r['status']}) {r['summary']}" for r in rec["supersedes_chain"])
    if rec["superseded_by_chain"]:
        lines.append("  superseded by:")
        lines.extend(f"    -> {r['id']} ({r['status']}) {r['summary']}" for r in rec["superseded_by_chain"])
    for title, links in (("links", rec["links"]), ("linked from", rec["backlinks"])):
        if links:
            lines.append(f"  {title}:")
            for link in links:
                about = link["summary"] if link["exists"] else "(missing)"
                lines.append(f"    {link['relation']} {link['id']}: {about}")
    return "\n".join(lines)


def written_text(data: dict[str, Any]) -> str:
    lines = [f"{data['action']} {data['id']} ({data['category']}) at {data['path']}:{data['line']}"]
    if data.get("supersedes"):
        replaced = ", ".join(replaced_ids(data["supersedes"]))
        lines.append(f"  supersedes {replaced} (now marked superseded_by {data['id']})")
    return "\n".join(lines)


def telos_markdown(data: dict[str, Any]) -> str:
    """Telos entries (a ``list`` record) as Markdown: each one's summary as a heading, where it is, its text."""
    if not data["entries"]:
        return ("No telos yet. Operators write the project's purpose (who it serves, what matters, what is out of "
                "scope) in grimoires/<world>/memory/telos/<slug>.md.")
    parts = [f"# {rec['summary']}\n_{rec['id']} ({rec['world']}) {rec['path']}_\n\n"
             f"{str(rec['entry'].get('content', '')).strip()}" for rec in data["entries"]]
    return "\n\n".join(parts)
