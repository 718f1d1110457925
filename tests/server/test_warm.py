"""The warm server, end to end: real `loa-memory` processes, a real server process, a real Unix socket."""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from loa_memory import main
from loa_memory.server import protocol
from tests.fixtures import Cli, make_repo
from tests.fixtures import loa_process as run

pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="Unix sockets only")


@pytest.fixture(params=["models", "no-models"])
def served(request: pytest.FixtureRequest, loa: Cli, runtime: Path) -> Iterator[Cli]:
    """A grimoire with a few memories and its server running: with the embedding model selected as users get it
    (the first installed), and with none (the `hashing` fallback, what a user without the model packages gets)."""
    if request.param == "no-models":
        config = loa.root / ".loa.config.yaml"
        config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    embedder: hashing\n", 1))
    for text, summary in (
        ("Use PostgreSQL for the main store", "PostgreSQL main store"),
        ("Retry the payment queue three times before alerting", "Payment queue retries"),
    ):
        assert loa("add", "decision", text, "--summary", summary).exit_code == 0
    assert run(loa.root, "server", "start", "--idle", "120").returncode == 0
    yield loa
    run(loa.root, "server", "stop")


def test_status_without_a_server(loa: Cli, runtime: Path) -> None:
    record = loa.json("server", "status")  # the harness checks it against server-status.schema.json
    assert record["running"] is False and record["socket"].endswith(".sock")
    assert loa.json("server", "stop") == {**record, "stopped": False}


def status(root: Path) -> dict[str, object]:
    done = run(root, "server", "status", "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_served_output_is_what_the_command_prints_in_its_own_process(served: Cli) -> None:
    hook = json.dumps({"prompt": "change the payment queue retries", "session_id": "s1"})
    shown = served.json("list")["entries"][0]["id"]
    for args, stdin in (
        (["search", "postgres", "--format", "json"], None),
        (["search", "payment retries"], None),
        (["recall", "add a retry to the payment queue", "--format", "json"], None),
        (["recall", "add a retry to the payment queue"], None),
        (["recall", "--hook-input", "--format", "json"], hook),
        (["recall", "--hook-input"], hook),
        (["why", "why postgres"], None),
        (["why", "src/missing.py", "--format", "json"], None),
        (["list"], None),
        (["list", "--format", "json"], None),
        (["show", shown], None),
        (["show", shown, "--format", "json"], None),
        (["show", "MEM-19990101-001"], None),
        (["search", ""], None),
        (["search", "x", "--mode", "nonsense"], None),
        (["search", "y" * 20_001], None),
    ):
        before = status(served.root)["requests"]
        warm = run(served.root, *args, stdin=stdin)
        assert status(served.root)["requests"] == before + 1, args  # answered by the server
        cold = run(served.root, *args, stdin=stdin, LOA_MEMORY_SERVER="off")
        if args[0] == "recall" and "json" in args:  # economics carry a timestamp and an id
            assert json.loads(warm.stdout).keys() == json.loads(cold.stdout).keys()
            same = ("corrections", "preferences", "index", "entries", "contradictions", "warnings", "problems")
            assert [json.loads(warm.stdout)[k] for k in same] == [json.loads(cold.stdout)[k] for k in same], args
        elif args[0] == "recall":
            assert (warm.returncode, warm.stderr) == (cold.returncode, cold.stderr), args
            assert [line for line in warm.stdout.splitlines() if not line.startswith(("_recall ", "_tokens"))] == [
                line for line in cold.stdout.splitlines() if not line.startswith(("_recall ", "_tokens"))
            ]
        else:
            assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout, cold.stderr), args
    assert 10 < float(status(served.root)["rss_mb"]) < 4096  # `server status` says what the server holds


