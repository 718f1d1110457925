"""Writes loa_memory/capture/data/correction_exemplars.json: what capture compares a user's reply with when no wording
rule hears it (``loa_memory/capture/likeness.py``).

The exemplars are the user speech of the labelled transcript sets that are no longer held out: each labelled
correction line (``corrections``), and every other user message of those sessions (``replies``: answers, thanks,
new requests, pasted errors, and the first prompts). Nothing is generated; re-running on the same sets gives the
same file.

With them, the exemplars' vectors for each installed model we ship (``correction_exemplars.<model>.npz``, float16),
so that capture never waits to embed them.

Run: python benchmarks/capture_exemplars.py [SET ...]
     (default: the tuning set and blind transcript sets 1, 3-14, 17 and 18)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.capture_words import _fold, _group_items
from loa_memory.capture.likeness import exemplars_digest, shipped_path
from loa_memory.capture.transcript import read_transcript
from loa_memory.search.embed import minilm, mpnet, select_embedder

DATA = Path(__file__).parent / "data"
SETS = (
    DATA / "capture-words" / "transcripts",
    DATA / "blind-activation" / "transcripts",
    DATA / "blind-activation-3" / "transcripts",
    DATA / "blind-activation-4" / "transcripts",
    DATA / "blind-transcripts-5",
    DATA / "blind-transcripts-6",
    *(DATA / f"blind-transcripts-{n}" for n in (7, 8, 9, 10, 11, 12, 13, 14, 17, 18)),
)
TARGET = Path(__file__).resolve().parents[1] / "loa_memory" / "capture" / "data" / "correction_exemplars.json"
LIMIT = 600  # characters of a message kept: its start says whether it corrects


def _labelled(labels: dict[str, object]) -> dict[str, list[str]]:
    """Session stem → its labelled correction lines (groups and pairs)."""
    found: dict[str, list[str]] = {}
    for _key, value in [*_group_items(labels), *_group_items(labels, "pairs")]:
        for session, line in zip(value["sessions"], value["user_lines"], strict=True):
            found.setdefault(Path(str(session)).name.removesuffix(".jsonl"), []).append(_fold(str(line)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path, default=list(SETS))
    args = parser.parse_args()
    corrections: list[str] = []
    replies: list[str] = []
    for folder in args.sets:
        labelled = _labelled(json.loads((folder / "labels.json").read_text("utf-8")))
        for path in sorted(folder.glob("*.jsonl")):
            for turn in read_transcript(path).turns:
                if turn.role != "user" or not turn.text.strip():
                    continue
                folded = _fold(turn.text)
                is_correction = any(f and (f in folded or folded in f) for f in labelled.get(path.stem, []))
                (corrections if is_correction else replies).append(turn.text.strip()[:LIMIT])
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    payload = {"sources": [str(s.relative_to(DATA.parent.parent)) if s.is_relative_to(DATA.parent.parent) else s.name
                           for s in args.sets],
               "corrections": sorted(set(corrections)), "replies": sorted(set(replies) - set(corrections))}
    TARGET.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"{TARGET}: {len(payload['corrections'])} corrections, {len(payload['replies'])} replies")
    texts = [*payload["corrections"], *payload["replies"]]
    for name, module in (("mpnet", mpnet), ("minilm", minilm)):
        if not module.is_available():
            print(f"{name}: not installed, no vectors written")
            continue
        embedder = select_embedder(name, "numpy").embedder  # the reference runtime
        vectors = embedder.embed(texts).astype(np.float16)
        path = shipped_path(embedder.name)
        np.savez_compressed(path, vectors=vectors, digest=np.array(exemplars_digest(texts)))
        print(f"{path}: {vectors.shape[0]} x {vectors.shape[1]} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
