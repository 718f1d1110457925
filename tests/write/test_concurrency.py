"""Many writers at once, and writers killed at random moments: no lost, torn or half-applied writes."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from loa_memory.store import load_config, load_grimoire
from loa_memory.store.load import Grimoire
from loa_memory.write.add import recover

ROOT = Path(__file__).resolve().parents[2]

ADDER = """
import sys
from pathlib import Path
from loa_memory.store import load_config
from loa_memory.write.add import add_entry
config = load_config(Path(sys.argv[1]))
for n in range(int(sys.argv[3])):
    add_entry(config, {"category": "fact", "content": f"worker {sys.argv[2]} fact {n}"})
"""

CHURN = """
import sys
from pathlib import Path
from loa_memory.store import load_config
from loa_memory.write.add import add_entry, supersede_entry
config = load_config(Path(sys.argv[1]))
print("ready", flush=True)
last = None
n = 0
while True:
    n += 1
    if last is None or n % 3 == 0:
        last = add_entry(config, {"category": "learning", "content": f"learning {n}"}).data["id"]
    else:
        category = "fact" if n % 4 == 1 else "learning"
        last = supersede_entry(config, last, {"category": category, "content": f"revision {n}"})[0].data["id"]
    print("done", last, flush=True)
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_eight_processes_adding_at_once(grimoire: Path) -> None:
    procs = [subprocess.Popen([sys.executable, "-c", ADDER, str(grimoire), str(n), "50"], env=_env())
             for n in range(8)]
    assert [p.wait(timeout=600) for p in procs] == [0] * 8
    loaded = load_grimoire(load_config(grimoire))
    assert loaded.problems == []
    ids = [e.id for e in loaded.entries]
    assert len(ids) == 400 and len(set(ids)) == 400
    assert {e.content for e in loaded.entries} == {f"worker {w} fact {n}" for w in range(8) for n in range(50)}


def _check_consistent(loaded: Grimoire) -> None:
    assert loaded.problems == []
    by_id = loaded.by_id
    for entry in loaded.entries:
        if entry.superseded_by:
            assert by_id[entry.superseded_by].supersedes == entry.id
        if entry.supersedes:
            assert by_id[entry.supersedes].superseded_by == entry.id


def test_kill_9_at_random_moments_loses_and_tears_nothing(grimoire: Path) -> None:
    rng = random.Random(1234)
    config = load_config(grimoire)
    completed: set[str] = set()
    runs = 0
    while len(completed) < 200 and runs < 400:
        runs += 1
        proc = subprocess.Popen([sys.executable, "-c", CHURN, str(grimoire)], env=_env(),
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.25))
        proc.send_signal(signal.SIGKILL)
        output, _ = proc.communicate(timeout=60)
        whole = output.split("\n")[:-1]  # the kill may tear the last line ("done MEM-2026"): only whole lines count
        completed.update(line.split()[1] for line in whole if line.startswith("done ") and len(line.split()) == 2)
        loaded = load_grimoire(config, use_cache=False)
        assert not loaded.problems, loaded.problems
        recover(config)
        loaded = load_grimoire(config, use_cache=False)
        _check_consistent(loaded)
        assert completed <= set(loaded.by_id)
    assert len(completed) >= 200