def test_an_edit_is_seen_by_the_next_served_search(served: Cli) -> None:
    assert "Kafka" not in run(served.root, "search", "kafka").stdout
    assert served("add", "fact", "Kafka carries the audit events", "--summary", "Kafka audit events").exit_code == 0
    assert "Kafka audit events" in run(served.root, "search", "kafka").stdout
    memory = next((served.root / "grimoires/loa/memory").glob("facts.yaml"))
    memory.write_text(memory.read_text().replace("Kafka audit events", "Kinesis audit events"))
    assert "Kinesis audit events" in run(served.root, "search", "audit events").stdout


def test_hook_input_on_stdin_reaches_the_served_recall(served: Cli) -> None:
    hook = json.dumps({"prompt": "change the payment queue retries", "session_id": "s1"})
    before = status(served.root)["requests"]
    done = run(served.root, "recall", "--hook-input", "--format", "json", stdin=hook)
    assert done.returncode == 0, done.stderr
    assert status(served.root)["requests"] == before + 1
    assert "Payment queue retries" in done.stdout


def test_stop_removes_the_socket_and_commands_run_in_their_own_process(served: Cli) -> None:
    path = protocol.socket_path()
    assert path.exists()
    stopped = json.loads(run(served.root, "server", "stop", "--format", "json").stdout)
    assert stopped["stopped"] is True and stopped["running"] is False
    assert not path.exists()
    assert status(served.root)["running"] is False
    done = run(served.root, "search", "postgres", LOA_MEMORY_SERVER="off")
    assert done.returncode == 0 and "PostgreSQL" in done.stdout


def test_a_server_that_runs_other_code_declines_and_exits(served: Cli) -> None:
    request = {"argv": ["search", "postgres"], "cwd": str(served.root), "env": dict(os.environ), "stamp": "old"}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(str(protocol.socket_path()))
        conn.sendall(json.dumps(request).encode() + b"\n")
        conn.shutdown(socket.SHUT_WR)
        assert json.loads(protocol.receive(conn)) == {"decline": "outdated"}
    assert _eventually(lambda: status(served.root)["running"] is False)


def test_a_server_exits_after_its_idle_time(loa: Cli, runtime: Path) -> None:
    assert run(loa.root, "server", "start", "--idle", "1").returncode == 0
    assert _eventually(lambda: status(loa.root)["running"] is False)
    assert not protocol.socket_path().exists()


def test_a_read_command_starts_a_server_unless_switched_off(loa: Cli, runtime: Path) -> None:
    assert run(loa.root, "search", "anything", LOA_MEMORY_SERVER="off").returncode in (0, 1)
    assert run(loa.root, "server", "status", LOA_MEMORY_SERVER="off").returncode == 0
    time.sleep(0.5)
    assert status(loa.root)["running"] is False
    assert run(loa.root, "search", "anything", CI="true").returncode in (0, 1)
    try:
        assert _eventually(lambda: status(loa.root)["running"] is True)
        assert status(loa.root)["idle_seconds"] == 120  # under CI it does not stay long
    finally:
        run(loa.root, "server", "stop")


def test_a_runtime_folder_others_can_enter_is_not_used(loa: Cli, runtime: Path) -> None:
    folder = protocol.socket_path().parent
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    done = run(loa.root, "server", "start", "--foreground", "--idle", "5")
    assert done.returncode != 0 and "not private" in done.stderr
    assert run(loa.root, "search", "anything").returncode in (0, 1)  # runs in its own process instead
    time.sleep(1)
    assert not protocol.socket_path().exists()  # and starts no server there


def test_a_second_server_for_the_same_repository_steps_aside(served: Cli) -> None:
    first = status(served.root)["pid"]
    assert run(served.root, "server", "start", "--foreground", "--idle", "5").returncode == 0
    assert status(served.root)["pid"] == first


def _eventually(check: object, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize(
    ("argv", "served"),
    [
        (["search", "x"], True),
        (["--format", "json", "recall", "task"], True),
        (["--format=json", "why", "q"], True),
        (["list"], True),
        (["show", "MEM-20260101-001"], True),
        (["search", "x", "--help"], False),
        (["--version"], False),
        (["lint"], False),
        (["add", "fact", "x"], False),
        ([], False),
        (["--root"], False),
    ],
)
def test_which_command_lines_go_to_the_server(
    grimoire: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], served: bool
) -> None:
    monkeypatch.chdir(grimoire)
    command, root = main.parse(argv)
    assert (command in main.SERVED and root == grimoire.resolve()) is served
    elsewhere = main.parse(["--root", str(grimoire), *argv])[1]
    assert (elsewhere is not None) is (served and argv[:1] != ["--root"])


