"""The code a correction names, both ways: does a tool call already do what the lesson prescribes (then it is the
right action, not the guarded one), or does it repeat the code of the mistake itself?

A near miss works in the correction's own files and words while following its lesson: the DAG sets
``catchup=False``, the proto marks the old number ``reserved``, the upgrade goes through ``helm diff upgrade``,
the hasher is ``argon2id``. The sentence embedder sees the same area either way; the lesson's code-like spans tell
them apart.

A span counts when it looks like code (a backticked span, a ``--flag``, a token with ``=``, ``(``, ``:``, ``/`` or
a dotted name, or an identifier written as code: ``DOMPurify``, ``failureThreshold``, ``argon2id``, ``find_each``),
follows a verb that asks for it in its clause ("use", "set", "pass", "run", "put", "mark", "with" ...: "before
``alembic upgrade``" or "``AsEnumerable()`` silently switches ..." name a moment or the mistake, not the fix), is not
in a clause that forbids it ("never ``-x``", "instead of ``utcnow()``"), and is not also in the correction's
trigger, summary or incident (those name the mistake, or the thing both use) unless they name it only as not done
("ran ``npm install`` instead of ``npm ci``", "forgot ``model.eval()`` and ``torch.no_grad()``"), tell it as the
remedy ("it had to be rerun with ...", "builds now run under ...") or ask for it themselves, as a decision record
does. A span after "before", "when", "unless"...
with no asking verb between names a moment, not the fix ("sanitize it with DOMPurify before any
``dangerouslySetInnerHTML``"); verbs inside backticks ask nothing. An identifier followed by true or false is a setting
with its value ("keep isDebuggable false"), and a setting is followed in any syntax (``k=v``, ``k: v``, ``("k", "v")``),
by its value and not a call of it (``default=timezone.now`` is not ``default=timezone.now()``). An ellipsis or a
placeholder (``deployment/<name>``) in a span stands for anything; a call whose arguments hold an ellipsis
(``jwt.verify(token, key, { algorithms: [...] })``) is followed by a call of it that sets the options it names, the
other argument names being the user's own; a qualified name (``java.time.format.DateTimeFormatter``) by its last name.
A clause joined by "and" with no verb of its own goes on asking, a negation goes on over "or", and an example ("e.g.
...", a parenthesis, "such as ...") with no verb of its own asks or forbids as the clause before it does (with one,
asks as it did up to that verb: "use SCAN (redis-cli --scan --pattern) with a modest COUNT"). A call the
incident made too (``cursor.execute``) is the thing both use, whatever arguments the lesson writes. A literal in a span
stands for any literal but 0, 1 and quoted switches (``"false"``), and a span that is only a literal (``100dvh``)
for itself: ``SET lock_timeout = '5s'`` is followed by ``SET lock_timeout = '3s'``; a command in capitals (``SCAN``)
by a client's option or method (``--scan``, ``.scan_iter(``); ``jwt.verify()`` by a call of it with any arguments.

The mistake's spans are the other side: the code-like spans of the trigger, summary and incident, and those the
lesson forbids, less what it prescribes (``jwt.decode``, ``permit!``, ``git push --force``). A call that carries
one does what went wrong before, in the same code, whatever its words (``match.py`` counts it as evidence).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from loa_memory.model import Entry

# negations in prose: lower case or capitalised, never ALL CAPS ("NOT VALID", "NOT IN" are SQL)
_NEGATION = re.compile(r"\b(?:[Nn]ever|[Nn]ot|[Nn]o|[Dd]on'?t|[Dd]o not|[Aa]void|[Ii]nstead of|[Rr]ather than|"
                       r"[Ww]ithout|[Nn]or|[Ss]top)\b")
# "e.g." and "i.e." end no clause; a parenthesis opens one of its own
_CLAUSES = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[;:.!?]\s|,\s|\s\(|\b(?:and|but|or|then)\b")
# a clause that only gives an example of the one before: "pass a comparator, e.g. `sort((a, b) => a - b)`",
# "use aware datetimes (`datetime.now(timezone.utc)`)"
_EXAMPLE = re.compile(r"(?<!\s)\s*+(?:e\.g\.|i\.e\.|for (?:example|instance)\b|such as\b|like\b)", re.I)
_BACKTICKED = re.compile(r"`[^`]*`")
# SQL in capitals: several words ("CREATE INDEX CONCURRENTLY"), or one that only a statement has ("BEGIN")
_SQL_WORD = r"(?:BEGIN|COMMIT|ROLLBACK|SAVEPOINT|CONCURRENTLY|RETURNING|TRUNCATE|VACUUM)"
_SPAN = re.compile(r"`([^`]{2,60})`|\b([A-Z]{2,}(?: [A-Z]{2,}){1,4}|" + _SQL_WORD + r")\b|"
                   r"((?:(?<![\w-])--?[A-Za-z][\w-]*(?:=[\w./-]+)?)|"
                   r"(?:[A-Za-z_][\w.]*(?:\([^()\s]{0,20}\))?(?:=[\w.\"'/-]+)?))")
_ASKS = re.compile(r"\b(?:use|using|set|setting|pass|passing|put|run|running|call|add|wrap|give|mark|prefer|include|"
                   r"compare|keep|store|pin|declare|enable|specify|apply|review|check|go through|with|via|through|"
                   r"defer|close|drain|quote|escape|validate|sanitize|mount|await|bind|paginate|batch|commit|retry|"
                   r"sign|verify|encrypt|rotate|lock|limit|cap|default to|create|generate|register|configure|"
                   r"switch to|migrate to|guard|iterate|registered|key|hash|render|start|share|follow|prefix|"
                   r"neutralise|neutralize|split|fit|log|return|build|hide|upload|delete|mask|record|tag|schedule|"
                   r"require|block|allow|deny|restrict|emit|raise|catch|handle|send|provide|supply|attach)\b", re.I)
# the first word of a sentence that is a verb, as far as a word list can tell: not a subordinator, an article, a
# pronoun or a noun phrase's opener ("When catching ...", "A PDB must ...", "Production databases keep ...")
_OPENING_VERB = re.compile(r"(?<!\s)\s*+(?!(?:When|Whenever|If|Unless|Before|After|While|Once|Since|Until|For|In|"
                         r"On|At|By|To|From|With|Without|As|A|An|The|Any|Every|All|Each|Only|Our|Your|Their|Its|This|That|"
                         r"These|Those|It|We|You|They|There|Here|Some|Most|Many|No|Never|Always|Inside|Outside|"
                         r"Within|During|Under|Over|Per|Via|Through|Across|Between|Behind)\b)[A-Z][a-z]+\b")
_WHERE = re.compile(r"\b(?:in|into|to|with|through|via|on|onto|using)\b")
# a span after one of these names when the fix applies ("sanitize it with DOMPurify before any
# dangerouslySetInnerHTML"), not what to write
_MOMENT = re.compile(r"\b(?:before|after|when|whenever|until|unless|once|while|prior to)\b", re.I)
_PREPOSITIONS = ("with", "via", "through")  # "before writing with `mode('overwrite')`" asks for nothing
_KEYWORDS = re.compile(r"\b(?:[A-Z]{2,}(?: [A-Z]{2,}){1,4}|" + _SQL_WORD + r")\b")
_IMPERATIVE = re.compile(r"(?<!\s)\s*+(?:always\s++)?(?:use|prefer|pin|enable)\b", re.I)
_REMEDY = re.compile(r"\b(?:now|since then|from now on|from then on|going forward|had to be|has to be|have to be|"
                     r"should have|would have|fixed (?:it |this )?by|the fix (?:was|is)|(?:was|were) fixed)\b", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_ELLIPSIS = re.compile(r"\.\.\.|…|<[a-z][\w-]*>")  # `deployment/<name>`: a placeholder stands for anything too
# java.time.format.DateTimeFormatter, used by its last name
_QUALIFIED = re.compile(r"(?<![\w.])(?:[a-z]\w*+\.){2,}+([A-Z]\w++)")
# a module's function whose name says what it is (a capital or an underscore inside): `hmac.compare_digest`
_MODULE_FUNCTION = re.compile(r"(?<![\w.])[a-z]\w*+\.([a-z]++(?:[A-Z]|_[a-z])\w{3,})")
_COMMAND_WORD = re.compile(r"[A-Z]{3,}")  # a command of a store or protocol written in capitals: SCAN, UNLINK
_ELLIPSIS_CALL = re.compile(r"^([A-Za-z_][\w.]*=?)\((?:\.\.\.|…|[a-z_]+(?:,\s*[a-z_]+)*)?\)$")  # any arguments
_CALL = re.compile(r"^([A-Za-z_][\w.]*)\(([\s\S]*)\)$")
# the options a call's arguments name: `{ algorithms: [...] }`
_OPTION = re.compile(r"(?<!\w)([A-Za-z_]\w*+)\s*+[:=](?![:=])")
_IDENTIFIER = re.compile(r"[\w-]{4,}")
_SETTING = re.compile(r"^([\w.-]+)=([\w.-]+)$")  # catchup=False: also ``catchup: false``, ``("catchup", "false")``
_SWITCHED = re.compile(r"(?<!\s)\s++(?:(?:to|=|:)\s*+)?(true|false)\b", re.I)  # "keep isDebuggable false": a setting
_WRITTEN_AS_CODE = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]|\d|_")  # camelCase, DOMPurify, argon2id, find_each
_LITERAL = re.compile(r"'[^']*'|\"[^\"]*\"|\b\d+[A-Za-z]*\b")
_ANY_LITERAL = r"(?:'[^']*'|\"[^\"]*\"|\b(?![01]\b)\d+[A-Za-z]*\b)"
_SWITCH_LITERAL = re.compile(r"[01]|(['\"])(?:true|false|yes|no|on|off)\1", re.I)  # stands only for itself
_WORD = re.compile(r"[A-Za-z]+")
_EXCEPTION = re.compile(r"\b(?:without|unless|except)\b", re.I)
# the incident telling code as not done: a negation, or a verb of leaving out ("forgot `model.eval()`")
_NOT_DONE = re.compile(_NEGATION.pattern + r"|\b(?:[Ff]org(?:ot|ets|otten|etting)|[Oo]mitt?(?:ed|ing|s)|"
                       r"[Mm]iss(?:ed|ing)|[Ll]ack(?:ed|ing|s)|[Ll]eft out|[Ss]kipp(?:ed|ing))\b")
# what joins the items of a list: "`a`, `b` and `c`"
_LISTED = re.compile(r"(?<!\s)\s*+(?:,\s*+(?:(?:and|or|nor)\s++)?|(?:and|or|nor)\s++)")
_NEGATED_REACH = 12  # characters after "instead of", "without", "no" in which the negated code starts
_SPAN_LIMIT = 80


def _code_like(token: str, identifiers: bool = True) -> bool:
    if token.startswith("-"):
        return len(token) >= (4 if token.startswith("--") else 3)
    if len(token) >= 3 and re.search(r"[=():/]|\.\w", token) is not None:
        return True
    return identifiers and _IDENTIFIER.fullmatch(token) is not None and _WRITTEN_AS_CODE.search(token) is not None


def _mentions(text: str, token: str) -> bool:
    if re.search(r"(?:^|\s)-[A-Za-z]$", token):
        end = r"[A-Za-z]*(?![\w-])"  # a short flag may come bundled: ``-n`` in ``-nd``
    elif token.split()[-1].startswith("-") and token[-1].isalnum():
        end = r"(?![\w-])"  # ``--force`` is not ``--force-with-lease``
    elif token[-1].isalnum() or token[-1] == "_":
        end = r"(?![\w])"
    else:
        end = ""
    # a plain name inside a dotted path is another thing's field: `pull_request` in github.event.pull_request.head
    inside = r"(?!(?<=\.)" + re.escape(token) + r"\.\w)" if re.fullmatch(r"[A-Za-z_]\w*", token) else ""
    return re.search(r"(?<![\w-])" + inside + re.escape(token) + end, text) is not None


def prescribed(entry: Entry) -> frozenset[str]:
    """The code-like spans ``entry``'s lesson asks for."""
    return _prescribed(entry.lesson or "", " ".join([*entry.triggers, entry.summary, entry.content]))


