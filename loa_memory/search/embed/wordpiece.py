"""BERT uncased tokenisation in pure Python: the basic tokenizer, then greedy WordPiece.

It reproduces ``BertTokenizer(do_lower_case=True)`` (and the ``tokenizers`` BertWordPiece
pipeline) for the ids a sentence encoder needs: text is cleaned, CJK characters are split
out, lowercased, accents stripped, split on whitespace and punctuation, and each word is cut
into the longest vocabulary pieces, ``##`` marking a continuation.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_MAX_WORD_CHARS = 100


class WordPiece:
    """A tokenizer over a BERT vocabulary (one token a line, line number = id).

    ``cls`` and ``sep`` name the tokens that open and close a sequence (MPNet's are ``<s>`` and ``</s>``).
    """

    def __init__(self, vocab: Iterable[str], *, cls: str = "[CLS]", sep: str = "[SEP]") -> None:
        self.vocab: dict[str, int] = {tok: i for i, tok in enumerate(vocab)}
        self.cls_id = self.vocab[cls]
        self.sep_id = self.vocab[sep]
        self.unk_id = self.vocab["[UNK]"]
        self._word_ids = lru_cache(maxsize=65536)(self._pieces)

    def encode(self, text: str, max_tokens: int) -> list[int]:
        """``[CLS] pieces… [SEP]``, truncated so the whole has at most ``max_tokens`` ids."""
        budget = max_tokens - 2
        ids = [self.cls_id]
        for word in basic_tokenize(text):
            ids.extend(self._word_ids(word))
            if len(ids) > budget:
                del ids[budget + 1:]
                break
        ids.append(self.sep_id)
        return ids

    def tokenize(self, text: str) -> list[str]:
        """The word pieces of ``text`` as strings (for tests and debugging)."""
        by_id = {i: t for t, i in self.vocab.items()}
        return [by_id[i] for w in basic_tokenize(text) for i in self._word_ids(w)]

    def _pieces(self, word: str) -> tuple[int, ...]:
        if len(word) > _MAX_WORD_CHARS:
            return (self.unk_id,)
        vocab = self.vocab
        out: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = -1
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = vocab.get(piece, -1)
                if found >= 0:
                    break
                end -= 1
            if found < 0:
                return (self.unk_id,)
            out.append(found)
            start = end
        return tuple(out)


def basic_tokenize(text: str) -> list[str]:
    """Clean, lowercase, strip accents and split ``text`` into words and punctuation marks."""
    if text.isascii():
        return _split_ascii(text.translate(_ASCII_DROP).lower())
    words: list[str] = []
    for chunk in _clean(text).split():
        chunk = unicodedata.normalize("NFD", chunk.lower())
        chunk = "".join(c for c in chunk if unicodedata.category(c) != "Mn")
        words.extend(_split_punct(chunk))
    return words


_ASCII_PUNCT = frozenset(chr(c) for c in range(128)
                         if 33 <= c <= 47 or 58 <= c <= 64 or 91 <= c <= 96 or 123 <= c <= 126)
_ASCII_DROP = {c: None for c in [*range(9), 11, 12, *range(14, 32), 127]}


def _split_ascii(text: str) -> list[str]:
    words: list[str] = []
    for chunk in text.split():
        if _ASCII_PUNCT.isdisjoint(chunk):
            words.append(chunk)
        else:
            words.extend(_split_punct(chunk))
    return words


def _clean(text: str) -> str:
    out: list[str] = []
    for c in text:
        cp = ord(c)
        if cp == 0 or cp == 0xFFFD or _is_control(c):
            continue
        if c.isspace() or unicodedata.category(c) == "Zs":
            out.append(" ")
        elif _is_cjk(cp):
            out.append(f" {c} ")
        else:
            out.append(c)
    return "".join(out)


def _split_punct(word: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    for c in word:
        if _is_punct(c):
            if current:
                parts.append("".join(current))
                current = []
            parts.append(c)
        else:
            current.append(c)
    if current:
        parts.append("".join(current))
    return parts


def _is_punct(c: str) -> bool:
    return c in _ASCII_PUNCT or (not c.isascii() and unicodedata.category(c).startswith("P"))


def _is_control(c: str) -> bool:
    if c in "\t\n\r":
        return False
    return unicodedata.category(c) in ("Cc", "Cf")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)
