#!/usr/bin/env python3
"""Checks a blind transcript set: file inventory, Claude Code record structure, tool_use/tool_result
pairing, session length and dates, one project per group or pair, and labels.json (every user_line must be,
verbatim, the content string of exactly one string-content user message in its session). Exits 1 on any error.

Each set's own validate.py runs this with its names and dates:
    python3 validate_transcripts.py --groups G --pairs P --negatives N:COUNT --days FIRST:LAST
                                    [--no-project-check] DIRECTORY
(the first transcript set was written before sessions were checked for one project per group).
"""
import argparse
import datetime as dt
import json
import os
import sys

_options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
_options.add_argument("--groups", required=True, help="the groups' prefix: GROUP01..GROUP10, three sessions each")
_options.add_argument("--pairs", required=True, help="the pairs' prefix: PAIR01..PAIR04, two sessions each")
_options.add_argument("--negatives", required=True, help="PREFIX:COUNT of the negative sessions")
_options.add_argument("--days", required=True, help="FIRST:LAST, the dates (UTC) sessions may fall on")
_options.add_argument("--no-project-check", action="store_true")
_options.add_argument("--one-project", action="store_true", help="every session shares one cwd (one repository)")
_options.add_argument("directory")
_args = _options.parse_args()
HERE = os.path.abspath(_args.directory)
_first, _last = _args.days.split(":")
LO = dt.datetime.strptime(_first, "%Y-%m-%d").replace(tzinfo=dt.timezone.utc)
HI = dt.datetime.strptime(_last, "%Y-%m-%d").replace(tzinfo=dt.timezone.utc) + dt.timedelta(days=1)
TOOLS = {"Edit": {"file_path", "old_string", "new_string"}, "Write": {"file_path", "content"},
         "Bash": {"command", "description"}, "Read": {"file_path"}}
INTERRUPT = "[Request interrupted by user for tool use]"
KEYS = {"type", "message", "timestamp", "sessionId", "uuid", "parentUuid", "cwd", "version"}

errors = []


def err(msg):
    errors.append(msg)


_neg_prefix, _neg_count = _args.negatives.split(":")
GROUPS = [_args.groups + "%02d" % i for i in range(1, 11)]
PAIRS = [_args.pairs + "%02d" % i for i in range(1, 5)]
NEGS = [_neg_prefix + "%02d" % i for i in range(1, int(_neg_count) + 1)]
EXPECTED = ([f"{g}-s{k}.jsonl" for g in GROUPS for k in (1, 2, 3)]
            + [f"{p}-s{k}.jsonl" for p in PAIRS for k in (1, 2)] + [f"{n}.jsonl" for n in NEGS])


def parse_ts(s):
    return dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.timezone.utc)


def load_session(name, seen_uuids, seen_sids):
    path = os.path.join(HERE, name)
    recs = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                err(f"{name}:{n}: blank line")
                continue
            try:
                recs.append(json.loads(line))
            except json.JSONDecodeError as e:
                err(f"{name}:{n}: bad JSON: {e}")
    if not 6 <= len(recs) <= 14:
        err(f"{name}: {len(recs)} lines, want 6-14")
    speech = []
    prev_uuid, prev_ts, pending = None, None, None  # pending: tool_use ids awaiting a result
    last_rejected = False
    sid = recs[0].get("sessionId") if recs else None
    cwd = recs[0].get("cwd") if recs else None
    if sid in seen_sids:
        err(f"{name}: sessionId reused from {seen_sids[sid]}")
    seen_sids[sid] = name
    for n, r in enumerate(recs, 1):
        where = f"{name}:{n}"
        missing = KEYS - set(r)
        if missing:
            err(f"{where}: missing keys {sorted(missing)}")
            continue
        if r["sessionId"] != sid or r["cwd"] != cwd:
            err(f"{where}: sessionId/cwd differs within the session")
        if r["uuid"] in seen_uuids:
            err(f"{where}: duplicate uuid")
        seen_uuids.add(r["uuid"])
        if r["parentUuid"] != prev_uuid:
            err(f"{where}: parentUuid does not chain to the previous line")
        prev_uuid = r["uuid"]
        try:
            ts = parse_ts(r["timestamp"])
        except ValueError:
            err(f"{where}: bad timestamp {r['timestamp']!r}")
            ts = prev_ts
        if ts and not LO <= ts < HI:
            err(f"{where}: timestamp {r['timestamp']} outside {_args.days.replace(':', '..')}")
        if ts and prev_ts and ts < prev_ts:
            err(f"{where}: timestamp goes backwards")
        prev_ts = ts
        msg = r["message"]
        if r["type"] == "assistant":
            if pending:
                err(f"{where}: tool_use {pending} has no tool_result")
            if msg.get("role") != "assistant" or not isinstance(msg.get("content"), list) or not msg["content"]:
                err(f"{where}: bad assistant message")
                continue
            uses = [b for b in msg["content"] if b.get("type") == "tool_use"]
            for b in msg["content"]:
                if b.get("type") == "text" and not b.get("text"):
                    err(f"{where}: empty text block")
            for b in uses:
                want = TOOLS.get(b.get("name"))
                if want is None:
                    err(f"{where}: unexpected tool {b.get('name')}")
                elif set(b.get("input", {})) != want:
                    err(f"{where}: {b['name']} input keys {sorted(b.get('input', {}))}")
                fp = b.get("input", {}).get("file_path")
                if fp is not None and not fp.startswith(cwd + "/"):
                    err(f"{where}: file_path {fp} not under cwd")
            pending = [b["id"] for b in uses] or None
            last_rejected = False
        elif r["type"] == "user":
            if msg.get("role") != "user":
                err(f"{where}: user message without role user")
            c = msg.get("content")
            if isinstance(c, str):
                if pending:
                    err(f"{where}: user speech while tool_use {pending} awaits a result")
                if not c.strip():
                    err(f"{where}: empty user speech")
                speech.append(c)
                last_rejected = False
            elif isinstance(c, list) and c:
                b = c[0]
                if b.get("type") == "tool_result":
                    if not pending or b.get("tool_use_id") not in pending:
                        err(f"{where}: tool_result for unknown tool_use {b.get('tool_use_id')}")
                    else:
                        pending.remove(b["tool_use_id"])
                        pending = pending or None
                    if not isinstance(b.get("content"), str):
                        err(f"{where}: tool_result content not a string")
                    last_rejected = b.get("is_error") is True and "tool use was rejected" in b.get("content", "")
                elif b.get("type") == "text" and b.get("text") == INTERRUPT:
                    if not last_rejected:
                        err(f"{where}: interrupt marker not after a rejected tool use")
                    last_rejected = False
                else:
                    err(f"{where}: unexpected user content block {b.get('type')}")
            else:
                err(f"{where}: user content neither string nor block list")
        else:
            err(f"{where}: unexpected type {r['type']}")
    if pending:
        err(f"{name}: session ends with unanswered tool_use {pending}")
    if recs and not (recs[0].get("type") == "user" and isinstance(recs[0]["message"].get("content"), str)):
        err(f"{name}: first line is not a user prompt")
    day = parse_ts(recs[0]["timestamp"]).date() if recs else None
    return speech, day, cwd