def mistaken(entry: Entry) -> frozenset[str]:
    """The code-like spans of what went wrong: named by ``entry``'s trigger, summary or incident, or forbidden by its
    lesson, and not prescribed by it."""
    return _mistaken(entry.lesson or "", " ".join([*entry.triggers, entry.summary, entry.content]))


def _spans(text: str, identifiers: bool = True) -> Iterator[tuple[int, int, str]]:
    """The code-like spans of ``text``: where each starts and ends, and the span."""
    for match in _SPAN.finditer(text):
        token = match.group(1).strip() if match.group(1) else (match.group(2) or match.group(3)).strip().rstrip(".,")
        if not token or not (match.group(1) or match.group(2) or _code_like(token, identifiers)):
            continue
        switched = _SWITCHED.match(text, match.end()) if match.group(3) and "=" not in token else None
        if switched:
            yield match.start(), switched.end(), f"{token}={switched.group(1)}"
        elif match.group(1):
            yield match.start(), match.end(), token  # to the closing backtick
        else:
            yield match.start(), match.start() + len(token), token  # less a full stop or comma after it


@functools.lru_cache(maxsize=4096)  # read once per lesson, not once per tool call (the warm server keeps it)
def _lesson_spans(lesson: str) -> tuple[frozenset[str], frozenset[str]]:
    """The spans ``lesson`` asks for and those it forbids."""
    wanted: set[str] = set()
    forbidden: set[str] = set()
    before = ""  # what the clause before did: "ask", "forbid" or nothing
    for begin, end, join in _clause_spans(lesson):
        clause = lesson[begin:end]
        prose = _BACKTICKED.sub(lambda span: " " * len(span.group(0)), clause)  # `RUN --no-cache` asks for nothing
        negation = _NEGATION.search(prose)
        # a lesson is an imperative: a sentence that opens with a verb asks for what it puts somewhere ("Hop to the
        # main queue (`DispatchQueue.main.async`)", "Launch coroutines in `viewModelScope`"), whatever the verb; its
        # object is what the lesson is about ("Size a `PodDisruptionBudget` so ...", "Treat a targetSdk bump as ...")
        opens = not lesson[:begin].strip() or lesson[:begin].rstrip()[-1] in ".!?;"
        verb = _OPENING_VERB.match(prose) if opens else None
        asks = _ASKS.search(prose) or (_WHERE.search(prose, verb.end()) if verb else None)
        # "never check out or run X": the negation goes on over "or"; "put the number and name in a `reserved`
        # statement": a clause with no verb of its own goes on asking over "and"
        example = join == "(" or _EXAMPLE.match(clause) is not None
        goes_on = ((join == "or" and before == "forbid")
                   or (((join == "and" and before == "ask") or example) and not negation and not asks))
        carried = before if goes_on else ""
        # "Use SCAN (`redis-cli --scan --pattern`) with a modest COUNT": an example asks as the clause before it did,
        # up to a verb of its own
        until = asks.start() if asks and example and before == "ask" and not negation else 0
        # "never put it into `x` without / unless ... DOMPurify": the exception a negation makes is the fix
        exception = _EXCEPTION.search(prose, negation.end()) if negation else None
        for start, _end, token in _spans(clause):
            if exception and start > exception.start():
                wanted.add(token)
            elif (negation and start > negation.start()) or carried == "forbid":
                forbidden.add(token)
            elif (((asks and asks.start() < start) or carried == "ask" or start < until)
                  and not _at_a_moment(clause, start)):
                wanted.add(token)
        before = "forbid" if negation or carried == "forbid" else "ask" if asks or carried == "ask" else ""
    return frozenset(wanted), frozenset(forbidden)


