"""The settings of ``.loa.config.yaml``'s sections as typed records, with every default in this one module.

``config.retrieval.max_per_query`` instead of ``section("retrieval").get("max_per_query", 10)`` at the call
site: a default lives here only, and ``schemas/config.schema.json`` states the same ``default`` for each key
(``tests/store/test_settings.py`` holds the two together). The loader validates the file against the schema
before these records are built, so their fields hold the schema's types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypeVar

from loa_memory.model import ARCHIVE_DIR

DEFAULT_WORLD = "loa"
STORAGE_DIR = "grimoires/loa/memory"
T = TypeVar("T")
Mode = Literal["hybrid", "lexical", "semantic"]


@dataclass(frozen=True)
class AutoCapture:
    enabled: bool = True
    commits: bool = True
    transcripts: bool = True
    categories: tuple[str, ...] = ()
    min_confidence: float = 0.5
    summariser: str | None = None


@dataclass(frozen=True)
class Retrieval:
    max_per_query: int = 10
    min_confidence: float = 0.5
    recency_weight: float = 0.1
    mode: Mode = "hybrid"
    embedder: str | None = None
    embed_runtime: Literal["auto", "onnx", "numpy"] = "auto"
    budget: int = 1500
    episodic_half_life_days: float = 14
    # missing vectors a command embeds before answering, in seconds of the embedder's work; the rest is
    # embedded in the background (`loa-memory index --quiet`, or the warm server between requests)
    eager_embed_seconds: float = 1
    synonyms: tuple[Any, ...] = ()
    profile: str = "default"
    adaptive: bool | Mapping[str, Any] = False
    profiles: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Economics:
    max_discovery_read_ratio: float = 0.15
    min_savings_pct: float = 50
    max_layer3_loads: float = 3
    max_discovery_tokens: float = 200
    max_timeline_tokens: float = 100
    min_tokens_saved: float = 1000


@dataclass(frozen=True)
class Lifecycle:
    auto_archive: bool = True
    archive_dir: str = ARCHIVE_DIR
    check_on_session_start: bool = True
    warn_before_archive_days: int = 7
    superseded_retention_days: int = 90
    ineffective_min_applications: int = 5
    promotion_min_sessions: int = 3
    similarity_threshold: float = 0.7
    correction_similarity: float = 0.35
    session_episodes: int = 5
    graduate_min_sessions: int = 3
    graduate_min_score: int = 80
    graduate_min_successes: int = 3
    meta_cue_min_corrections: int = 3
    meta_cue_similarity: float = 0.6


@dataclass(frozen=True)
class Lint:
    rules: Mapping[str, Any] = field(default_factory=dict)
    near_duplicate_threshold: float = 0.85
    max_content_length: int = 2000
    stale_cue_sessions: int = 20


@dataclass(frozen=True)
class Secrets:
    enabled: bool = True
    pii: bool = True
    allowlist: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Governance:
    operators: tuple[str, ...] = ()
    require_signed: bool = False


SECTIONS: dict[str, type] = {"auto_capture": AutoCapture, "retrieval": Retrieval, "economics": Economics,
                             "lifecycle": Lifecycle, "lint": Lint, "secrets": Secrets, "governance": Governance}


def plain(value: Any) -> Any:
    """A default as the config file would write it (tuples as lists)."""
    return list(value) if isinstance(value, tuple) else dict(value) if isinstance(value, Mapping) else value


def defaults() -> dict[str, Any]:
    """Every setting's default, shaped as ``memory_schema:`` (what a file's settings are merged over)."""
    result: dict[str, Any] = {"version": 1, "enabled": True, "storage_dir": STORAGE_DIR, "layout": "lists",
                              "id_style": "auto", "default_world": DEFAULT_WORLD, "worlds": {}, "categories": {}}
    for name, record in SECTIONS.items():
        result[name] = {f.name: plain(getattr(record(), f.name)) for f in fields(record)}
    return result


def section_record(record: type[T], values: Mapping[str, Any]) -> T:
    """The typed record of section ``name`` from its merged values (lists become tuples; a key the record does
    not know was refused by the schema already)."""
    known = {f.name for f in fields(record)}  # type: ignore[arg-type]
    return record(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items() if k in known})
