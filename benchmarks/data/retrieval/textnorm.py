"""Tokenising, stop words and a Porter (1980) stemmer, used by check.py.

Self-contained so the benchmark check needs no third-party NLP package.
"""
from __future__ import annotations

import re

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are aren't as at be because been before being below
    between both but by can cannot could couldn't did didn't do does doesn't doing don't down during each else even
    ever every few for from further get gets getting got had hadn't has hasn't have haven't having he her here hers
    herself him himself his how however i if in into is isn't it it's its itself just let like may me might more most
    must mustn't my myself need needs no nor not now of off on once one only or other others ought our ours ourselves
    out over own per rather same shall she should shouldn't so some such than that that's the their theirs them
    themselves then there there's these they this those though through thus to too under until up upon us use used
    uses using very via was wasn't we we'd we'll we're we've were weren't what what's when where which while who whom
    whose why will with within without won't would wouldn't yet you your yours yourself yourselves etc e.g i.e vs
    instead still really thing things way ways something anything make makes made want wants do done go goes going
    new lot lots kind sort stuff ok okay again already back""".split()
)

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def content_stems(text: str) -> set[str]:
    out = set()
    for t in tokens(text):
        if t in STOPWORDS or len(t) < 2:
            continue
        t = t.split("'")[0]
        if t in STOPWORDS or len(t) < 2:
            continue
        out.add(stem(t))
    return out


# ---- Porter stemmer --------------------------------------------------------

def _cons(w: str, i: int) -> bool:
    c = w[i]
    if c in "aeiou":
        return False
    if c == "y":
        return i == 0 or not _cons(w, i - 1)
    return True


def _m(stem_: str) -> int:
    n, i, L = 0, 0, len(stem_)
    while i < L and _cons(stem_, i):
        i += 1
    while i < L:
        while i < L and not _cons(stem_, i):
            i += 1
        if i >= L:
            break
        n += 1
        while i < L and _cons(stem_, i):
            i += 1
    return n


def _has_vowel(s: str) -> bool:
    return any(not _cons(s, i) for i in range(len(s)))


def _double_cons(s: str) -> bool:
    return len(s) >= 2 and s[-1] == s[-2] and _cons(s, len(s) - 1)


def _cvc(s: str) -> bool:
    if len(s) < 3:
        return False
    return _cons(s, len(s) - 3) and not _cons(s, len(s) - 2) and _cons(s, len(s) - 1) and s[-1] not in "wxy"


def _replace(w: str, rules, cond) -> str:
    for suf, rep in rules:
        if w.endswith(suf):
            base = w[: len(w) - len(suf)]
            return base + rep if cond(base) else w
    return w


_S2 = [("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"), ("bli", "ble"),
       ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"),
       ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"),
       ("iviti", "ive"), ("biliti", "ble"), ("logi", "log")]
_S3 = [("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""), ("ness", "")]
_S4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate",
       "iti", "ous", "ive", "ize"]


def stem(w: str) -> str:
    if len(w) <= 2:
        return w
    # 1a
    if w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("ies"):
        w = w[:-2]
    elif w.endswith("ss"):
        pass
    elif w.endswith("s"):
        w = w[:-1]
    # 1b
    flag = False
    if w.endswith("eed"):
        if _m(w[:-3]) > 0:
            w = w[:-1]
    elif w.endswith("ed") and _has_vowel(w[:-2]):
        w, flag = w[:-2], True
    elif w.endswith("ing") and _has_vowel(w[:-3]):
        w, flag = w[:-3], True
    if flag:
        if w.endswith(("at", "bl", "iz")):
            w += "e"
        elif _double_cons(w) and w[-1] not in "lsz":
            w = w[:-1]
        elif _m(w) == 1 and _cvc(w):
            w += "e"
    # 1c
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    w = _replace(w, _S2, lambda b: _m(b) > 0)
    w = _replace(w, _S3, lambda b: _m(b) > 0)
    for suf in sorted(_S4, key=len, reverse=True):
        if w.endswith(suf):
            base = w[: len(w) - len(suf)]
            if _m(base) > 1 and (suf != "ion" or base.endswith(("s", "t"))):
                w = base
            break
    # 5
    if w.endswith("e"):
        base = w[:-1]
        if _m(base) > 1 or (_m(base) == 1 and not _cvc(base)):
            w = base
    if _m(w) > 1 and _double_cons(w) and w.endswith("l"):
        w = w[:-1]
    return w


def norm_stem(w: str) -> str:
    s = stem(w)
    return s[:-1] + "y" if s.endswith("i") and len(s) > 3 else s


def stems_of(text: str) -> set[str]:
    return {norm_stem(t) for t in (x.split("'")[0] for x in tokens(text)) if len(t) >= 2 and t not in STOPWORDS}


def stem_match(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 5 and long_.startswith(short)


def shared_stems(query: str, target: str) -> set[str]:
    q, t = stems_of(query), stems_of(target)
    return {x for x in q if any(stem_match(x, y) for y in t)}
