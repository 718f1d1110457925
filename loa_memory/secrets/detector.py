"""The shape every secret detector has: mostly data, a trigger pattern and an optional check.

Speed comes from the trigger: Python's ``re`` finds a pattern that starts with a literal
(``ghp_``, ``-----BEGIN``, ``@``) with a fast substring search, but tries a pattern that starts
with a character class at every position, which is 30-100 times slower on megabytes of YAML.
So a trigger starts with a literal, and runs on one of three views of the text (all with the
same offsets): the text itself, its lower-case form (keywords) or its digit shape, in which every
ASCII digit is ``0`` (numbers: ``000-00-0000`` is a literal).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Literal, NamedTuple

View = Literal["text", "lower", "digits"]

_DIGITS_TO_ZERO = str.maketrans("123456789", "000000000")


class Texts:
    """The scanned text and its derived views, each computed at most once."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def lower(self) -> str:
        low = self.text.lower()
        # A few characters (U+0130) lower-case to two; then offsets would drift, so fall back.
        return low if len(low) == len(self.text) else "".join(c.lower()[0] for c in self.text)

    @cached_property
    def digits(self) -> str:
        return self.text.translate(_DIGITS_TO_ZERO)

    def view(self, name: View) -> str:
        return self.text if name == "text" else self.lower if name == "lower" else self.digits

    def line_around(self, pos: int) -> str:
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        return self.text[start:end if end >= 0 else len(self.text)]


class Found(NamedTuple):
    """A secret a detector accepted: its kind and the span of its value in the text."""

    kind: str
    start: int
    end: int


# A check gets the trigger's match and the texts; it returns what was found, or None.
Check = Callable[[re.Match[str], Texts], "Found | None"]


@dataclass(frozen=True)
class Detector:
    """One kind of secret or personal data.

    Without a ``check``, the match's ``group`` is the value, and it is dropped when it is a
    placeholder or preceded by a letter or digit. ``show`` is how many leading characters of
    the value are a public vendor prefix that may be printed (``ghp_``, ``sk_live_``).
    ``random`` asks the part after that prefix to look generated (for short, weak prefixes).
    """

    kind: str
    description: str
    pattern: str
    view: View = "text"
    group: int = 0
    check: Check | None = None
    pii: bool = False
    show: int = 0
    random: bool = False
    # Lower numbers win when two detectors report overlapping spans: a GitHub token inside
    # ``token = ghp_...`` is a github-token, not a generic secret.
    priority: int = 10

    @property
    def regex(self) -> re.Pattern[str]:
        return compiled(self.pattern)


@cache
def compiled(pattern: str) -> re.Pattern[str]:
    """Compile once per process."""
    return re.compile(pattern)


def is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"
