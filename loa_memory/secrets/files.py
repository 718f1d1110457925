"""``scan-secrets``: the gate over arbitrary text files, with findings in the lint shape."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from loa_memory.model import Finding
from loa_memory.secrets.redact import name_hits, redact_name
from loa_memory.secrets.scan import scan_text

RULE = "secret"


def scan_files(paths: Sequence[Path], *, allowlist: Collection[str] = (), include_pii: bool = True,
               root: Path | None = None) -> tuple[list[Finding], list[str]]:
    """Findings for every file, and the files skipped (binary, unreadable) with why. A secret in a file's name is
    a finding too, and such a path is printed redacted."""
    findings: list[Finding] = []
    skipped: list[str] = []
    allowed = frozenset(allowlist)
    for path in paths:
        real = _shown(path, root)
        shown = redact_name(real)
        for hit in [h for part in real.split("/") for h in name_hits(part)][:1]:
            if hit.digest not in allowed and (include_pii or not hit.pii):
                findings.append(Finding(shown, 1, 1, "error", RULE, f"the file's path holds a {hit.description} "
                                        f"{hit.redacted}: rename it (allowlist hash {hit.digest[:16]}…)",
                                        extra={"hash": hit.digest, "kind": hit.kind}))
        try:
            data = path.read_bytes()
        except OSError as exc:
            skipped.append(f"{shown}: {exc.strerror or exc}")
            continue
        if b"\0" in data[:8192]:
            skipped.append(f"{shown}: binary file")
            continue
        text = data.decode("utf-8", errors="replace")
        for hit in scan_text(text, allowlist=allowlist, include_pii=include_pii):
            findings.append(Finding(shown, hit.line, hit.col, "error", RULE,
                                    f"{hit.description} {hit.redacted} (allowlist hash {hit.digest[:16]}…)",
                                    extra={"hash": hit.digest, "kind": hit.kind}))
    return findings, skipped


def _shown(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return str(path)
