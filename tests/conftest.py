from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from loa_memory.search.embed import mpnet
from tests.fixtures import CONTRACT_CHECKS, GIT_IDENTITY, Cli, make_repo

# Unpacked model weights stay where the user keeps them, though each test gets its own HOME.
_MODEL_CACHE = str(mpnet.cache_dir().parent)


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("LOA_MEMORY_MODEL_CACHE", _MODEL_CACHE)
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)
    for key in ("LOA_SESSION_ID", "CLAUDE_SESSION_ID", "LOA_AGENT", "LOA_PHASE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LOA_MEMORY_SERVER", "off")  # no warm server outlives a test (test_warm.py starts its own)
    # no background embedding outlives a test either: read commands embed before answering, as `index` would
    monkeypatch.setenv("LOA_MEMORY_BACKGROUND", "inline")
    for key in ("XDG_CACHE_HOME", "LOA_MEMORY_VECTOR_CACHE", "LOA_MEMORY_EMBED_RUNTIME"):
        monkeypatch.delenv(key, raising=False)  # the user's vector cache: under this test's HOME


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """An empty git repository."""
    return make_repo(tmp_path / "repo")


@pytest.fixture
def grimoire(repo: Path) -> Path:
    """A git repository after `loa-memory init --layout lists` (the layout most tests were written for; the
    one-file-per-entry layout is tested in tests/store/test_layout.py)."""
    result = Cli(repo)("init", "--layout", "lists")
    assert result.exit_code == 0, result.output
    return repo


@pytest.fixture
def loa(grimoire: Path) -> Cli:
    return Cli(grimoire)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many JSON/YAML outputs the run validated against their published schemas (tests/fixtures.py)."""
    if CONTRACT_CHECKS:
        terminalreporter.write_line(f"JSON contract: {sum(CONTRACT_CHECKS.values())} outputs of "
                                    f"{len(CONTRACT_CHECKS)} schemas validated "
                                    f"({', '.join(f'{k} {v}' for k, v in sorted(CONTRACT_CHECKS.items()))})")


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short private runtime folder for the warm server's socket (socket paths are limited to ~100 bytes),
    servers enabled."""
    folder = Path(tempfile.mkdtemp(prefix="lm", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("LOA_MEMORY_SERVER", "auto")
    monkeypatch.delenv("CI", raising=False)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)

