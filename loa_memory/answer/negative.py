"""Negative results: "why didn't we use X", "why not the other way".

A question asks about the road not taken when it says *why not*, *why didn't/don't we*, *instead (of)*,
*rather than*, *the other way*, *abandoned* or *rejected*. Its subject words are what remains after
question words and common verbs. Two kinds of memory answer it, in this order:

1. negative results: entries with ``attempted`` (what was tried and abandoned), ``failure_reason`` and
   ``led_to`` (the memory of what was done instead) whose ``attempted`` or summary names a subject word;
2. decisions whose rejected ``alternatives`` name a subject word in their ``option``.

Matching is by whole word, case-insensitively, a plural ``s`` aside.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from loa_memory.model import Entry

_NEGATIVE = re.compile(
    r"\bwhy\s+(?:not|no|didn'?t|did\s+not|don'?t|do\s+not|doesn'?t|does\s+not|aren'?t|isn'?t|wasn'?t|weren'?t|"
    r"haven'?t|hasn'?t|won'?t|stop(?:ped)?|drop(?:ped)?)\b|\binstead\b|\brather\s+than\b|\bother\s+way\b|"
    r"\babandon\w*|\bgave\s+up\b|\breject\w*|\bwhat\s+(?:else\s+)?did\s+we\s+try\b", re.I)
_WORD = re.compile(r"[a-z0-9][a-z0-9_.+#'-]*[a-z0-9+#]|[a-z0-9]", re.I)
_QUESTION_WORDS = frozenset(
    "why not no didn't didnt did don't dont do does doesn't doesnt aren't arent isn't isnt wasn't wasnt weren't "
    "werent haven't havent hasn't hasnt won't wont we us our you they it its this that these those the a an of "
    "to for in on at by with and or is are was were be been use used using go went choose chose chosen pick "
    "picked take took instead rather than other way approach option options try tried abandon abandoned gave "
    "give up reject rejected what else which how about from stop stopped drop dropped keep kept here there "
    "anymore any more just around before after first ever still".split())


def is_negative_question(text: str) -> bool:
    return bool(_NEGATIVE.search(text.replace("’", "'")))


def subject_words(question: str) -> list[str]:
    """The words of a question that name its subject (``redis`` in "why didn't we use redis?")."""
    words = [w.lower().strip(".") for w in _WORD.findall(question.replace("’", "'"))]
    return list(dict.fromkeys(w for w in words if w and w not in _QUESTION_WORDS and len(w) > 1))


@functools.cache
def _pattern(word: str) -> re.Pattern[str]:
    stem = word[:-1] if len(word) > 4 and word.endswith("s") else word
    return re.compile(rf"(?<![a-z0-9]){re.escape(stem)}(?:s|es)?(?![a-z0-9])", re.I)


def _names(text: str, words: list[str]) -> bool:
    return any(_pattern(word).search(text) for word in words)


@dataclass(frozen=True)
class NegativeMatch:
    """Why an entry answers a negative question: ``kind`` is ``negative`` or ``alternative``."""

    kind: str
    text: str
    detail: dict[str, str]


def negative_match(entry: Entry, words: list[str]) -> NegativeMatch | None:
    """How ``entry`` answers a question about ``words`` not taken, if it does."""
    data = entry.data
    attempted = str(data.get("attempted") or "")
    if (attempted or data.get("failure_reason")) and words and _names(f"{attempted} {entry.summary}", words):
        failed = f": {data['failure_reason']}" if data.get("failure_reason") else ""
        return NegativeMatch("negative", f"tried {attempted or entry.summary} and abandoned it{failed}",
                             {"attempted": attempted})
    for alternative in data.get("alternatives") or []:
        if not isinstance(alternative, dict):
            continue
        option = str(alternative.get("option") or "")
        because = str(alternative.get("rejected_because") or "")
        if words and _names(option, words):
            text = f"rejected alternative {option}" + (f": {because}" if because else "")
            return NegativeMatch("alternative", text, {"option": option})
    return None
