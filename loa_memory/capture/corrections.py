"""How a user's correction is heard, however it is worded: wording rules weighed by what the agent had just done.

A correction answers something the agent did, so each rule says what it needs besides its words (``Need``):

- ``any``: the words alone are enough ("That's wrong.", "I told you last time: ...", "Again: mask card
  numbers before they reach the logger instead", "Please stop printing the PAN", "Don't X, use Y instead").
- ``after``: the user is answering the agent (an assistant turn or tool call came before this turn in the
  session), so a request in the session's first prompt ("Use Postgres, not Redis") is not a correction:
  "Use httpx rather than requests here", "Could you use the client instead?", "You keep writing queries in
  views", "feature flags must come from the flags client", "Hardcoding credentials again?".
- ``touch``: answering the agent *and* naming what it just did (a word shared with its last tool calls,
  command, file paths and code, or its last words): "we never force-push to main" after ``git push --force``,
  "pls dont use utcnow" after an edit adding ``datetime.utcnow()``, "datetime.now() is naive".

Besides the rules, the first sentence after a tool call the user **rejected** is a correction, unless it is
an acknowledgement. A "No, ..." that answers the agent's question ("Should I refactor it?" / "No, leave it")
is an answer, not a correction; nor are "don't worry / bother / forget / hesitate", "never mind", "no
problem", "stop the server" (no gerund) or "instead of X, could you also Y?".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from loa_memory.capture.transcript import ToolCall, Turn

Need = Literal["any", "after", "touch"]
_I = re.IGNORECASE
_NEG = r"(?:don'?t|dont|do not|never|no more)"
# how a user says it was said before: "Once more, ...", "For the last time: ..." (a lesson's opener, not the lesson)
REPEATED = r"once again|once more|one more time|for the (?:last|second|third|fourth|nth) time"
_HARMLESS = r"(?!(?:worry|bother|forget|hesitate|mind|need|have to|rush|sweat|panic|stress|apologi[sz]e)\b)"
_START = r"(?:^(?:\w+[,!]\s+)?|\b(?:but|and|so|please|pls|plz|just|also|then|again)\s+|[-—:;(,]\s*)"


@dataclass(frozen=True)
class WordRule:
    name: str
    pattern: re.Pattern[str]
    confidence: float
    need: Need
    questions: bool = False  # the rule may match a sentence that ends with "?"


def _rule(name: str, pattern: str, confidence: float, need: Need, questions: bool = False) -> WordRule:
    return WordRule(name, re.compile(pattern, _I), confidence, need, questions)


WORD_RULES: tuple[WordRule, ...] = (
    _rule(
        "wrong",
        r"\b(?:that'?s|that is|this is|it'?s|you'?re|you are|this was|that was)\s+(?:wrong|incorrect|"
        r"not (?:right|correct|how|what i (?:asked|wanted|meant)))\b|\bnot like that\b",
        0.85,
        "any",
    ),
    _rule("dont-instead", rf"\b{_NEG}\b.*\b(?:instead|rather than)\b", 0.85, "any"),
    _rule("again", rf"^(?:again|{REPEATED})\s*[:,!—-]", 0.8, "any"),
    _rule(
        "no",
        r"^(?:no|nope|nah)\b(?!\s*[,.!]?\s*(?:problem|worries|thanks?|rush|need|worry|"
        r"that'?s (?:all|it|enough|fine|ok|okay|good)|it'?s (?:fine|ok|okay|good)|all good)\b)[\s,.!:;—-]",
        0.8,
        "any",
    ),
    _rule("stop", rf"{_START}(?:please\s+|pls\s+)?(?:stop|quit)\s+\w+ing\b", 0.8, "any"),
    _rule(
        "told",
        r"\bi(?:'ve| have)?\s+(?:already\s+)?(?:said|told you|asked (?:you )?(?:to|for|not to))\b|"
        r"\bas i (?:said|asked)\b|\bhow many times\b|\bi never (?:asked|said|told)\b",
        0.75,
        "any",
    ),
    _rule("should-have", r"\byou (?:shouldn'?t|should not|should) have\b", 0.7, "any"),
    _rule(
        "keep",
        r"\byou(?:'re| are)?\s+(?:keep|kept|still)\s+\w+ing\b|\byou(?:'re| are)\s+\w+ing\b.*\bagain\b|"
        r"\byou (?:did|made) (?:it|that|this|the same(?: \w+)?) again\b",
        0.8,
        "after",
    ),
    _rule(
        "again-question",
        r"^(?:you'?re\s+|are you\s+)?(?:still\s+)?\w+ing\b[^?]*\bagain\s*\?$",
        0.7,
        "after",
        questions=True,
    ),
    _rule(
        "again-reproach",
        r"^(?:\w+[,!]\s+)?(?:again\b[^?]*\?|(?:no|not)\b[^?]*\bagain\s*\?+$)",
        0.7,
        "after",
        questions=True,
    ),
    _rule(
        "same-as-before",
        r"^(?:same (?:as|thing as|rule as) (?:last time|before|yesterday|always|i said)|like i said)\b",
        0.75,
        "touch",
    ),
    _rule(
        "do-that",
        r"\b(?:never|don'?t|dont|do not|stop)\s+(?:ever\s+)?(?:do(?:ing)?|try(?:ing)?)\s+(?:that|this)\b",
        0.75,
        "after",
    ),
    _rule(
        "quoted-not",
        r'""\s*,?\s+not\s+""',
        0.7,
        "after",
    ),
    _rule(
        "house-rule",
        r"\b(?:every|all|always|never|only|no)\b.*\b(?:in|across|for|of) (?:this|our|the whole) (?:repo(?:sitory)?|"
        r"codebase|code ?base|project|service|team|monorepo)\b",
        0.7,
        "touch",
    ),
    _rule("rule-for-all", r"\buse\b.*\bfor (?:anything|everything|every|all)\b|\bno\b[^,.;]*,\s*ever\b", 0.7, "after"),
    _rule(
        "instead-request",
        r"(?:^|^[^,.;?]{0,30},\s*(?:but\s+)?|\bbut\s+)(?:(?:could|can|would|will) you|please|pls|maybe)\b"
        r"(?!.*\balso\b).*"
        r"\b(?:instead of|rather than|instead\W*$)",
        0.7,
        "after",
        questions=True,
    ),
    _rule(
        "why-you",
        r"^why (?:did|would|are|do|were) you\b|^why (?:on|in|into|use|with|not)\b",
        0.65,
        "touch",
        questions=True,
    ),
    _rule("remember", r"^remember\s*[,:;—-]", 0.7, "after"),
    _rule(
        "use-not",
        r"(?<!let's )(?<!lets )\b(?:use|using|call|read|write|put|switch to|stick (?:to|with)|go "
        r"(?:through|thru)|import)\b(?!.*\balso\b).*\b(?:instead|rather than|not)\b",
        0.75,
        "after",
    ),
    _rule(
        "must-come-from",
        r"\b(?:must|should|has to|have to|needs? to|are to|is to)\s+(?:always\s+)?(?:only\s+)?"
        r"(?:come (?:from|through|thru)|go (?:in|into|through|thru|to)|live (?:in|under)|"
        r"be (?:read|loaded|taken|fetched) from)\b|\b(?:belongs?|lives?) (?:in|to|under|inside)\b|\bcomes? from\b|"
        r"\bonly (?:exists?|lives?|runs?) (?:in|inside|on|under)\b|"
        r"\bgo(?:es)? in (?:the )?\w+/",
        0.75,
        "after",
    ),
    _rule("comma-not", r"^not\s+[^,;]{1,60},\s*(?:but\s+)?\S|\w[^,;]{0,60},\s+not\s+[^,;]{1,60}[.!]?$", 0.6, "after"),
    _rule("actually", r"^(?:actually|wait)\b[\s,]", 0.65, "after"),
    _rule("dont", rf"{_START}(?:please\s+|pls\s+|plz\s+)?{_NEG}\s+{_HARMLESS}\w+", 0.8, "touch"),
    _rule(
        "we-never",
        rf"\bwe\s+(?:{_NEG}|only|always)\s+{_HARMLESS}\w+|\bno\s+(?:\w+\s+){1,3}(?:in|on|to|into)\s+\S+",
        0.75,
        "touch",
    ),
    _rule(
        "must-be",
        r"\b(?:must|should|has to|have to|needs? to)\s+(?:always\s+)?be\s+\w+ed\b|\bmust(?: not|n'?t)?\s+"
        r"(?!have\b)\w+|\b(?:has|have|needs?) to be\b",
        0.7,
        "touch",
    ),
    _rule(
        "defect",
        r"\b(?:is|are|was|were|isn'?t|aren'?t|'s|'re)\s+(?:\w+\s+){0,2}(?:naive|wrong|deprecated|"
        r"broken|insecure|unsafe|forbidden|not allowed|off[- ]limits|immutable|generated|a bad idea|"
        r"banned)\b|\bcan'?t be\b|\b(?:isn'?t|is not|not) (?:a|the) (?:fix|solution|answer)\b",
        0.7,
        "touch",
    ),
)
SELF_CORRECTION = re.compile(
    r"\bi meant\b|\bi mean to say\b|\bmy (?:mistake|bad|fault|typo)\b|\btypo on my (?:side|part|end)\b|"
    r"\bi (?:mistyped|misspoke|misremembered|mixed (?:them|those|these|it) up)\b|"
    r"\bi (?:had|read|gave(?: you)?|pasted|sent(?: you)?|copied|typed|quoted|looked at|was looking at|grabbed|picked|"
    r"checked|opened|remembered) (?:the|a) wrong\b|"
    # "I said 30 but I meant 90", "I said per ip but it has to be per email"; not "I said ... but you ..."
    r"\bi (?:said|wrote|typed) [^.!?]{1,60}\bbut (?!(?:then |again |still )?(?:you|u)\b)|"
    # the user speaking of their own doing or asking out of curiosity: nothing the agent did wrong
    r"\bmy mess\b|\bjust (?:curious|asking|wondering)\b|\bnot complaining\b|"
    r"\bout of curiosity\b|\bnever in a million years\b|\bnever (?:would|could) (?:i|we|have)\b|"
    r"\b(?:would|could) never have\b|\bi (?:never|didn'?t) know\b|\bnever knew\b|\bi was wrong\b|"
    r"\b(?:that|this)(?: one)?(?:'s| is) on me\b|^(?:\w+[,.!]?\s+(?:[-–—]\s+)?){0,2}never ?mind(?=\s*(?:[.,!;:–—-]|$))|"
    # changing their own mind about a feature: "hmm, scrap the confetti actually, marketing changed their mind"
    r"^(?:\w+[,.!]?\s+)?(?:let'?s\s+)?(?:scrap|drop|skip|forget|shelve|park|cancel|ditch)\b[^.!?]{0,60}?"
    r"\b(?:actually|after all)\b",
    _I,
)
# a reply that opens by approving and never turns against what the agent did ("yep, that was it, the console is
# clean again"; "yeah fix the mypy one"): liked as a correction only when it turns ("Looks good. One thing though")
APPROVING = re.compile(r"^(?:yes|yep|yup|yeah|great|perfect|nice|cool|ok(?:ay)?|thanks?|thank you|looks good|lgtm|"
                       r"looks right|sounds (?:good|right|fine|great)|that works|works|good|sure|right)\b", _I)
TURNING = re.compile(r"\b(?:but|though|however|although|one thing|a few things|two things|instead|rather|why|never|"
                     r"don'?t|do not|not|no|wrong|should(?:n'?t)?|must|stop|please|can you|could you|before)\b", _I)
# an approval's punctuation and signs (👍 ✅ 🚀 :+1:): a sentence of nothing else has no lesson in it
_APPROVAL_SIGN = r"[\s,.!:\-\u2600-\u27bf\U0001f300-\U0001faff\ufe0f\u200d]"
ACKNOWLEDGEMENT = re.compile(
    r"^" + _APPROVAL_SIGN + r"*+(?:(?:ok(?:ay)?|thanks?|thank you|thx|ty|yes|yep|yup|sure|go ahead|continue|fine|good|"
    r"great|right|perfect|nice|cool|awesome|lgtm|looks good(?: to me)?|ship it|works(?: for me)?|that works|"
    r"good catch)\b|\+1)?" + _APPROVAL_SIGN + r"*+$",
    _I,
)
_ACTION_LIMIT = 200
_REJECTED = ("doesn't want to proceed", "tool use was rejected")
# the agent asking leave for one thing it proposes or did: "Shall I do that?", "Want me to commit it?", "OK to go
# ahead?"; not a choice ("... or ...?", "Which do you prefer?") nor more work ("Should I also ...?", "... too?")
_LEAVE = re.compile(r"^(?:(?:so|ok(?:ay)?|then|now),?\s+)?(?:(?:shall|should|can|may)\s+(?:i|we)\b|"
                    r"(?:do you\s+)?want\s+(?:me\b|a\b|an\b)|"
                    r"(?:is\s+it\s+)?(?:ok(?:ay)?|good|fine|safe|alright)\s+to\b|proceed\b|go ahead\b)", _I)
_MORE = re.compile(r"\b(?:also|too|as well|either|same|another|or)\b", _I)
_CLAUSE_BREAK = re.compile(r"(?<=[.!:;])\s|\s[-–—]{1,3}\s")  # one character of space: linear
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+|[0-9]{3,}")
_QUOTED = re.compile(r"\"[^\"]*\"|`[^`]*`|“[^”]*”")
_COMMON = frozenset(
    "the and for are was were not but all any can its our use new add get set put run one two you your with this "
    "that from into then than them they what when which while there here have has had just also only some more less "
    "please pls dont don't never should must need make made done did does let lets it's i'm we're instead rather "
    "file files code line lines now again still keep kept want like way thing things see look using used true false "
    "none null self return def import class home dev src work srv app opt repo project same other thanks know told "
    "said ask asked time last before after about it's that's isn't can't won't doesn't didn't you're we'll i've "
    "them those these there's here's where why how who would could will shall may might been being because don doesn "
    "didn isn aren won wasn edit write read bash".split()
)


@dataclass(frozen=True)
class Context:
    """What the agent had done when the user spoke: whether anything at all, what (a short description and its
    words), whether it ended on a question, and whether the user had rejected its last tool call."""

    responding: bool = False
    action: str = ""
    words: frozenset[str] = frozenset()
    asked: bool = False
    rejected: bool = False
    proposed: bool = False  # the question asked leave for one thing the agent proposes or did (``asks_leave``)


def asks_leave(text: str) -> bool:
    """Whether the agent's words end by asking leave for one thing it proposes or did ("... Shall I do that?"):
    a "no" to it, with a reason and what to do instead, corrects the agent's plan, while an answer to a choice
    or to an offer of more work ("Should I also bump the version?" / "no need") does not."""
    lines = text.strip().splitlines()
    question = _CLAUSE_BREAK.split(lines[-1].strip())[-1].strip() if lines else ""
    return question.endswith("?") and _LEAVE.match(question) is not None and _MORE.search(question) is None


def stem(word: str) -> str:
    """A word folded for overlap: lower case, common English endings off (``logs``/``logger``/``logging`` → log)."""
    word = word.casefold()
    for ending in ("ings", "ing", "ers", "er", "ed", "es", "s"):
        if len(word) - len(ending) >= 3 and word.endswith(ending):
            word = word[: -len(ending)]
            return word[:-1] if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls" else word
    return word


def content_words(text: str) -> frozenset[str]:
    """The stems of ``text``'s content words (identifiers split at ``_``/``.``/``/``; common words left out)."""
    words = _WORD.findall(text.replace("_", " "))
    return frozenset(stem(w) for w in words if len(w) > 2 and w.casefold() not in _COMMON)


