"""The task adapter (``answer/adapter.py``): a task's vector turned towards the triggers it pulls, at ``recall``."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.train_task_adapter import fit, load_calls
from loa_memory.answer import adapter
from loa_memory.answer.adapter import action_map, adapted, task_map
from loa_memory.search.embed import get_embedder, mpnet
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


def test_an_action_map_is_shipped_for_mpnet_only_and_is_not_the_task_map() -> None:
    matrix = action_map("all-mpnet-base-v2/onnx-int8-v1-g2-q1/t256", 768)
    assert matrix is not None and matrix.shape == (768, 768) and matrix.dtype == np.float32
    assert not np.array_equal(matrix, task_map("all-mpnet-base-v2/onnx-int8-v1-g2-q1/t256", 768))
    assert action_map("all-MiniLM-L6-v2/onnx-int8-v1/t256", 384) is None
    assert action_map("hashing-v1", 768) is None


def test_the_vector_is_turned_by_the_map_and_stays_unit() -> None:
    rng = np.random.default_rng(7)
    vector = _unit(rng.normal(size=8))
    assert adapted(vector, None) is vector
    assert adapted(vector, np.zeros((8, 8))) is vector  # a map to nothing leaves it
    assert np.allclose(adapted(vector, np.eye(8)), vector)
    matrix = rng.normal(size=(8, 8))
    turned = adapted(vector, matrix)
    assert np.isclose(np.linalg.norm(turned), 1.0)
    assert np.allclose(turned, _unit(matrix @ vector))


def _synthetic_sets(rng: np.random.Generator, warp: np.ndarray, count: int) -> list[tuple[np.ndarray, ...]]:
    """Sets of 8 triggers in 16 dimensions; each trigger's task is the trigger seen through ``warp``, with noise."""
    sets = []
    for _ in range(count):
        triggers = _unit(rng.normal(size=(8, 16)))
        tasks = _unit(triggers @ warp.T + 0.3 * rng.normal(size=(8, 16)))
        sets.append((tasks, triggers, np.arange(8)))
    return sets


def _picks_own(matrix: np.ndarray, sets: list[tuple[np.ndarray, ...]]) -> int:
    """How many tasks have their trigger nearest once turned by ``matrix``."""
    return sum(int((np.argmax(_unit(tasks @ matrix.T) @ triggers.T, axis=1) == answers).sum())
               for tasks, triggers, answers in sets)


def test_fitting_learns_how_tasks_are_worded_and_carries_to_sets_not_fitted_on() -> None:
    rng = np.random.default_rng(11)
    warp = np.linalg.qr(rng.normal(size=(16, 16)))[0]  # tasks say their trigger in other "words": a rotation
    fitted = fit(_synthetic_sets(rng, warp, 40), epochs=300, rate=1e-2, l2=1e-4)
    held_out = _synthetic_sets(rng, warp, 10)
    assert _picks_own(np.eye(16), held_out) < 20 < 55 < _picks_own(fitted, held_out)  # of 80 (the inverse: 72)


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



@needs_mpnet
def test_the_action_map_turns_a_call_in_code_towards_its_trigger_in_prose() -> None:
    """``.GetAwaiter().GetResult()`` in a service is "calling an async method from synchronous C# code", said as
    code (blind activation set 75, A41). Among the set's 40 triggers, the call's vector as it is lies nearest "writing
    a PodDisruptionBudget"; turned by the action map, nearest its own."""
    calls = load_calls("75")
    embedder = get_embedder("mpnet")
    triggers = _unit(np.asarray(embedder.embed([phrasings[0] for phrasings in calls.triggers])))
    at = next(n for n, call in enumerate(calls.tasks) if "GetAwaiter().GetResult()" in call)
    vector = _unit(np.asarray(embedder.embed([calls.tasks[at]]))[0])
    own = calls.answers[at]
    assert "synchronous C#" in calls.triggers[own][0]
    assert int(np.argmax(triggers @ vector)) != own
    assert int(np.argmax(triggers @ adapted(vector, action_map(embedder.name, embedder.dim)))) == own
