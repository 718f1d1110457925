"""What is worth remembering in a transcript: corrections, preferences, decisions, and errors with their fixes.

Deterministic rules over sentences; every rule is data (a pattern, a confidence, the speakers it applies to)
in ``RULES`` (and ``corrections.WORD_RULES``), tried in order, so one sentence yields at most one cue.
Examples each rule is meant to catch:

- correction (the user's), heard by ``capture/corrections.py`` with what the agent had just done: "No, actually
  the migrations live in db/migrations." / "That's wrong." / "Don't call requests directly, use the client
  wrapper instead." / "Stop adding docstrings to tests." / "Use pnpm, not npm." / "we never force-push to main"
  (after ``git push --force``).
- preference (the user's): "Always run ruff before committing." / "Never squash merge." /
  "I'd rather have small modules." / "I prefer pytest fixtures over mocks." / "From now on, write tests first."
- decision (anyone's; weaker from the assistant): "Let's go with SQLite instead of Redis because ..." /
  "We decided to pin numpy." / "The decision is to drop Python 3.10."
- error: an error line in any turn (a traceback's last line, ``SomethingError: ...``, ``error: ...``,
  ``fatal: ...``, ``npm ERR! ...``, ``FAILED ...``) that a later turn resolves ("fixed it by ...",
  "the fix was ...", "resolved by ...", "the problem was ...", "turns out ..."). An error never resolved
  is reported as such and not captured.

Questions (sentences ending in ``?``) and fenced code never count as speech.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from loa_memory.capture.corrections import (
    ACKNOWLEDGEMENT,
    REPEATED,
    Context,
    contexts,
    corrects_self,
    hear,
    only_approves,
)
from loa_memory.capture.likeness import THRESHOLD as LIKENESS_THRESHOLD
from loa_memory.capture.likeness import Likeness
from loa_memory.capture.transcript import Role, ToolCall, Turn

Kind = Literal["correction", "preference", "decision", "error"]
_USER: frozenset[Role] = frozenset({"user", "unknown"})
_ANYONE: frozenset[Role] = frozenset({"user", "unknown", "assistant"})
_I = re.IGNORECASE


@dataclass(frozen=True)
class Rule:
    kind: Kind
    pattern: re.Pattern[str]
    confidence: float
    roles: frozenset[Role]


def _rule(kind: Kind, pattern: str, confidence: float, roles: frozenset[Role] = _USER) -> Rule:
    return Rule(kind, re.compile(pattern, _I), confidence, roles)


RULES: tuple[Rule, ...] = (
    _rule("decision", r"\b(?:we|i)(?:'ve| have)?\s+decided\s+(?:to\s+|on\s+|that\s+)?(?P<choice>.+)", 0.75, _ANYONE),
    _rule("decision", r"\b(?:the|our|my)\s+decision\s+(?:is|was)\s*:?\s*(?:to\s+)?(?P<choice>.+)", 0.75, _ANYONE),
    _rule("decision", r"\blet'?s\s+(?:go with|use|pick|choose|stick with|keep|adopt|switch to|go for)\s+"
                      r"(?P<choice>.+)", 0.7, _ANYONE),
    _rule("decision", r"\b(?:we|i)(?:'ll| will|'re going to| are going to)\s+go with\s+(?P<choice>.+)", 0.7,
          _ANYONE),
    _rule("preference", r"^(?:please\s+)?(?:always|never)\s+(?!mind\b)\w+", 0.8),
    _rule("preference", r"\bfrom now on\b", 0.75),
    _rule("preference", r"\bi(?:'d| would)\s+(?:rather|prefer)\b|\bi\s+prefer\b|^prefer\s+\w+|"
                        r"\b(?:my|our)\s+preference\s+is\b", 0.75),
    _rule("preference", r"\b(?:we|i)\s+(?:always|never)\s+(?!mind\b)\w+", 0.7),
)

_TRACEBACK = "Traceback (most recent call last):"
_ERROR_LINES = (
    re.compile(r"^\s*(?:E\s+)?(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Failure|Fault)\b(?:\[[\w-]+\])?:"
               r"\s*\S.*$"),
    re.compile(r"^\s*(?:error|fatal|panic)(?:\[[\w-]+\])?:\s+\S.*$", _I),
    re.compile(r"^npm ERR! .+$"),
    re.compile(r"^FAILED \S+.*$"),
)
RESOLVED = re.compile(r"\b(?:fixed (?:it |this |that |the \w+ )?by|the fix (?:was|is)|(?:was |is )?resolved "
                       r"(?:it |this )?by|solved (?:it |this )?by|the (?:root )?(?:cause|problem|issue) (?:was|is)|"
                       r"it turned out|turns out)\b", _I)
LEAD = re.compile(r"^(?:(?:(?:no|nope|nah)(?=\s*[,.!:;—-])|wait|actually|ok|okay|hmm|well|again|please|pls|"
                   r"plz|but|and|so|thanks|thank you|one (?:more )?thing|"
                   r"good(?: find)?|yes(?: please)?|great|nice|as i said|like i said|" + REPEATED + "|"
                   r"i(?:'ve| have)? (?:already )?told you"
                   r"(?: (?:last time|before|already|twice))?|(?:that'?s|that is|this is|it'?s) "
                   r"(?:wrong|incorrect|not right))\b[\s,.!:;—-]*)+", _I)
# a lesson that starts with code keeps its case: ``serializeOrder(...)``, ``ds.get``
_CODE_START = re.compile(r"(?<![A-Za-z0-9])[a-z][a-z0-9]*(?:[A-Z_(\[$]|\.\w)")
_EXPLICIT_TRIGGER = (re.compile(r"\b(?:don'?t|dont|do not|never)\s+(?P<x>[^,;—]+?)(?:\s*[,;—.]|\s+-+\s|$)", _I),
                     re.compile(r"\b(?:stop|quit)\s+(?P<x>\w+ing\b[^,;.—]*?)(?:\s+-+\s|\s*[,;.—]|$)", _I))
_REASON = re.compile(r"\b(?:because|since|as it|as they|so that)\s+(?P<why>.+?)[.!]?$", _I)
_ALTERNATIVE = re.compile(r"\b(?:instead of|rather than|over)\s+(?P<alt>.+?)(?=\s+(?:because|since|as it|as they|"
                          r"so that)\b|[,;.!]|$)", _I)
_CHOICE_END = re.compile(r"(?<!\s)\s+(?:because|since|as it|as they|so that|instead of|rather than|over)\b|[,;]", _I)
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
QUOTE_LIMIT = 1000
ANSWER_SENTENCES = 2  # of the agent's answer to a correction, kept as its resolution
_WHOLE_TURN = 4  # a correction's lesson is its whole turn up to this many sentences, else it and the next two
LEAVE_THRESHOLD = -0.02  # likeness a reply to the agent asking leave needs (a plain "no, leave it" only declines)
LIKENESS_CONFIDENCE = 0.65  # below every wording rule's: likeness is the weaker evidence


@dataclass(frozen=True)
class Cue:
    """A signal found in a transcript: the quoted evidence, how strong it is, and kind-specific fields."""

    kind: Kind
    turn: Turn
    evidence: tuple[str, ...]
    confidence: float
    fields: dict[str, Any] = field(default_factory=dict)
    end: int = 0  # last transcript line the evidence comes from

    @property
    def resolved(self) -> bool:
        return self.kind != "error" or bool(self.fields.get("resolution"))


def sentences(text: str) -> list[str]:
    """The sentences of a turn's speech (fenced code removed, one list item or line at a time)."""
    found: list[str] = []
    for line in _FENCE.sub("\n", text).splitlines():
        line = _BULLET.sub("", line).strip().strip("*_").strip()
        if line and not line.startswith(">"):
            found.extend(s.strip() for s in _SENTENCE_END.split(line) if s.strip())
    return found


