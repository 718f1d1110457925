"""``.loa.config.yaml``: find it, validate its ``memory_schema:`` section, merge it with the defaults."""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from loa_memory.errors import ConfigError, NotInitialised
from loa_memory.model import DEFAULT_CATEGORIES, Category, Layout
from loa_memory.rootdir import CONFIG_NAME as CONFIG_NAME  # re-exported: callers import both from here
from loa_memory.rootdir import find_root as find_root
from loa_memory.store import schema as schema_mod
from loa_memory.store import yamlio
from loa_memory.store.cache import memo
from loa_memory.store.confine import check_local_dir
from loa_memory.store.ids import IdStyle
from loa_memory.store.settings import (
    AutoCapture,
    Economics,
    Governance,
    Lifecycle,
    Lint,
    Retrieval,
    Secrets,
    T,
    defaults,
    section_record,
)

LOCAL_DIR = ".loa"
DEFAULTS: dict[str, Any] = defaults()


@dataclass(frozen=True)
class World:
    """A grimoire: a named memory folder (``grimoires/<world>/memory``) relative to the repository root."""

    name: str
    storage_dir: str
    description: str = ""
    layout: Layout = "lists"  # where list categories keep entries: one list file, or one file per entry


@dataclass(frozen=True)
class Config:
    """Where the grimoires are and how they behave; passed explicitly, never global."""

    root: Path
    path: Path | None
    worlds: tuple[World, ...]
    default_world: str
    categories: tuple[Category, ...]
    settings: Mapping[str, Any] = field(default_factory=dict)

    def category(self, name: str) -> Category:
        for cat in self.categories:
            if cat.name == name:
                return cat
        known = ", ".join(c.name for c in self.categories)
        raise ConfigError(f"unknown category {name!r}", hint=f"use one of: {known}")

    def world(self, name: str | None = None) -> World:
        wanted = name or self.default_world
        for world in self.worlds:
            if world.name == wanted:
                return world
        known = ", ".join(w.name for w in self.worlds)
        raise ConfigError(f"unknown world {wanted!r}", hint=f"worlds in {CONFIG_NAME}: {known}")

    def world_of(self, rel: str) -> str:
        """The world whose storage folder holds ``rel`` (a repository-relative path), else ``""``."""
        return next((w.name for w in self.worlds if rel.startswith(w.storage_dir.rstrip("/") + "/")), "")

    def _section(self, name: str, record: type[T]) -> T:
        value = self.settings.get(name, {})
        return section_record(record, value if isinstance(value, Mapping) else {})

    @functools.cached_property
    def retrieval(self) -> Retrieval:
        return self._section("retrieval", Retrieval)

    @functools.cached_property
    def lifecycle(self) -> Lifecycle:
        return self._section("lifecycle", Lifecycle)

    @functools.cached_property
    def lint(self) -> Lint:
        return self._section("lint", Lint)

    @functools.cached_property
    def secrets(self) -> Secrets:
        return self._section("secrets", Secrets)

    @functools.cached_property
    def economics(self) -> Economics:
        return self._section("economics", Economics)

    @functools.cached_property
    def auto_capture(self) -> AutoCapture:
        return self._section("auto_capture", AutoCapture)

    @functools.cached_property
    def governance(self) -> Governance:
        return self._section("governance", Governance)

    @property
    def archive_dir(self) -> str:
        return self.lifecycle.archive_dir

    @property
    def local_dir(self) -> Path:
        return check_local_dir(self.root / LOCAL_DIR)  # never a symlink: its derived data would land elsewhere

    def memory_dir(self, world: str | None = None) -> Path:
        return self.root / self.world(world).storage_dir

    @property
    def id_style(self) -> IdStyle:
        """How new ids are made: ``id_style``, or for ``auto`` random where the default world keeps entries."""
        style = self.settings.get("id_style", "auto")
        if style in ("loa", "random"):
            return "loa" if style == "loa" else "random"
        return "random" if self.world().layout == "entries" else "loa"


def load_config(root: Path, *, require: bool = True) -> Config:
    """Read and validate ``root/.loa.config.yaml`` (defaults if it is absent and ``require`` is false)."""
    return memo.reuse(("config", str(root), require),
                      lambda: memo.stat_stamp([root / CONFIG_NAME, root / DEFAULTS["storage_dir"]]),
                      lambda: _load_config(root, require))


