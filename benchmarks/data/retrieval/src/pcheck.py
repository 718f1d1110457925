"""Dev helper: test candidate paraphrase queries against their target (no shared content stems wanted).

Usage: python src/pcheck.py FILE, FILE holding lines "MEM-id-or-batch-key<TAB>query" (keys need a prior build.py run).
"""
import json, sys
from pathlib import Path
HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
from textnorm import shared_stems
mems = {m["id"]: m for m in map(json.loads, open(HERE / "memories.jsonl"))}
keys = json.load(open(HERE / "src" / "_keymap.json")) if (HERE / "src" / "_keymap.json").exists() else {}
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line.strip() or line.startswith("#"):
        continue
    tid, q = line.split("\t", 1)
    mid = keys.get(tid, tid)
    m = mems[mid]
    sh = shared_stems(q, m["summary"] + " " + m["content"])
    extra = " ".join([" ".join(m.get("tags", [])), m.get("rationale", "") or "", json.dumps(m.get("alternatives", []))])
    sh2 = shared_stems(q, extra) - sh
    print(("OK  " if not sh else "BAD ") + f"{tid}: {q}  {sorted(sh) if sh else ''} {('tags:'+str(sorted(sh2))) if sh2 else ''}")