def _quote(text: str) -> str:
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT - 3].rstrip() + "..."


def detect(turns: Sequence[Turn], calls: Sequence[ToolCall] = (),
           likeness: Callable[[], Likeness | None] | None = None) -> Iterator[Cue]:
    """Every cue in ``turns``, in transcript order (errors when their resolution, or the end, is reached);
    ``calls``, the agent's tool calls, tell what a user's correction answers (``capture/corrections.py``);
    ``likeness``, when given, provides what hears the replies to the agent no wording rule heard
    (``capture/likeness.py``); it is asked for only when there is such a reply (it loads the embedder)."""
    heard = contexts(turns, calls)
    found = list(_detect(turns, heard))
    covered = {cue.turn.line for cue in found}  # a turn a rule heard as anything keeps what the rule heard
    unheard = [(position, turn) for position, turn in enumerate(turns)
               if turn.role == "user" and turn.line not in covered and _may_correct(turn, heard.get(position))]
    judge = likeness() if likeness is not None and unheard else None
    if judge is not None:
        scores = judge.scores([turn.text for _, turn in unheard])
        extra = [_liked(turn, heard[position]) for (position, turn), score in zip(unheard, scores, strict=True)
                 if score >= (LEAVE_THRESHOLD if _answers_leave(heard[position]) else LIKENESS_THRESHOLD)]
        found = _merged(found, extra)
    position_of = {id(turn): position for position, turn in enumerate(turns)}
    for cue in found:
        answer = _answer(turns, position_of[id(cue.turn)]) if cue.kind == "correction" else ""
        yield replace(cue, fields={**cue.fields, "resolution": answer}) if answer else cue