def _at_a_moment(clause: str, start: int) -> bool:
    """Whether the span at ``start`` names a moment: it follows "before", "when", "unless"... with no verb between
    that asks for it ("sanitize it with DOMPurify before any `dangerouslySetInnerHTML`")."""
    moments = list(_MOMENT.finditer(clause, 0, start))
    if not moments:
        return False
    between = clause[moments[-1].end():start]
    return all(verb.group(0).lower() in _PREPOSITIONS for verb in _ASKS.finditer(between))


def _clauses(text: str) -> list[str]:
    """``text`` cut at the ends of its clauses, never inside a backticked span (```timeout=(connect, read)```)."""
    return [clause for clause, _joined in _joined_clauses(text)]


def _joined_clauses(text: str) -> list[tuple[str, str]]:
    """The clauses of ``text``, each with the word that joins it to the one before ("and", "or", "but", "then"), "("
    for a parenthesis, or "" after punctuation."""
    return [(text[a:b], join) for a, b, join in _clause_spans(text)]


def _clause_spans(text: str) -> list[tuple[int, int, str]]:
    """Where each clause of ``text`` starts and ends, and the word that joins it to the one before."""
    quoted = [m.span() for m in _BACKTICKED.finditer(text)]
    cuts = [m for m in _CLAUSES.finditer(text) if not any(a < m.start() < b for a, b in quoted)]
    starts = [0, *(m.end() for m in cuts)]
    ends = [*(m.start() for m in cuts), len(text)]
    joins = ["", *(m.group(0) if m.group(0).isalpha() else m.group(0).strip() if m.group(0).endswith("(") else ""
                   for m in cuts)]
    return list(zip(starts, ends, joins, strict=True))


