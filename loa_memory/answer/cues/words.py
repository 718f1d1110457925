"""The words a tool call shares with each memory: identifiers split the way code is written, weighted by how rare
they are in the grimoire.

A guarded call rarely repeats a correction's prose, but it names the same things: ``read_csv`` and ``dtype``,
``targetSdk``, ``pull_request_target``, ``--delete``. Splitting identifiers (``readCsv`` and ``read_csv`` both give
``read`` and ``csv``) and weighting each shared word by its inverse document frequency gives a lexical relevance
that, turned into deviations from the call's typical memory like the cosine is, adds what the embedder of a
diff misses (``match.py``).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from loa_memory.answer.typical import Baseline
from loa_memory.model import Entry
from loa_memory.store.load import Grimoire

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*")
_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_STOP = frozenset(
    "the and for with that this from into when then than not are was were have has had you your our its use used "
    "using only also all any but can will would should must each every out off get set new old one two per via "
    "make made just more most".split())
_FIELDS = ("summary", "content", "trigger", "triggers", "lesson", "tags", "artifacts", "applies_to")
WORDS_TRUST = 20  # memories at which names count half their weight
WORDS_PRIOR = (0.3, 0.4, 20)  # mean and deviation of a typical memory's shared-word score, worth this many memories


def words(text: str) -> frozenset[str]:
    """The lower-cased words of ``text`` and of its identifiers' parts (``readCsv`` → readcsv, read, csv), three
    letters or more, common English words left out."""
    found: set[str] = set()
    for identifier in _IDENTIFIER.findall(text):
        found.update(_pieces(identifier))
    return frozenset(found)


@functools.lru_cache(maxsize=65536)  # the same identifiers recur across memories and calls
def _pieces(identifier: str) -> tuple[str, ...]:
    pieces = [identifier, *re.split(r"[_.-]", identifier)]
    for piece in list(pieces):
        pieces += _PARTS.findall(piece)
    lowered = {p.lower() for p in pieces}
    return tuple(w for w in lowered if len(w) >= 3 and w not in _STOP)


def entry_text(entry: Entry) -> str:
    """The fields of a memory a tool call can share names with."""
    parts: list[str] = []
    for name in _FIELDS:
        value = entry.data.get(name)
        if isinstance(value, list):
            parts += [str(v) for v in value]
        elif value is not None:
            parts.append(str(value))
    return " ".join(parts)


@dataclass(frozen=True)
class WordTable:
    """Each memory's words (by index key) and each word's inverse document frequency, divided by that of a word
    no memory has (so a score means the same in a small grimoire as in a large one)."""

    words: dict[str, frozenset[str]]
    idf: dict[str, float]

    def overlap(self, found: frozenset[str]) -> dict[str, float]:
        """Each memory's relevance to ``found``: the summed rarity of the words they share."""
        idf = self.idf
        return {key: sum(idf[w] for w in found & mine) for key, mine in self.words.items()}


def word_table(grimoire: Grimoire) -> WordTable:
    """The grimoire's word table, built once per loaded grimoire."""
    table: WordTable | None = grimoire.derived.get("cue-words")
    if table is None:
        table = build_table(grimoire.keyed.items())
        grimoire.derived["cue-words"] = table
    return table


def build_table(entries: Iterable[tuple[str, Entry]]) -> WordTable:
    table = {key: words(entry_text(entry)) for key, entry in entries}
    frequency: Counter[str] = Counter()
    for found in table.values():
        frequency.update(found)
    total = len(table)
    scale = math.log(total + 1) or 1.0  # rarity in units of the rarest word's: comparable between grimoire sizes
    return WordTable(table, {w: math.log((total + 1) / (n + 0.5)) / scale for w, n in frequency.items()})


@dataclass(frozen=True)
class SharedNames:
    """The names a text shares with each memory (by index key) as deviations from a typical memory's, and how far
    they can be trusted: among ``n`` memories, ``n / (n + WORDS_TRUST)`` (how rare a word is says little among a
    few)."""

    overlap: dict[str, float]
    baseline: Baseline
    trust: float

    def deviations(self, key: str, leaving_out: Iterable[str] = ()) -> float:
        """How far ``key``'s shared names stand above a typical memory's, ``leaving_out`` some memories of the
        typical (a correction's own episodes)."""
        mean, deviation = self.baseline.without(leaving_out)
        return (self.overlap.get(key, 0.0) - mean) / deviation


def shared_names(grimoire: Grimoire, text: str) -> SharedNames:
    """What ``text`` (a task, a tool call) shares in names with each memory of ``grimoire``."""
    overlap = word_table(grimoire).overlap(words(text))
    return SharedNames(overlap, Baseline(overlap, WORDS_PRIOR), len(overlap) / (len(overlap) + WORDS_TRUST))
