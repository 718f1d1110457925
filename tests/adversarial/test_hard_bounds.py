"""Bounded work for any input: alias bombs, deep nesting, long tokens, long queries and hook inputs, a search
during a rebuild. Time bounds are generous (a loaded 2-core machine) and checked by running the code."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from loa_memory.store import yamlio
from tests.fixtures import MEMDIR, Cli

BOMB = """- id: MEM-20260101-001
  category: fact
  summary: Innocent fact
  content: Nothing to see here.
  confidence: 0.9
  source: {session_id: s1, agent: a, timestamp: '2026-01-01T00:00:00Z'}
  ttl: permanent
  x-bomb:
    a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]
    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
    d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
    e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
    f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
    g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
    h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
    i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""
FINE = (
    "- id: MEM-20260101-002\n  category: fact\n  summary: A fine fact\n  content: Kafka carries audit events.\n"
    "  confidence: 0.9\n  source: {session_id: s1, timestamp: '2026-01-01T00:00:00Z'}\n  ttl: permanent\n"
)
LIMIT_SECONDS = 5.0  # generous: each case takes milliseconds once linear


def run(root: Path, *args: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """A real process under a memory limit, so that an expansion fails the test instead of the machine."""
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000)); "
    code = limit + "import sys; from loa_memory.main import main; sys.argv = ['loa-memory', *sys.argv[1:]]; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=root,
        input=stdin,
        text=True,
        capture_output=True,
        env={**os.environ, "LOA_MEMORY_SERVER": "off"},
        timeout=timeout,
    )


@pytest.fixture
def bombed(loa: Cli) -> Cli:
    (loa.root / MEMDIR / "facts.yaml").write_text(BOMB)
    (loa.root / MEMDIR / "learnings.yaml").write_text(FINE.replace("category: fact", "category: learning"))
    return loa


def test_an_alias_bomb_is_an_error_lint_reports_with_its_place(bombed: Cli) -> None:
    done = bombed("lint")
    assert done.exit_code == 1
    assert re.search(r"grimoires/loa/memory/facts\.yaml:1\d:\d+: \[error\] .*aliases", done.stdout), done.output


@pytest.mark.parametrize(
    "args",
    [
        ("list", "--format", "json"),
        ("show", "MEM-20260101-001", "--format", "json"),
        ("show", "MEM-20260101-002"),
        ("search", "innocent", "--format", "json"),
        ("recall", "innocent fact", "--format", "json"),
        ("stats",),
        ("lint",),
        ("index",),
    ],
)
def test_an_alias_bomb_exhausts_nothing(bombed: Cli, args: tuple[str, ...]) -> None:
    done = run(bombed.root, *args)
    assert done.returncode in (0, 1, 2), done.stderr[-2000:]
    assert "MemoryError" not in done.stdout + done.stderr and "Traceback" not in done.stderr
    if args[0] in ("list", "search", "recall", "lint"):
        assert "facts.yaml" in done.stdout + done.stderr  # the skipped file is named


def test_the_mcp_tools_survive_an_alias_bomb(bombed: Cli) -> None:
    pytest.importorskip("mcp")
    from loa_memory.mcp.server import Memory

    tools = Memory(bombed.root)
    for call in (lambda: tools.list_(), lambda: tools.show("MEM-20260101-001"), lambda: tools.search("innocent")):
        result = call()
        assert len(json.dumps(result.structured_content or {})) < 1_000_000


@pytest.mark.parametrize(
    "text",
    [
        "x: " + "[" * 100_000 + "]" * 100_000,
        "- " * 60_000 + "x",
        "x: " + "{a: " * 50_000 + "}" * 50_000,
        "- id: x\n  content: " + "[" * 10_000,
    ],
)
def test_deep_nesting_is_refused_not_a_crash(text: str) -> None:
    with pytest.raises(yamlio.YamlSyntaxError, match="nested"):
        yamlio.load_text(text, path="f.yaml")


