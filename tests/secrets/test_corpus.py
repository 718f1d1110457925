"""Every labelled line of the corpus is classified as labelled: positives with their kind, traps clean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loa_memory.secrets import scan_text

CORPUS = Path(__file__).parent / "corpus"


def _rows(*names: str) -> list[tuple[str, str | None]]:
    rows = []
    for name in names:
        with (CORPUS / name).open() as f:
            rows += [(r["text"], r["kind"]) for r in map(json.loads, f)]
    return rows


POSITIVES = [r for r in _rows("positives.jsonl", "holdout.jsonl") if r[1] is not None]
TRAPS = [r for r in _rows("traps.jsonl", "holdout.jsonl") if r[1] is None]


@pytest.mark.parametrize(("text", "kind"), POSITIVES, ids=[f"{k}-{i}" for i, (_, k) in enumerate(POSITIVES)])
def test_positive_is_found_with_its_kind(text: str, kind: str) -> None:
    assert kind in {h.kind for h in scan_text(text)}


@pytest.mark.parametrize("text", [t for t, _ in TRAPS], ids=[f"trap-{i}" for i in range(len(TRAPS))])
def test_trap_is_not_flagged(text: str) -> None:
    assert [(h.kind, h.redacted) for h in scan_text(text)] == []


def test_corpus_covers_thirty_kinds() -> None:
    assert len({k for _, k in POSITIVES}) >= 30
