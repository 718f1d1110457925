"""Compile the hand-condensed source batches (src/*.yaml) into memories.jsonl and queries.jsonl.

Batches refer to entries by short keys; this script assigns MEM-YYYYMMDD-NNN ids, resolves supersede pairs
(adds superseded_by to the old entry) and query targets, and writes the two JSONL files one directory up.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
OUT = HERE.parent
ENTRY_FIELDS = ("alternatives", "rationale", "error", "resolution", "trigger", "lesson", "evidence")


def _h(s: str) -> int:
    return int(hashlib.sha256(s.encode()).hexdigest(), 16)


# Per-kind size of the main query set; the remaining hand-written queries go to queries_extra.jsonl.
CAPS = {"lookup": 42, "why": 42, "task": 45, "paraphrase": None, "superseded": None}


def select(queries: list[dict], keys: dict, order: list[str]) -> tuple[list[dict], list[dict]]:
    """Deterministically pick the main query set: all paraphrase/superseded queries, then for the capped kinds
    a round-robin over source repositories, preferring targets not yet covered (and, for why-queries, decisions
    that record alternatives or a rationale)."""
    chosen, covered = [], set()
    for q in queries:
        if CAPS[q["kind"]] is None:
            chosen.append(q)
            covered.update(q["relevant"])
    for kind in ("why", "task", "lookup"):
        by_repo: dict[str, list[dict]] = {}
        for q in queries:
            if q["kind"] == kind:
                by_repo.setdefault(keys[q["relevant"][0]]["repo"], []).append(q)
        rr, lists = [], list(by_repo.values())
        while any(lists):
            for lst in lists:
                if lst:
                    rr.append(lst.pop(0))

        def good(q):
            t = keys[q["relevant"][0]]
            return kind != "why" or bool(t.get("alternatives") or t.get("rationale"))
        picked: list[dict] = []
        for strict in (True, False):
            for q in rr:
                if len(picked) >= CAPS[kind] or q in picked:
                    continue
                if strict and (not good(q) or covered & set(q["relevant"])):
                    continue
                if not strict and not good(q) and sum(good(x) for x in rr) > CAPS[kind]:
                    continue
                picked.append(q)
                covered.update(q["relevant"])
        if len(picked) < CAPS[kind]:
            picked += [q for q in rr if q not in picked][: CAPS[kind] - len(picked)]
        chosen += picked
    extra = [q for q in queries if q not in chosen]
    return chosen, extra


def main() -> int:
    batches = sorted(HERE.glob("b*.yaml"))
    raw, queries = [], []
    for b in batches:
        doc = yaml.safe_load(b.read_text())
        repo = doc.get("repo")
        for e in doc.get("entries") or []:
            e.setdefault("repo", repo)
            e["_batch"] = b.name
            raw.append(e)
        for q in doc.get("queries") or []:
            extra = set(q) - {"kind", "query", "relevant", "current", "replaced"}
            if extra or not isinstance(q.get("query"), str):
                sys.exit(f"malformed query in {b.name}: {q}")  # e.g. an unquoted comma split the flow mapping
            q["_batch"] = b.name
            queries.append(q)
    keys = {}
    for e in raw:
        if e["key"] in keys:
            sys.exit(f"duplicate key {e['key']} in {e['_batch']}")
        keys[e["key"]] = e
    # ids: sequence per date, in date order then batch order
    seq: dict[str, int] = {}
    for e in sorted(raw, key=lambda e: (str(e["date"]), e["_batch"])):
        d = str(e["date"]).replace("-", "")
        seq[d] = seq.get(d, 0) + 1
        e["_id"] = f"MEM-{d}-{seq[d]:03d}"
    id_of = {k: e["_id"] for k, e in keys.items()}
    (HERE / "_keymap.json").write_text(json.dumps(id_of, indent=0, sort_keys=True))
    superseded_by = {}
    for e in raw:
        if e.get("supersedes"):
            old = e["supersedes"]
            if old not in keys:
                sys.exit(f"{e['key']} supersedes unknown {old}")
            if old in superseded_by:
                sys.exit(f"{old} superseded twice")
            superseded_by[old] = e["key"]
    out = []
    for e in sorted(raw, key=lambda e: e["_id"]):
        h = _h(e["key"])
        conf = 0.95 if e["category"] == "decision" else round(0.90 + (h % 6) / 100, 2)
        ts = f"{e['date']}T{9 + h % 9:02d}:{h % 60:02d}:00Z"
        m = {"id": e["_id"], "category": e["category"], "summary": " ".join(e["summary"].split()),
             "content": e["content"].strip()}
        for f in ENTRY_FIELDS:
            if e.get(f) is not None:
                v = e[f]
                if f == "alternatives":
                    v = [dict(zip(("option", "rejected_because"), (p.strip() for p in a.split("||", 1))))
                         if isinstance(a, str) else a for a in v]
                m[f] = " ".join(v.split()) if isinstance(v, str) else v
        m["tags"] = e["tags"]
        m["confidence"] = e.get("confidence", conf)
        m["source"] = {"session_id": "bench", "timestamp": ts, "file_path": f"{e['repo']}/{e['file']}"}
        if e.get("supersedes"):
            m["supersedes"] = id_of[e["supersedes"]]
        if e["key"] in superseded_by:
            m["superseded_by"] = id_of[superseded_by[e["key"]]]
        if e.get("synthetic"):
            m["synthetic_successor"] = True
        if e.get("chain_basis"):
            m["chain_basis"] = e["chain_basis"]
        out.append(m)
    with open(OUT / "memories.jsonl", "w") as f:
        for m in out:
            f.write(json.dumps(m, ensure_ascii=False) + "\n")
    order = ["lookup", "paraphrase", "why", "task", "superseded"]
    main_q, extra_q = select(queries, keys, order)
    for fname, qs, prefix in (("queries.jsonl", main_q, "Q"), ("queries_extra.jsonl", extra_q, "QX")):
        qs.sort(key=lambda q: order.index(q["kind"]))
        with open(OUT / fname, "w") as f:
            for i, q in enumerate(qs, 1):
                try:
                    r = {"id": f"{prefix}{i:03d}", "kind": q["kind"], "query": q["query"],
                         "relevant": [id_of[k] for k in q["relevant"]]}
                    if q["kind"] == "superseded":
                        r["current"], r["replaced"] = id_of[q["current"]], id_of[q["replaced"]]
                except KeyError as ex:
                    sys.exit(f"query {q['query']!r} in {q['_batch']}: unknown key {ex}")
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"queries: {len(main_q)} main, {len(extra_q)} extra")
    print(f"{len(out)} memories, {len(queries)} queries from {len(batches)} batches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