@functools.lru_cache(maxsize=4096)
def _prescribed(lesson: str, mistake: str) -> frozenset[str]:
    """What ``lesson`` asks for, less what the ``mistake`` (trigger, summary, incident) names too: any mention of a
    code span, but only a code mention of a plain word (the incident "moved" a resource; the fix is a `moved` block).
    What the incident names only as not done ("ran `npm install` instead of `npm ci`") or asks for itself (a
    decision record's "use --force-with-lease") stays the fix."""
    wanted, forbidden = _lesson_spans(lesson)
    done = _affirmed(_unremedied(mistake), wanted)
    lower = done.lower()
    as_code = " ".join(_BACKTICKED.findall(done)).lower()
    return frozenset(t for t in wanted - forbidden
                     if not _mentions(as_code if _WORD.fullmatch(t) else lower, t.lower())
                     and not ((call := _ELLIPSIS_CALL.match(t)) and _mentions(lower, call.group(1).lower())))


def _unremedied(text: str) -> str:
    """``text`` without what tells the fix: a sentence on the remedy ("It had to be rerun with `...`", "Builds now
    run under `...`") and an imperative clause (a decision record's "... and use --force-with-lease")."""
    kept = []
    for sentence in _SENTENCE_END.split(text):
        if _REMEDY.search(sentence):
            continue
        for start, end, _join in reversed(_clause_spans(sentence)):  # the words joining the clauses stay
            if _IMPERATIVE.match(sentence[start:end]):
                sentence = sentence[:start] + " " * (end - start) + sentence[end:]
        kept.append(sentence)
    return " ".join(kept)


