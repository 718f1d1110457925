"""The task adapter (``answer/adapter.py``): a task's vector turned towards the triggers it pulls, at ``recall``."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.train_task_adapter import fit
from loa_memory.answer import adapter
from loa_memory.answer.adapter import adapted, task_map
from loa_memory.search.embed import mpnet
from tests.fixtures import Cli

needs_mpnet = pytest.mark.skipif(not mpnet.is_available(), reason="MPNet weights not installed")


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=-1, keepdims=True)


def test_a_map_is_shipped_for_mpnet_only() -> None:
    matrix = task_map("all-mpnet-base-v2/onnx-int8-v1-g2-q1/t256", 768)
    assert matrix is not None and matrix.shape == (768, 768) and matrix.dtype == np.float32
    assert task_map("all-mpnet-base-v2/numpy-v1/t256", 768) is matrix  # the reference runtime, the same vectors
    assert task_map("all-MiniLM-L6-v2/onnx-int8-v1/t256", 384) is None
    assert task_map("hashing-v1", 768) is None
    assert task_map("all-mpnet-base-v2/onnx-int8-v1-g2-q1/t256", 384) is None  # a map of another size is not used


def test_the_vector_turns_towards_what_the_map_gives_and_stays_unit() -> None:
    rng = np.random.default_rng(7)
    vector = _unit(rng.normal(size=8))
    assert adapted(vector, None) is vector
    assert adapted(vector, np.zeros((8, 8))) is vector  # a map to nothing leaves it
    target = _unit(rng.normal(size=8))
    turned = adapted(vector, np.outer(target, vector))  # maps the vector onto target
    assert np.isclose(np.linalg.norm(turned), 1.0)
    assert float(turned @ target) > float(vector @ target)
    assert np.allclose(turned, _unit(vector + target))


def test_fitting_recovers_a_linear_map() -> None:
    rng = np.random.default_rng(11)
    truth = rng.normal(size=(16, 16))
    tasks = rng.normal(size=(400, 16))
    fitted = fit(tasks, tasks @ truth.T, ridge=1e-6)
    assert np.allclose(fitted, truth, atol=1e-4)


WORK = "develop is full of fixup and wip commits. Squash them into clean commits and get develop onto GitHub."
HISTORY = {"summary": "A rewritten release branch dropped two colleagues' commits",
           "trigger": "pushing rewritten history to a branch other people push to",
           "lesson": "Never rewrite a shared branch; only use --force-with-lease on your own branches"}
OTHERS = [("A dropped column broke the reporting job", "drop a column from a database table",
           "stop reading the column and ship that first"),
          ("The staging secrets were deleted by git clean", "remove untracked files from a deploy checkout",
           "run git clean -n first and never pass -x there"),
          ("A chmod 777 on uploads let anyone write there", "fix a permission denied error on a server",
           "chown to the service user, never chmod 777"),
          ("The nightly report ran twice after a retry", "retry a job that sends email",
           "make the job idempotent before adding retries")]


@needs_mpnet
def test_a_task_in_the_words_of_the_work_gets_its_correction(loa: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Squash the commits and get develop onto GitHub" asks for a force push in the words of the work: turned by
    the map it fires the lesson on rewriting a shared branch; with the task's vector as it is, it does not."""
    for summary, trigger, lesson in [(HISTORY["summary"], HISTORY["trigger"], HISTORY["lesson"]), *OTHERS]:
        assert loa("add", "correction", summary, "--trigger", trigger, "--lesson", lesson).exit_code == 0
    fired = [c["imperative"] for c in loa.json("recall", WORK)["corrections"]]
    assert [line.split(":")[0] for line in fired] == [f"BEFORE {HISTORY['trigger']}"]
    monkeypatch.setattr(adapter, "MODELS", ())  # no map for any embedder: recall as it was
    assert loa.json("recall", WORK)["corrections"] == []
