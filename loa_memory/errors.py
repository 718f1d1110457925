"""The exceptions of loa-memory: one root, a subclass per kind of failure.

Every message says what happened and what to do next. Core code raises these and never
prints or exits; the CLI's error boundary maps them to exit codes (``exit_code``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class LoaError(Exception):
    """Root of every error loa-memory raises on purpose."""

    exit_code = 2
    code = "error"

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 col: int | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.col = col
        self.hint = hint

    @property
    def where(self) -> str:
        """``path:line:col`` (as much of it as is known), or the empty string."""
        if self.path is None:
            return ""
        parts = [self.path]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        return f"{text}\n  hint: {self.hint}" if self.hint else text

    def as_record(self) -> dict[str, Any]:
        """The stable JSON shape of the error (``{"error": ...}`` from the CLI, the MCP server's tool errors)."""
        return {"code": self.code, "message": self.message, "path": self.path, "line": self.line, "col": self.col,
                "hint": self.hint}


class UsageError(LoaError):
    """The command was called wrongly (bad argument, missing option)."""

    code = "usage"


class ConfigError(LoaError):
    """``.loa.config.yaml`` is missing, unreadable or invalid."""

    code = "config"


class NotInitialised(ConfigError):
    """No grimoire where one was expected; ``loa-memory init`` creates it."""

    code = "not-initialised"


class GrimoireError(LoaError):
    """A memory file is malformed or invalid; the file is left untouched."""

    exit_code = 1
    code = "invalid-grimoire"

    def __init__(self, message: str, *, problems: Sequence[LoaError] | None = None, **kw: object) -> None:
        super().__init__(message, **kw)  # type: ignore[arg-type]
        self.problems = list(problems or [])

    def as_record(self) -> dict[str, Any]:
        record = super().as_record()
        if self.problems:
            record["problems"] = [{"path": p.path, "line": p.line, "col": p.col, "message": p.message}
                                  for p in self.problems]
        return record


class ValidationError(LoaError):
    """An entry about to be written does not satisfy the schema."""

    exit_code = 1
    code = "invalid-entry"


class NotFound(LoaError):
    """A memory id, file or world that does not exist."""

    exit_code = 1
    code = "not-found"


class SecretRefused(LoaError):
    """A write would have stored a secret or personal data; nothing was written."""

    exit_code = 1
    code = "secret"


class NotEligible(LoaError):
    """A lifecycle step (``graduate``) was refused: the memory does not meet its thresholds yet."""

    exit_code = 1
    code = "not-eligible"


class GitError(LoaError):
    """A git operation failed or the directory is not a git repository."""

    code = "git"


class LockTimeout(LoaError):
    """Another loa-memory process held the grimoire lock for too long."""

    exit_code = 1
    code = "locked"


class AmbiguousId(LoaError):
    """Two entries carry one id (two branches each added it): a command that needs one of them refuses."""

    exit_code = 1
    code = "ambiguous-id"
