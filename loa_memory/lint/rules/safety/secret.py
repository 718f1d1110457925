"""No secret or personal data in memory files: API keys and tokens, private keys, passwords, credentials
in URLs, JWTs; personal emails, phone numbers, card numbers, IBANs, SSNs, public IP addresses.

Passing: ``content: the deploy key lives in the vault under ci/deploy``.

Failing: ``content: deploy with AKIA…`` (an AWS access key id), and a file or folder whose name holds one
(the report prints that path redacted). The value is never printed: findings show
it redacted, with a hash to put in ``memory_schema.secrets.allowlist`` for a false positive; an inline
``# loa: ignore[secret]`` (or ``pragma: allowlist secret``) on the line also accepts it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity
from loa_memory.store import yamlio
from loa_memory.store.cache.chunks import Change
from loa_memory.store.cache.disk import read_cache, source_fingerprint, write_cache
from loa_memory.store.parse import item_hash

ID = "secret"
SEVERITY: Severity = "error"
_CACHE = "secrets.marshal"
_WHOLE_FILE = 50  # with more unscanned items than this, one scan of the whole file is cheaper


def check(ctx: LintContext) -> Iterator[Finding]:
    settings = ctx.config.secrets
    if settings.enabled is False:
        return
    from loa_memory.secrets import scan_text

    allow = frozenset(settings.allowlist or ())
    pii = bool(settings.pii)
    cache_path = ctx.config.local_dir / "cache" / _CACHE
    key = f"{pii}-{_scanner_fingerprint()}"
    cached_files, cached_items = _read_cache(cache_path, key)
    files: dict[str, Any] = {}
    items: dict[str, list[Any]] = {}
    for mf in ctx.grimoire.files:
        if ctx.focus is not None and mf.rel not in ctx.focus:
            if mf.rel in cached_files:
                files[mf.rel] = cached_files[mf.rel]
            continue
        try:
            stat = mf.path.stat()
        except OSError:
            continue
        signature = [stat.st_size, stat.st_mtime_ns]
        known = cached_files.get(mf.rel)
        change = ctx.grimoire.changes.get(mf.rel)
        if known is not None and known[0] == signature:
            hits = known[1]
        elif known is not None and change is not None and tuple(known[0]) == change.before:
            hits = _patched(known[1], change, cached_items, items, scan_text)
        else:
            text = ctx.grimoire.texts.get(mf.rel) or mf.path.read_text("utf-8", errors="replace")
            hits = _text_hits(text, mf.category.kind != "markdown", ctx.grimoire.splits.get(mf.rel),
                              [item[0] for item in ctx.grimoire.items.get(mf.rel, ())], cached_items, items, scan_text)
        files[mf.rel] = (signature, hits)
        for line, col, description, redacted, value_hash in hits:
            if value_hash not in allow:
                yield Finding(mf.rel, line, col, SEVERITY, ID,
                              f"{description} {redacted} (allowlist hash {value_hash[:16]}…)",
                              extra={"hash": value_hash})
        yield from _name_findings(mf.rel, allow, pii)
    if files != cached_files:
        _write_cache(cache_path, key, files, {**cached_items, **items} if len(cached_items) < 200_000 else items)


def _name_findings(rel: str, allow: frozenset[str], pii: bool) -> Iterator[Finding]:
    """A secret in the file's or a folder's name: committed and listed like the text (the engine prints the
    path redacted)."""
    from loa_memory.secrets.redact import name_hits

    for part in rel.split("/"):
        for hit in name_hits(part):
            if hit.digest not in allow and (pii or not hit.pii):
                yield Finding(rel, 1, 1, SEVERITY, ID, f"the file's path holds a {hit.description} {hit.redacted}: "
                              f"rename it (allowlist hash {hit.digest[:16]}…)", extra={"hash": hit.digest})
                return


def _text_hits(text: str, is_list: bool, cut: list[yamlio.Item] | None, digests: list[str],
               cached: dict[str, list[Any]], fresh: dict[str, list[Any]], scan_text: Any) -> list[Any]:
    """The hits in ``text`` (lines counted from its start), scanning only the pieces not in ``cached``;
    every piece's hits go to ``fresh``."""
    pieces, keys = _pieces(text, is_list, cut, digests)
    missing = [n for n, key in enumerate(keys) if key not in cached]
    if len(missing) > _WHOLE_FILE:
        found_by_piece = _scan_whole(text, [line for _, _, line in pieces], scan_text)
    else:
        found_by_piece = {n: [(h.line, h.col, h.description, h.redacted, h.digest)
                              for h in scan_text(text[pieces[n][0]:pieces[n][1]])] for n in missing}
    hits: list[Any] = []
    for n, ((_start, _end, offset), key) in enumerate(zip(pieces, keys, strict=True)):
        found = cached[key] if n not in found_by_piece else found_by_piece[n]
        fresh[key] = found
        hits.extend((offset + line, *rest) for line, *rest in found)
    return hits


