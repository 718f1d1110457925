"""The warm server is a read server for its own user's repositories: malformed, slow, foreign or writing
requests are declined, the worker survives them, and the socket folder is never a planted one."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from loa_memory.server import protocol
from tests.fixtures import MEMDIR, Cli, make_repo
from tests.fixtures import loa_process as run

pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="Unix sockets only")


@pytest.fixture
def served(loa: Cli, runtime: Path) -> Iterator[Cli]:
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    embedder: hashing\n", 1))
    assert loa("add", "decision", "Use PostgreSQL for the main store", "--summary", "PostgreSQL").exit_code == 0
    assert run(loa.root, "server", "start", "--idle", "120").returncode == 0
    yield loa
    run(loa.root, "server", "stop")


def raw(root: Path, payload: bytes, *, timeout: float = 30.0) -> dict[str, object] | None:
    """Send ``payload`` as it is and read the answer (None when the server closed without one: a server that drops
    a request before reading all of it may reset the connection instead of closing it)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout)
        conn.connect(str(protocol.socket_path()))
        with __import__("contextlib").suppress(OSError):
            conn.sendall(payload)
            conn.shutdown(socket.SHUT_WR)
        try:
            data = protocol.receive(conn, limit=None)
        except ConnectionResetError:
            return None
    return json.loads(data) if data else None


def request(root: Path, **fields: object) -> bytes:
    body = {
        "argv": ["search", "postgres"],
        "cwd": str(root),
        "env": dict(os.environ),
        "stamp": protocol.code_stamp(),
        **fields,
    }
    return json.dumps({k: v for k, v in body.items() if v is not None}).encode()


def requests_answered(root: Path) -> int:
    return int(json.loads(run(root, "server", "status", "--format", "json").stdout)["requests"])


def served_search_works(root: Path) -> None:
    started = time.monotonic()
    answer = raw(root, request(root))
    assert answer is not None and answer.get("code") == 0 and "PostgreSQL" in str(answer["stdout"]), answer
    assert time.monotonic() - started < 20


@pytest.mark.parametrize(
    "payload",
    [
        b"{not json",
        b"null",
        b"[1, 2]",
        b'{"argv": "search x"}',
        b"\xff\xfe",
        b'{"op": "nonsense"}',
    ],
)
def test_malformed_requests_are_declined_and_the_server_goes_on(served: Cli, payload: bytes) -> None:
    answer = raw(served.root, payload)
    assert answer is None or "decline" in answer
    served_search_works(served.root)


@pytest.mark.parametrize(
    "fields",
    [
        {"cwd": None},
        {"cwd": "relative/dir"},
        {"cwd": 7},
        {"env": ["x"]},
        {"argv": ["search", 7]},
        {"stdin": {"a": 1}},
        {"env": {"A": 1}},
    ],
)
def test_a_request_without_a_proper_cwd_argv_or_env_does_not_kill_the_worker(
    served: Cli, fields: dict[str, object]
) -> None:
    body = json.loads(request(served.root))
    body.update(fields)
    answer = raw(served.root, json.dumps({k: v for k, v in body.items() if v is not None}).encode())
    assert answer == {"decline": "malformed request"}
    served_search_works(served.root)


def test_a_request_over_the_size_limit_is_dropped(served: Cli) -> None:
    answer = raw(served.root, request(served.root, stdin="x" * (protocol.MAX_REQUEST_BYTES + 10)))
    assert answer is None or "decline" in answer
    served_search_works(served.root)


def test_a_slow_sender_holds_up_nobody(served: Cli) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as slow:
        slow.connect(str(protocol.socket_path()))
        slow.sendall(b'{"argv": ["sea')  # and nothing more: the server must not wait on it
        started = time.monotonic()
        served_search_works(served.root)
        assert time.monotonic() - started < protocol.RECEIVE_SECONDS
        slow.settimeout(protocol.RECEIVE_SECONDS + 10)
        assert slow.recv(100) in (b"", b'{"decline": "malformed request"}')  # cut off after its time


@pytest.mark.parametrize(
    "argv",
    [
        ["add", "fact", "Served writes are refused", "--summary", "refused"],
        ["supersede", "MEM-20990101-001", "x"],
        ["search", "postgres", "--track"],
        ["init"],
        ["lint", "--fix"],
        ["--help"],
        ["search", "--help"],
    ],
)
def test_the_server_runs_only_read_commands(served: Cli, argv: list[str]) -> None:
    before = (served.root / MEMDIR / "facts.yaml").read_bytes()
    answer = raw(served.root, request(served.root, argv=argv))
    assert answer == {"decline": "not a read command"}
    assert (served.root / MEMDIR / "facts.yaml").read_bytes() == before
    assert not (served.root / ".loa" / "usage.jsonl").exists()


def test_the_server_answers_for_repositories_of_its_user_and_nowhere_else(served: Cli, tmp_path: Path) -> None:
    """One server per user: another repository of the user is served from its own files (the user could run
    the command there anyway); a folder in no repository, or one that is gone, is declined."""
    other = make_repo(tmp_path / "other")
    assert Cli(other)("init").exit_code == 0
    assert Cli(other)("add", "fact", "Redis holds the sessions", "--summary", "Redis sessions").exit_code == 0
    for body in (
        request(served.root, cwd=str(other), argv=["search", "redis"]),
        request(served.root, argv=["--root", str(other), "list"]),
    ):
        answer = raw(served.root, body)
        assert answer is not None and answer.get("code") == 0, answer
        assert "Redis sessions" in str(answer["stdout"]) and "PostgreSQL" not in str(answer["stdout"])
    (tmp_path / "nowhere").mkdir()
    for body in (
        request(served.root, cwd=str(tmp_path / "nowhere")),
        request(served.root, cwd=str(tmp_path / "gone")),
        request(served.root, argv=["--root", str(tmp_path / "nowhere"), "list"]),
    ):
        assert raw(served.root, body) == {"decline": "no repository"}
    served_search_works(served.root)


