"""Does a tool call already do what a correction prescribes? Then it is not the guarded action but the right one.

A near miss works in the correction's own files and words while following its lesson: the DAG sets
``catchup=False``, the proto marks the old number ``reserved``, the upgrade goes through ``helm diff upgrade``.
The sentence embedder sees the same area either way; the lesson's code-like spans tell them apart.

A span counts when it looks like code (a backticked span, a ``--flag``, or a token with ``=``, ``(``, ``:``, ``/``
or a dotted name), follows a verb that asks for it in its clause ("use", "set", "pass", "run", "put", "mark",
"with" ...: "before ``alembic upgrade``" or "``AsEnumerable()`` silently switches ..." name a moment or the mistake,
not the fix), is not in a clause that forbids it ("never ``-x``", "instead of ``utcnow()``"), and is not also in
the correction's trigger, summary or incident (those name the mistake, or the thing both use).
"""

from __future__ import annotations

import functools
import re

from loa_memory.model import Entry

# negations in prose: lower case or capitalised, never ALL CAPS ("NOT VALID", "NOT IN" are SQL)
_NEGATION = re.compile(r"\b(?:[Nn]ever|[Nn]ot|[Nn]o|[Dd]on'?t|[Dd]o not|[Aa]void|[Ii]nstead of|[Rr]ather than|"
                       r"[Ww]ithout|[Nn]or|[Ss]top)\b")
_CLAUSES = re.compile(r"[;:.!?]\s|,\s|\b(?:and|but|or|then)\b")
_SPAN = re.compile(r"`([^`]{2,60})`|\b([A-Z]{2,}(?: [A-Z]{2,}){1,4})\b|"
                   r"((?:(?<![\w-])--?[A-Za-z][\w-]*(?:=[\w./-]+)?)|"
                   r"(?:[A-Za-z_][\w.]*(?:\([^()\s]{0,20}\))?(?:=[\w.\"'/-]+)?))")
_ASKS = re.compile(r"\b(?:use|using|set|setting|pass|passing|put|run|running|call|add|wrap|give|mark|prefer|include|"
                   r"compare|keep|store|pin|declare|enable|specify|apply|review|check|go through|with|via|through|"
                   r"defer|close|drain|quote|escape|validate|sanitize|mount|await|bind|paginate|batch|commit|retry|"
                   r"sign|verify|encrypt|rotate|lock|limit|cap|default to|create|generate|register|configure|"
                   r"switch to|migrate to|guard)\b", re.I)
_KEYWORDS = re.compile(r"\b[A-Z]{2,}(?: [A-Z]{2,}){1,4}\b")
_ELLIPSIS_CALL = re.compile(r"^([A-Za-z_][\w.]*)\((?:\.\.\.|…)\)")


def _code_like(token: str) -> bool:
    if token.startswith("-"):
        return len(token) >= (4 if token.startswith("--") else 3)
    return len(token) >= 3 and re.search(r"[=():/]|\.\w", token) is not None


def _mentions(text: str, token: str) -> bool:
    if re.search(r"(?:^|\s)-[A-Za-z]$", token):
        end = r"[A-Za-z]*(?![\w-])"  # a short flag may come bundled: ``-n`` in ``-nd``
    elif token[-1].isalnum() or token[-1] == "_":
        end = r"(?![\w])"
    else:
        end = ""
    return re.search(r"(?<![\w-])" + re.escape(token) + end, text) is not None


def prescribed(entry: Entry) -> frozenset[str]:
    """The code-like spans ``entry``'s lesson asks for."""
    return _prescribed(entry.lesson or "", " ".join([*entry.triggers, entry.summary, entry.content]).lower())


@functools.lru_cache(maxsize=4096)  # read once per lesson, not once per tool call (the warm server keeps it)
def _prescribed(lesson: str, mistake: str) -> frozenset[str]:
    wanted: set[str] = set()
    forbidden: set[str] = set()
    for clause in _CLAUSES.split(lesson):
        negation = _NEGATION.search(clause)
        asks = _ASKS.search(clause)
        for match in _SPAN.finditer(clause):
            token = (match.group(1) or match.group(2) or match.group(3)).strip().rstrip(".,")
            if not token or not (match.group(1) or match.group(2) or _code_like(token)):
                continue
            if negation and match.start() > negation.start():
                forbidden.add(token)
            elif asks and asks.start() < match.start():
                wanted.add(token)
    return frozenset(t for t in wanted - forbidden if not _mentions(mistake, t.lower()))


def follows_lesson(entry: Entry, change: str) -> list[str]:
    """The spans of ``entry``'s lesson that ``change`` (the lines an edit brings in, a file written, a command)
    already carries: empty when it carries none."""
    found = []
    for token in sorted(prescribed(entry)):
        call = _ELLIPSIS_CALL.match(token)  # ``compareTo(...)``: any arguments
        keywords = _KEYWORDS.fullmatch(token)  # ``CREATE INDEX CONCURRENTLY``: SQL in any case and spacing
        if (_mentions(change, token) or (call and _mentions(change, call.group(1) + "("))
                or (keywords and re.search(r"\b" + r"\s+".join(token.split()) + r"\b", change, re.I))):
            found.append(token)
    return found
