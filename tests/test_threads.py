"""Threads of a query-time command and of the bulk embedding it may start."""

from __future__ import annotations

import os

import pytest

from loa_memory.threads import BLAS_ENVS, EMBED_THREADS_ENV, bulk_env, embed_threads, query_threads

NAMES = (*BLAS_ENVS, EMBED_THREADS_ENV)


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_a_query_gets_one_blas_thread_and_two_for_embedding(clean: pytest.MonkeyPatch) -> None:
    query_threads()
    assert all(os.environ[name] == "1" for name in BLAS_ENVS)
    assert embed_threads() == min(2, os.cpu_count() or 1)


def test_the_users_thread_count_holds_for_both(clean: pytest.MonkeyPatch) -> None:
    clean.setenv("OMP_NUM_THREADS", "3")
    query_threads()
    assert os.environ["OMP_NUM_THREADS"] == "3" and embed_threads() == 3


def test_bulk_embedding_started_by_a_query_gets_every_core(clean: pytest.MonkeyPatch) -> None:
    query_threads()
    env = bulk_env(os.environ)
    assert not any(name in env for name in NAMES)
    clean.setattr(os, "environ", env)
    assert embed_threads() == (os.cpu_count() or 1)


def test_bulk_embedding_keeps_what_the_user_chose(clean: pytest.MonkeyPatch) -> None:
    clean.setenv("OMP_NUM_THREADS", "3")
    clean.setenv(EMBED_THREADS_ENV, "5")
    query_threads()
    env = bulk_env(os.environ)
    assert env["OMP_NUM_THREADS"] == "3" and env[EMBED_THREADS_ENV] == "5"
