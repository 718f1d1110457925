"""The public API: hit fields, positions, redaction, digests, allowlists, nested values, refusal."""

from __future__ import annotations

import hashlib

import pytest

from loa_memory.errors import SecretRefused
from loa_memory.secrets import (
    SecretHit,
    description_by_kind,
    ensure_no_secrets,
    format_hit,
    scan_fields,
    scan_text,
    scan_value,
)

TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"  # synthetic, right shape
PASSWORD = "Tr0ub4dor&3x"


def test_hit_fields_and_position() -> None:
    text = f"first line\n  token: {TOKEN}\n"
    [hit] = scan_text(text)
    assert hit == SecretHit(kind="github-token", description="GitHub token", line=2, col=10,
                            redacted="ghp_****(40 chars)", digest=hashlib.sha256(TOKEN.encode()).hexdigest(),
                            pii=False)


@pytest.mark.parametrize("text", [
    f"token {TOKEN}", f"password: {PASSWORD}", f"postgres://app:{PASSWORD}@db.acme.io/app",
    "jane.doe@gmail.com", "card 4539 1488 0343 6467", "+44 20 7946 0958",
])
def test_redacted_never_contains_the_value(text: str) -> None:
    [hit] = scan_text(text)
    assert TOKEN not in hit.redacted and PASSWORD not in hit.redacted
    assert "jane.doe" not in hit.redacted and "0343" not in hit.redacted and "7946" not in hit.redacted
    assert TOKEN not in format_hit(hit, "facts.yaml")


def test_allowlist_by_digest() -> None:
    [hit] = scan_text(f"password: {PASSWORD}")
    assert scan_text(f"password: {PASSWORD}", allowlist={hit.digest}) == []
    assert scan_text(f"other password: {PASSWORD}x", allowlist={hit.digest}) != []


@pytest.mark.parametrize("line", [
    f"password: {PASSWORD}  # loa: allow-secret",
    f"password: {PASSWORD}  # pragma: allowlist secret",
    f"# pragma: allowlist nextline secret\npassword: {PASSWORD}",
])
def test_inline_pragmas(line: str) -> None:
    assert scan_text(line) == []


def test_pragma_applies_only_to_its_line() -> None:
    hits = scan_text(f"password: {PASSWORD}  # loa: allow-secret\npassword: {PASSWORD}")
    assert [h.line for h in hits] == [2]


def test_include_pii_false_skips_personal_data() -> None:
    text = f"jane.doe@gmail.com and {TOKEN}"
    assert {h.kind for h in scan_text(text)} == {"email", "github-token"}
    assert {h.kind for h in scan_text(text, include_pii=False)} == {"github-token"}
    assert [h.pii for h in scan_text(text)] == [True, False]


def test_scan_fields_gives_key_context_and_paths() -> None:
    entry = {"id": "MEM-20260201-001", "content": "Deploy notes", "source": {"password": PASSWORD},
             "alternatives": [{"option": "SQLite", "rejected_because": f"ask jane.doe@gmail.com, {TOKEN}"}]}
    found = scan_fields(entry)
    assert [(p, h.kind) for p, h in found] == [
        ("source.password", "password"), ("alternatives[0].rejected_because", "email"),
        ("alternatives[0].rejected_because", "github-token")]
    assert found[0][1].col == 1
    assert all(h.line == 0 and h.col == 0 for h in scan_value(entry))


def test_ensure_no_secrets_refuses_without_leaking() -> None:
    with pytest.raises(SecretRefused) as exc:
        ensure_no_secrets(f"summary: x\ncontent: token {TOKEN}", path="facts.yaml", line_offset=10)
    message = str(exc.value)
    assert TOKEN not in message
    assert "GitHub" in message and "at line 12" in message
    assert (exc.value.path, exc.value.line, exc.value.col, exc.value.exit_code) == ("facts.yaml", 12, 16, 1)
    ensure_no_secrets("nothing to see", path="facts.yaml")


def test_every_kind_has_a_description() -> None:
    kinds = description_by_kind()
    assert {"private-key", "password", "generic-secret", "email", "aws-secret-access-key"} <= set(kinds)
    assert all(kinds.values())


def test_empty_and_plain_text() -> None:
    assert scan_text("") == []
    assert scan_text("Use PostgreSQL for the database layer due to JSONB support.") == []
