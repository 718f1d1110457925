"""The secret gate: the one place that decides whether text may be written, for every write path.

``check_secrets`` applies the config (``secrets.enabled``, ``allowlist``, ``pii``) and raises ``SecretRefused``
naming the kind, the place and the value redacted; ``ensure_no_secrets`` (the package's library API) is the same
refusal without a config; ``configured_hits`` is what capture uses to withhold a value instead of refusing.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from loa_memory.errors import SecretRefused
from loa_memory.secrets.scan import SecretHit, scan_text

if TYPE_CHECKING:
    from loa_memory.store.config import Config


def configured_hits(config: Config, text: str) -> list[SecretHit]:
    """What the gate finds in ``text`` under the config's secret settings (nothing when the gate is off)."""
    settings = config.secrets
    if settings.enabled is False:
        return []
    return scan_text(text, allowlist=frozenset(settings.allowlist or ()), include_pii=bool(settings.pii))


def check_secrets(config: Config, text: str, rel: str, first_line: int) -> None:
    """Raise ``SecretRefused`` if ``text`` (to be written at ``rel:first_line``) holds a secret or PII."""
    hits = configured_hits(config, text)
    if hits:
        raise refusal(hits, rel, first_line)


def ensure_no_secrets(text: str, *, path: str | None = None, line_offset: int = 0,
                      allowlist: Collection[str] = (), include_pii: bool = True) -> None:
    """Raise ``SecretRefused`` if ``text`` (about to be written) holds a secret; ``line_offset`` is added to line
    numbers, for text that will land partway into a file."""
    hits = scan_text(text, allowlist=allowlist, include_pii=include_pii)
    if hits:
        raise refusal(hits, path or "", line_offset + 1)


def refusal(hits: Sequence[SecretHit], rel: str, first_line: int) -> SecretRefused:
    """The error for text holding ``hits`` that was to be written at ``rel:first_line``: kinds, places and
    redacted values, never a value itself."""
    first = hits[0]
    kinds = ", ".join(sorted({hit.description for hit in hits}))
    listed = "; ".join(f"{hit.description} {hit.redacted} at line {first_line + hit.line - 1}" for hit in hits[:5])
    return SecretRefused(f"refused: the entry contains {kinds} ({listed}); nothing was written",
                         path=rel or None, line=first_line + first.line - 1, col=first.col,
                         hint="remove the value (refer to where it is kept instead), or if it is a false "
                              f"positive add its hash to memory_schema.secrets.allowlist: {first.digest}")
