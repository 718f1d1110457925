"""A cue (correction or preference) that names code which no longer exists has probably outlived its lesson.

Checked: each path in ``artifacts`` and each backticked path in the ``trigger`` (a preference: ``context``)
must exist in the work tree or git's index; each backticked identifier (``parse_date``, ``Order.total()``,
``fetchRows``) that ``git grep`` found in the commit that first added the cue must still be found in the
index (memory folders excluded). Names that were never in the code, such as an external API the lesson
warns against, are not flagged; plain words and commands in backticks are not code. Graduated cues
(``graduated_to``) are skipped. git's answers are cached under ``.loa/cache/`` (see docs/lifecycle.md).

Passing: ``artifacts: [src/billing/]`` while ``src/billing/`` exists.

Failing (warning): a correction with ``artifacts: [src/legacy/dates.py]`` after that file was deleted.
Supersede the cue with one that names the code as it is now, or archive it if the lesson no longer applies.
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.coderefs import CodeIndex, code_refs
from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity

ID = "stale-cue"
SEVERITY: Severity = "warning"
CUE_CATEGORIES = ("correction", "preference")


def check(ctx: LintContext) -> Iterator[Finding]:
    cues = [(entry, refs) for entry in ctx.targets(archived=False)
            if entry.category in CUE_CATEGORIES and not entry.graduated_to
            and ctx.status(entry) == "active" and ((refs := code_refs(entry)).all_paths or refs.names)]
    if not cues:
        return
    code = CodeIndex(ctx.config)
    code.prefetch([(entry, refs.names) for entry, refs in cues])
    for entry, refs in cues:
        missing = code.missing_paths(refs.all_paths)
        then, gone = code.vanished_names(entry, refs.names)
        if not missing and not gone:
            continue
        parts = [f"{path} no longer exists" for path in missing]
        parts += [f"`{name}` was in the code at {(then or '')[:10]} and is gone now" for name in gone]
        key = "artifacts" if set(missing) & set(refs.artifacts) else \
            "trigger" if entry.category == "correction" else "context"
        yield ctx.finding(entry, ID, SEVERITY, f"stale cue: {'; '.join(parts)}: supersede it with the code as it "
                          "is now, or archive it if the lesson no longer applies", key=key,
                          extra={"missing_paths": missing, "vanished_names": gone, "recorded_at": then})
    code.save()
