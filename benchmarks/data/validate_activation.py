#!/usr/bin/env python3
"""Validate a blind activation set's files (corrections, PreToolUse calls, tasks and the sets derived from them):
schema, counts and cross-references.

Usage: python3 validate_activation.py --prefix LETTER [--without-derived] DIRECTORY   (ids LETTER01..LETTER40)
Each set's own validate.py runs this with its letter; the second set, written before bench_set.jsonl and
task_set.jsonl took their present shapes, with --without-derived (those two files are not checked). Exits non-zero and lists every problem found; prints a count
summary on success.
"""
import json
import re
import sys
import uuid
from collections import Counter
from pathlib import Path

_args = [a for a in sys.argv[1:] if a != "--without-derived"]
DERIVED = len(_args) == len(sys.argv) - 1
if len(_args) != 3 or _args[0] != "--prefix":
    sys.exit("usage: python3 validate_activation.py --prefix LETTER [--without-derived] DIRECTORY")
PREFIX = _args[1]
BASE = Path(_args[2])
errors: list[str] = []
warnings: list[str] = []


def err(msg: str) -> None:
    errors.append(msg)


def load_jsonl(name: str) -> list[dict]:
    path = BASE / name
    rows = []
    if not path.exists():
        err(f"{name}: missing")
        return rows
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                err(f"{name}:{n}: blank line")
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                err(f"{name}:{n}: invalid JSON: {e}")
                continue
            if not isinstance(obj, dict):
                err(f"{name}:{n}: not a JSON object")
                continue
            rows.append(obj)
    return rows


KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`'\"(])")
IDS = [f"{PREFIX}{i:02d}" for i in range(1, 41)]
TOOLS = {"Write", "Edit", "MultiEdit", "Bash", "Read", "Glob", "Grep"}
TOOL_KEYS = {
    "Write": ({"file_path", "content"}, set()),
    "Edit": ({"file_path", "old_string", "new_string"}, {"replace_all"}),
    "MultiEdit": ({"file_path", "edits"}, set()),
    "Bash": ({"command", "description"}, {"timeout", "run_in_background"}),
    "Read": ({"file_path"}, {"offset", "limit"}),
    "Glob": ({"pattern"}, {"path"}),
    "Grep": ({"pattern", "path"}, {"glob", "type", "output_mode", "-i", "-n"}),
}
HOOK_KEYS = {"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name", "tool_name", "tool_input"}


def nonempty_str(v) -> bool:
    return isinstance(v, str) and v.strip() != ""


# ---------------------------------------------------------------- corrections
corrections = load_jsonl("corrections.jsonl")
CORR_KEYS = {"id", "summary", "content", "trigger", "lesson", "tags", "artifacts"}
if len(corrections) != 40:
    err(f"corrections.jsonl: expected 40 lines, found {len(corrections)}")
for i, c in enumerate(corrections):
    where = f"corrections.jsonl:{i + 1}"
    if set(c) != CORR_KEYS:
        err(f"{where}: keys {sorted(c)} != {sorted(CORR_KEYS)}")
    if i < 40 and c.get("id") != IDS[i]:
        err(f"{where}: id {c.get('id')!r}, expected {IDS[i]}")
    for k in ("summary", "content", "trigger", "lesson"):
        if not nonempty_str(c.get(k)):
            err(f"{where}: {k} must be a non-empty string")
    if nonempty_str(c.get("summary")) and "\n" in c["summary"]:
        err(f"{where}: summary must be one line")
    if nonempty_str(c.get("content")):
        n = len(SENTENCE_SPLIT.split(c["content"].strip()))
        if not 2 <= n <= 4:
            err(f"{where}: content has ~{n} sentences, expected 2-4")
    if nonempty_str(c.get("lesson")):
        n = len(SENTENCE_SPLIT.split(c["lesson"].strip()))
        if not 1 <= n <= 2:
            err(f"{where}: lesson has ~{n} sentences, expected 1-2")
    if nonempty_str(c.get("trigger")) and len(c["trigger"].split()) > 12:
        warnings.append(f"{where}: trigger is long ({len(c['trigger'].split())} words)")
    tags = c.get("tags")
    if not (isinstance(tags, list) and 3 <= len(tags) <= 6):
        err(f"{where}: tags must be a list of 3-6 items")
    else:
        for t in tags:
            if not (isinstance(t, str) and KEBAB.match(t)):
                err(f"{where}: tag {t!r} is not lower-case kebab-case")
        if len(set(tags)) != len(tags):
            err(f"{where}: duplicate tags")
    arts = c.get("artifacts")
    if not (isinstance(arts, list) and len(arts) <= 3):
        err(f"{where}: artifacts must be a list of 0-3 globs")
    else:
        for a in arts:
            if not nonempty_str(a) or a.startswith("/"):
                err(f"{where}: artifact {a!r} must be a relative repository glob")
corr_ids = [c.get("id") for c in corrections]
if len(set(corr_ids)) != len(corr_ids):
    err("corrections.jsonl: duplicate ids")
corr_by_id = {c.get("id"): c for c in corrections}


# ---------------------------------------------------------------- hook input
def check_hook(where: str, h) -> str | None:
    if not isinstance(h, dict):
        err(f"{where}: hook_input must be an object")
        return None
    if set(h) != HOOK_KEYS:
        err(f"{where}: hook_input keys {sorted(h)} != {sorted(HOOK_KEYS)}")
    sid = h.get("session_id")
    try:
        uuid.UUID(str(sid))
    except ValueError:
        err(f"{where}: session_id {sid!r} is not a uuid")
    tp = h.get("transcript_path", "")
    if not re.fullmatch(r"/home/u/\.claude/projects/[^/]+/[0-9a-f-]{36}\.jsonl", str(tp)):
        err(f"{where}: transcript_path {tp!r} has the wrong shape")
    elif not str(tp).endswith(f"{sid}.jsonl"):
        err(f"{where}: transcript_path does not end with the session_id")
    if h.get("cwd") != "/repo":
        err(f"{where}: cwd must be /repo")
    if h.get("permission_mode") != "default":
        err(f"{where}: permission_mode must be 'default'")
    if h.get("hook_event_name") != "PreToolUse":
        err(f"{where}: hook_event_name must be PreToolUse")
    tool = h.get("tool_name")
    if tool not in TOOLS:
        err(f"{where}: tool_name {tool!r} not in {sorted(TOOLS)}")
        return None
    ti = h.get("tool_input")
    if not isinstance(ti, dict):
        err(f"{where}: tool_input must be an object")
        return tool
    required, optional = TOOL_KEYS[tool]
    if not required <= set(ti) or set(ti) - required - optional:
        err(f"{where}: {tool} tool_input keys {sorted(ti)} (required {sorted(required)})")
    for k in required:
        if k == "edits":
            continue
        if not nonempty_str(ti.get(k)):
            err(f"{where}: {tool}.{k} must be a non-empty string")
    for k in ("file_path", "path"):
        if k in ti and not str(ti[k]).startswith("/repo/") and ti[k] != "/repo":
            err(f"{where}: {tool}.{k} {ti[k]!r} must be absolute under /repo/")
    if tool == "Glob" and not str(ti.get("pattern", "")).startswith("/repo/"):
        err(f"{where}: Glob pattern must be absolute under /repo/")
    if tool == "Edit" and ti.get("old_string") == ti.get("new_string"):
        err(f"{where}: Edit old_string == new_string")
    if tool == "MultiEdit":
        edits = ti.get("edits")
        if not (isinstance(edits, list) and edits):
            err(f"{where}: MultiEdit edits must be a non-empty list")
        else:
            for j, e in enumerate(edits):
                if not (isinstance(e, dict) and {"old_string", "new_string"} <= set(e)
                        and set(e) <= {"old_string", "new_string", "replace_all"}):
                    err(f"{where}: MultiEdit edit {j} has wrong keys")
                elif e["old_string"] == e["new_string"] or not nonempty_str(e["old_string"]):
                    err(f"{where}: MultiEdit edit {j} is empty or a no-op")
    return tool


# ---------------------------------------------------------------- action calls
calls = load_jsonl("action_calls.jsonl")
if len(calls) != 70:
    err(f"action_calls.jsonl: expected 70 lines, found {len(calls)}")
kinds = Counter()
tool_kind = Counter()
guarded_for = Counter()
session_ids = Counter()
for i, c in enumerate(calls):
    where = f"action_calls.jsonl:{i + 1}"
    kind = c.get("kind")
    kinds[kind] += 1
    expected_keys = {"correction", "kind", "hook_input"} | ({"near"} if kind == "near_miss" else set())
    if set(c) != expected_keys:
        err(f"{where}: keys {sorted(c)} != {sorted(expected_keys)}")
    if kind == "guarded":
        if c.get("correction") not in corr_by_id:
            err(f"{where}: guarded call references unknown correction {c.get('correction')!r}")
        guarded_for[c.get("correction")] += 1
    elif kind in ("harmless", "near_miss"):
        if c.get("correction") is not None:
            err(f"{where}: {kind} call must have correction null")
        if kind == "near_miss" and c.get("near") not in corr_by_id:
            err(f"{where}: near_miss 'near' {c.get('near')!r} is not a correction id")
    else:
        err(f"{where}: unknown kind {kind!r}")
    tool = check_hook(where, c.get("hook_input"))
    tool_kind[(tool, kind)] += 1
    if isinstance(c.get("hook_input"), dict):
        session_ids[c["hook_input"].get("session_id")] += 1

if kinds != Counter({"guarded": 40, "harmless": 20, "near_miss": 10}):
    err(f"action_calls.jsonl: kind counts {dict(kinds)} != guarded 40 / harmless 20 / near_miss 10")
for cid in IDS:
    if guarded_for[cid] != 1:
        err(f"action_calls.jsonl: correction {cid} has {guarded_for[cid]} guarded calls, expected 1")
if any(n > 1 for n in session_ids.values()):
    err("action_calls.jsonl: session_id values are not unique")
mins = {"Bash": 12, "Write": 10, "Edit": 10, "MultiEdit": 3}
for tool, m in mins.items():
    if tool_kind[(tool, "guarded")] < m:
        err(f"action_calls.jsonl: only {tool_kind[(tool, 'guarded')]} guarded {tool} calls, need >= {m}")
for tool in ("Read", "Glob", "Grep"):
    if tool_kind[(tool, "harmless")] < 1:
        err(f"action_calls.jsonl: no harmless {tool} call")
near_targets = [c.get("near") for c in calls if c.get("kind") == "near_miss"]
if len(set(near_targets)) != len(near_targets):
    warnings.append("action_calls.jsonl: several near misses target the same correction")

# ---------------------------------------------------------------- tasks
tasks = load_jsonl("tasks.jsonl")
if len(tasks) != 50:
    err(f"tasks.jsonl: expected 50 lines, found {len(tasks)}")
task_corrs = []
for i, t in enumerate(tasks):
    where = f"tasks.jsonl:{i + 1}"
    if set(t) != {"correction", "task"}:
        err(f"{where}: keys {sorted(t)} != ['correction', 'task']")
    if not nonempty_str(t.get("task")):
        err(f"{where}: task must be a non-empty string")
    cid = t.get("correction")
    if cid is not None:
        if cid not in corr_by_id:
            err(f"{where}: unknown correction {cid!r}")
        task_corrs.append(cid)
if len(task_corrs) != 30:
    err(f"tasks.jsonl: {len(task_corrs)} tasks with a correction, expected 30")
if len(set(task_corrs)) != len(task_corrs):
    err("tasks.jsonl: tasks with a correction must name 30 distinct corrections")
if sum(1 for t in tasks if t.get("correction") is None) != 20:
    err("tasks.jsonl: expected 20 tasks with correction null")
if len({t.get("task") for t in tasks}) != len(tasks):
    err("tasks.jsonl: duplicate task texts")
if task_corrs and tasks and all(t.get("correction") is not None for t in tasks[:30]):
    warnings.append("tasks.jsonl: looks unshuffled (first 30 all have a correction)")

# ---------------------------------------------------------------- action set
aset = load_jsonl("action_set.jsonl")
if len(aset) != 110:
    err(f"action_set.jsonl: expected 110 lines, found {len(aset)}")
for i, row in enumerate(aset[:40]):
    where = f"action_set.jsonl:{i + 1}"
    if set(row) != {"type", "key", "entry"} or row.get("type") != "correction":
        err(f"{where}: expected a correction row with keys type/key/entry")
        continue
    src = corr_by_id.get(row.get("key"))
    if src is None or (i < 40 and row.get("key") != IDS[i]):
        err(f"{where}: key {row.get('key')!r} out of order or unknown")
        continue
    e = row["entry"]
    want = {"category": "correction", "summary": src["summary"], "content": src["content"],
            "trigger": src["trigger"], "lesson": src["lesson"], "tags": src["tags"], "confidence": 0.9}
    if src["artifacts"]:
        want["artifacts"] = src["artifacts"]
    if e != want:
        err(f"{where}: entry does not match corrections.jsonl {row['key']} (or has wrong keys)")
for i, row in enumerate(aset[40:]):
    where = f"action_set.jsonl:{i + 41}"
    if set(row) != {"type", "key", "expect", "kind", "hook_input"} or row.get("type") != "call":
        err(f"{where}: expected a call row with keys type/key/expect/kind/hook_input")
        continue
    if row.get("key") != f"A{i + 1:02d}":
        err(f"{where}: key {row.get('key')!r}, expected A{i + 1:02d}")
    if i < len(calls):
        src = calls[i]
        if (row.get("expect"), row.get("kind"), row.get("hook_input")) != (src.get("correction"), src.get("kind"), src.get("hook_input")):
            err(f"{where}: does not match action_calls.jsonl line {i + 1}")
    if row.get("kind") == "guarded" and row.get("expect") not in corr_by_id:
        err(f"{where}: guarded call must expect a correction key")
    if row.get("kind") != "guarded" and row.get("expect") is not None:
        err(f"{where}: non-guarded call must expect null")

# ---------------------------------------------------------------- bench set
BENCH_TYPE = {"guarded": "call", "harmless": "harmless", "near_miss": "near_miss"}
bset = load_jsonl("bench_set.jsonl") if DERIVED else []
if DERIVED and len(bset) != 110:
    err(f"bench_set.jsonl: expected 110 lines, found {len(bset)}")
for i, row in enumerate(bset[:40]):
    if i < len(aset) and row != aset[i]:
        err(f"bench_set.jsonl:{i + 1}: correction row differs from action_set.jsonl")
for i, row in enumerate(bset[40:]):
    where = f"bench_set.jsonl:{i + 41}"
    if i >= len(calls):
        break
    src = calls[i]
    want = {"type": BENCH_TYPE.get(src.get("kind")), "key": f"A{i + 1:02d}", "expect": src.get("correction"),
            "hook": src.get("hook_input")}
    if src.get("kind") == "near_miss":
        want["near"] = src.get("near")
    if row != want:
        err(f"{where}: does not match action_calls.jsonl line {i + 1} in bench shape")

# ---------------------------------------------------------------- task set
tset = load_jsonl("task_set.jsonl") if DERIVED else []
if DERIVED and len(tset) != 90:
    err(f"task_set.jsonl: expected 90 lines, found {len(tset)}")
for i, row in enumerate(tset[:40]):
    if i < len(aset) and row != aset[i]:
        err(f"task_set.jsonl:{i + 1}: correction row differs from action_set.jsonl")
for i, row in enumerate(tset[40:]):
    where = f"task_set.jsonl:{i + 41}"
    if set(row) != {"type", "task", "expect"} or row.get("type") != "task":
        err(f"{where}: expected a task row with keys type/task/expect")
        continue
    if i < len(tasks) and (row.get("task"), row.get("expect")) != (tasks[i].get("task"), tasks[i].get("correction")):
        err(f"{where}: does not match tasks.jsonl line {i + 1}")

# ---------------------------------------------------------------- artifact coverage (information only)
def glob_re(g: str) -> "re.Pattern[str]":
    out, i = "", 0
    while i < len(g):
        if g.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif g.startswith("**", i):
            out += ".*"
            i += 2
        elif g[i] == "*":
            out += "[^/]*"
            i += 1
        elif g[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(g[i])
            i += 1
    return re.compile(out + r"\Z")


inside, outside = [], []
for c in calls:
    if c.get("kind") != "guarded":
        continue
    ti = (c.get("hook_input") or {}).get("tool_input") or {}
    fp = ti.get("file_path")
    cid = c.get("correction")
    if not fp or cid not in corr_by_id:
        continue
    rel = fp[len("/repo/"):]
    if any(glob_re(a).match(rel) for a in corr_by_id[cid]["artifacts"]):
        inside.append(cid)
    else:
        outside.append(cid)
info_artifacts = (f"guarded calls with a file_path: {len(inside) + len(outside)}; inside their correction's "
                  f"artifacts: {len(inside)}; outside: {len(outside)} ({', '.join(sorted(outside))})")

# ---------------------------------------------------------------- report
for w in warnings:
    print("warning:", w)
if errors:
    for e in errors:
        print("ERROR:", e)
    print(f"{len(errors)} error(s)")
    sys.exit(1)

derived_rows = f", {len(bset)} bench_set rows, {len(tset)} task_set rows" if DERIVED else ""
print(f"OK: {len(corrections)} corrections, {len(calls)} calls, {len(tasks)} tasks, {len(aset)} action_set rows{derived_rows}")
print("calls per tool and kind:")
for tool in ["Bash", "Write", "Edit", "MultiEdit", "Read", "Glob", "Grep"]:
    row = {k: tool_kind[(tool, k)] for k in ("guarded", "near_miss", "harmless")}
    print(f"  {tool:9s} guarded={row['guarded']:2d} near_miss={row['near_miss']:2d} harmless={row['harmless']:2d} total={sum(row.values()):2d}")
if DERIVED:
    print(info_artifacts)