def _affirmed(text: str, fixes: frozenset[str] = frozenset()) -> str:
    """``text`` without the code it names as not done: a negation or a verb of leaving out and the span right after
    it (one of the lesson's ``fixes`` however it is written), with the spans listed after that one ("instead of
    `npm ci`", "without `--atomic`", "no `USER` line", "without algorithm: :concurrently", "forgot `model.eval()`
    and `torch.no_grad()`")."""
    kept: list[str] = []
    last = 0
    for negation in _NOT_DONE.finditer(text):
        if negation.start() < last:
            continue
        end = _not_done_end(text, negation.end(), fixes)
        if end is not None:
            kept.append(text[last:negation.start()])
            last = end
    kept.append(text[last:])
    return " ".join(kept)


def _not_done_end(text: str, at: int, fixes: frozenset[str]) -> int | None:
    """Where the code named as not done after ``at`` ends: a span starting within ``_NEGATED_REACH`` characters, and
    each span listed right after it; None when no span starts there."""
    end = None
    reach = _NEGATED_REACH
    while (first := _first_span(text[at:at + _SPAN_LIMIT], fixes)) is not None and first[0] <= reach:
        end = at + first[1]
        listed = _LISTED.match(text, end)
        if listed is None:
            break
        at, reach = end, listed.end() - end
    return end


def _first_span(text: str, fixes: frozenset[str]) -> tuple[int, int] | None:
    """Where the first code span of ``text`` starts and ends, a fix of the lesson counting as one wherever it is
    written as prose."""
    code = next(_spans(text), None)
    spans = [code[:2]] if code else []
    lower = text.lower()
    spans += [(at, at + len(fix)) for fix in fixes if (at := lower.find(fix.lower())) >= 0]
    return min(spans, default=None)


