"""Fit the task adapter (``loa_memory/answer/adapter.py``): a linear map ``M`` such that a task's vector turned by
it, ``unit(M q)``, is closer to the trigger of the correction the task runs into than to the other triggers of its
set.

Each set (a blind activation set's task set, a cue set) gives one softmax per task that has a correction, over the
set's triggers (a correction's phrasings averaged): the task should pick its own. ``M`` starts as the identity and
is pulled back towards it (``--l2``), by full-batch Adam (deterministic: no sampling). Tasks without a correction
are not used: taught to pick "none", the map learned to tell an action from a chore rather than one action from
another, and fired the grimoire's own corrections on its own domain's tasks (docs/retrieval.md#recall).

Run: python benchmarks/train_task_adapter.py [--sets 2-71,a-e] [--epochs 100] [--model mpnet] [--out FILE]
→ writes loa_memory/answer/data/task-adapter.<model>.npy (float16), prints the tasks used (about a minute on 2 cores).
The sets it is fitted on are in-sample from then on: ``benchmarks/fit_cue_rule.py --folds 5`` measures it on sets
it was not fitted on, and blind sets written after it are the real figure.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loa_memory.answer.adapter import MODELS, adapter_path
from loa_memory.search.embed import Embedder, get_embedder

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class TaskSet:
    """One set's tasks that have a correction and the triggers they choose among (``answers[i]``: the index of task
    i's correction among ``triggers``)."""

    tasks: list[str]
    triggers: list[list[str]]
    answers: list[int]


def set_names(spec: str) -> list[str]:
    names: list[str] = []
    for part in filter(None, spec.split(",")):
        low, _, high = part.partition("-")
        if low.isdigit():
            names += [str(n) for n in range(int(low), int(high or low) + 1)]
        else:
            names += [chr(c) for c in range(ord(low), ord(high or low) + 1)]
    return names


def load_set(name: str) -> TaskSet:
    """Set ``name``: a number (benchmarks/data/blind-activation-N/task_set.jsonl) or a letter (cues/set-X.jsonl)."""
    path = (DATA / "cues" / f"set-{name}.jsonl" if name.isalpha()
            else DATA / f"blind-activation-{name}" / "task_set.jsonl")
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    keys = [r["key"] for r in rows if r["type"] == "correction"]
    triggers = [r["entry"].get("triggers") or [r["entry"].get("trigger") or r["entry"]["summary"]]
                for r in rows if r["type"] == "correction"]
    tasks, answers = [], []
    for row in rows:
        want = row.get("expect") or row.get("correction")
        if row["type"] == "task" and want in keys:
            tasks.append(row.get("task") or row["text"])
            answers.append(keys.index(want))
    return TaskSet(tasks, triggers, answers)


def load_calls(name: str) -> TaskSet:
    """Blind activation set ``name``'s guarded tool calls, each as the matcher renders it (``render_action``: its
    classes in words, its files, the start of its change), and the triggers they choose among."""
    from loa_memory.agents.hook_input import parse_hook_input
    from loa_memory.agents.tool_call import action_from_hook
    from loa_memory.answer.cues.match import seen

    rows = [json.loads(line) for line in (DATA / f"blind-activation-{name}" / "bench_set.jsonl").open(encoding="utf-8")]
    keys = [r["key"] for r in rows if r["type"] == "correction"]
    triggers = [r["entry"].get("triggers") or [r["entry"].get("trigger") or r["entry"]["summary"]]
                for r in rows if r["type"] == "correction"]
    calls, answers = [], []
    for row in rows:
        want = row.get("correction", row.get("expect"))
        if row["type"] != "call" or want not in keys:
            continue
        action = action_from_hook(parse_hook_input(json.dumps({**row["hook"], "cwd": "/repo"})))
        if action is None:
            continue
        calls.append(seen(action, Path("/repo"))[2])
        answers.append(keys.index(want))
    return TaskSet(calls, triggers, answers)


def _unit(rows: np.ndarray) -> np.ndarray:
    return np.asarray(rows / np.linalg.norm(rows, axis=-1, keepdims=True))


