"""The secret gate: the one place that decides whether text may be written, for every write path.

``check_secrets`` applies the config (``secrets.enabled``, ``allowlist``, ``pii``) to text about to be written and
raises ``SecretRefused`` naming the kind, the place and the value redacted; ``check_fields`` does the same for an
entry's fields as given, keys included, before anything normalises them (a lower-cased tag or thread name,
a note's file name); ``ensure_no_secrets`` (the package's library API) is the same
refusal without a config; ``configured_hits`` is what capture uses to withhold a value instead of refusing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
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


def check_fields(config: Config, fields: object, rel: str = "", *, values: Collection[str] | None = None) -> None:
    """Raise ``SecretRefused`` if any key of ``fields`` (an entry, a list, a path as text) or a value, as given,
    holds a secret or PII; the refusal names the field, never the value.

    ``values`` limits the values scanned to those top-level fields (the keys are always all scanned): a writer
    that scans the text it writes, with its place, asks here only about what it changes on the way (the tags and
    thread it lower-cases)."""
    from loa_memory.secrets import scan_fields

    settings = config.secrets
    if settings.enabled is False:
        return
    if values is not None and isinstance(fields, Mapping):
        fields = {key: value if key in values else _keys_only(value) for key, value in fields.items()}
    found = scan_fields(fields, allowlist=frozenset(settings.allowlist or ()), include_pii=bool(settings.pii))
    if not found:
        return
    first = found[0][1]
    kinds = ", ".join(sorted({hit.description for _, hit in found}))
    listed = "; ".join(f"{hit.description} {hit.redacted} in {path or 'the value'}" for path, hit in found[:5])
    raise SecretRefused(f"refused: the entry contains {kinds} ({listed}); nothing was written", path=rel or None,
                        hint=_HINT + first.digest)


def _keys_only(value: object) -> object:
    if isinstance(value, Mapping):
        return {key: _keys_only(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_keys_only(item) for item in value]
    return ""


def check_name(config: Config, name: str, what: str = "the path") -> None:
    """Raise ``SecretRefused`` if a file or folder name about to be created (``what``) holds a secret: a name is
    committed like a file's text, and printed by every command that lists it."""
    from loa_memory.secrets.redact import name_hits

    settings = config.secrets
    if settings.enabled is False:
        return
    allowed = frozenset(settings.allowlist or ())
    hits = [hit for part in name.replace("\\", "/").split("/") for hit in name_hits(part)
            if hit.digest not in allowed and (settings.pii or not hit.pii)]
    if hits:
        first = hits[0]
        raise SecretRefused(f"refused: {what} contains {first.description} ({first.redacted}); nothing was written",
                            hint="name it for what it is about, not with a value; if it is a false positive add "
                                 f"its hash to memory_schema.secrets.allowlist: {first.digest}")


_HINT = ("remove the value (refer to where it is kept instead), or if it is a false positive add its hash to "
         "memory_schema.secrets.allowlist: ")


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
                         hint=_HINT + first.digest)
