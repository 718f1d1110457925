"""How many threads a command computes with: a query-time command few, bulk embedding (``index``) every core.

Query-time commands (``search``, ``recall``, ``why``, ``show``, ``list``, in their own process or served) and
the long-lived servers call ``query_threads`` before numpy is imported; ``bulk_env`` takes its defaults back
out of the environment of the ``index`` they start. Standard library only: the client imports it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

EMBED_THREADS_ENV = "LOA_MEMORY_EMBED_THREADS"  # ONNX Runtime's threads for embedding
BLAS_ENVS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
QUERY_EMBED_THREADS = 2


def _query_embed_threads(chosen: str | None) -> str:
    return chosen or str(min(QUERY_EMBED_THREADS, os.cpu_count() or 1))


def query_threads() -> None:
    """One thread for numpy's BLAS, and two (one on a one-core machine) for ONNX Runtime's embedding of the
    query, which runs without spinning waits (``search/embed/onnx_embed``), unless the user chose
    (``OMP_NUM_THREADS`` holds for both). A query's products are small: a second BLAS thread makes numpy wait
    whenever the other core is busy (MiniLM, one query: 17 ms against 109 ms p50 with two threads on a loaded
    2-core machine), and so does a second ONNX Runtime thread that spins; one that sleeps instead cuts a
    PreToolUse call's embedding (MPNet, ~75 tokens) from 35-49 ms p50 to 24-31 ms, quiet or with the other core
    busy."""
    os.environ.setdefault(EMBED_THREADS_ENV, _query_embed_threads(os.environ.get("OMP_NUM_THREADS")))
    for name in BLAS_ENVS:
        os.environ.setdefault(name, "1")


def bulk_env(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without what ``query_threads`` set there by default: bulk embedding wants every core."""
    bulk = dict(env)
    for name in BLAS_ENVS:
        if bulk.get(name) == "1":
            bulk.pop(name)
    if bulk.get(EMBED_THREADS_ENV) == _query_embed_threads(None):
        bulk.pop(EMBED_THREADS_ENV)
    return bulk


def embed_threads() -> int:
    """``LOA_MEMORY_EMBED_THREADS``, else ``OMP_NUM_THREADS``, else all cores."""
    for name in (EMBED_THREADS_ENV, "OMP_NUM_THREADS"):
        try:
            return max(1, int(os.environ.get(name, "")))
        except ValueError:
            continue
    return os.cpu_count() or 1
