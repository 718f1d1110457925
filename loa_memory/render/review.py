"""``review`` as Markdown for a pull-request comment."""

from __future__ import annotations

from typing import Any


def review_markdown(data: dict[str, Any]) -> str:
    lines = [f"## Memory changes in `{data['base']}..{data['head']}`", ""]
    several = len({a.get("world") for a in data["added"]}) > 1
    sections = [
        ("Added", [f"- `{a['world'] + '/' if several else ''}{a['id']}` ({a['category']}) {a['summary']}"
                   for a in data["added"]]),
        ("Superseded", [f"- `{s['old']}` → `{s['new']}`: ~~{s['before']}~~ → {s['after']}"
                        for s in data["superseded"]]),
        ("Archived", [f"- `{a['id']}` ({a['reason']}) {a['summary']}" for a in data["archived"]]),
        ("Effectiveness", [f"- `{e['id']}`: {e['before']} → {e['after']}" for e in data["effectiveness"]]),
        ("Confidence", [f"- `{c['id']}`: {c['before']} → {c['after']}" for c in data["confidence"]]),
        ("Lint findings in changed files", [f"- `{f['path']}:{f['line']}` [{f['severity']}] {f['message']} "
                                            f"({f['rule']})" for f in data["findings"]]),
    ]
    for title, items in sections:
        if items:
            lines += [f"### {title} ({len(items)})", *items, ""]
    if len(lines) == 2:
        lines.append("No memory changes.")
    return "\n".join(lines).rstrip() + "\n"