def _patched(hits: list[Any], change: Change, cached: dict[str, list[Any]], fresh: dict[str, list[Any]],
             scan_text: Any) -> list[Any]:
    """A file's hits after an edit the loader has located: hits outside the changed lines are kept (those
    after it moved by the change in lines), the changed text is scanned again."""
    first, after = change.line + 1, change.line + change.old_lines + 1
    shift = change.text.count("\n") - change.old_lines
    cut = [yamlio.Item(item.text, item.line - change.line, item.start, item.end) for item in change.items]
    inside = _text_hits(change.text, True, cut, change.digests, cached, fresh, scan_text)
    return [hit for hit in hits if hit[0] < first] + [(line + change.line, *rest) for line, *rest in inside] + \
        [(hit[0] + shift, *hit[1:]) for hit in hits if hit[0] >= after]


def _pieces(text: str, is_list: bool, items: list[yamlio.Item] | None = None,
            known: list[str] | None = None) -> tuple[list[tuple[int, int, int]], list[str]]:
    """The file cut at item starts into pieces (start, end, line) that together cover every byte (header
    and trivia too), and a content key for each piece.

    ``items`` is the loader's cut of the same text, when it made one this run, and ``known`` its item
    hashes: a piece is its item's text plus trailing blank lines and comments, so its key is the
    item's hash plus the hash of that tail, and a 10,000-item file is not hashed a second time.
    """
    if items is None and is_list:
        items = yamlio.split_items(text).items
    if not is_list or not items:
        return [(0, len(text), 0)], [item_hash(text)]
    reuse = known if known is not None and len(known) == len(items) and all(known) else None
    pieces = [(0, items[0].start, 0)] if items[0].start else []
    keys = [item_hash(text[: items[0].start])] if pieces else []
    bounds = [item.start for item in items] + [len(text)]
    for n, item in enumerate(items):
        start, end = bounds[n], bounds[n + 1]
        tail = text[item.end:end]
        head = reuse[n] if reuse is not None else item_hash(item.text)
        keys.append(f"{head}+{item_hash(tail) if tail.strip() else len(tail)}")
        pieces.append((start, end, item.line))
    return pieces, keys


def _scan_whole(text: str, starts: list[int], scan_text: Any) -> dict[int, list[Any]]:
    """Scan a file once and hand each hit to the item it falls in (lines relative to the item)."""
    import bisect

    by_piece: dict[int, list[Any]] = {n: [] for n in range(len(starts))}
    for hit in scan_text(text):
        n = max(bisect.bisect_right(starts, hit.line - 1) - 1, 0)
        by_piece[n].append((hit.line - starts[n], hit.col, hit.description, hit.redacted, hit.digest))
    return by_piece


def _scanner_fingerprint() -> str:
    from loa_memory import secrets

    return source_fingerprint(sorted(Path(secrets.__file__).parent.glob("*.py")))


def _read_cache(path: Path, key: str) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    data = read_cache(path)
    if not isinstance(data, dict) or data.get("key") != key:
        return {}, {}
    return data.get("files", {}), data.get("items", {})


def _write_cache(path: Path, key: str, files: dict[str, Any], items: dict[str, list[Any]]) -> None:
    write_cache(path, {"key": key, "files": files, "items": items})