def _merged(found: list[Cue], extra: list[Cue]) -> list[Cue]:
    """The cues likeness heard placed among the others by their turn's line (``found`` keeps its order)."""
    merged: list[Cue] = []
    for cue in found:
        while extra and extra[0].turn.line < cue.turn.line:
            merged.append(extra.pop(0))
        merged.append(cue)
    return merged + extra


def _answer(turns: Sequence[Turn], position: int) -> str:
    """What the agent said to a correction: the first sentences of its next words before the user speaks again
    ("Sorry - I shouldn't have applied. From now on I'll stop after `terraform plan`."), kept as the episode's
    ``resolution`` for whoever reviews it (``promote`` does not compare it: see ``lifecycle.promote.cue_text``)."""
    for turn in turns[position + 1:]:
        if turn.role in _USER:
            return ""
        said = sentences(turn.text) if turn.role == "assistant" else []
        if said:
            return _quote(" ".join(said[:ANSWER_SENTENCES]))
    return ""


def _may_correct(turn: Turn, context: Context | None) -> bool:
    """A user turn that answers the agent (not its question, unless a call was rejected) with more than thanks or
    approval, and does not correct the user's own words."""
    if context is None or not context.responding or (context.asked and not context.rejected and not context.proposed):
        return False
    said = sentences(turn.text)
    return (bool(said) and not all(ACKNOWLEDGEMENT.match(s) for s in said) and not corrects_self(turn.text)
            and not only_approves(turn.text))


def _answers_leave(context: Context) -> bool:
    """The reply answers the agent asking leave ("Shall I do that?"): a plain "no" declines, so likeness asks more."""
    return context.proposed and not context.rejected  # proposed: the agent's last words asked (``asks_leave``)


def _liked(turn: Turn, context: Context) -> Cue:
    """The correction cue of a turn heard by likeness: its first sentences, as a rule's would be."""
    said = sentences(turn.text)
    quote = " ".join(said[:2]) if len(said[0].split()) <= 4 else said[0]
    told = " ".join(said if len(said) <= _WHOLE_TURN else said[:3])
    return Cue("correction", turn, (_quote(quote),), LIKENESS_CONFIDENCE, _fields("correction", quote, context.action,
                                                                                  told), turn.end)


def _detect(turns: Sequence[Turn], heard: dict[int, Context]) -> Iterator[Cue]:
    pending: list[Cue] = []
    previous_assistant = ""
    for position, turn in enumerate(turns):
        if turn.role != "tool":
            yield from _speech_cues(turn, previous_assistant, heard.get(position, Context()))
            resolution = next((s for s in sentences(turn.text) if RESOLVED.search(s) and not s.endswith("?")), None)
            if resolution and pending:
                error = pending.pop()
                fields = {**error.fields, "resolution": _quote(resolution)}
                yield Cue("error", error.turn, (*error.evidence, _quote(resolution)), error.confidence, fields,
                          turn.end)
        error_cue = _error_cue(turn)
        if error_cue and all(p.fields["error"] != error_cue.fields["error"] for p in pending):
            pending.append(error_cue)
        if turn.role == "assistant":
            first = sentences(turn.text)
            previous_assistant = first[0] if first else previous_assistant
    yield from pending