def _load_config(root: Path, require: bool) -> Config:
    path = root / CONFIG_NAME
    raw: dict[str, Any] = {}
    if path.is_file():
        raw = _read(path)
    elif require and not (root / DEFAULTS["storage_dir"]).is_dir():
        raise NotInitialised(f"no {CONFIG_NAME} and no grimoire in {root}",
                             hint="run `loa-memory init` to create one")
    section = raw.get("memory_schema") or {}
    settings = _merge(copy.deepcopy(DEFAULTS), section)
    return _build(root, path if path.is_file() else None, settings, section)


def _read(path: Path) -> dict[str, Any]:
    shown = path.name
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read: {exc}", path=shown) from None
    try:
        data = yamlio.load_text(text, path=shown)
    except yamlio.YamlSyntaxError as exc:
        raise ConfigError(exc.message, path=exc.path, line=exc.line, col=exc.col,
                          hint=f"fix the YAML syntax of {shown}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError("the config must be a mapping with a `memory_schema:` section", path=shown, line=1)
    problems = schema_mod.validate(data, schema_mod.load_schema("config"))
    if problems:
        first = problems[0]
        spot = yamlio.locate(yamlio.compose_text(text), first.path) or (0, 0)
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise ConfigError(first.message + more, path=shown, line=spot[0] + 1, col=spot[1] + 1,
                          hint="see docs/configuration.md for the keys of memory_schema:")
    return data


def _merge(base: dict[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict) and key not in ("worlds", "categories"):
            _merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)
    return base


def _safe_rel(value: object, what: str, path: Path) -> str:
    text = str(value)
    posix = PurePosixPath(text.replace("\\", "/"))
    if not text.strip() or posix.is_absolute() or ".." in posix.parts or posix.as_posix() == "." or "\0" in text:
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise ConfigError(f"{what} {shown!r} must be a relative path inside the repository, below its "
                          "folder (no '..', not absolute, not empty)", path=path.name,
                          hint="e.g. grimoires/loa/memory for storage_dir, facts.yaml or procedures for a category")
    return posix.as_posix()


def _build(root: Path, path: Path | None, settings: dict[str, Any], section: Mapping[str, Any]) -> Config:
    where = path or root / CONFIG_NAME
    storage = _safe_rel(settings["storage_dir"], "storage_dir", where)
    worlds_raw: Mapping[str, Any] = settings.get("worlds") or {}
    default_world = settings["default_world"]
    layout = settings.get("layout", "lists")
    if worlds_raw:
        worlds = tuple(World(name, _safe_rel((spec or {}).get("storage_dir", f"grimoires/{name}/memory"),
                                             "storage_dir", where),
                             (spec or {}).get("description", ""), (spec or {}).get("layout", layout))
                       for name, spec in worlds_raw.items())
        if "default_world" not in section:
            default_world = worlds[0].name
    else:
        worlds = (World(default_world, storage, layout=layout),)
    if default_world not in {w.name for w in worlds}:
        raise ConfigError(f"default_world {default_world!r} is not one of the worlds", path=where.name)
    dirs = [w.storage_dir for w in worlds]
    if len(set(dirs)) != len(dirs):
        raise ConfigError("two worlds share one storage_dir", path=where.name)
    lifecycle = settings.get("lifecycle")
    if isinstance(lifecycle, Mapping) and "archive_dir" in lifecycle:
        _safe_rel(lifecycle["archive_dir"], "lifecycle.archive_dir", where)
    categories = {c.name: c for c in DEFAULT_CATEGORIES}
    for name, spec in (settings.get("categories") or {}).items():
        spec = dict(spec or {})
        if name in categories:
            base = categories[name]
            path_rel = _safe_rel(spec["path"], f"category {name!r}: path", where) if "path" in spec else base.path
            categories[name] = Category(name, path_rel, spec.get("kind", base.kind),
                                        spec.get("ttl", base.ttl), spec.get("min_confidence", base.min_confidence),
                                        spec.get("layer", base.layer), spec.get("operator_only", base.operator_only),
                                        spec.get("append_only", base.append_only))
        else:
            if "path" not in spec:
                raise ConfigError(f"category {name!r} needs a `path` (e.g. {name}s.yaml)", path=where.name)
            categories[name] = Category(name, _safe_rel(spec["path"], f"category {name!r}: path", where),
                                        spec.get("kind", "list"),
                                        spec.get("ttl", "permanent"), spec.get("min_confidence", 0.0),
                                        spec.get("layer", "semantic"), spec.get("operator_only", False),
                                        spec.get("append_only", False))
    return Config(root, path, worlds, default_world, tuple(categories.values()), settings)