def describe_call(call: ToolCall) -> str:
    """One line for a tool call: ``Bash: git push --force origin main``, ``Edit: payments/capture.py``."""
    args = call.input
    target = args.get("command") or args.get("file_path") or args.get("path") or args.get("pattern") or ""
    first = str(target).strip().splitlines()[0][:_ACTION_LIMIT] if str(target).strip() else ""
    return f"{call.name}: {first}".strip().rstrip(":")


def _call_text(call: ToolCall) -> str:
    return call.name + " " + " ".join(str(v) for v in call.input.values() if isinstance(v, str | int | float))[:4000]


def contexts(turns: Sequence[Turn], calls: Sequence[ToolCall]) -> dict[int, Context]:
    """The context of each user turn (keyed by its position in ``turns``): the agent's activity since the
    previous user speech."""
    found: dict[int, Context] = {}
    responding = False
    span_text: list[str] = []
    span_calls: list[ToolCall] = []
    ordered = sorted(calls, key=lambda c: c.line)
    taken = 0
    asked = rejected = proposed = False
    for position, turn in enumerate(turns):
        start = taken
        while taken < len(ordered) and ordered[taken].line <= turn.line:
            taken += 1
        new_calls = ordered[start:taken]
        if new_calls:
            span_calls.extend(new_calls)
            responding = True
            asked = proposed = False
        if turn.role == "assistant":
            responding = True
            span_text.append(turn.text)
            asked = turn.text.rstrip().endswith("?")
            proposed = asked and asks_leave(turn.text)
        elif turn.role == "tool":
            responding = True
            rejected = rejected or (turn.is_error and any(marker in turn.text for marker in _REJECTED))
        elif turn.role in ("user", "unknown"):
            last = span_calls[-1] if span_calls else None
            words = content_words(" ".join([*span_text[-1:], *(_call_text(c) for c in span_calls[-3:])]))
            # a paragraph whose speaker is unknown may be answering the agent: its words alone must tell
            found[position] = Context(
                responding or turn.role == "unknown", describe_call(last) if last else "", words, asked, rejected,
                proposed,
            )
            span_text, span_calls = [], []
            asked = rejected = proposed = False
    return found


