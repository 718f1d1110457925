"""No read command waits for embedding: what it cannot embed in about a second goes to one background `index`."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from loa_memory.search import background
from loa_memory.search.embed import onnx_embed, select_embedder
from loa_memory.search.retriever import open_sidecar
from loa_memory.store import load_config
from tests.fixtures import Cli

NAMES = ("billing", "search", "auth", "mail", "queue", "cache")


@pytest.fixture
def ports(loa: Cli) -> Cli:
    for n, name in enumerate(NAMES):
        assert (
            loa(
                "add", "fact", f"The {name} service listens on port {8000 + n}", "--summary", f"Port of {name}"
            ).exit_code
            == 0
        )
    config = loa.root / ".loa.config.yaml"  # no time for embedding before answering
    config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    eager_embed_seconds: 0\n", 1))
    return loa


def _stored(root: Path) -> int:
    config = load_config(root)
    choice = select_embedder(config.retrieval.embedder, config.retrieval.embed_runtime)
    return len(open_sidecar(config, choice.embedder))


def test_a_search_answers_by_words_and_one_background_index_embeds_the_rest(
    ports: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOA_MEMORY_BACKGROUND", "spawn")
    select_embedder().embedder.embed(["warm"])  # the model is ready: only the entries wait
    found = ports.json("search", "which port does the mail service use", "--mode", "hybrid")
    assert found["not_embedded"] == 6 and found["results"][0]["summary"] == "Port of mail"
    local = ports.root / ".loa"
    deadline = time.monotonic() + 120  # the test waits for the process it started: nothing outlives it
    while (_stored(ports.root) < 6 or background.is_running(local)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _stored(ports.root) == 6, (local / background.LOG_NAME).read_text()
    assert (local / background.LOG_NAME).read_text() == ""  # --quiet: it printed nothing
    assert ports.json("search", "which port does the mail service use")["not_embedded"] == 0


def test_only_one_background_index_runs_per_repository(ports: Cli) -> None:
    local = ports.root / ".loa"
    with background.holding(local) as held:
        assert held and background.is_running(local)
        assert background.start(ports.root, local) is None  # one is running: start nothing
        quiet = ports("index", "--quiet")
        assert quiet.exit_code == 0 and quiet.stdout == quiet.stderr == ""
        assert _stored(ports.root) == 0  # it left the work to the one holding the lock
        assert ports.json("index")["embedded"] == 6  # asked for by hand, it works beside it
    assert not background.is_running(local)


def test_a_model_not_ready_is_not_waited_for(ports: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not onnx_embed.is_installed():
        pytest.skip("onnxruntime is not installed")
    monkeypatch.setenv("LOA_MEMORY_MODEL_CACHE", str(tmp_path / "models"))  # a machine that never built it
    monkeypatch.setenv("LOA_MEMORY_BACKGROUND", "off")
    config = ports.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    embedder: minilm\n", 1))
    done = ports("search", "which port does the mail service use", "--mode", "hybrid", "--format", "json")
    assert done.exit_code == 0 and '"not_embedded": 6' in done.stdout and "Port of mail" in done.stdout
    assert not onnx_embed.is_built("minilm") and not (tmp_path / "models").exists()  # nothing built meanwhile


def test_an_unknown_background_mode_is_a_clear_error(ports: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOA_MEMORY_BACKGROUND", "later")
    done = ports("search", "port")
    assert done.exit_code == 2
    assert "LOA_MEMORY_BACKGROUND is 'later'" in done.stderr and "spawn, inline or off" in done.stderr