@functools.lru_cache(maxsize=4096)
def _mistaken(lesson: str, mistake: str) -> frozenset[str]:
    """What went wrong: the spans the mistake names and those the lesson forbids, less the fix."""
    named = {token for _, _, token in _spans(mistake, identifiers=False)} | _lesson_spans(lesson)[1]
    return frozenset(t for t in named - _prescribed(lesson, mistake) if len(t) >= 3)


def follows_lesson(entry: Entry, change: str) -> list[str]:
    """The spans of ``entry``'s lesson that ``change`` (the lines an edit brings in, a file written, a command)
    already carries: empty when it carries none."""
    return [token for token in sorted(prescribed(entry)) if carries(change, token)]


def repeats_mistake(entry: Entry, change: str) -> list[str]:
    """The spans of ``entry``'s mistake that ``change`` carries: empty when it carries none."""
    return [token for token in sorted(mistaken(entry)) if carries(change, token, literals=False)]


def carries(change: str, token: str, literals: bool = True) -> bool:
    """Whether ``change`` has the code span ``token``: ``compareTo(...)`` with any arguments, SQL keywords in any case
    and spacing, and (with ``literals``) any literal where the span has one."""
    call = _ELLIPSIS_CALL.match(token)
    keywords = _KEYWORDS.fullmatch(token)
    setting = _SETTING.match(token)
    if setting:  # the value itself: `default=timezone.now` is not `default=timezone.now()`
        return re.search(r"(?<![\w-])" + re.escape(setting.group(1)) + r"[\"'\]]?\s*[=:,]\s*[\"']?(?i:"
                         + re.escape(setting.group(2)) + r")(?![\w-]|\s*\()", change) is not None
    if (_mentions(change, token) or (call and _mentions(change, call.group(1) + "("))
            or (keywords and re.search(r"\b" + r"\s+".join(token.split()) + r"\b", change, re.I))):
        return True
    if literals and (qualified := _QUALIFIED.fullmatch(token)) and _mentions(change, qualified.group(1)):
        return True
    if literals and (imported := _MODULE_FUNCTION.fullmatch(token)) and re.search(
            r"(?<![\w.])" + re.escape(imported.group(1)) + r"\(", change):
        return True  # `crypto.timingSafeEqual` imported by name: `timingSafeEqual(header, digest)`
    whole = _CALL.match(token)
    # `jwt.verify(token, key, { algorithms: [...] })`: the arguments' names are the user's own, its options count
    if literals and whole and _ELLIPSIS.search(whole.group(2)) and (options := _OPTION.findall(whole.group(2))):
        return any(all(re.search(rf"(?<![\w-]){re.escape(o)}\s*[:=]", change[at.end():at.end() + 300]) for o in options)
                   for at in re.finditer(r"(?<![\w-])" + re.escape(whole.group(1)) + r"\(", change))
    if literals and _ELLIPSIS.search(token) and not call:  # `moved { from = ..., to = ... }`: ... is anything
        pieces = [re.escape(piece.strip(" ,;")).replace(r"\ ", r"\s*") for piece in _ELLIPSIS.split(token)]
        words = [piece for piece in pieces if re.search(r"\w", piece)]  # a lone brace may close on a line not changed
        return bool(words) and re.search(r"[\s\S]{0,200}?".join(words), change) is not None
    if literals and _COMMAND_WORD.fullmatch(token):  # SCAN as a client's option or method: --scan, r.scan(...)
        word = token.lower()
        return re.search(rf"(?<![\w-])--{word}(?![\w-])|\.{word}(?:_\w+)?\(", change) is not None
    if not literals or not _LITERAL.search(token) or _LITERAL.fullmatch(token):  # `100dvh` is no `100vh`
        return False
    parts, at = [], 0
    for literal in _LITERAL.finditer(token):  # 0 and 1, "true" and "false" turn a setting off or on: themselves only
        parts.append(re.escape(token[at:literal.start()]).replace(r"\ ", r"\s*"))
        parts.append(re.escape(literal.group(0)) if _SWITCH_LITERAL.fullmatch(literal.group(0)) else _ANY_LITERAL)
        at = literal.end()
    parts.append(re.escape(token[at:]).replace(r"\ ", r"\s*"))
    return re.search("".join(parts), change) is not None
