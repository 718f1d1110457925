"""Regenerate the generated part of SOURCES.md (per-repository document list and supersede-chain table)."""
import collections
import json
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent
MARK = "<!-- generated below by src/write_sources.py -->"
mems = [json.loads(line) for line in open(OUT / "memories.jsonl")]
by_id = {m["id"]: m for m in mems}
repos = collections.defaultdict(list)
for m in mems:
    fp = m["source"]["file_path"]
    r = "/".join(fp.split("/")[:2])
    repos[r].append((fp[len(r) + 1:], m))
lines = [MARK, "", "## Documents used, per repository", ""]
for r, items in sorted(repos.items(), key=lambda kv: (-len(kv[1]), kv[0])):
    paths = sorted({p for p, _ in items})
    lines.append(f"### {r} ({len(paths)} documents, {len(items)} entries)")
    lines.append("")
    for p in paths:
        ms = [m for q, m in items if q == p]
        tags = ", ".join(f"{m['id']} ({m['category']}{', synthetic successor' if m.get('synthetic_successor') else ''})"
                         for m in ms)
        lines.append(f"- `{p}` -> {tags}")
    lines.append("")
lines += ["## Supersede chains", "",
          "| new (current) | replaces | basis | new entry source | replaced entry source |",
          "|---|---|---|---|---|"]
for m in mems:
    if m.get("supersedes"):
        old = by_id[m["supersedes"]]
        basis = "synthetic successor" if m.get("synthetic_successor") else m.get("chain_basis", "explicit")
        lines.append(f"| {m['id']} | {old['id']} | {basis} | {m['source']['file_path']} | {old['source']['file_path']} |")
text = (OUT / "SOURCES.md").read_text() if (OUT / "SOURCES.md").exists() else ""
head = text.split(MARK)[0].rstrip() + "\n\n"
(OUT / "SOURCES.md").write_text(head + "\n".join(lines) + "\n")
print("SOURCES.md regenerated:", len(repos), "repositories,", sum(len({p for p, _ in v}) for v in repos.values()), "documents")