def _classify(sentence: str, role: Role, context: Context, corrected: bool) -> tuple[Kind, float] | None:
    """A sentence's cue: a correction heard by words alone first, then a decision, then a correction heard
    with the help of what the agent did, then a preference."""
    heard = hear(sentence, context) if role in _USER and not corrected else None
    if heard is not None and heard.need == "any":
        return "correction", heard.confidence
    question = sentence.endswith("?")
    rule = next((r for r in RULES if role in r.roles and not question and r.pattern.search(sentence)), None)
    if rule is not None and rule.kind == "decision":
        return rule.kind, rule.confidence
    if heard is not None:
        return "correction", heard.confidence
    if rule is None or (corrected and rule.kind == "preference"):  # "Never log it." explains the turn's correction
        return None
    return rule.kind, rule.confidence


def _speech_cues(turn: Turn, previous_assistant: str, context: Context) -> Iterator[Cue]:
    said = sentences(turn.text)
    skip = False
    corrected = turn.role in _USER and corrects_self(turn.text)  # a turn that corrects the user's own words
    for index, sentence in enumerate(said):
        if skip:
            skip = False
            continue
        found = _classify(sentence, turn.role, context, corrected)
        if found is None:
            continue
        kind, confidence = found
        quote = sentence
        if kind == "correction" and len(sentence.split()) <= 4 and index + 1 < len(said):
            quote = f"{sentence} {said[index + 1]}"  # "No." / "That's wrong." then what to do
            skip = True
        corrected = corrected or kind == "correction"  # one correction a turn: the rest of it explains the first
        confidence -= 0.1 if turn.role == "unknown" else 0.0
        told = " ".join(said if len(said) <= _WHOLE_TURN else said[index:index + 3])
        fields = _fields(kind, quote, context.action or previous_assistant, told)
        if kind == "decision":
            confidence += 0.1 if fields.get("rationale") else 0.0
            confidence -= 0.1 if turn.role == "assistant" else 0.0
        yield Cue(kind, turn, (_quote(quote),), round(min(confidence, 0.9), 2), fields, turn.end)


def _fields(kind: Kind, quote: str, previous_assistant: str, told: str = "") -> dict[str, Any]:
    if kind == "correction":
        trigger = next((m["x"].strip() for p in _EXPLICIT_TRIGGER if (m := p.search(quote))), "")
        lesson = LEAD.sub("", told or quote).strip() or quote
        return {"trigger": _quote(trigger or previous_assistant or quote),
                "lesson": _quote(lesson if _CODE_START.match(lesson) else lesson[:1].upper() + lesson[1:])}
    if kind == "decision":
        fields: dict[str, Any] = {}
        reason = _REASON.search(quote)
        if reason:
            fields["rationale"] = reason["why"].strip()
        alternatives = [m["alt"].strip() for m in _ALTERNATIVE.finditer(quote) if m["alt"].strip()]
        if alternatives:
            fields["alternatives"] = [{"option": alt} for alt in dict.fromkeys(alternatives)]
        return fields
    return {}


def _error_cue(turn: Turn) -> Cue | None:
    found = error_line(turn.text)
    if not found:
        return None
    error = _quote(found[0])
    return Cue("error", turn, (error,), 0.75 if found[1] else 0.65, {"error": error}, turn.end)


def error_line(text: str) -> tuple[str, bool] | None:
    """The line of ``text`` that states an error (a traceback's last line first), and whether it is an
    exception line (a strong sign) rather than an ``error:``-style line."""
    lines = text.splitlines()
    found: str | None = None
    strong = False
    if _TRACEBACK in text:
        after = lines[[i for i, line in enumerate(lines) if _TRACEBACK in line][-1]:]
        found = next((line for line in reversed(after) if _ERROR_LINES[0].match(line)), None)
        strong = found is not None
    for pattern in _ERROR_LINES:
        if found:
            break
        found = next((line for line in lines if pattern.match(line)), None)
        strong = pattern is _ERROR_LINES[0]
    if not found:
        return None
    return found.strip().removeprefix("E ").strip(), strong
