"""Nothing is written outside the repository: configured paths, symlinked folders, crash logs."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from loa_memory.cli import boundary
from tests.fixtures import MEMDIR, Cli

_FACT = """- id: MEM-20200101-001
  category: fact
  summary: Old fact that expired long ago
  content: The staging cluster ran on version 1.
  confidence: 0.9
  source: {session_id: s1, agent: a, timestamp: '2020-01-01T00:00:00Z'}
  ttl: 30d
  expires_at: '2020-01-31T00:00:00Z'
  tags: [staging]
"""


def _configure(root: Path, block: str) -> None:
    config = root / ".loa.config.yaml"
    config.write_text(config.read_text() + block)


def _files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")} if folder.exists() else set()


@pytest.mark.parametrize(
    "path", ["../../../../escaped.yaml", "../escaped.yaml", "/tmp/loa-escaped.yaml", "", "a/../../b.yaml"]
)
def test_a_category_path_that_leaves_the_grimoire_is_a_config_error(loa: Cli, tmp_path: Path, path: str) -> None:
    before = _files_under(tmp_path)
    _configure(loa.root, f"  categories:\n    fact:\n      path: '{path}'\n")
    done = loa("add", "fact", "The sky is blue", "--summary", "Sky colour")
    assert done.exit_code == 2, done.output
    assert done.output.startswith("error: ") and "Traceback" not in done.output and "unexpected" not in done.output
    assert "path" in done.output and ".loa.config.yaml" in done.output
    assert _files_under(tmp_path) == before
    assert not Path("/tmp/loa-escaped.yaml").exists()


def test_an_archive_dir_that_leaves_the_grimoire_is_a_config_error(loa: Cli) -> None:
    text = (loa.root / ".loa.config.yaml").read_text()
    (loa.root / ".loa.config.yaml").write_text(
        text.replace("  lifecycle:\n", "  lifecycle:\n    archive_dir: ../../..\n")
    )
    done = loa("list")
    assert done.exit_code == 2 and "lifecycle.archive_dir" in done.output, done.output


def _outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def test_a_symlinked_archive_folder_is_not_written_through(loa: Cli, tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    facts = loa.root / MEMDIR / "facts.yaml"
    facts.write_text(_FACT)
    before = facts.read_bytes()
    (loa.root / MEMDIR / "archive").symlink_to(outside, target_is_directory=True)
    done = loa("archive")
    assert done.exit_code == 2, done.output
    assert "leads out of" in done.output and "symlink" in done.output
    assert list(outside.iterdir()) == [] and facts.read_bytes() == before


def test_a_symlinked_procedures_folder_is_not_written_through(loa: Cli, tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    procedures = loa.root / MEMDIR / "procedures"
    for child in procedures.iterdir():
        child.unlink()
    procedures.rmdir()
    procedures.symlink_to(outside, target_is_directory=True)
    done = loa("add", "procedure", "Step one, then step two", "--summary", "Deploy the service")
    assert done.exit_code == 2 and "leads out of" in done.output, done.output
    assert list(outside.iterdir()) == []


def test_a_symlink_inside_the_grimoire_to_another_repository_folder_is_refused(loa: Cli) -> None:
    src = loa.root / "src"
    src.mkdir()
    notes = loa.root / MEMDIR / "notes"
    for child in notes.rglob("*"):
        child.unlink()
    notes.rmdir()
    notes.symlink_to(src, target_is_directory=True)
    done = loa("add", "note", "Remember the staging password rotation", "--summary", "Rotation note")
    assert done.exit_code == 2 and "leads out of" in done.output, done.output
    assert list(src.iterdir()) == []


@pytest.mark.parametrize(
    "command", [("index",), ("add", "fact", "Kafka carries audit events", "--summary", "Kafka"), ("search", "kafka")]
)
def test_a_symlinked_local_folder_is_not_written_through(loa: Cli, tmp_path: Path, command: tuple[str, ...]) -> None:
    outside = _outside(tmp_path)
    local = loa.root / ".loa"
    if local.exists():
        for child in sorted(local.rglob("*"), reverse=True):
            child.rmdir() if child.is_dir() and not child.is_symlink() else child.unlink()
        local.rmdir()
    local.symlink_to(outside, target_is_directory=True)
    done = loa(*command)
    assert done.exit_code == 2 and ".loa is a symlink" in done.output, done.output
    assert list(outside.iterdir()) == []


def test_a_symlink_inside_the_local_folder_is_not_written_through(loa: Cli, tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    loa("index")
    index = loa.root / ".loa" / "index"
    if index.exists():
        for child in index.iterdir():
            child.unlink()
        index.rmdir()
    index.symlink_to(outside, target_is_directory=True)
    done = loa("index", "--rebuild")
    assert done.exit_code == 2 and ".loa/index is a symlink" in done.output, done.output
    assert list(outside.iterdir()) == []


def test_crash_logs_go_to_a_private_folder_and_never_follow_a_planted_symlink(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    log = boundary._crash_log(RuntimeError("boom"))
    assert isinstance(log, Path) and log.parent == state / "loa-memory" / "crashes"
    assert "RuntimeError: boom" in log.read_text()
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert stat.S_IMODE(log.parent.stat().st_mode) == 0o700
    assert not str(log).startswith("/tmp/loa-memory-crash-")
    # a crash folder someone else could enter, or a symlink in its place, is not used
    log.parent.chmod(0o755)
    assert not isinstance(boundary._crash_log(RuntimeError("again")), Path)
    log.parent.chmod(0o700)
    for child in log.parent.iterdir():
        child.unlink()
    log.parent.rmdir()
    planted = tmp_path / "planted"
    planted.mkdir(mode=0o700)
    log.parent.symlink_to(planted, target_is_directory=True)
    assert not isinstance(boundary._crash_log(RuntimeError("again")), Path)
    assert list(planted.iterdir()) == [] and victim.read_text() == "precious"


def test_a_crash_log_file_name_is_never_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    first, second = boundary._crash_log(RuntimeError("a")), boundary._crash_log(RuntimeError("b"))
    assert first != second and os.path.exists(first) and os.path.exists(second)
