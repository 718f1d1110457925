"""What the environment says about the current run: the agent session it belongs to."""

from __future__ import annotations

import os


def env_session_id() -> str | None:
    """The session an agent runs this process in: ``LOA_SESSION_ID``, else ``CLAUDE_SESSION_ID``, else None."""
    return os.environ.get("LOA_SESSION_ID") or os.environ.get("CLAUDE_SESSION_ID") or None
