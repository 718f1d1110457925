"""Fit the task adapter (``loa_memory/answer/adapter.py``): a linear map from a task's vector to the vector of the
trigger it pulls, by ridge regression over the tasks of blind activation sets and their corrections' triggers.

Run: python benchmarks/train_task_adapter.py [--sets 2-42] [--ridge 0.1] [--model mpnet] [--out FILE]
→ writes loa_memory/answer/data/task-adapter.<model>.npy (float16), prints the pairs used. The sets it is fitted on
are in-sample from then on: measure it on blind sets written after (benchmarks/reports/recall-adapter.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loa_memory.answer.adapter import MODELS, adapter_path
from loa_memory.search.embed import get_embedder

DATA = Path(__file__).parent / "data"


def _sets(spec: str) -> list[int]:
    numbers: list[int] = []
    for part in spec.split(","):
        low, _, high = part.partition("-")
        numbers += list(range(int(low), int(high or low) + 1))
    return numbers


def pairs(numbers: list[int]) -> tuple[list[str], list[list[str]]]:
    """Each task that has a correction, with that correction's trigger phrasings."""
    tasks: list[str] = []
    triggers: list[list[str]] = []
    for number in numbers:
        rows = [json.loads(line) for line in (DATA / f"blind-activation-{number}" / "task_set.jsonl").open()]
        phrasings = {r["key"]: r["entry"].get("triggers") or [r["entry"].get("trigger") or r["entry"]["summary"]]
                     for r in rows if r["type"] == "correction"}
        for row in rows:
            want = row.get("expect") or row.get("correction")
            if row["type"] == "task" and want in phrasings:
                tasks.append(row.get("task") or row["text"])
                triggers.append(phrasings[want])
    return tasks, triggers


def fit(task_vectors: np.ndarray, trigger_vectors: np.ndarray, ridge: float) -> np.ndarray:
    """``W`` minimising ``|W q - t|^2 + ridge |W|^2`` over the pairs (rows of the two matrices)."""
    dim = task_vectors.shape[1]
    return np.asarray(trigger_vectors.T @ task_vectors @ np.linalg.inv(task_vectors.T @ task_vectors
                                                                        + ridge * np.eye(dim)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="2-42", help="blind activation sets to fit on, e.g. 2-30 or 2-10,12")
    parser.add_argument("--ridge", type=float, default=0.1)
    parser.add_argument("--model", default="mpnet")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    embedder = get_embedder(args.model)
    model = next((m for m in MODELS if embedder.name.startswith(m)), None)
    if model is None and args.out is None:
        sys.exit(f"no adapter is read for {embedder.name}; give --out to write one anyway")
    tasks, triggers = pairs(_sets(args.sets))
    task_vectors = np.asarray(embedder.embed(tasks), dtype=np.float64)
    flat = [t for texts in triggers for t in texts]
    flat_vectors = np.asarray(embedder.embed(flat), dtype=np.float64)
    means, start = [], 0
    for texts in triggers:  # a correction with several triggers: their mean
        means.append(flat_vectors[start:start + len(texts)].mean(axis=0))
        start += len(texts)
    targets = np.asarray(means)
    targets /= np.linalg.norm(targets, axis=1, keepdims=True)
    matrix = fit(task_vectors, targets, args.ridge)
    out = args.out or adapter_path(str(model))
    out.parent.mkdir(parents=True, exist_ok=True)
    np.save(out, matrix.astype(np.float16))
    print(f"{len(tasks)} tasks of sets {args.sets}, {embedder.name}, ridge {args.ridge}: wrote {out}")


if __name__ == "__main__":
    main()
