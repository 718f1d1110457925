"""Read a ``.safetensors`` file as numpy arrays mapped from disk (no torch, no copy)."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import TYPE_CHECKING

from loa_memory.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

_DTYPES = {"F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4"}


def load_safetensors(source: Path | bytes) -> dict[str, np.ndarray]:
    """Every tensor in ``source`` by name, as read-only arrays viewing its bytes.

    A path is memory-mapped, so loading costs no copy and pages come in as they are used.
    """
    import numpy as np

    try:
        if isinstance(source, bytes):
            raw = np.frombuffer(source, dtype=np.uint8)
        else:
            raw = np.memmap(source, dtype=np.uint8, mode="r")
        (size,) = struct.unpack("<Q", raw[:8].tobytes())
        header = json.loads(raw[8: 8 + size].tobytes())
    except (OSError, ValueError, struct.error) as exc:
        where = source if isinstance(source, Path) else "in memory"
        raise ConfigError(f"cannot read model weights ({where}): {exc}",
                          hint="reinstall the model package (see docs/embeddings.md)") from exc
    base = 8 + size
    tensors: dict[str, np.ndarray] = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        dtype = np.dtype(_DTYPES[meta["dtype"]])
        tensors[name] = raw[base + start: base + end].view(dtype).reshape(meta["shape"])
    return tensors
