"""Secrets in a commit message, checked by the ``commit-msg`` hook before the message lands in history.

A commit message is forever: once pushed, a token in it must be revoked. So the hook runs the one secret gate
(``secrets/gate.py``) over the message git is about to record and refuses the commit on a credential, naming the
kind, the line and the value redacted, never the value. Personal data (an e-mail address) is refused only in a
memory trailer (``Decision:`` and the rest, with their qualifiers and continuation lines), where capture would
otherwise skip the memory: ``Signed-off-by: Name <mail>`` and the like are how git works. What ``git commit -v``
shows below the scissors line is not part of the message and is not read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from loa_memory.model import Finding
from loa_memory.secrets.gate import configured_hits
from loa_memory.secrets.scan import SecretHit, scan_text

if TYPE_CHECKING:
    from loa_memory.store.config import Config

RULE = "secret"
SCISSORS = " ------------------------ >8 ------------------------"
_MEMORY_TRAILER = re.compile(
    r"^(decision|learning|error|fact|preference|correction|resolution|trigger|lesson|"
    r"rationale|context)[ \t]*:",
    re.IGNORECASE,
)


def message_text(raw: str) -> str:
    """The part of a commit-message file that git records: everything above the scissors line."""
    lines = raw.splitlines(keepends=True)
    for number, line in enumerate(lines):
        if line.rstrip("\n").endswith(SCISSORS) and len(line.rstrip("\n")) <= len(SCISSORS) + 1:
            return "".join(lines[:number])
    return raw


def _trailer_lines(text: str) -> set[int]:
    """1-based numbers of the lines that belong to a memory trailer (its key line and continuation lines)."""
    inside = False
    numbers = set()
    for number, line in enumerate(text.splitlines(), 1):
        if _MEMORY_TRAILER.match(line):
            inside = True
        elif not (inside and line[:1] in (" ", "\t") and line.strip()):
            inside = False
        if inside:
            numbers.add(number)
    return numbers


def message_hits(text: str, config: Config | None = None) -> list[SecretHit]:
    """What the gate refuses in commit message ``text``, under ``config``'s secret settings (allowlist, pii,
    enabled) or, without one, the defaults (the hooks' fast path, which loads the config only on a hit)."""
    hits = configured_hits(config, text) if config is not None else scan_text(text)
    if any(hit.pii for hit in hits):
        trailers = _trailer_lines(text)
        hits = [hit for hit in hits if not hit.pii or hit.line in trailers]
    return hits


def message_findings(hits: Sequence[SecretHit], shown: str) -> list[Finding]:
    """The hits as ``scan-secrets`` findings at ``shown:line:col`` (values redacted as the gate does)."""
    return [
        Finding(
            shown,
            hit.line,
            hit.col,
            "error",
            RULE,
            f"{hit.description} {hit.redacted} in the commit message (allowlist hash {hit.digest[:16]}…)",
            extra={"hash": hit.digest, "kind": hit.kind},
        )
        for hit in hits
    ]


def scan_messages(paths: Sequence[Path], config: Config | None) -> tuple[list[Finding], list[str]]:
    """Findings for each commit-message file, and the files that could not be read, with why."""
    findings: list[Finding] = []
    skipped: list[str] = []
    for path in paths:
        try:
            raw = path.read_text("utf-8", errors="replace")
        except OSError as exc:
            skipped.append(f"{path}: {exc.strerror or exc}")
            continue
        findings += message_findings(message_hits(message_text(raw), config), str(path))
    return findings, skipped


REFUSED_HINT = (
    "commit refused: git would keep this value in the repository's history for good. Remove it from "
    "the message (refer to where the value is kept instead) and commit again; git kept your message "
    "in .git/COMMIT_EDITMSG (`git commit -e -F .git/COMMIT_EDITMSG`). If it is not a secret, add its "
    "allowlist hash to memory_schema.secrets.allowlist."
)