def main():
    present = sorted(f for f in os.listdir(HERE) if f.endswith(".jsonl"))
    for f in sorted(set(EXPECTED) - set(present)):
        err(f"missing file {f}")
    for f in sorted(set(present) - set(EXPECTED)):
        err(f"unexpected file {f}")
    seen_uuids, seen_sids, speech, days, cwds = set(), {}, {}, {}, {}
    for f in EXPECTED:
        if f in present:
            speech[f], days[f], cwds[f] = load_session(f, seen_uuids, seen_sids)
    if _args.one_project and len(set(cwds.values())) != 1:
        err(f"--one-project: sessions use {len(set(cwds.values()))} cwds, expected one: {sorted(set(cwds.values()))[:5]}")
    # one project per group/pair (shared cwd), and no project shared between groups, pairs or negatives
    owner = {}
    for f, c in ({} if _args.no_project_check else cwds).items():
        unit = f.split("-")[0].replace(".jsonl", "")
        if owner.setdefault(c, unit) != unit:
            err(f"{f}: cwd {c} also used by {owner[c]}")
    for unit in [] if _args.no_project_check else GROUPS + PAIRS:
        cs = {c for f, c in cwds.items() if f.startswith(unit + "-")}
        if len(cs) > 1:
            err(f"{unit}: sessions use different cwds {sorted(cs)}")
    try:
        labels = json.load(open(os.path.join(HERE, "labels.json"), encoding="utf-8"))
    except (OSError, ValueError) as e:
        err(f"labels.json: {e}")
        labels = {}
    want_keys = set(GROUPS) | {"pairs", "negatives"}
    if set(labels) != want_keys:
        err(f"labels.json keys {sorted(labels)} != {sorted(want_keys)}")
    all_lines = []

    def check_group(gid, g, k):
        sessions = [f"{gid}-s{i}.jsonl" for i in range(1, k + 1)]
        if g.get("sessions") != sessions:
            err(f"labels {gid}: sessions {g.get('sessions')} != {sessions}")
            return
        if not isinstance(g.get("correction"), str) or not g["correction"].strip():
            err(f"labels {gid}: empty correction")
        lines = g.get("user_lines", [])
        if len(lines) != k:
            err(f"labels {gid}: {len(lines)} user_lines, want {k}")
            return
        if len(set(lines)) != k:
            err(f"labels {gid}: user_lines are not distinct wordings")
        ds = [days.get(s) for s in sessions]
        if len(set(ds)) != k:
            err(f"labels {gid}: sessions not on {k} different days: {ds}")
        for s, line in zip(sessions, lines):
            hits = speech.get(s, []).count(line)
            if hits != 1:
                err(f"labels {gid}: user_line occurs {hits}x as string-content user message in {s}")
            all_lines.append((line, s))

    for gid in GROUPS:
        if gid in labels:
            check_group(gid, labels[gid], 3)
    pairs = labels.get("pairs", {})
    if set(pairs) != set(PAIRS):
        err(f"labels pairs keys {sorted(pairs)} != {PAIRS}")
    for pid in PAIRS:
        if pid in pairs:
            check_group(pid, pairs[pid], 2)
    if labels.get("negatives") != [f"{n}.jsonl" for n in NEGS]:
        err(f"labels negatives {labels.get('negatives')} != {NEGS[0]}..{NEGS[-1]}")
    for line, s in all_lines:  # a labelled line must not also appear in another session
        for f, sp in speech.items():
            if f != s and line in sp:
                err(f"labelled line of {s} also appears in {f}")
    for e in errors:
        print("ERROR:", e)
    n_lines = sum(sum(1 for _ in open(os.path.join(HERE, f))) for f in present)
    print(f"{len(present)} session files ({len(GROUPS)} groups x 3, {len(PAIRS)} pairs x 2, {len(NEGS)} negatives), "
          f"{n_lines} records, {sum(len(v) for v in speech.values())} user speech lines, "
          f"{len(all_lines)} labelled correction lines")
    if errors:
        print(f"FAILED: {len(errors)} error(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