def test_a_hook_budget_does_not_leak_into_the_next_served_command(served: Cli) -> None:
    hook = json.dumps({"prompt": "anything about postgres", "session_id": "s1"})
    first = raw(served.root, request(served.root, argv=["recall", "--hook-input"], stdin=hook))
    assert first is not None and first.get("code") == 0
    from loa_memory.search import retriever

    assert retriever._deferred.get() is False  # in this process, and in the server: one context per command
    served_search_works(served.root)


def test_served_output_keeps_the_clients_terminal(served: Cli) -> None:
    answer = raw(served.root, request(served.root, tty={"stdout": True, "stderr": True}))
    assert answer is not None and answer.get("code") == 0


def test_a_planted_socket_folder_is_never_used(loa: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without XDG_RUNTIME_DIR the folder is in the temp folder, where another user may plant a symlink."""
    shared = Path(tempfile.mkdtemp(prefix="lmt", dir="/tmp"))
    try:
        monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
        monkeypatch.setenv("TMPDIR", str(shared))
        monkeypatch.setenv("LOA_MEMORY_SERVER", "auto")
        attacker = shared / "attacker"
        attacker.mkdir(mode=0o700)  # private, and ours here: only the symlink gives it away
        folder = protocol.socket_path().parent
        folder.symlink_to(attacker, target_is_directory=True)
        done = run(loa.root, "server", "start", "--foreground", "--idle", "5")
        assert done.returncode == 2 and "not private" in done.stderr and "symlink" in done.stderr, done.stderr
        assert list(attacker.iterdir()) == []
        assert run(loa.root, "list").returncode == 0  # the command runs in its own process instead
        time.sleep(1)
        assert list(attacker.iterdir()) == []  # and starts no server there
        assert protocol.ask({"op": "status"}, timeout=2) is None
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def test_a_swapped_folder_after_start_does_not_redirect_the_client(served: Cli, runtime: Path) -> None:
    """The client opens the folder once and connects through its descriptor: a symlink swapped in is refused."""
    folder = protocol.socket_path().parent
    moved = runtime / "moved"
    folder.rename(moved)
    decoy = runtime / "decoy"
    decoy.mkdir(mode=0o700)
    folder.symlink_to(decoy, target_is_directory=True)
    try:
        assert protocol.ask({"op": "status"}, timeout=2) is None
    finally:
        folder.unlink()
        moved.rename(folder)


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to act as another local user")
def test_another_local_user_gets_no_answer(served: Cli) -> None:
    path = protocol.socket_path()
    path.parent.parent.chmod(0o711)
    path.parent.chmod(0o711)  # opened and checked at start; loosened now only to let the other user reach it
    path.chmod(0o666)
    try:
        probe = (
            "import socket,os,sys\nos.setgid(65534); os.setuid(65534)\n"
            "c=socket.socket(socket.AF_UNIX); c.settimeout(10); c.connect(sys.argv[1])\n"
            'try:\n    c.sendall(b\'{"op": "status"}\'); c.shutdown(socket.SHUT_WR); print(repr(c.recv(1000)))\n'
            "except (ConnectionResetError, BrokenPipeError):\n    print(repr(b''))\n"
        )
        done = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=30)
        assert done.stdout.strip() == "b''", done.stdout + done.stderr
    finally:
        path.parent.chmod(0o700)
        path.chmod(0o600)


def test_a_served_search_embeds_as_much_as_the_same_search_in_its_own_process(loa: Cli, runtime: Path) -> None:
    """The budget of a command does not depend on where it runs: 60 entries without vectors (more than a hook's
    5 s of MiniLM, less than a command's 240 s) are embedded before a served search answers, as in-process."""
    from loa_memory.search.embed import minilm

    if not minilm.is_available():
        pytest.skip("needs the MiniLM model package")
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    embedder: minilm\n", 1))
    items = "".join(
        f"- id: MEM-20260101-{n:03d}\n  category: fact\n  summary: Service {n} listens on port {8000 + n}\n"
        f"  content: Service {n} listens on port {8000 + n}.\n  confidence: 0.9\n"
        f"  source: {{session_id: s1, timestamp: '2026-01-01T00:00:00Z'}}\n  ttl: permanent\n"
        for n in range(1, 61)
    )
    (loa.root / MEMDIR / "facts.yaml").write_text(items)
    assert run(loa.root, "server", "start", "--idle", "120").returncode == 0
    try:
        warm = run(loa.root, "search", "which port", "--mode", "hybrid", "--format", "json")
        assert warm.returncode == 0, warm.stderr
        assert requests_answered(loa.root) == 1
        assert json.loads(warm.stdout)["warnings"] == []
        cold = run(loa.root, "search", "which port", "--mode", "hybrid", "--format", "json", LOA_MEMORY_SERVER="off")
        assert (warm.stdout, warm.stderr) == (cold.stdout, cold.stderr)
    finally:
        run(loa.root, "server", "stop")
