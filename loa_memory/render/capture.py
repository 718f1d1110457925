"""Text rendering of a ``capture`` report: what was added, what was skipped and why."""

from __future__ import annotations

from typing import Any


def capture_text(data: dict[str, Any], *, quiet: bool = False) -> str:
    """One line per added entry and, unless ``quiet``, per skipped candidate, then a count."""
    verb = "would add" if data["dry_run"] else "added"
    lines = [f"{verb} {a['id']} ({a['category']}) at {a['path']}:{a['line']}  {a['summary']}" for a in data["added"]]
    if quiet:
        return "\n".join(lines)
    for skip in data["skipped"]:
        about = f"  {skip['summary']}" if skip["summary"] else ""
        lines.append(f"skipped {skip['origin']} [{skip['reason']}] {skip['detail']}{about}")
    lines.extend(f"note: {note}" for note in data["notes"])
    count = len(data["added"])
    lines.append(f"{verb} {count} memor{'y' if count == 1 else 'ies'}, skipped {len(data['skipped'])}"
                 + (" (dry run: nothing was written)" if data["dry_run"] else ""))
    return "\n".join(lines)


def post_commit_text(data: dict[str, Any]) -> str:
    """``capture --post-commit``: the added entries, then which files were staged for the next commit."""
    lines = [capture_text(data, quiet=True)] if data["added"] else []
    lines += [f"staged {path} (the new memories go with your next commit)" for path in data.get("staged", [])]
    return "\n".join(lines)


def secret_skip_line(origin: str, detail: str) -> str:
    """The stderr line for a candidate skipped because it holds a secret (``detail``: the gate's kinds)."""
    kinds = detail.removeprefix("the entry contains ")
    return f"loa-memory: NOT captured from {origin.rstrip(':')} trailer: it holds a secret ({kinds})"
