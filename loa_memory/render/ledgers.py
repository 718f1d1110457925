"""Text renderings of ledger checkpoints and handoffs."""

from __future__ import annotations

from typing import Any


def memory_line(rec: dict[str, Any]) -> str:
    """A referenced memory: id, category, status, summary, and its successor if it was superseded."""
    if not rec.get("exists"):
        return f"{rec['id']} (missing)"
    line = f"{rec['id']} ({rec['category']}, {rec['status']}) {rec['summary']}"
    successor = rec.get("superseded_by")
    if successor:
        line += f"\n      now: {successor['id']} ({successor['status']}) {successor['summary']}"
    return line


def _git_line(state: dict[str, Any] | None) -> list[str]:
    if not state:
        return []
    where = f"branch {state['branch']}" if state.get("branch") else "detached HEAD"
    at = f" at {state['commit'][:12]}" if state.get("commit") else " (no commit yet)"
    files = state.get("dirty_files") or []
    dirty = f"; uncommitted: {', '.join(files[:8])}" + (" ..." if len(files) > 8 else "") if files else "; clean"
    return [f"Git: {where}{at}{dirty}"]


def _items(title: str, items: list[str]) -> list[str]:
    return [f"{title}:", *(f"  - {item}" for item in items)] if items else []


def handoff_text(rec: dict[str, Any]) -> str:
    """One handoff in full."""
    lines = [f"Handoff {rec['id']} from {rec['from']} to {rec['to']} ({rec['at'][:16].replace('T', ' ')}, "
             f"world {rec['world']})", f"  {rec['summary']}"]
    lines += _items("Done", rec["done"])
    if rec["artifacts"]:
        lines.append(f"Artifacts: {', '.join(rec['artifacts'])}")
    lines += _items("Next steps", rec["next_steps"]) + _items("Known issues", rec["known_issues"])
    lines += _git_line(rec.get("git_state"))
    lines += _items("Memories", [memory_line(m) for m in rec["memories"]])
    accepted = rec.get("accepted")
    lines.append(f"Accepted by {accepted['by']} at {accepted['at']} ({accepted['id']})" if accepted
                 else "Pending: not accepted yet")
    return "\n".join(lines)


def accept_text(data: dict[str, Any]) -> str:
    lines = [handoff_text(data["handoff"])]
    if data["already_accepted"]:
        lines.append("(it had been accepted before; nothing was written)")
    elif data["acceptance"]:
        acc = data["acceptance"]
        lines.append(f"recorded the acceptance as {acc['id']} at {acc['path']}:{acc['line']}")
    if data["pending"]:
        lines.append(f"still pending for you: {', '.join(data['pending'])}")
    return "\n".join(lines)


def handoff_list_text(data: dict[str, Any]) -> str:
    lines = []
    for rec in data["handoffs"]:
        state = f"accepted by {rec['accepted']['by']}" if rec["accepted"] else "pending"
        lines.append(f"{rec['id']}  {rec['at'][:10]}  {rec['from']} → {rec['to']}  [{state}]  {rec['summary']}")
    lines.append(f"{data['count']} handoff{'' if data['count'] == 1 else 's'}")
    return "\n".join(lines)


def checkpoint_text(rec: dict[str, Any]) -> str:
    """One ledger checkpoint."""
    lines = [f"{rec['agent']} ({rec['status']}) since {rec['at'][:16].replace('T', ' ')}: {rec['task']}  "
             f"[{rec['id']}, world {rec['world']}]"]
    if rec["files_modified"]:
        lines.append(f"  files modified: {', '.join(rec['files_modified'])}")
    lines += [f"  pattern: {memory_line(m)}" for m in rec["patterns"]]
    return "\n".join(lines)


def ledger_text(data: dict[str, Any]) -> str:
    if data["latest"] is None:
        return f"no checkpoint of {data['agent']} yet (`loa-memory ledger checkpoint --agent {data['agent']}`)"
    lines = [checkpoint_text(data["latest"])]
    earlier = data["history"][1:]
    if earlier:
        lines.append("earlier:")
        lines += [f"  {h['at'][:16].replace('T', ' ')} {h['id']} ({h['status']}) {h['task']}" for h in earlier]
    return "\n".join(lines)
