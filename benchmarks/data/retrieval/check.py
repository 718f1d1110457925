"""Validate the retrieval benchmark data (memories.jsonl, queries.jsonl, queries_extra.jsonl) and print statistics.

Usage: python check.py [--verbose] [--allow-overlap]
Checks: unique well-formed ids (MEM-YYYYMMDD-NNN with a real date), categories and their fields, summary/content
lengths, tag format, confidence range, source provenance, mutual supersede pairs, query ids and kinds, relevant ids
exist (1..3), superseded queries name a real (possibly transitive) chain with relevant == [current], per-kind counts
of the main set, and that paraphrase queries share no content-word stem (textnorm.py) with their target's
summary/content. Exit status 1 if any hard error is found; paraphrase overlaps are errors unless --allow-overlap.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from textnorm import shared_stems  # noqa: E402

HERE = Path(__file__).resolve().parent
ID_RE = re.compile(r"^MEM-(\d{8})-(\d{3})$")
TAG_RE = re.compile(r"^[a-z0-9-]+$")
CATEGORIES = {"decision", "fact", "learning", "error", "preference", "correction", "procedure"}
KINDS = ("lookup", "paraphrase", "why", "task", "superseded")
MIN_PER_KIND = 35
CATEGORY_FIELDS = {"decision": ("alternatives", "rationale"), "error": ("error", "resolution"),
                   "correction": ("trigger", "lesson")}
INDEXED_EXTRA = ("tags", "alternatives", "rationale", "trigger", "lesson", "error", "resolution", "evidence")


def load(name: str) -> list[dict]:
    with open(HERE / name) as f:
        return [json.loads(line) for line in f if line.strip()]


def text_of(m: dict, fields) -> str:
    parts = []
    for f in fields:
        v = m.get(f)
        if v is None:
            continue
        if isinstance(v, list):
            for x in v:
                parts.append(" ".join(map(str, x.values())) if isinstance(x, dict) else str(x))
        else:
            parts.append(str(v))
    return " ".join(parts)


def main(argv: list[str]) -> int:
    verbose = "--verbose" in argv
    mems, queries = load("memories.jsonl"), load("queries.jsonl")
    extra = load("queries_extra.jsonl") if (HERE / "queries_extra.jsonl").exists() else []
    errors: list[str] = []
    warnings: list[str] = []
    by_id: dict[str, dict] = {}
    for m in mems:
        mid = m.get("id", "?")
        if mid in by_id:
            errors.append(f"duplicate id {mid}")
        by_id[mid] = m
        mo = ID_RE.match(mid)
        if not mo:
            errors.append(f"{mid}: bad id format")
        else:
            try:
                datetime.strptime(mo.group(1), "%Y%m%d")
            except ValueError:
                errors.append(f"{mid}: id date is not a real date")
        for f in ("category", "summary", "content", "tags", "confidence", "source"):
            if f not in m:
                errors.append(f"{mid}: missing {f}")
        if m.get("category") not in CATEGORIES:
            errors.append(f"{mid}: unknown category {m.get('category')}")
        s = m.get("summary", "")
        if len(s) > 200 or "\n" in s:
            errors.append(f"{mid}: summary longer than 200 chars or multi-line")
        n = len(m.get("content", ""))
        if not 200 <= n <= 1500:
            errors.append(f"{mid}: content length {n} outside 200..1500")
        for t in m.get("tags", []):
            if not TAG_RE.match(t):
                errors.append(f"{mid}: bad tag {t!r}")
        if not m.get("tags"):
            errors.append(f"{mid}: no tags")
        c = m.get("confidence", 0)
        if not 0.9 <= c <= 0.95:
            errors.append(f"{mid}: confidence {c} outside 0.9..0.95")
        src = m.get("source", {})
        if src.get("session_id") != "bench" or not src.get("file_path") or "/" not in src.get("file_path", ""):
            errors.append(f"{mid}: bad source {src}")
        try:
            datetime.strptime(src.get("timestamp", ""), "%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            errors.append(f"{mid}: bad timestamp {src.get('timestamp')}")
        for f in CATEGORY_FIELDS.get(m.get("category"), ()):
            if f not in m:
                warnings.append(f"{mid}: {m['category']} without {f}")
        for a in m.get("alternatives", []) or []:
            if set(a) != {"option", "rejected_because"}:
                errors.append(f"{mid}: alternative not {{option, rejected_because}}: {a}")
    # supersede pairs
    chains = Counter()
    for m in mems:
        mid = m["id"]
        if "supersedes" in m:
            old = by_id.get(m["supersedes"])
            if old is None:
                errors.append(f"{mid}: supersedes unknown {m['supersedes']}")
            elif old.get("superseded_by") != mid:
                errors.append(f"{mid} supersedes {old['id']} but {old['id']}.superseded_by = {old.get('superseded_by')}")
            chains["synthetic" if m.get("synthetic_successor") else m.get("chain_basis", "explicit")] += 1
        if "superseded_by" in m:
            new = by_id.get(m["superseded_by"])
            if new is None or new.get("supersedes") != mid:
                errors.append(f"{mid}: superseded_by {m['superseded_by']} not mirrored")
    # queries
    qids = set()
    kinds = Counter()
    overlaps, strict_overlaps = [], []
    texts = Counter()
    for q in queries + extra:
        qid = q.get("id")
        if qid in qids:
            errors.append(f"duplicate query id {qid}")
        qids.add(qid)
        k = q.get("kind")
        if k not in KINDS:
            errors.append(f"{qid}: unknown kind {k}")
        texts[q.get("query", "").strip().lower()] += 1
        rel = q.get("relevant") or []
        if not 1 <= len(rel) <= 3:
            errors.append(f"{qid}: relevant must have 1..3 ids")
        for r in rel:
            if r not in by_id:
                errors.append(f"{qid}: relevant id {r} does not exist")
        if k == "superseded":
            cur, rep = q.get("current"), q.get("replaced")
            if cur not in by_id or rep not in by_id:
                errors.append(f"{qid}: current/replaced missing")
            elif by_id[cur].get("supersedes") != rep and not _chain(by_id, cur, rep):
                errors.append(f"{qid}: {cur} does not supersede {rep}")
            if rel != [cur]:
                errors.append(f"{qid}: superseded query relevant must be [current]")
        if k == "why" and not any(by_id.get(r, {}).get("category") == "decision" for r in rel):
            warnings.append(f"{qid}: why-query without a decision target")
        elif k == "why" and not any(by_id[r].get("alternatives") or by_id[r].get("rationale") for r in rel if r in by_id):
            warnings.append(f"{qid}: why-query target records neither alternatives nor rationale")
        if k == "paraphrase":
            for r in rel:
                m = by_id.get(r)
                if not m:
                    continue
                sh = shared_stems(q["query"], m["summary"] + " " + m["content"])
                if sh:
                    overlaps.append(f"{qid} ~ {r}: shares {sorted(sh)} :: {q['query']}")
                sh2 = shared_stems(q["query"], text_of(m, INDEXED_EXTRA)) - sh
                if sh2:
                    strict_overlaps.append(f"{qid} ~ {r}: shares {sorted(sh2)} with tags/other fields")
    for t, n in texts.items():
        if n > 1:
            errors.append(f"query text repeated {n}x: {t}")
    if overlaps and "--allow-overlap" not in argv:
        errors.extend("paraphrase overlap " + o for o in overlaps)
    kinds = Counter(q.get("kind") for q in queries)
    for k in KINDS:
        if kinds[k] < MIN_PER_KIND:
            errors.append(f"main query set has only {kinds[k]} {k} queries (want >= {MIN_PER_KIND})")
    # stats
    cats = Counter(m["category"] for m in mems)
    repos = {"/".join(m["source"]["file_path"].split("/")[:2]) for m in mems}
    files = {m["source"]["file_path"] for m in mems}
    lens = sorted(len(m["content"]) for m in mems)
    print(f"memories: {len(mems)}  ({', '.join(f'{k}={v}' for k, v in sorted(cats.items()))})")
    print(f"content length: min {lens[0]}, median {lens[len(lens)//2]}, max {lens[-1]}" if lens else "")
    print(f"source repositories: {len(repos)}, source documents: {len(files)}")
    print(f"supersede chains: {sum(chains.values())} ({', '.join(f'{k}={v}' for k, v in sorted(chains.items()))})")
    print(f"queries: {len(queries)}  ({', '.join(f'{k}={kinds[k]}' for k in KINDS)})")
    xk = Counter(q.get("kind") for q in extra)
    print(f"extra queries (queries_extra.jsonl): {len(extra)}  ({', '.join(f'{k}={xk[k]}' for k in KINDS)})")
    print(f"paraphrase queries sharing a content stem with target summary/content: {len(overlaps)}")
    print(f"paraphrase queries sharing a stem only with tags/alternatives/other fields: {len(strict_overlaps)}")
    targeted = {r for q in queries for r in q["relevant"]}
    rel_sizes = Counter(len(q["relevant"]) for q in queries)
    print(f"relevant-set sizes (main): {dict(sorted(rel_sizes.items()))}")
    print(f"memories targeted by at least one query: {len(targeted)} ({len(mems) - len(targeted)} distractors)")
    if verbose:
        for o in overlaps + strict_overlaps:
            print("  overlap:", o)
        for w in warnings:
            print("  warning:", w)
    else:
        print(f"warnings: {len(warnings)} (use --verbose)")
    for e in errors:
        print("ERROR:", e)
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


def _chain(by_id: dict, cur: str, rep: str) -> bool:
    seen = set()
    x = by_id.get(cur)
    while x and x.get("supersedes") and x["id"] not in seen:
        seen.add(x["id"])
        if x["supersedes"] == rep:
            return True
        x = by_id.get(x["supersedes"])
    return False


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
