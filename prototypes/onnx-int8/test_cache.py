"""Checks of the cache and the silence promise (run: .venv/bin/python test_cache.py).

In a fresh cache directory: the first use builds, writes ``.onnx`` + ``.sha256`` and prints nothing on
stdout or stderr (file-descriptor level, so onnxruntime's C++ logging would show); the progress callback
hears the steps; a second use loads without building; a corrupted file is rebuilt, not run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHILD = """
import sys; sys.path.insert(0, {here!r})
from onnx_runtime import OnnxEmbedder
heard = []
e = OnnxEmbedder("minilm", "int8", progress=heard.append)
v = e.embed(["hello world", "second text"])
assert v.shape == (2, 384), v.shape
open({log!r}, "w").write("\\n".join(heard))
"""


def run(cache: str, log: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LOA_MEMORY_MODEL_CACHE": cache}
    return subprocess.run([sys.executable, "-c", CHILD.format(here=str(HERE), log=str(log))],
                          env=env, capture_output=True, text=True, check=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        log = Path(cache) / "progress.log"
        first = run(cache, log)
        assert first.stdout == "" and first.stderr == "", (first.stdout, first.stderr)
        steps = log.read_text().splitlines()
        assert steps and steps[0].startswith("building"), steps
        files = sorted(p.name for p in Path(cache).rglob("*.onnx*"))
        assert len(files) == 2 and files[1].endswith(".sha256"), files
        second = run(cache, log)
        assert second.stdout == "" and second.stderr == "" and log.read_text() == "", log.read_text()
        model = next(Path(cache).rglob("*.onnx"))
        data = bytearray(model.read_bytes())
        data[len(data) // 2] ^= 0xFF
        model.write_bytes(bytes(data))
        third = run(cache, log)
        assert third.stderr == "" and log.read_text().startswith("building"), log.read_text()
        print(f"ok: silent build, progress {steps}, cached reuse, corrupted file rebuilt ({files})")


if __name__ == "__main__":
    main()
