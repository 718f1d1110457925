"""Text and Markdown renderings of the lifecycle commands: archive, feedback, promote, score, session, stats."""

from __future__ import annotations

from typing import Any

from loa_memory.render.recall import contradiction_lines
from loa_memory.store.times import days_phrase


def archive_text(data: dict[str, Any]) -> str:
    verb = "would archive" if data["dry_run"] else "archived"
    lines = []
    for item in data["entries"]:
        where = f" -> {item['destination']}" if item.get("destination") else ""
        lines.append(f"{item['path']}:{item['line']}: {verb} {item['id']} ({item['reason']}: {item['detail']})"
                     f"{where}")
    for item in data["expiring_soon"]:
        lines.append(f"{item['path']}:{item['line']}: [warning] {item['id']} expires {days_phrase(item['days_left'])} "
                     f"({item['expires_at']}); renew it with `loa-memory supersede` if it still holds")
    for item in data["kept"]:
        lines.append(f"kept {item['id']}: {item['why']}")
    count = len(data["entries"])
    if data["dry_run"]:
        lines.append(f"{count} entr{'y' if count == 1 else 'ies'} due for archival"
                     + (" (run `loa-memory archive`)" if count else ""))
    else:
        lines.append(f"archived {count} entr{'y' if count == 1 else 'ies'}")
    return "\n".join(lines)


def feedback_text(data: dict[str, Any]) -> str:
    if not data["memory_id"]:
        return (f"recorded {data['outcome']} for recall {data['recall_id']}; "
                "`loa-memory weights summarize` counts it for the profile that served it")
    via = f" in recall {data['recall_id']}" if data.get("recall_id") else ""
    return (f"recorded {data['outcome']} for {data['memory_id']} ({data['summary']}){via}; "
            "`loa-memory score` folds it in")


def score_text(data: dict[str, Any]) -> str:
    lines = []
    for item in data["updated"]:
        after = item["after"]
        lines.append(f"{item['id']}: {after['successes']}/{after['applications']} successful, score {after['score']}")
    for item in data["queued_for_archival"]:
        eff = item["effectiveness"]
        lines.append(f"{item['id']}: ineffective (score {eff['score']} after {eff['applications']} applications), "
                     "queued for archival: `loa-memory archive` retires it")
    lines.append(f"folded {data['folded_events']} event(s) into {len(data['updated'])} entr"
                 f"{'y' if len(data['updated']) == 1 else 'ies'}"
                 + (f"; {data['pending_events']} event(s) for memories not in this checkout stay pending"
                    if data["pending_events"] else ""))
    return "\n".join(lines)


_LAYERS = (("telos", "## Purpose (telos)"), ("handoffs", "## Handoffs to you (pending)"),
           ("ledger", "## Your last checkpoint"), ("corrections", "## Before you act"),
           ("preferences", "## Preferences"), ("decisions", "## Recent decisions"), ("episodes", "## Recent sessions"))


def session_markdown(data: dict[str, Any]) -> str:
    lines = ["# Session brief" + (f" for {data['agent']}" if data.get("agent") else ""), ""]
    several = len({item["world"] for key, _ in _LAYERS for item in data.get(key) or []}) > 1
    for key, title in _LAYERS:
        if not data.get(key):
            continue
        lines.append(title)
        for n, item in enumerate(data[key]):
            if key == "telos":
                head, _, body = item["text"].partition("\n")
                world = f" (world {item['world']})" if several else ""
                lines += ([""] if n else []) + [f"### {head}{world}"] + ([body] if body else [])
            else:
                lines.append(f"- {item['text']}")
        lines.append("")
    if data.get("contradictions"):
        lines += [*contradiction_lines(data["contradictions"]), ""]
    omitted = data["omitted"]
    lines.append(f"_tokens: {data['tokens']} of {data['budget']}"
                 + (f"; left out for the budget: {', '.join(o['id'] for o in omitted)}" if omitted else "") + "_")
    check = data.get("expiry_check")
    if check and (check["entries"] or check["expiring_soon"]):
        lines += ["", "## Expiry check"]
        lines += [f"- due for archival: {i['id']} ({i['reason']}: {i['detail']})" for i in check["entries"]]
        lines += [f"- expires {days_phrase(i['days_left'])}: {i['id']} {i['summary']}" for i in check["expiring_soon"]]
        if check["entries"]:
            lines.append("- run `loa-memory archive` to move what is due")
    return "\n".join(lines)


def stats_text(data: dict[str, Any]) -> str:
    def counts(values: dict[str, int]) -> str:
        return ", ".join(f"{k} {v}" for k, v in values.items()) or "none"

    usage = data["usage"]
    lines = [f"entries: {data['entries']} ({counts(data['by_world'])})",
             f"by category: {counts(data['by_category'])}",
             f"by status: {counts(data['by_status'])}",
             f"by effectiveness tier (active): {counts(data['by_tier'])}",
             f"due for archival: {counts(data['due_for_archival'])}",
             f"expiring within {data['warn_before_archive_days']} days: {len(data['expiring_soon'])}"]
    lines += [f"  {e['id']} {days_phrase(e['days_left'])}: {e['summary']}" for e in data["expiring_soon"]]
    lines.append(f"usage events: {usage['events']} ({usage['pending']} not yet folded by `loa-memory score`)")
    if data["problems"]:
        lines.append(f"problems in memory files: {data['problems']} (`loa-memory lint`)")
    lines.append("last runs:")
    for job, run in data["last_runs"].items():
        if run is None:
            lines.append(f"  {job}: never")
        else:
            lines.append(f"  {job}: {run['at']} ({counts(run.get('summary') or {})})")
    return "\n".join(lines)


def promote_text(data: dict[str, Any]) -> str:
    verb = "would promote" if data["dry_run"] else "promoted"
    lines = []
    for item in data["promoted"]:
        where = f"{item['path']}:{item['line']}: " if not data["dry_run"] else ""
        lines.append(f"{where}{verb} {item['id']} ({item['category']}) from {len(item['episodes'])} episodes in "
                     f"{len(item['sessions'])} sessions: {item['summary']}")
    for item in data["already_promoted"]:
        lines.append(f"already promoted as {item['id']}: {item['summary']} ({len(item['episodes'])} episodes)")
    for item in data["below_threshold"]:
        lines.append(f"not yet: {item['kind']} seen in {len(item['sessions'])} of {data['min_sessions']} sessions "
                     f"({', '.join(item['episodes'])}): {item['summary']}")
    lines.extend(f"[warning] {warning}" for warning in data["warnings"])
    count = len(data["promoted"])
    lines.append(f"{verb} {count} cluster{'' if count == 1 else 's'} of {data['considered']} cue episodes "
                 f"(similarity >= {data['similarity_threshold']}"
                 + (f", corrections >= {data['correction_similarity']}" if "correction_similarity" in data else "")
                 + f", min {data['min_sessions']} sessions)")
    return "\n".join(lines)
