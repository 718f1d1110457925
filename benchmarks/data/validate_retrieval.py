#!/usr/bin/env python3
"""Validate a blind retrieval query set against memories.jsonl.

Checks: JSON well-formed, required fields, unique sequential ids (PREFIX001..),
allowed kinds, expected counts per kind (60/25/20/15 = 120), 1-3 relevant ids
that all exist in the memories file, no duplicate query text, and for kind
"superseded" that the relevant memory has a `supersedes` field, and that no
relevant memory is itself superseded (has a `superseded_by` field).
Exits 1 on any error.

Usage: python3 validate_retrieval.py --prefix PREFIX QUERIES [MEMORIES]
(each set's own validate.py runs this with its prefix; MEMORIES defaults to retrieval/memories.jsonl)
"""
import json
import sys
from collections import Counter
from pathlib import Path

if len(sys.argv) not in (4, 5) or sys.argv[1] != "--prefix":
    sys.exit("usage: python3 validate_retrieval.py --prefix PREFIX QUERIES [MEMORIES]")
PREFIX = sys.argv[2]
QUERIES = sys.argv[3]
MEMORIES = sys.argv[4] if len(sys.argv) > 4 else str(Path(__file__).resolve().parent / "retrieval" / "memories.jsonl")
EXPECTED = {"task": 60, "lookup": 25, "why": 20, "superseded": 15}

errors = []
memories = {}
with open(MEMORIES, encoding="utf-8") as f:
    for n, line in enumerate(f, 1):
        if line.strip():
            m = json.loads(line)
            memories[m["id"]] = m

queries = []
with open(QUERIES, encoding="utf-8") as f:
    for n, line in enumerate(f, 1):
        if not line.strip():
            continue
        try:
            queries.append(json.loads(line))
        except json.JSONDecodeError as e:
            errors.append(f"line {n}: invalid JSON ({e})")

seen_text = set()
for i, q in enumerate(queries, 1):
    qid = q.get("id")
    if qid != f"{PREFIX}{i:03d}":
        errors.append(f"query {i}: id {qid!r}, expected {PREFIX}{i:03d}")
    extra = set(q) - {"id", "kind", "query", "relevant"}
    if extra:
        errors.append(f"{qid}: unexpected fields {sorted(extra)}")
    if q.get("kind") not in EXPECTED:
        errors.append(f"{qid}: bad kind {q.get('kind')!r}")
    text = q.get("query")
    if not isinstance(text, str) or not text.strip():
        errors.append(f"{qid}: empty query")
    else:
        key = text.strip().lower()
        if key in seen_text:
            errors.append(f"{qid}: duplicate query text")
        seen_text.add(key)
    rel = q.get("relevant")
    if not isinstance(rel, list) or not 1 <= len(rel) <= 3:
        errors.append(f"{qid}: relevant must be a list of 1-3 ids")
        continue
    if len(set(rel)) != len(rel):
        errors.append(f"{qid}: duplicate relevant ids")
    for r in rel:
        if r not in memories:
            errors.append(f"{qid}: unknown memory id {r}")
        elif memories[r].get("superseded_by"):
            errors.append(f"{qid}: relevant memory {r} is superseded by {memories[r]['superseded_by']}")
    if q.get("kind") == "superseded":
        for r in rel:
            if r in memories and not memories[r].get("supersedes"):
                errors.append(f"{qid}: superseded query points at {r}, which supersedes nothing")

counts = Counter(q.get("kind") for q in queries)
for kind, want in EXPECTED.items():
    if counts.get(kind, 0) != want:
        errors.append(f"kind {kind}: {counts.get(kind, 0)} queries, expected {want}")
if len(queries) != sum(EXPECTED.values()):
    errors.append(f"{len(queries)} queries, expected {sum(EXPECTED.values())}")

if errors:
    print("\n".join(errors))
    print(f"FAILED: {len(errors)} error(s)")
    sys.exit(1)
print(f"OK: {len(queries)} queries " + ", ".join(f"{k}={counts[k]}" for k in EXPECTED)
      + f"; {len({r for q in queries for r in q['relevant']})} distinct target memories")