def fit(sets: list[tuple[np.ndarray, np.ndarray, np.ndarray]], epochs: int = 100, rate: float = 1e-3,
        l2: float = 1e-3, temperature: float = 0.05) -> np.ndarray:
    """``M`` for ``sets`` of (task vectors, trigger vectors (unit), answers): the softmax cross-entropy of each task's
    answer among ``unit(M q) · t / temperature``, plus ``l2 |M - I|^2 / 2``."""
    dim = sets[0][0].shape[1]
    delta = np.zeros((dim, dim))
    moments = [np.zeros((dim, dim)), np.zeros((dim, dim))]
    count = sum(len(answers) for _, _, answers in sets)
    for step in range(1, epochs + 1):
        grad = np.zeros((dim, dim))
        for tasks, triggers, answers in sets:
            turned = tasks + tasks @ delta.T
            norms = np.linalg.norm(turned, axis=1, keepdims=True)
            units = turned / norms
            logits = units @ triggers.T / temperature
            logits -= logits.max(axis=1, keepdims=True)
            probs = np.exp(logits)
            probs /= probs.sum(axis=1, keepdims=True)
            probs[np.arange(len(answers)), answers] -= 1  # the gradient of the cross-entropy by the logits
            by_unit = probs @ triggers / temperature
            by_turned = (by_unit - (by_unit * units).sum(axis=1, keepdims=True) * units) / norms
            grad += by_turned.T @ tasks
        delta -= rate * _adam(moments, grad / count + l2 * delta, step)
    return np.eye(dim) + delta


def _adam(moments: list[np.ndarray], grad: np.ndarray, step: int) -> np.ndarray:
    """Adam's step direction for ``grad``, keeping its running moments in ``moments``."""
    moments[0] = 0.9 * moments[0] + 0.1 * grad
    moments[1] = 0.999 * moments[1] + 0.001 * grad * grad
    mean = moments[0] / (1 - 0.9 ** step)
    spread = moments[1] / (1 - 0.999 ** step)
    return np.asarray(mean / (np.sqrt(spread) + 1e-8))


def arrays(names: list[str], embedder: Embedder, calls: bool = False) -> dict[str, tuple[np.ndarray, ...]]:
    """Sets ``names`` (their tasks, or with ``calls`` their guarded tool calls) as ``fit`` takes them: each one's
    task vectors, trigger vectors (a correction's phrasings averaged, unit) and answers."""
    sets = {name: load_calls(name) if calls else load_set(name) for name in names}
    texts = sorted({t for s in sets.values() for t in [*s.tasks, *(p for ts in s.triggers for p in ts)]})
    vectors = dict(zip(texts, np.asarray(embedder.embed(texts), dtype=np.float64), strict=True))
    return {name: (np.array([vectors[t] for t in s.tasks]),
                   _unit(np.array([np.mean([vectors[p] for p in ts], axis=0) for ts in s.triggers])),
                   np.array(s.answers)) for name, s in sets.items() if s.tasks}


def train(names: list[str], embedder: Embedder, epochs: int = 100, l2: float = 1e-3,
          calls: bool = False) -> np.ndarray:
    """The map fitted on sets ``names`` (their tasks, or with ``calls`` their guarded tool calls) with ``embedder``'s
    vectors."""
    return fit(list(arrays(names, embedder, calls).values()), epochs=epochs, l2=l2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="2-71,a-e", help="blind activation sets and cue sets, e.g. 2-62,a-c")
    parser.add_argument("--epochs", type=int, default=100)
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--model", default="mpnet")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--calls", action="store_true",
                        help="fit the action map on the sets' guarded tool calls (default sets 2-75)")
    args = parser.parse_args()
    if args.calls and args.sets == parser.get_default("sets"):
        args.sets = "2-75"
    embedder = get_embedder(args.model)
    model = next((m for m in MODELS if embedder.name.startswith(m)), None)
    if model is None and args.out is None:
        sys.exit(f"no adapter is read for {embedder.name}; give --out to write one anyway")
    matrix = train(set_names(args.sets), embedder, epochs=args.epochs, l2=args.l2, calls=args.calls)
    out = args.out or adapter_path(str(model), "action" if args.calls else "task")
    out.parent.mkdir(parents=True, exist_ok=True)
    np.save(out, matrix.astype(np.float16))
    print(f"sets {args.sets}, {embedder.name}: wrote {out}")


if __name__ == "__main__":
    main()
