"""Properties over generated inputs: ids and digests are never secrets; valid cards and IBANs always are."""

from __future__ import annotations

import random
import uuid

from hypothesis import example, given, settings
from hypothesis import strategies as st

from loa_memory.secrets import scan_text
from loa_memory.secrets.values import PUBLISHED_TEST_CARDS

hexes = st.text("0123456789abcdef", min_size=7, max_size=64)


@given(st.sampled_from([7, 12, 40, 64]).flatmap(lambda n: st.text("0123456789abcdef", min_size=n,
                                                                  max_size=n)))
def test_git_shas_and_digests_are_never_flagged(sha: str) -> None:
    for text in (sha, f"commit {sha}", f"sha256:{sha}", f"Fixed in {sha}.", f"commit: {sha}"):
        assert scan_text(text) == []


@given(st.integers(min_value=0, max_value=2**128 - 1))
def test_uuids_are_never_flagged(n: int) -> None:
    u = uuid.UUID(int=n)
    assert scan_text(f"request_id: {u}  run {u.hex}") == []


@given(st.text("0123456789ABCDEFGHJKMNPQRSTVWXYZ", min_size=24, max_size=24))
def test_ulids_are_never_flagged(body: str) -> None:
    assert scan_text(f"id: 01{body}") == []


@given(st.dates(), st.integers(0, 9999), st.integers(0, 999))
def test_memory_ids_dates_and_versions_are_never_flagged(d: object, seq: int, minor: int) -> None:
    assert scan_text(f"MEM-{d:%Y%m%d}-{seq:03d} on {d} version {seq}.{minor}.1") == []  # type: ignore[str-format]


def _luhn_complete(partial: str) -> str:
    for check in "0123456789":
        digits = partial + check
        total = 0
        for i, ch in enumerate(reversed(digits)):
            d = int(ch)
            if i % 2:
                d = d * 2 - 9 if d > 4 else d * 2
            total += d
        if total % 10 == 0:
            return digits
    raise AssertionError


@settings(max_examples=200)
@given(st.sampled_from(["4", "51", "55", "2221", "6011", "34", "37"]), st.data(), st.sampled_from(["", " ",
                                                                                                   "-"]))
def test_luhn_valid_cards_are_flagged(prefix: str, data: st.DataObject, sep: str) -> None:
    length = 15 if prefix in ("34", "37") else 16
    body = data.draw(st.text("0123456789", min_size=length - len(prefix) - 1,
                                                                 max_size=length - len(prefix) - 1))
    card = _luhn_complete(prefix + body)
    if len(set(card)) < 4 or card in PUBLISHED_TEST_CARDS:
        return  # a processor's published test card is not flagged, on purpose
    groups = [card[:4], card[4:10], card[10:]] if length == 15 else [card[i:i + 4] for i in range(0, 16, 4)]
    text = f"Customer card {sep.join(groups)} was declined"
    hits = scan_text(text)
    assert [h.kind for h in hits] == ["credit-card"], text
    assert card[:6] not in hits[0].redacted


@given(st.sampled_from([("DE", 18, False), ("FR", 23, False), ("GB", 18, True), ("NL", 14, True)]), st.data())
def test_valid_ibans_are_flagged(spec: tuple[str, int, bool], data: st.DataObject) -> None:
    country, n, letters = spec
    bank = data.draw(st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=4, max_size=4)) if letters else ""
    bban = bank + data.draw(st.text("0123456789", min_size=n - len(bank), max_size=n - len(bank)))
    check = 98 - int("".join(str(int(c, 36)) for c in bban + country + "00")) % 97
    iban = f"{country}{check:02d}{bban}"
    if len(set(bban)) < 3:
        return
    assert [h.kind for h in scan_text(f"Pay to {iban} today")] == ["iban"]


@given(st.text(st.characters(codec="utf-8"), max_size=300))
def test_arbitrary_text_never_crashes_and_never_leaks(text: str) -> None:
    for hit in scan_text(text):
        assert hit.line >= 1 and hit.col >= 1
        assert len(hit.digest) == 64


def _b64url(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@settings(max_examples=100)
@given(st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", min_size=8, max_size=30),
       st.integers(0, 400), st.sampled_from([43, 86, 342]))
def test_jwts_of_any_size_are_flagged(kid: str, pad: int, sig_len: int) -> None:
    # Long tokens use only the 64-letter base64url alphabet: never mistake them for a "mask".
    header = _b64url(f'{{"alg":"RS256","typ":"JWT","kid":"{kid}"}}'.encode())
    claims = _b64url(f'{{"sub":"usr_4k2q","scope":"{"a" * pad}read","iat":1717000000}}'.encode())
    sig = ("Zq8fK2mP9xL4vT7bN1cR6yW3dH5jS0gE2kA8uQ4z-_" * 9)[:sig_len]
    assert [h.kind for h in scan_text(f"--token={header}.{claims}.{sig}")] == ["jwt"]


@settings(max_examples=200)
@given(st.integers(0, 2**32))
@example(4509829)  # a key with no digit: found by hypothesis, missed before values.looks_random counted symbols
def test_django_secret_keys_are_flagged(seed: int) -> None:
    # Uniformly random (hypothesis' own randoms shrink to "aaaa..."), in Django's get_random_secret_key()
    # alphabet less "$(", which can read as a shell substitution.
    rnd = random.Random(seed)
    key = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789!@#%^&*-_=+)") for _ in range(50))
    # Any kind: "...&pw=b@g..." inside the key can read as a password assignment, which still refuses it.
    assert scan_text(f"SECRET_KEY = '{key}'")



def test_a_django_key_holding_three_asterisks_is_not_a_mask() -> None:
    # found by hypothesis (seed 16536): "***" inside a random key read as a masked value
    assert scan_text("SECRET_KEY = 'bynw#dj2g-el*##s@)rq91=_!8iy17ih8n3rk@l+hq9p3***i)'")
    assert not scan_text("HF_TOKEN=hf_***") and not scan_text("AWS key AKIA************ABCD flagged, revoked")