def _six_facts_no_command_embeds(loa: Cli) -> None:
    """Six facts in a grimoire whose commands embed nothing before answering (a budget of 0 s, the hashing
    embedder)."""
    config = loa.root / ".loa.config.yaml"
    config.write_text(
        config.read_text().replace(
            "  retrieval:\n", "  retrieval:\n    eager_embed_seconds: 0\n    embedder: hashing\n", 1
        )
    )
    for n in range(6):
        assert loa("add", "fact", f"Service {n} listens on port {8000 + n}", "--summary", f"Port of {n}").exit_code == 0


def test_the_server_embeds_in_the_background_what_commands_leave_for_later(
    loa: Cli, runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOA_MEMORY_BACKGROUND", "off")  # no `index` process: the server alone catches up
    _six_facts_no_command_embeds(loa)

    def waiting() -> int:
        done = run(loa.root, "search", "which port", "--mode", "hybrid", "--format", "json")
        assert done.returncode == 0, done.stderr
        return int(json.loads(done.stdout)["not_embedded"])

    assert waiting() == 6
    assert run(loa.root, "server", "start", "--idle", "120").returncode == 0
    try:
        deadline = time.monotonic() + 60
        while (left := waiting()) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert left == 0
        assert loa.json("index")["embedded"] == 0  # nothing was left to do
    finally:
        run(loa.root, "server", "stop")


def other_repository(tmp_path: Path, text: str, summary: str) -> Cli:
    """A second repository of the same user, with one memory and the `hashing` embedder (no model to load)."""
    other = Cli(make_repo(tmp_path / "other"))
    assert other("init", "--layout", "lists").exit_code == 0
    config = other.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    embedder: hashing\n", 1))
    assert other("add", "fact", text, "--summary", summary).exit_code == 0
    return other


def roots(root: Path) -> dict[str, dict[str, object]]:
    return {str(r["root"]): r for r in status(root)["repositories"]}  # type: ignore[attr-defined]


def test_one_server_answers_for_every_repository_of_its_user(served: Cli, tmp_path: Path) -> None:
    other = other_repository(tmp_path, "Redis holds the web sessions", "Redis sessions")
    first = status(served.root)
    assert str(other.root.resolve()) not in roots(served.root)  # a repository it has not seen yet
    done = run(other.root, "search", "redis sessions")
    assert done.returncode == 0 and "Redis sessions" in done.stdout and "PostgreSQL" not in done.stdout
    mine = run(served.root, "search", "postgres")
    assert mine.returncode == 0 and "PostgreSQL" in mine.stdout and "Redis" not in mine.stdout
    both = status(other.root)
    assert both["pid"] == first["pid"] and both["requests"] == int(first["requests"]) + 2  # type: ignore[call-overload]
    assert both["root"] == str(other.root.resolve())
    served_roots = roots(other.root)
    assert served_roots[str(other.root.resolve())]["requests"] == 1
    assert served_roots[str(served.root.resolve())]["requests"] == 1
    assert all(r["loaded"] for r in served_roots.values())
    assert other("add", "fact", "Kafka carries the audit events", "--summary", "Kafka audit").exit_code == 0
    assert "Kafka audit" in run(other.root, "search", "kafka").stdout  # an edit in one is seen there...
    assert "Kafka" not in run(served.root, "search", "kafka").stdout  # ...and only there
    record = other.json("server", "status")  # the harness checks it against server-status.schema.json
    assert [r["root"] for r in record["repositories"]] == sorted([str(served.root.resolve()), record["root"]])
    text = run(served.root, "server", "status").stdout
    assert text.startswith(f"server running: pid {first['pid']}, ") and f"  {other.root.resolve()}: 2 commands" in text


def test_what_was_loaded_for_an_idle_repository_is_dropped(loa: Cli, runtime: Path, tmp_path: Path) -> None:
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    embedder: hashing\n", 1))
    assert loa("add", "decision", "Use PostgreSQL for the main store", "--summary", "PostgreSQL").exit_code == 0
    other = other_repository(tmp_path, "Redis holds the web sessions", "Redis sessions")
    assert run(loa.root, "server", "start", "--idle", "120", "--forget", "1").returncode == 0
    try:
        pid = status(loa.root)["pid"]
        assert "Redis sessions" in run(other.root, "search", "redis").stdout
        assert "PostgreSQL" in run(loa.root, "search", "postgres").stdout
        mine, theirs = str(loa.root.resolve()), str(other.root.resolve())
        assert _eventually(lambda: not any(r["loaded"] for r in roots(loa.root).values()))
        assert status(loa.root)["running"] is True and status(loa.root)["pid"] == pid  # the server stays
        assert "Redis sessions" in run(other.root, "search", "redis").stdout  # loaded again when asked
        now = roots(loa.root)
        assert now[theirs]["requests"] == 2 and now[mine]["requests"] == 1
        assert "state dropped" in run(loa.root, "server", "status").stdout
    finally:
        run(loa.root, "server", "stop")


def test_stop_stops_the_server_of_every_repository(served: Cli, tmp_path: Path) -> None:
    other = other_repository(tmp_path, "Redis holds the web sessions", "Redis sessions")
    assert run(other.root, "search", "redis").returncode == 0
    pid = status(served.root)["pid"]
    done = run(other.root, "server", "stop")
    assert done.stdout == f"stopped the server (pid {pid}, 1 commands answered, 2 repositories)\n"
    assert status(served.root)["running"] is False


def test_served_commands_leave_their_missing_vectors_to_the_server(
    loa: Cli, runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No `index` process per repository (each would load a model of its own): the server embeds the rest."""
    monkeypatch.setenv("LOA_MEMORY_BACKGROUND", "spawn")
    _six_facts_no_command_embeds(loa)
    assert run(loa.root, "server", "start", "--idle", "120").returncode == 0
    try:
        left = []
        deadline = time.monotonic() + 60
        while not left or (left[-1] and time.monotonic() < deadline):
            done = run(loa.root, "search", "which port", "--mode", "hybrid", "--format", "json")
            assert done.returncode == 0, done.stderr
            left.append(int(json.loads(done.stdout)["not_embedded"]))
            time.sleep(0.2)
        assert left[-1] == 0 and status(loa.root)["requests"] == len(left)  # all served
        assert not (loa.root / ".loa" / "embed.log").exists()  # and no `index` was started
    finally:
        run(loa.root, "server", "stop")


@pytest.mark.parametrize(
    ("client", "served", "embed"),
    [({}, "1", str(min(2, os.cpu_count() or 1))), ({"OMP_NUM_THREADS": "4"}, "4", "4"),
     ({"LOA_MEMORY_EMBED_THREADS": "1"}, "1", "1")],
)
def test_a_served_command_gets_the_threads_it_would_get_in_its_own_process(
    tmp_path: Path, client: dict[str, str], served: str, embed: str
) -> None:
    """A read command sets one BLAS thread and two embedding threads for itself unless the user chose (``main``);
    the server does the same for each command, so every command uses the model session it warmed up rather than
    loading a second one for another thread count."""
    import io

    from loa_memory.server import worker
    from loa_memory.threads import embed_threads

    request = worker.Request(
        ("search", "x"), tmp_path, str(tmp_path), {"PATH": os.environ.get("PATH", ""), **client}, None
    )
    before = dict(os.environ)
    with worker._as_client(request, io.StringIO(), io.StringIO()):
        assert os.environ["OMP_NUM_THREADS"] == served and "OPENBLAS_NUM_THREADS" in os.environ
        assert embed_threads() == int(embed)
    assert dict(os.environ) == before
