"""Text of ``graduate``: the proposal or what was written, and meta-cue domains."""

from __future__ import annotations

from typing import Any


def _eligibility_line(data: dict[str, Any]) -> str:
    ready = data["eligibility"]
    score = "none" if ready["score"] is None else ready["score"]
    line = (f"  fired in {ready['fired_sessions']} sessions (needs {ready['min_sessions']}), "
            f"{ready['successes']} successes (needs {ready['min_successes']}), score {score} "
            f"(needs {ready['min_score']})")
    return line + (" — graduated with --force" if data["forced"] else "")


def graduate_text(data: dict[str, Any]) -> str:
    """``graduate MEM-...`` and ``graduate --meta`` (``data`` is graduation_record's or meta_record's shape)."""
    if data["mode"] == "meta":
        return _meta_text(data)
    what = "a procedure" if data["as"] == "procedure" else "a lint rule stub"
    if data["applied"]:
        lines = [f"graduated {data['id']} ({data['category']}) to {what}: {data['pointer']}", _eligibility_line(data)]
        for write in data["writes"]:
            where = f"{write['path']}:{write['line']}" if write.get("line") else write["path"]
            lines.append(f"  wrote {where}" + (f": {write['text']}" if write["kind"] == "patch" else ""))
        lines.append("  review and commit it (`git diff`); recall now points to the convention")
        return "\n".join(lines)
    lines = [f"proposal: graduate {data['id']} ({data['category']}) to {what}: {data['pointer']}",
             _eligibility_line(data)]
    for write in data["writes"]:
        if write["kind"] == "patch":
            lines.append(f"  would add to {write['path']}:{write['line']}: {write['text']}")
            continue
        lines.append(f"  would write {write['path']}:")
        lines += [f"    | {line}" for line in write["text"].rstrip("\n").split("\n")]
    lines.append("nothing was written; run again with --yes to write it")
    return "\n".join(lines)


def _meta_text(data: dict[str, Any]) -> str:
    lines = []
    for domain in data["domains"]:
        ids = ", ".join(domain["corrections"])
        head = f"domain {domain['label']} ({domain['basis']}): {len(domain['corrections'])} corrections {ids}"
        if domain["covered_by"]:
            lines.append(f"{head}\n  covered by meta-cue {domain['covered_by']}")
            continue
        proposal = domain["proposal"]
        verb = "wrote" if data["applied"] else "would write"
        replaces = f" (superseding {domain['supersedes']})" if domain["supersedes"] else ""
        lines += [head, f"  {verb} {proposal['id']}{replaces}: {proposal['summary']}",
                  f"  BEFORE {proposal['trigger']}: {proposal['lesson']}"]
    if not data["domains"]:
        lines.append(f"no domain has {data['min_corrections']} or more active corrections")
    elif not data["applied"] and any(not d["covered_by"] for d in data["domains"]):
        lines.append("nothing was written; run again with --yes to write the meta-cues")
    return "\n".join(lines)
