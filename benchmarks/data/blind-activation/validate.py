#!/usr/bin/env python3
"""Validate the blind evaluation files. Usage: python3 validate.py  (run from /work/blind or anywhere)."""
import ast, json, os, re, sys

ROOT = os.path.dirname(os.path.abspath(__file__))
errors = []

def err(msg):
    errors.append(msg)

def load_jsonl(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                err(f"{path}:{n}: blank line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                err(f"{path}:{n}: {e}")
    return rows

# ---------------------------------------------------------------- corrections
corr = load_jsonl(os.path.join(ROOT, "corrections.jsonl"))
ids = [c.get("id") for c in corr]
if len(corr) != 40 or len(set(ids)) != 40:
    err(f"corrections: expected 40 unique, got {len(corr)} / {len(set(ids))}")
for c in corr:
    for k, t in [("id", str), ("summary", str), ("content", str), ("trigger", str), ("lesson", str),
                 ("tags", list), ("artifacts", list)]:
        if not isinstance(c.get(k), t):
            err(f"corrections {c.get('id')}: bad {k}")
    sentences = len(re.findall(r"[.!?](\s|$)", c["content"]))
    if not 2 <= sentences <= 4:
        err(f"corrections {c['id']}: content has {sentences} sentences")
CID = set(ids)

# ---------------------------------------------------------------- action calls
SHAPES = {"Edit": {"file_path", "old_string", "new_string"},
          "Write": {"file_path", "content"},
          "MultiEdit": {"file_path", "edits"},
          "Bash": {"command", "description"}}
acts = load_jsonl(os.path.join(ROOT, "action_calls.jsonl"))
kinds = {}
for a in acts:
    kinds[a["kind"]] = kinds.get(a["kind"], 0) + 1
    h = a["hook_input"]
    for k in ["session_id", "transcript_path", "cwd", "hook_event_name", "tool_name", "tool_input"]:
        if k not in h:
            err(f"action {a.get('correction')}: hook_input missing {k}")
    if h["hook_event_name"] != "PreToolUse":
        err("hook_event_name must be PreToolUse")
    tn, ti = h["tool_name"], h["tool_input"]
    if set(ti) != SHAPES.get(tn, set()):
        err(f"action {a.get('correction') or a.get('near')}: {tn} input keys {sorted(ti)}")
    if "file_path" in ti and not ti["file_path"].startswith(h["cwd"] + "/"):
        err(f"action: file_path {ti['file_path']} not under cwd")
    if tn == "MultiEdit":
        for e in ti["edits"]:
            if set(e) != {"old_string", "new_string"}:
                err("MultiEdit edit shape")
    code = {"Write": lambda: ti["content"], "Edit": lambda: ti["new_string"],
            "MultiEdit": lambda: "\n".join(e["new_string"] for e in ti["edits"]), "Bash": lambda: ""}[tn]()
    if a["kind"] == "guarded" and tn != "Bash" and not 3 <= code.count("\n") + 1 <= 40:
        err(f"action {a['correction']}: {code.count(chr(10)) + 1} lines")
    if tn == "Write" and ti["file_path"].endswith(".py"):
        try:
            ast.parse(ti["content"])
        except SyntaxError as e:
            err(f"action {a.get('correction')}: python syntax {e}")
    if a["kind"] == "guarded" and a["correction"] not in CID:
        err(f"action: unknown correction {a['correction']}")
    if a["kind"] in ("harmless", "near_miss") and a["correction"] is not None:
        err("harmless/near_miss must have correction null")
    if a["kind"] == "near_miss" and a.get("near") not in CID:
        err(f"near_miss: bad near {a.get('near')}")
guarded = sorted(a["correction"] for a in acts if a["kind"] == "guarded")
if guarded != sorted(CID):
    err("guarded calls must cover every correction exactly once")
if kinds != {"guarded": 40, "harmless": 20, "near_miss": 10}:
    err(f"action kinds {kinds}")

# ---------------------------------------------------------------- tasks
tasks = load_jsonl(os.path.join(ROOT, "tasks.jsonl"))
pos = [t["correction"] for t in tasks if t["correction"]]
neg = [t for t in tasks if t["correction"] is None]
if len(pos) != 30 or len(set(pos)) != 30 or not set(pos) <= CID or len(neg) != 20:
    err(f"tasks: {len(pos)} positive ({len(set(pos))} distinct), {len(neg)} null")

# ---------------------------------------------------------------- transcripts
TD = os.path.join(ROOT, "transcripts")
labels = json.load(open(os.path.join(TD, "labels.json"), encoding="utf-8"))
groups = [k for k in labels if k != "negatives"]
if len(groups) != 8 or len(labels["negatives"]) != 6:
    err("labels: expected 8 groups and 6 negatives")

def user_texts(path):
    out = []
    for r in load_jsonl(path):
        if r["type"] == "user" and isinstance(r["message"]["content"], str):
            out.append(r["message"]["content"])
    return out

all_files = []
for g in groups:
    lab = labels[g]
    if len(lab["sessions"]) != 3 or len(lab["user_lines"]) != 3 or len(set(lab["user_lines"])) != 3:
        err(f"{g}: need 3 sessions and 3 distinct user_lines")
    for s, line in zip(lab["sessions"], lab["user_lines"]):
        texts = user_texts(os.path.join(TD, s))
        if texts.count(line) != 1:
            err(f"{g}/{s}: correction line found {texts.count(line)} times")
    all_files += lab["sessions"]
all_files += labels["negatives"]
for fn in all_files:
    rows = load_jsonl(os.path.join(TD, fn))
    if not 6 <= len(rows) <= 14:
        err(f"{fn}: {len(rows)} lines")
    sids = {r.get("sessionId") for r in rows}
    if len(sids) != 1:
        err(f"{fn}: sessionId not constant")
    pending = set()
    for r in rows:
        for k in ("type", "message", "timestamp", "sessionId"):
            if k not in r:
                err(f"{fn}: missing {k}")
        m = r["message"]
        if m["role"] != r["type"]:
            err(f"{fn}: role/type mismatch")
        if isinstance(m["content"], list):
            for b in m["content"]:
                if b["type"] == "tool_use":
                    pending.add(b["id"])
                if b["type"] == "tool_result":
                    if b["tool_use_id"] not in pending:
                        err(f"{fn}: orphan tool_result")
                    pending.discard(b["tool_use_id"])
    ts = [r["timestamp"] for r in rows]
    if ts != sorted(ts):
        err(f"{fn}: timestamps not increasing")
on_disk = sorted(f for f in os.listdir(TD) if f.endswith(".jsonl"))
if on_disk != sorted(all_files):
    err(f"transcripts on disk vs labels differ: {set(on_disk) ^ set(all_files)}")

# ---------------------------------------------------------------- overlap report (informational)
STOP = set("a an the to of in on or and for with from into that this by as at be is are any other its it "
           "existing".split())
def words(s):
    return {w for w in re.findall(r"[a-z0-9_@]+", s.lower()) if w not in STOP and len(w) > 2}
trig = {c["id"]: words(c["trigger"]) for c in corr}
print("trigger words shared with guarded call description / task text (informational):")
for a in acts:
    if a["kind"] != "guarded":
        continue
    ti = a["hook_input"]["tool_input"]
    d = words(ti.get("description", ""))
    shared = trig[a["correction"]] & d
    if shared:
        print(f"  action {a['correction']} description: {sorted(shared)}")
for t in tasks:
    if t["correction"]:
        shared = trig[t["correction"]] & words(t["task"])
        if shared:
            print(f"  task {t['correction']}: {sorted(shared)}")

print()
print(f"corrections: {len(corr)}  action_calls: {len(acts)} {kinds}  tasks: {len(tasks)} ({len(pos)} + {len(neg)} null)  "
      f"transcripts: {len(all_files)} sessions")
if errors:
    print("\nERRORS:")
    for e in errors:
        print("  " + e)
    sys.exit(1)
print("OK")
