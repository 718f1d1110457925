"""The code a cue names, and whether it still exists (for the ``stale-cue`` rule).

A cue (correction or preference) names code through its ``artifacts`` (paths, folders, globs) and
through backticked tokens in its ``trigger`` (a preference: ``context``): a token with a ``/`` or a
known file extension is a path; a token shaped like an identifier that cannot be an English word
(``parse_date``, ``UserModel.save()``, ``fetchRows``) is a name. Plain words and shell commands in
backticks (`` `migrate` ``, `` `uv add` ``) are not code and are never checked.

A path is present when it exists in the work tree or git's index. A name is *gone* when
``git grep`` finds it (as a whole word, outside the memory folders) in the commit that first added the
cue, and not in the index now: the cue was about code that was there and is not any more. A name
that was never in the code (an external API the lesson warns against) is never flagged.

Everything git answers is cached in ``.loa/cache/code-refs.marshal``: what a commit holds never
changes; where each name is in the index is kept with the index's listing, so a run on the same index
runs ``git ls-files`` only, and after staging a few files only those files are grepped again.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from typing import Any

from loa_memory.model import Entry
from loa_memory.store import git
from loa_memory.store.cache.disk import read_cache, write_cache
from loa_memory.store.config import Config

_BACKTICK = re.compile(r"`([^`\n]{2,160})`")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::|#)[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?$")
_CAMEL = re.compile(r"[a-z][A-Z]|(?<![A-Z])[A-Z]{2,}[a-z]")  # a run is tried from its start only: linear
_LINES = re.compile(r":[0-9]+(?:-[0-9]+)?$")
_EXTENSIONS = frozenset(
    "py pyi js mjs cjs ts tsx jsx go rs rb java kt kts scala c h cc cpp hpp cs php sql yaml yml json toml md rst "
    "sh bash zsh cfg ini txt html css scss vue svelte swift m mm ex exs erl hs clj lua pl r proto tf lock".split())
_CACHE = "code-refs.marshal"
_VERSION = 2
_INCREMENTAL_LIMIT = 2000  # more files staged since the last run than this: grep the whole index again


@dataclass(frozen=True)
class CodeRefs:
    """What one cue names: paths (artifacts and backticked paths) and identifiers."""

    artifacts: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()  # backticked in the trigger
    names: tuple[str, ...] = ()

    @property
    def all_paths(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((*self.artifacts, *self.paths)))


def is_path_like(token: str) -> bool:
    if " " in token or token.startswith(("-", "$")):
        return False
    if "/" in token:
        return True
    suffix = token.rsplit(".", 1)[-1].lower() if "." in token else ""
    return suffix in _EXTENSIONS and not token.endswith("()")


def is_code_name(token: str) -> bool:
    """An identifier no English word looks like: snake_case, dotted, ``::``, camelCase, or called ``()``."""
    if len(token) < 3 or not _NAME.match(token):
        return False
    return any(mark in token for mark in ("_", ".", "::", "#", "()")) or bool(_CAMEL.search(token))


def code_refs(entry: Entry) -> CodeRefs:
    """The paths and names ``entry`` names (see the module docstring)."""
    raw = entry.data.get("artifacts")
    artifacts = [str(artifact) for artifact in raw] if isinstance(raw, list) else []
    paths: list[str] = []
    names: list[str] = []
    text = f"{entry.data.get('trigger') or ''} {entry.data.get('context') or ''}"
    for token in _BACKTICK.findall(text):
        token = token.strip()
        if is_path_like(token):
            paths.append(token)
        elif is_code_name(token):
            names.append(token.removesuffix("()"))
    return CodeRefs(_safe_paths(artifacts), _safe_paths(paths), tuple(dict.fromkeys(names)))


def _safe_paths(paths: list[str]) -> tuple[str, ...]:
    """Paths relative to the root without line ranges; absolute and ``..`` paths are not checked."""
    clean = [_LINES.sub("", p.strip()).removeprefix("./").rstrip("/") for p in paths]
    return tuple(dict.fromkeys(p for p in clean if p and not p.startswith("/") and ".." not in p.split("/")))


@dataclass
class CodeIndex:
    """Answers for one lint run, backed by git and the cache (see the module docstring)."""

    config: Config
    _cache: dict[str, Any] = field(default_factory=dict)
    _listing: tuple[str, dict[str, str]] | None = None
    _listed: bool = False
    _tracked: frozenset[str] = frozenset()
    _folders: frozenset[str] = frozenset()
    _dirty: bool = False
    _scanned: bool = False  # the history was brought up to date in this run

    def __post_init__(self) -> None:
        loaded = read_cache(self.config.local_dir / "cache" / _CACHE)
        fresh = {"version": _VERSION, "index": "", "listing": {}, "where": {}, "at": {}, "scanned": "",
                 "introduced": {}}
        self._cache = loaded if isinstance(loaded, dict) and loaded.get("version") == _VERSION else fresh

    def _listing_now(self) -> tuple[str, dict[str, str]] | None:
        if not self._listed:
            self._listed = True
            self._listing = git.staged_listing(self.config.root)
            if self._listing is not None:
                self._tracked = frozenset(self._listing[1])
                self._folders = frozenset(p.rsplit("/", n)[0] for p in self._tracked
                                          for n in range(1, p.count("/") + 1))
        return self._listing

    def missing_paths(self, paths: tuple[str, ...]) -> list[str]:
        """The paths that exist neither in the work tree nor in the index (globs: match no tracked file)."""
        missing = []
        for path in paths:
            if any(c in path for c in "*?["):
                listing = self._listing_now()
                if listing is not None and not any(fnmatch.fnmatchcase(p, path) or fnmatch.fnmatchcase(p, path + "/*")
                                                   for p in listing[1]):
                    missing.append(path)
                continue
            if (self.config.root / path).exists():
                continue
            self._listing_now()
            if path not in self._tracked and path not in self._folders:
                missing.append(path)
        return missing

    def prefetch(self, cues: list[tuple[Entry, tuple[str, ...]]]) -> None:
        """Ask git about every cue's names at once: one ``git grep`` per commit that added cues, one of the index."""
        by_rev: dict[str, set[str]] = {}
        for entry, names in cues:
            then = self._commit_of(entry) if names else None
            if then is not None:
                by_rev.setdefault(then, set()).update(names)
        had: set[str] = set()
        for rev, wanted in by_rev.items():
            had |= self._found(rev, tuple(sorted(wanted)))
        if had:
            self._found(None, tuple(sorted(had)))

    def vanished_names(self, entry: Entry, names: tuple[str, ...]) -> tuple[str | None, list[str]]:
        """(the commit that added ``entry``, the names that were in the code then and are not now)."""
        if not names:
            return None, []
        then = self._commit_of(entry)
        if then is None:
            return None, []
        had = self._found(then, names)
        if not had:
            return then, []
        now = self._found(None, tuple(had))
        return then, [name for name in names if name in had and name not in now]

    def _exclude(self) -> list[str]:
        return [w.storage_dir for w in self.config.worlds] + [".loa"]

    def _found(self, rev: str | None, names: tuple[str, ...]) -> set[str]:
        """Which ``names`` the code holds: at commit ``rev``, or in the index (``None``); all of them when git
        cannot tell, so nothing is flagged on a guess."""
        if rev is not None:
            known: dict[str, bool] = self._cache["at"].setdefault(rev, {})
            wanted = [n for n in names if n not in known]
            if wanted:
                hits = git.grep_words(self.config.root, wanted, rev, self._exclude())
                if hits is None:
                    return set(names)
                known.update({name: name in hits for name in wanted})
                self._dirty = True
            return {n for n in names if known[n]}
        listing = self._listing_now()
        if listing is None or not self._sync_index(listing):
            return set(names)
        where: dict[str, list[str]] = self._cache["where"]
        wanted = [n for n in names if n not in where]
        if wanted:
            found = git.grep_words(self.config.root, wanted, None, self._exclude())
            if found is None:
                return set(names)
            where.update({name: sorted(found.get(name, ())) for name in wanted})
            self._dirty = True
        return {n for n in names if where[n]}

    def _sync_index(self, listing: tuple[str, dict[str, str]]) -> bool:
        """Bring the cached answers about the index up to date: only files staged since are grepped again."""
        key, files = listing
        if self._cache["index"] == key:
            return True
        old: dict[str, str] = self._cache["listing"]
        where: dict[str, list[str]] = self._cache["where"]
        exclude = tuple(folder.rstrip("/") + "/" for folder in self._exclude())
        changed = [p for p, blob in files.items() if old.get(p) != blob and not p.startswith(exclude)]
        if not old or len(changed) > _INCREMENTAL_LIMIT:
            where.clear()
        elif where:
            dropped = set(changed) | {p for p in old if p not in files}
            for name, paths in where.items():
                where[name] = [p for p in paths if p not in dropped]
            found = git.grep_words(self.config.root, list(where), None, [], changed)
            if found is None:
                return False
            for name, holders in found.items():
                where[name] = sorted({*where[name], *holders})
        self._cache.update(index=key, listing=files)
        self._dirty = True
        return True

    def _commit_of(self, entry: Entry) -> str | None:
        source = entry.data.get("source")
        commit = source.get("commit") if isinstance(source, dict) else None
        if commit or entry.data.get("commit"):
            return str(commit or entry.data.get("commit"))
        introduced: dict[str, str] = self._cache["introduced"]
        if entry.id not in introduced and not self._scanned:
            self._scanned = True
            scanned = str(self._cache["scanned"] or "")
            since = scanned if scanned and git.is_ancestor(self.config.root, scanned) else None
            if not since:
                introduced.clear()
            found = git.first_commits(self.config.root, [w.storage_dir for w in self.config.worlds], since)
            if found is None:
                return None
            head, added = found
            for memory_id, sha in added.items():
                introduced.setdefault(memory_id, sha)
            self._cache["scanned"] = head
            self._dirty = True
        return introduced.get(entry.id)

    def save(self) -> None:
        if self._dirty:
            at: dict[str, Any] = self._cache["at"]
            if len(at) > 2000:  # bound the cache: keep the most recent commits asked about
                self._cache["at"] = dict(list(at.items())[-1000:])
            write_cache(self.config.local_dir / "cache" / _CACHE, self._cache)
            self._dirty = False
