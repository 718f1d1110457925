"""``capture --post-commit``: what the post-commit hook does, with the plain git hook or the pre-commit framework.

After a commit whose message holds memory trailers, the new memories are written to their files and **staged**,
so that they go with the next commit and the work tree shows no unstaged change of loa-memory's making. That is
also what lets the capture run under the pre-commit framework: pre-commit compares the unstaged diff before and
after each hook, and a hook that only stages its writes does not change it (no "files were modified by this
hook"). Two cases stay unstaged or wait:

- a memory file that already had unstaged changes: staging it would stage the user's edits too, so the new
  entries are written and left unstaged, and the report says so;
- under pre-commit, a memory file whose unstaged changes pre-commit set aside for the run
  (``quick.pre_commit_stashed_paths``): writing it would make pre-commit roll the capture back (and lose the id
  it used), so nothing is written; the report names the command that captures the commit later.

A trailer that holds a secret is skipped and reported on stderr with the kind and the value redacted.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from loa_memory.capture.pipeline import CaptureOptions, CaptureReport, capture
from loa_memory.render.capture import secret_skip_line
from loa_memory.repo.quick import pre_commit_stashed_paths
from loa_memory.store import git
from loa_memory.store.config import Config


@dataclass
class PostCommit:
    """The capture report, which written files were staged, and what the user must hear about."""

    report: CaptureReport
    sha: str = ""
    staged: list[str] = field(default_factory=list)
    unstaged: list[str] = field(default_factory=list)  # written, left unstaged (they had changes of the user's)
    waiting: list[str] = field(default_factory=list)  # not written: pre-commit set their changes aside

    @property
    def needs_attention(self) -> bool:
        """Something the user must act on: a skipped secret, an invalid trailer, a capture that waits."""
        return bool(self.waiting) or any(s.reason in ("secret", "invalid") for s in self.report.skipped)

    def warnings(self) -> list[str]:
        """Lines for stderr: what was not captured and why, and what to do."""
        short = self.sha[:12]
        lines = []
        for skip in self.report.skipped:
            if skip.reason == "secret":
                lines.append(
                    secret_skip_line(skip.origin, skip.detail) + ". It is now in the commit's message: rotate it, "
                    "and rewrite the message (`git commit --amend` if it is not pushed yet); the `commit-msg` "
                    "hook (`loa-memory hooks install`) refuses such a message before it lands."
                )
            elif skip.reason == "invalid":
                lines.append(f"loa-memory: NOT captured from commit {short}: {skip.detail}")
        if self.waiting:
            lines.append(
                f"loa-memory: commit {short} not captured yet: {', '.join(self.waiting)} had unstaged "
                "changes that pre-commit set aside while its hooks ran. Stage or commit them, then run "
                f"`loa-memory capture --commit {short}`."
            )
        if self.unstaged:
            lines.append(
                f"loa-memory: new memories written to {', '.join(self.unstaged)}, left unstaged because "
                "the file(s) already had unstaged changes; review and stage them with your next commit."
            )
        return lines


def capture_after_commit(config: Config) -> PostCommit:
    """Capture HEAD's memory trailers, staging what is written (see the module docstring)."""
    sha = git.head_commit(config.root) or "HEAD"
    options = CaptureOptions(revs=("HEAD",))
    planned = capture(config, replace(options, dry_run=True))
    targets = sorted({w.path for w in planned.added})
    if not targets:
        return PostCommit(planned, sha)
    stashed = pre_commit_stashed_paths() or set()
    waiting = [path for path in targets if path in stashed]
    if waiting:
        return PostCommit(replace(planned, added=[]), sha, waiting=waiting)
    dirty = set(git.unstaged_paths(config.root, targets))
    report = capture(config, options)
    written = sorted({w.path for w in report.added})
    to_stage = [path for path in written if path not in dirty]
    git.stage(config.root, to_stage)
    return PostCommit(report, sha, staged=to_stage, unstaged=[p for p in written if p in dirty])
