"""A task's words turned towards the words of triggers: a linear map of the task's vector, learned once.

A developer asks for an action ("squash the fixup commits and get develop onto GitHub", "nuke the namespace and
bring it back from the chart"); a correction names it as a trigger ("pushing rewritten history to a shared
branch", "deleting a Kubernetes namespace that owns PersistentVolumeClaims"). A sentence embedder places the two
only loosely together. ``M`` turns a task's vector, ``q' = unit(M q)``, so that it lies nearer the trigger the task
runs into than the other triggers around it: fitted as a choice among each set's triggers on the tasks of the blind
activation sets and the cue sets (``benchmarks/train_task_adapter.py``). Only for matching corrections at
``recall`` (search uses the vector as it is).

The tool-call cues have a map of their own (``action_map``), fitted the same way on the blind activation sets'
guarded calls, each as the matcher renders it (``cues.action.render_action``: its classes in words, its files, the
start of its change): a migration's ``op.drop_column("orders", "gift_note")`` or a ``git push -f`` said as code, to
be matched against triggers said in prose (``benchmarks/train_task_adapter.py --calls``).

A map belongs to one embedder: the file ``data/<task or action>-adapter.<model>.npy`` (float16, dim x dim) is read
for the embedder whose name starts with ``<model>``, and for no other (without it the vector stays as it is).
Measured on blind sets not used to fit it (docs/retrieval.md#recall, docs/agent-hooks.md).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
MODELS = ("all-mpnet-base-v2",)  # the embedders a map is shipped for (by the start of their name)


def adapter_path(model: str, kind: str = "task") -> Path:
    """Where the map of ``kind`` ("task" or "action") for ``model`` is kept."""
    return DATA / f"{kind}-adapter.{model}.npy"


@functools.lru_cache(maxsize=8)
def _load(model: str, dim: int, kind: str) -> Any:
    import numpy as np

    path = adapter_path(model, kind)
    if not path.is_file():
        return None
    matrix = np.load(path).astype(np.float32)
    return matrix if matrix.shape == (dim, dim) else None


def _map(embedder_name: str, dim: int, kind: str) -> Any:
    model = next((m for m in MODELS if embedder_name.startswith(m)), None)
    return _load(model, dim, kind) if model else None


def task_map(embedder_name: str, dim: int) -> Any:
    """The map fitted on tasks for ``embedder_name``'s vectors, or None."""
    return _map(embedder_name, dim, "task")


def action_map(embedder_name: str, dim: int) -> Any:
    """The map fitted on tool calls' renderings (``cues.action.render_action``) for ``embedder_name``'s vectors, or
    None."""
    return _map(embedder_name, dim, "action")


def adapted(vector: Any, matrix: Any) -> Any:
    """``vector`` turned towards the triggers it pulls (unit length); as it is when ``matrix`` is None."""
    import numpy as np

    if matrix is None:
        return vector
    turned = matrix @ vector
    norm = float(np.linalg.norm(turned))
    return turned / norm if norm else vector
