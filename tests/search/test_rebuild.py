"""Deleting ``.loa/`` loses nothing: the index, the vectors and the parse cache are rebuilt from the
committed files, and searches answer exactly as before (same ids, same order)."""

from __future__ import annotations

import shutil

import pytest

from loa_memory.search.embed import select_embedder
from tests.fixtures import Cli

ENTRIES = [
    ("decision", "Use PostgreSQL for the database layer because of JSONB support and team expertise",
     ["--summary", "PostgreSQL selected over SQLite", "--tags", "database,architecture", "--confidence", "0.95",
      "--rationale", "JSONB columns and mature tooling"]),
    ("fact", "The CI pipeline runs on two cores and times out after 30 minutes",
     ["--summary", "CI has two cores and a 30 minute timeout", "--tags", "ci,performance"]),
    ("correction", "Run the database migrations before deploying the API service",
     ["--summary", "Migrate before deploy", "--trigger", "deploying the API", "--lesson", "run migrations first"]),
    ("error", "The gateway returned 502 because the upstream pool was exhausted",
     ["--summary", "Gateway 502 from exhausted upstream pool", "--error", "502 Bad Gateway",
      "--resolution", "raise the pool size and add a retry with backoff", "--tags", "gateway,incident"]),
    ("learning", "Caching the token lookup cut request latency by half",
     ["--summary", "Token cache halves request latency", "--tags", "cache,latency", "--confidence", "0.8"]),
    ("preference", "Prefer small pull requests that change one module at a time",
     ["--summary", "Small pull requests", "--context", "code review"]),
    ("fact", "Backups of the primary database are restored weekly to a staging replica",
     ["--summary", "Weekly restore test of database backups", "--tags", "database,backup"]),
]
QUERIES = ["database", "why postgres over sqlite", "deploy the api", "slow requests and latency",
           "gateway errors under load", "how are backups checked", "pull request size"]


def _ids(loa: Cli, query: str, mode: str) -> list[str]:
    result = loa("search", query, "--mode", mode, "-k", "10", "--format", "json")
    assert result.exit_code in (0, 1), result.output
    return [hit["id"] for hit in json_results(result.stdout)]


def json_results(stdout: str) -> list[dict[str, str]]:
    import json

    data = json.loads(stdout)
    assert isinstance(data["results"], list)
    return data["results"]


@pytest.mark.parametrize(("mode", "embedder"), [("lexical", None), ("hybrid", None), ("hybrid", "hashing")])
def test_deleting_dot_loa_loses_nothing(loa: Cli, mode: str, embedder: str | None) -> None:
    """Hybrid runs with the default embedder (MiniLM when installed, else the hashing fallback) and with
    the hashing embedder named in the config."""
    if embedder is not None:
        config = loa.root / ".loa.config.yaml"
        text = config.read_text("utf-8").replace("  retrieval:\n", f"  retrieval:\n    embedder: {embedder}\n")
        config.write_text(text, "utf-8")
        assert f"embedder: {embedder}" in config.read_text("utf-8")
    for category, content, flags in ENTRIES:
        result = loa("add", category, content, *flags)
        assert result.exit_code == 0, result.output
    before = {query: _ids(loa, query, mode) for query in QUERIES}
    assert before["database"], "the lexical part must find the database entries"
    assert any(before.values())
    local = loa.root / ".loa"
    assert (local / "index").is_dir()
    if mode == "hybrid":
        assert (local / "embeddings").is_dir(), f"{select_embedder(embedder).embedder.name} wrote no vectors"

    shutil.rmtree(local)

    after = {query: _ids(loa, query, mode) for query in QUERIES}
    assert after == before
    assert (local / "index").is_dir()
    if mode == "hybrid":
        assert (local / "embeddings").is_dir()


def test_index_rebuild_command_after_deleting_dot_loa(loa: Cli) -> None:
    for category, content, flags in ENTRIES:
        assert loa("add", category, content, *flags).exit_code == 0
    before = {query: _ids(loa, query, "hybrid") for query in QUERIES}
    shutil.rmtree(loa.root / ".loa")
    report = loa.json("index")
    assert report["documents"] == len(ENTRIES)
    assert report["embedded"] == 0 and report["from_cache"] == len(ENTRIES)  # the user's vector cache had them
    assert {query: _ids(loa, query, "hybrid") for query in QUERIES} == before