def hear(sentence: str, context: Context) -> WordRule | None:
    """The first rule that hears ``sentence`` as a correction in ``context`` (``None``: not a correction)."""
    question = sentence.rstrip().endswith("?")
    sentence = _QUOTED.sub('""', sentence)  # what the user quotes (an error, a log line) is not what they say
    if corrects_self(sentence):
        return None
    for rule in WORD_RULES:
        if question and not rule.questions:
            continue
        if rule.name in ("no", "dont", "comma-not") and context.asked and not context.rejected:
            continue  # "No, leave it", "don't delete it yet" and "the client, not the runner" answer its question
        if not rule.pattern.search(sentence):
            continue
        if rule.need == "after" and not context.responding:
            continue
        if rule.need == "touch" and not (context.rejected or (context.responding and touches(sentence, context))):
            continue
        return rule
    if context.rejected and not question and not ACKNOWLEDGEMENT.match(sentence):
        return REJECTED_RULE
    return None


def corrects_self(text: str) -> bool:
    """Whether the user is correcting their own words, not the agent ("sorry, I meant the connect timeout, not the
    read one", "my bad, the other bucket", "argh, sorry - I read the wrong row"), speaking of their own doing ("my
    mess, I'll stash them first", "not complaining, just curious", "wait, stop - never mind") or changing their own
    mind ("hmm, scrap the button actually - product decided ..."): nothing the agent should learn from."""
    return SELF_CORRECTION.search(text) is not None


def only_approves(text: str) -> bool:
    """Whether a reply opens by approving and nothing in it turns against what the agent did."""
    return APPROVING.match(text.strip()) is not None and TURNING.search(text) is None


def touches(sentence: str, context: Context) -> bool:
    """Whether ``sentence`` names something the agent just did (a content word in common)."""
    return bool(content_words(sentence) & context.words)


def sounds_like_correction(sentence: str) -> bool:
    """Whether ``sentence``'s words alone could make it a correction (whatever the context)."""
    return any(rule.pattern.search(sentence) for rule in WORD_RULES if rule.need != "touch")


REJECTED_RULE = WordRule("after-rejection", re.compile(""), 0.75, "after")
