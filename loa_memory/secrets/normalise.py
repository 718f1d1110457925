"""The text the detectors read: compatibility forms folded, invisible characters dropped, split tokens joined.

A secret hidden from a pattern is still a secret: ``ｇhp_…`` (fullwidth), ``ghp_12\u200b34…`` (a zero-width space) and
a token cut in two by a line break (a wrapped YAML block, a commit trailer's continuation line) are the same token
to anyone who reads the file. ``fold`` applies NFKC to every non-ASCII character and drops the zero-width ones
(also as the ``\\uFEFF`` escapes of a YAML or JSON string); ``join_lines`` joins the runs of token characters
that a line break cuts. Both keep a map back to the original offsets, so hits are reported where they are in
the text as written.
"""

from __future__ import annotations

import bisect
import re
import string
import unicodedata
from dataclasses import dataclass
from functools import cache

# Zero-width space, non-joiner, joiner, word joiner, BOM; soft hyphen and the Mongolian vowel separator too.
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e")


@dataclass(frozen=True)
class Mapped:
    """A derived text and, per segment, where it came from: ``starts[i]`` in ``text`` is ``origins[i]`` in the
    source; a ``linear`` segment is a copy, another one is what one source character became."""

    text: str
    starts: tuple[int, ...] = (0,)
    origins: tuple[int, ...] = (0,)
    linear: tuple[bool, ...] = (True,)

    def original(self, pos: int) -> int:
        """The source offset of ``text[pos]``."""
        i = bisect.bisect_right(self.starts, pos) - 1
        return self.origins[i] + (pos - self.starts[i] if self.linear[i] else 0)

    def original_end(self, end: int) -> int:
        """The source offset just after the span that ends at ``end`` in ``text``."""
        return self.original(end - 1) + 1 if end > 0 else 0

    @property
    def is_identity(self) -> bool:
        return len(self.starts) == 1


@cache
def _fold_char(c: str) -> str:
    return "" if c in ZERO_WIDTH else unicodedata.normalize("NFKC", c)


@cache
def _re_foldable() -> re.Pattern[str]:
    # A non-ASCII character, or a zero-width one as YAML and JSON escape it ("\uFEFF" in a double-quoted scalar).
    return re.compile(r"[^\x00-\x7f]|\\u(?:200[bcdBCD]|2060|[fF][eE][fF][fF]|00[aA][dD]|180[eE])|\\x[aA][dD]")


def fold(text: str) -> Mapped:
    """``text`` with every non-ASCII character in its NFKC form and zero-width characters removed."""
    if text.isascii() and "\\" not in text:
        return Mapped(text)
    out: list[str] = []
    starts, origins, linear = [0], [0], [True]
    done = n = 0  # source offset copied so far; length of the output so far
    for m in _re_foldable().finditer(text):
        i, end = m.span()
        folded = _fold_char(text[i]) if end == i + 1 else ""
        if folded == text[i:end]:
            continue
        out.append(text[done:i])
        n += i - done
        if folded:
            starts.append(n)
            origins.append(i)
            linear.append(False)
            out.append(folded)
            n += len(folded)
        starts.append(n)
        origins.append(end)
        linear.append(True)
        done = end
    if done == 0:
        return Mapped(text)
    out.append(text[done:])
    return Mapped("".join(out), tuple(starts), tuple(origins), tuple(linear))


_TOKEN_CHARS = "A-Za-z0-9_+/=.~-"
_TOKEN_SET = "".join(sorted(set(string.ascii_letters + string.digits + "_+/=.~-")))
_MAX_RUN = 400  # longer than any token a split detector reports


@cache
def _re_break() -> re.Pattern[str]:
    # A line break, with the next line's indentation and a quote or trailer continuation marker, before a token
    # character. It starts with a literal, which ``re`` finds fast; the character before is checked by hand.
    return re.compile(rf"\n[ \t]*(?:> ?)?(?=[{_TOKEN_CHARS}])")


@cache
def _re_escaped_break() -> re.Pattern[str]:
    # The same, escaped inside a JSON or YAML string.
    return re.compile(rf"\\n[ \t]*(?:> ?)?(?=[{_TOKEN_CHARS}])")


def _breaks(text: str) -> list[tuple[int, int]]:
    """(start, end) of every break between two token characters (the ``\\r`` of a CRLF counts as the break)."""
    found = [
        (m.start() - 1 if m.start() and text[m.start() - 1] == "\r" else m.start(), m.end())
        for m in _re_break().finditer(text)
    ]
    if "\\n" in text:
        found = sorted(found + [m.span() for m in _re_escaped_break().finditer(text)])
    return [(start, end) for start, end in found if start and text[start - 1] in _TOKEN_SET]


@cache
def _re_head() -> re.Pattern[str]:
    return re.compile(rf"[{_TOKEN_CHARS}]+")


def _could_be_token(run: str) -> bool:
    # Two words wrapped at a line end ("permanent" / "tags") make no token; a split one has its length and a
    # digit or separator.
    return len(run) >= 16 and any(c.isdigit() or c in "_-+/=" for c in run)


def join_lines(text: str) -> Mapped | None:
    """The runs of token characters that a line break cuts in two, each with its breaks removed, one after the
    other (a space between two), or None when there are none. Only what a token cut by a line could be is kept,
    so the detectors that read it scan a few lines, not the whole text again."""
    out: list[str] = []
    starts: list[int] = []
    origins: list[int] = []
    linear: list[bool] = []
    n = 0
    chain_end = -1  # where the last candidate's head run ended in the source
    for break_start, break_end in _breaks(text):
        head = _re_head().match(text, break_end, break_end + _MAX_RUN)
        if head is None:
            continue
        window = text[max(0, break_start - _MAX_RUN) : break_start]
        tail = window[len(window.rstrip(_TOKEN_SET)) :]
        tail_start = break_start - len(tail)
        continuing = break_start == chain_end  # the previous head run is this break's tail: one candidate
        if not continuing and not _could_be_token(tail + head.group(0)):
            continue
        if not continuing:  # a new candidate: its tail run first
            if out:
                starts.append(n)
                origins.append(chain_end)
                linear.append(False)
                out.append(" ")
                n += 1
            starts.append(n)
            origins.append(tail_start)
            linear.append(True)
            out.append(tail)
            n += len(tail)
        starts.append(n)
        origins.append(break_end)
        linear.append(True)
        out.append(head.group(0))
        n += len(head.group(0))
        chain_end = head.end()
    if not out:
        return None
    return Mapped("".join(out), tuple(starts), tuple(origins), tuple(linear))
