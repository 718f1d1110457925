"""The committed log summary of retrieval weights: recalls and outcomes per day, task type and profile.

The raw recall and usage logs stay local (``.loa/``); ``loa-memory weights summarize`` folds them into this
small file, which is committed, so every clone computes the same adaptive state from it. Counters are plain
integers, so a merge adds both sides' increments (``merge_summaries``; the merge driver uses it)::

    kind: loa-memory/retrieval-weights
    version: 1
    days:
      '2026-05-01':
        debugging:
          default: {served: 12, successes: 4, failures: 2}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from loa_memory.errors import ConfigError, GrimoireError
from loa_memory.store import yamlio
from loa_memory.store.config import Config
from loa_memory.tuning.bandit import Counts

KIND = "loa-memory/retrieval-weights"
FILE_NAME = "retrieval-weights.yaml"
HEADER = ("# Retrieval weights: recalls and their outcomes per day, task type and weight profile.\n"
          "# Written by `loa-memory weights summarize`; the adaptive policy is computed from this file alone.\n"
          "# Plain counters: a merge adds both sides' increments (`loa-memory merge-driver`).\n")
Summary = dict[str, dict[str, dict[str, Counts]]]  # day → task type → profile → counts

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
_PLAIN_OTHER = re.compile(r"^(?:true|false|null|[-+]?[0-9.].*|0o.*|0x.*)$")  # would not load as a string


def summary_path(config: Config) -> Path:
    """``retrieval.adaptive.summary``, else ``retrieval-weights.yaml`` next to the default world's memory folder."""
    adaptive = config.retrieval.adaptive
    if isinstance(adaptive, Mapping) and adaptive.get("summary"):
        rel = PurePosixPath(str(adaptive["summary"]))
        if rel.is_absolute() or ".." in rel.parts:
            raise ConfigError(f"retrieval.adaptive.summary {str(rel)!r} must be a relative path inside the repository",
                              path=config.path.name if config.path else None)
        return config.root / rel
    return config.memory_dir().parent / FILE_NAME


def is_summary_text(text: str) -> bool:
    return f"kind: {KIND}" in text


def parse_summary(text: str, path: str = FILE_NAME) -> Summary:
    """The counters of a summary file; a malformed one raises ``GrimoireError`` at its ``path:line:col``."""
    try:
        data = yamlio.load_text(text, path=path)
    except yamlio.YamlSyntaxError as exc:
        raise GrimoireError(exc.message, path=path, line=exc.line, col=exc.col, hint=exc.hint) from None
    if data is None:
        return {}

    def fail(message: str, where: tuple[str, ...]) -> GrimoireError:
        spot = yamlio.locate(yamlio.compose_text(text), where) or (0, 0)
        return GrimoireError(message, path=path, line=spot[0] + 1, col=spot[1] + 1,
                             hint="fix it by hand (or take it from git); `weights summarize` never rewrites "
                                  "a summary it cannot read")

    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise fail(f"not a retrieval-weights summary (expected `kind: {KIND}`)", ())
    days = data.get("days") or {}
    if not isinstance(days, dict):
        raise fail("`days` must be a mapping of dates", ("days",))
    summary: Summary = {}
    for day, tasks in days.items():
        if not isinstance(day, str) or not _DAY.match(day) or not isinstance(tasks, dict):
            raise fail(f"{day!r}: expected a quoted date 'YYYY-MM-DD' holding task types", ("days", str(day)))
        for task, profiles in tasks.items():
            if not isinstance(task, str) or not _NAME.match(task) or not isinstance(profiles, dict):
                raise fail(f"{task!r}: expected a task type holding profiles", ("days", day, str(task)))
            for profile, counts in profiles.items():
                where = ("days", day, task, str(profile))
                if not isinstance(profile, str) or not isinstance(counts, dict) or set(counts) - set(Counts._fields):
                    raise fail(f"{profile!r}: expected {{served, successes, failures}}", where)
                values = [counts.get(k, 0) for k in Counts._fields]
                if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values):
                    raise fail("counters must be whole numbers ≥ 0", where)
                summary.setdefault(day, {}).setdefault(task, {})[profile] = Counts(*values)
    return summary


def dump_summary(summary: Summary) -> str:
    """The file text: sorted, one line per day × task type × profile, so diffs stay small."""
    lines = [HEADER, f"kind: {KIND}\n", "version: 1\n", "days:" + ("\n" if summary else " {}\n")]
    for day in sorted(summary):
        lines.append(f"  '{day}':\n")
        for task in sorted(summary[day]):
            lines.append(f"    {_key(task)}:\n")
            for profile, c in sorted(summary[day][task].items()):
                lines.append(f"      {_key(profile)}: {{served: {c.served}, successes: {c.successes}, "
                             f"failures: {c.failures}}}\n")
    return "".join(lines)


def _key(name: str) -> str:
    """A plain key when YAML reads it back as the same string, else a quoted one (``true``, ``1``, ...)."""
    return name if _NAME.match(name) and not _PLAIN_OTHER.match(name) else "'" + name.replace("'", "''") + "'"


def read_summary(path: Path, root: Path | None = None) -> Summary:
    """The summary at ``path`` (empty when there is none yet)."""
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return {}
    shown = path.relative_to(root).as_posix() if root and path.is_relative_to(root) else str(path)
    return parse_summary(text, shown)


def add_counts(summary: Summary, day: str, task: str, profile: str, counts: Counts) -> None:
    cell = summary.setdefault(day, {}).setdefault(task, {})
    cell[profile] = cell.get(profile, Counts()).plus(counts)


def task_days(summary: Summary, task_type: str) -> list[tuple[str, dict[str, Counts]]]:
    """(day, profile → counts) of one task type, in date order."""
    return [(day, dict(summary[day][task_type])) for day in sorted(summary) if task_type in summary[day]]


def totals(summary: Summary) -> dict[tuple[str, str], Counts]:
    """(task type, profile) → counts over every day."""
    result: dict[tuple[str, str], Counts] = {}
    for tasks in summary.values():
        for task, profiles in tasks.items():
            for profile, counts in profiles.items():
                result[(task, profile)] = result.get((task, profile), Counts()).plus(counts)
    return result


def merge_summaries(base: Summary, ours: Summary, theirs: Summary) -> Summary:
    """Every counter = ours + theirs − base, so both sides' increments are kept and none is counted twice."""
    merged: Summary = {}
    keys = {(d, t, p) for s in (base, ours, theirs) for d in s for t in s[d] for p in s[d][t]}
    for day, task, profile in keys:
        def get(s: Summary) -> Counts:
            return s.get(day, {}).get(task, {}).get(profile, Counts())  # noqa: B023 (used at once)

        values = [max(0, o + t - b) for o, t, b in zip(get(ours), get(theirs), get(base), strict=True)]
        if any(values):
            add_counts(merged, day, task, profile, Counts(*values))
    return merged


def merge_summary_texts(base: str, ours: str, theirs: str) -> str | None:
    """The merged file, or None when a side is not a readable summary (git's own merge then applies)."""
    try:
        parsed: list[Any] = [parse_summary(text) if text.strip() else {} for text in (base, ours, theirs)]
    except GrimoireError:
        return None
    return dump_summary(merge_summaries(*parsed))
