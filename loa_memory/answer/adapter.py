"""A task's words turned towards the words of triggers: a linear map of the task's vector, learned once.

A developer asks for an action ("squash the fixup commits and get develop onto GitHub", "nuke the namespace and
bring it back from the chart"); a correction names it as a trigger ("pushing rewritten history to a shared
branch", "deleting a Kubernetes namespace that owns PersistentVolumeClaims"). A sentence embedder places the two
only loosely together. ``M`` turns a task's vector, ``q' = unit(M q)``, so that it lies nearer the trigger the task
runs into than the other triggers around it: fitted as a choice among each set's triggers on the tasks of the blind
activation sets and the cue sets (``benchmarks/train_task_adapter.py``). Only for matching corrections at
``recall`` (search, and the tool-call cues, use the vector as it is).

The map belongs to one embedder: the file ``data/task-adapter.<model>.npy`` (float16, dim x dim) is read for the
embedder whose name starts with ``<model>``, and for no other (without it the vector stays as it is). Measured on
blind sets not used to fit it (docs/retrieval.md#recall).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
MODELS = ("all-mpnet-base-v2",)  # the embedders a map is shipped for (by the start of their name)


def adapter_path(model: str) -> Path:
    return DATA / f"task-adapter.{model}.npy"


@functools.lru_cache(maxsize=4)
def _load(model: str, dim: int) -> Any:
    import numpy as np

    path = adapter_path(model)
    if not path.is_file():
        return None
    matrix = np.load(path).astype(np.float32)
    return matrix if matrix.shape == (dim, dim) else None


def task_map(embedder_name: str, dim: int) -> Any:
    """The map fitted for ``embedder_name``'s vectors, or None."""
    model = next((m for m in MODELS if embedder_name.startswith(m)), None)
    return _load(model, dim) if model else None


def adapted(vector: Any, matrix: Any) -> Any:
    """``vector`` turned towards the triggers it pulls (unit length); as it is when ``matrix`` is None."""
    import numpy as np

    if matrix is None:
        return vector
    turned = matrix @ vector
    norm = float(np.linalg.norm(turned))
    return turned / norm if norm else vector
