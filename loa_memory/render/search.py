"""Text renderings of search results and index refreshes."""

from __future__ import annotations

from typing import Any


def search_text(data: dict[str, Any]) -> str:
    lines = []
    for n, hit in enumerate(data["results"], 1):
        mark = "" if hit["status"] == "active" else f" [{hit['status']}]"
        world = f"{hit['world']}/" if data.get("multiple_worlds") else ""
        lines.append(f"{n:>2}. {world}{hit['id']}  {hit['category']:<10} {hit['summary']}{mark}")
        if hit.get("stands_in_for"):
            lines.append(f"      (current entry for {', '.join(hit['stands_in_for'])})")
        if "explain" in hit:
            ex = hit["explain"]
            lex = ex["lexical"]
            sem = ex["semantic"]
            factors = " ".join(f"{k}×{v}" for k, v in ex["factors"].items())
            cosine = f", cosine {sem['score']:.3f}" if sem["score"] is not None else ""
            if lex.get("coverage") is not None:
                cosine += f", words matched {lex['coverage']:.0%}"
            lines.append(f"      score {hit['score']:.4f} = fused {ex['fused']:.4f} "
                         f"(lexical rank {lex['rank'] or '-'}, semantic rank {sem['rank'] or '-'}{cosine}) × {factors}")
    if not lines:
        lines.append("no matching memories")
    for warning in data.get("warnings", []):
        lines.append(f"note: {warning}")
    return "\n".join(lines)


def index_text(data: dict[str, Any]) -> str:
    verb = "rebuilt" if data["rebuilt"] else "refreshed"
    return (f"{verb} the full-text index: {data['added']} added, {data['removed']} removed "
            f"({data['documents']} documents); embeddings: {data['embedded']} new"
            + (f", {data['from_cache']} from the user's vector cache" if data.get("from_cache") else "")
            + f", {data['vectors']} stored "
            f"({data['embedder']}{', fallback' if data['fallback'] else ''})")