def test_a_deeply_nested_memory_file_is_reported_by_every_command(loa: Cli) -> None:
    (loa.root / MEMDIR / "facts.yaml").write_text("- id: MEM-20260101-001\n  x-deep: " + "[" * 100_000 + "]" * 100_000)
    for args in (("lint",), ("list",), ("search", "anything")):
        done = run(loa.root, *args)
        assert done.returncode in (0, 1), (args, done.returncode, done.stderr[-1000:])
        assert "nested more than" in done.stdout + done.stderr


def _inputs() -> list[str]:
    units = [
        "a",
        "a ",
        "a.",
        "a/",
        "-",
        "1",
        "aA1",
        " ",
        "a=",
        "a:",
        "a-",
        "\t",
        "'",
        '"a',
        "a\n",
        "/",
        ".",
        "a@",
        "A",
        "=",
        "ab-",
        "0x",
        "a,",
        "$",
        "%",
        "+",
        "\\",
        "#",
        "because ",
        "cd a&&",
        "MEM-20260101-",
        "AB",
    ]
    return [(unit * (100_000 // len(unit) + 1))[:100_000] + "!" for unit in units]


def _bounded(function: Callable[[str], object]) -> list[str]:
    slow = []
    for text in _inputs():
        started = time.perf_counter()
        function(text)
        if time.perf_counter() - started > LIMIT_SECONDS:
            slow.append(repr(text[:12]))
    return slow


def _patterns() -> dict[str, re.Pattern[str]]:
    """Every compiled pattern at module level of the package, outside the secret detectors (whose patterns are
    anchored at a keyword and measured through ``scan_text`` below)."""
    import importlib
    import pkgutil

    import loa_memory

    found = {}
    for module_info in pkgutil.walk_packages(loa_memory.__path__, "loa_memory."):
        if module_info.name.endswith("__main__") or module_info.name.startswith("loa_memory.secrets"):
            continue
        try:
            module = importlib.import_module(module_info.name)
        except ImportError:  # an optional SDK
            continue
        found.update(
            {
                f"{module_info.name}.{name}": value
                for name, value in vars(module).items()
                if isinstance(value, re.Pattern)
            }
        )
    return found


def test_every_pattern_over_user_text_is_linear() -> None:
    patterns = _patterns()
    assert len(patterns) > 30
    slow = {}
    for name, pattern in patterns.items():
        late = _bounded(lambda text, p=pattern: sum(1 for _ in p.finditer(text)))  # type: ignore[misc]
        if late:
            slow[name] = late
    assert not slow, slow


@pytest.mark.parametrize("name", ["build_query", "sentences", "error_line", "prose_classes", "scan_text", "code_refs"])
def test_tokenisers_and_detectors_take_linear_time(name: str) -> None:
    from loa_memory.answer.cues.classes import prose_classes
    from loa_memory.capture.cues import error_line, sentences
    from loa_memory.lint.coderefs import code_refs
    from loa_memory.model import Entry
    from loa_memory.search.index import build_query
    from loa_memory.secrets.scan import scan_text

    def refs(text: str) -> object:
        return code_refs(
            Entry({"id": "MEM-20260101-001", "content": f"see `{text[:150]}` and {text}"}, "loa", "f.yaml", 1)
        )

    functions: dict[str, Callable[[str], object]] = {
        "build_query": build_query,
        "sentences": sentences,
        "error_line": error_line,
        "prose_classes": prose_classes,
        "scan_text": scan_text,
        "code_refs": refs,
    }
    assert _bounded(functions[name]) == []


def test_a_long_token_in_a_query_is_searched_in_linear_time(loa: Cli) -> None:
    assert loa("add", "fact", "Kafka carries audit events", "--summary", "Kafka").exit_code == 0
    started = time.monotonic()
    done = loa("search", "a" * 19_000 + " kafka", "--mode", "lexical")
    assert done.exit_code == 0 and "Kafka" in done.stdout
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("command", [("search",), ("recall",), ("why",)])
def test_a_query_over_the_cap_is_refused_with_a_clear_message(loa: Cli, command: tuple[str, ...]) -> None:
    done = loa(*command, "word " * 5_000)
    assert done.exit_code == 2
    assert "characters long; at most 20,000 are accepted" in done.stderr and "Traceback" not in done.output


def test_a_hook_prompt_over_the_cap_is_recalled_for_its_beginning(loa: Cli) -> None:
    assert loa("add", "fact", "Kafka carries audit events", "--summary", "Kafka audit events").exit_code == 0
    hook = json.dumps({"prompt": "where do the kafka audit events go " + "x " * 60_000, "session_id": "s1"})
    done = loa("recall", "--hook-input", input=hook)
    assert done.exit_code == 0 and "Kafka audit events" in done.stdout
    assert "recalled for its first 20,000" in done.stderr


def test_a_hook_input_over_the_cap_recalls_nothing_and_does_not_fail(loa: Cli) -> None:
    hook = json.dumps({"prompt": "y" * 2_100_000})
    done = loa("recall", "--hook-input", input=hook)
    assert done.exit_code == 0 and done.stdout == ""
    assert "over 2,000,000 characters" in done.stderr


def _search_while_rebuilding(loa: Cli, index: list[str], search: list[str]) -> tuple[int, str, list[str]]:
    """Six ``index --rebuild`` runs in another process (``index`` holds its options) while ``search`` runs again
    and again: the rebuilds' exit code and error output, and the error output of every search that crashed."""
    facts = "".join(
        FINE.replace("MEM-20260101-002", f"MEM-20260101-{n:03d}").replace("Kafka", f"Kafka{n}") for n in range(1, 301)
    )
    (loa.root / MEMDIR / "facts.yaml").write_text(facts)
    assert loa("index", *index).exit_code == 0
    env = {**os.environ, "LOA_MEMORY_SERVER": "off"}
    rebuild = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from loa_memory.cli import run_command\n"
            f"for _ in range(6):\n    assert run_command({['index', '--rebuild', *index]!r}) == 0\n",
        ],
        cwd=loa.root,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    failures = []
    try:
        while rebuild.poll() is None:
            done = subprocess.run(
                [sys.executable, "-m", "loa_memory", "search", *search],
                cwd=loa.root,
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
            if done.returncode not in (0, 1):
                failures.append(done.stderr[-1500:])
    finally:
        rebuild.wait(timeout=300)
    return rebuild.returncode, rebuild.stderr.read() if rebuild.stderr else "", failures


def test_search_during_a_rebuild_never_crashes(loa: Cli) -> None:
    code, errors, failures = _search_while_rebuilding(loa, ["--no-embed"], ["kafka", "--mode", "lexical"])
    assert code == 0, errors
    assert failures == []


def test_vectors_removed_under_a_search_do_not_crash_it(loa: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """What `index --rebuild` in another process does while a search embeds its query, between its two reads of
    the sidecar (the rows of the entries, then the scores): made deterministic by removing them right then."""
    import shutil

    from loa_memory.search.retriever import Retriever
    from loa_memory.store.config import load_config
    from loa_memory.store.load import load_grimoire

    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    embedder: hashing\n", 1))
    for n in range(5):
        assert loa("add", "fact", f"Service {n} listens on port {8000 + n}", "--summary", f"Port {n}").exit_code == 0
    assert loa("index").exit_code == 0
    loaded = load_config(loa.root)
    retriever = Retriever(loaded, load_grimoire(loaded))
    embed_query = retriever.vectors

    def rebuilt_meanwhile(texts: list[str], *, cache: bool = False) -> object:
        shutil.rmtree(loaded.local_dir / "embeddings", ignore_errors=True)
        return embed_query(texts, cache=cache)

    monkeypatch.setattr(retriever, "vectors", rebuilt_meanwhile)
    assert retriever.semantic("which port") == []  # no IndexError: found by words only this time
    assert any("changed while searching" in w for w in retriever.warnings)


def test_hybrid_search_during_a_rebuild_with_vectors_never_crashes(loa: Cli) -> None:
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    embedder: hashing\n", 1))
    code, errors, failures = _search_while_rebuilding(loa, [], ["kafka audit", "--mode", "hybrid"])
    assert code == 0, errors
    assert failures == []


def test_a_hook_on_a_cold_grimoire_embeds_within_its_budget(loa: Cli) -> None:
    """`recall --hook-input` embeds at most DEFERRED_EAGER_SECONDS of the embedder's work before answering: the
    entries and the corrections' trigger texts together (measured as vectors stored, not as time)."""
    from loa_memory.search.embed import Sidecar, minilm
    from loa_memory.search.retriever import DEFERRED_EAGER_SECONDS

    if not minilm.is_available():
        pytest.skip("needs the MiniLM model package")
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    embedder: minilm\n", 1))
    budget = int(DEFERRED_EAGER_SECONDS * minilm.MiniLMEmbedder.entries_per_second)
    corrections = "".join(
        f"- id: MEM-20260101-{n:03d}\n  category: correction\n  summary: Never touch service {n} on Fridays\n"
        f"  content: Service {n} must not be deployed on a Friday.\n  confidence: 0.9\n"
        f"  source: {{session_id: s1, timestamp: '2026-01-01T00:00:00Z'}}\n  ttl: permanent\n"
        f"  trigger: deploying service {n} on a Friday\n  lesson: Wait until Monday to deploy service {n}.\n"
        for n in range(1, budget + 30)
    )
    (loa.root / MEMDIR / "corrections.yaml").write_text(corrections)
    assert loa("lint").exit_code == 0, loa("lint").output
    done = loa("recall", "--hook-input", input=json.dumps({"prompt": "deploy service 7 on Friday"}))
    assert done.exit_code == 0, done.output
    stored = len(Sidecar(loa.root / ".loa" / "embeddings", minilm.MiniLMEmbedder()))
    assert stored <= budget + 1, stored  # the query itself is not stored; the cue texts were capped


@pytest.mark.parametrize("where", ["from-json", "hook", "transcript"])
def test_json_nested_thousands_deep_is_a_clear_error_not_a_crash(loa: Cli, tmp_path: Path, where: str) -> None:
    deep = '{"category": "fact", "content": ' + "[" * 100_000 + "]" * 100_000 + "}"
    if where == "from-json":
        (tmp_path / "entry.json").write_text(deep)
        done = loa("add", "--from-json", str(tmp_path / "entry.json"))
        assert done.exit_code == 2 and "nested too deeply" in done.stderr, done.output
    elif where == "hook":
        done = loa("recall", "--hook-input", input=deep)
        assert done.exit_code == 2 and "nested too deeply" in done.stderr, done.output
    else:
        transcript = tmp_path / "t.jsonl"
        transcript.write_text(deep + "\n")
        done = loa("capture", "--transcript", str(transcript), "--dry-run")
        assert done.exit_code in (0, 1), done.output
    assert "Traceback" not in done.output and "unexpected" not in done.output


@pytest.mark.parametrize("gone", [1, 2])
def test_an_index_removed_under_a_search_is_read_again_or_left_out(
    loa: Cli, monkeypatch: pytest.MonkeyPatch, gone: int
) -> None:
    """What `index --rebuild` in another process does between a search's refresh and its read (Whoosh: the index
    "does not exist"), made deterministic: the first read fails and the second finds the rebuilt index; when the
    index is gone both times, the search answers without word matches and says why."""
    from whoosh.index import EmptyIndexError

    from loa_memory.search.index import FullTextIndex
    from loa_memory.search.retriever import Retriever
    from loa_memory.store.config import load_config
    from loa_memory.store.load import load_grimoire

    assert loa("add", "fact", "Kafka carries audit events", "--summary", "Kafka audit events").exit_code == 0
    loaded = load_config(loa.root)
    retriever = Retriever(loaded, load_grimoire(loaded))
    read = FullTextIndex.search
    failures = [gone]

    def removed_meanwhile(index: FullTextIndex, *args: object, **kwargs: object) -> object:
        if failures[0]:
            failures[0] -= 1
            raise EmptyIndexError("Index 'MAIN' does not exist")
        return read(index, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(FullTextIndex, "search", removed_meanwhile)
    hits = retriever.lexical("kafka audit", 10)
    if gone == 1:
        assert [key for key, _, _ in hits] and not retriever.warnings
    else:
        assert hits == [] and any("full-text index changed while searching" in w for w in retriever.warnings)
