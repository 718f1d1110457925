"""Write tools: add, supersede, feedback, session_end, through write/ (the lock, schema validation, the secret gate)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.types import CallToolResult
from pydantic import Field

from loa_memory.mcp.params import (
    Agent,
    Alternatives,
    Artifacts,
    Confidence,
    Context,
    ErrorText,
    Evidence,
    Extra,
    Lesson,
    Links,
    MemoryId,
    Phase,
    Rationale,
    Resolution,
    Summary,
    Tags,
    Trigger,
    Ttl,
    World,
    entry_fields,
)
from loa_memory.mcp.results import Backend
from loa_memory.store.config import Config

Content = Annotated[str, Field(min_length=1, description="The memory itself: what was decided, learned or found, "
                                                         "with enough context to act on it later.")]


class WriteTools(Backend):
    def add(
        self,
        category: Annotated[str, Field(description="fact, decision, learning, error, preference, correction, "
                                                   "procedure, episode, ledger or handoff (telos is for operators).")],
        content: Content,
        summary: Summary = None,
        tags: Tags = None,
        confidence: Confidence = None,
        ttl: Ttl = None,
        trigger: Trigger = None,
        lesson: Lesson = None,
        rationale: Rationale = None,
        alternatives: Alternatives = None,
        error: ErrorText = None,
        resolution: Resolution = None,
        context: Context = None,
        evidence: Evidence = None,
        artifacts: Artifacts = None,
        links: Links = None,
        fields: Extra = None,
        world: World = None,
        agent: Agent = None,
        phase: Phase = None,
    ) -> CallToolResult:
        """Add a memory. It is validated against the schema and secret-scanned, then appended under the lock.

        A refused write (invalid entry, a credential or personal data in it, unknown category) is a tool error
        and nothing is written. Returns the record of `loa-memory add --format json` (the id, path:line, entry).
        """
        from loa_memory.render.entries import written_text
        from loa_memory.write.add import add_entry, written_record

        entry = entry_fields(fields, agent=agent, phase=phase, category=category, content=content, summary=summary,
                             tags=tags, confidence=confidence, ttl=ttl, trigger=trigger, lesson=lesson,
                             rationale=rationale, alternatives=alternatives, error_text=error, resolution=resolution,
                             context=context, evidence=evidence, artifacts=artifacts, links=links)

        def work(config: Config) -> dict[str, Any]:
            return written_record(add_entry(config, entry, world=world or self.world))

        return self.call("add", work, written_text)

    def supersede(
        self,
        old_id: Annotated[str | list[str], Field(description="The id of the memory being replaced (it stays, "
                                                             "marked superseded_by, for audit), or a list of ids "
                                                             "when one new entry consolidates several.")],
        content: Content,
        category: Annotated[str | None, Field(description="Category of the new entry (default: the old "
                                                          "entry's).")] = None,
        summary: Summary = None,
        tags: Annotated[list[str] | None, Field(description="Tags (default: the old entry's).")] = None,
        confidence: Confidence = None,
        ttl: Ttl = None,
        trigger: Trigger = None,
        lesson: Lesson = None,
        rationale: Rationale = None,
        alternatives: Alternatives = None,
        error: ErrorText = None,
        resolution: Resolution = None,
        context: Context = None,
        evidence: Evidence = None,
        artifacts: Artifacts = None,
        links: Links = None,
        fields: Extra = None,
        agent: Agent = None,
        phase: Phase = None,
    ) -> CallToolResult:
        """Replace a memory (or several: a list of ids) with a new entry; they are linked (supersedes /
        superseded_by) in one transaction.

        Memories are immutable in meaning: change one by superseding it. Search and recall then show the new one.
        """
        from loa_memory.render.entries import written_text
        from loa_memory.write.add import supersede_entry, written_record

        entry = entry_fields(fields, agent=agent, phase=phase, category=category, content=content, summary=summary,
                             tags=tags, confidence=confidence, ttl=ttl, trigger=trigger, lesson=lesson,
                             rationale=rationale, alternatives=alternatives, error_text=error, resolution=resolution,
                             context=context, evidence=evidence, artifacts=artifacts, links=links)

        def work(config: Config) -> dict[str, Any]:
            return written_record(supersede_entry(config, old_id, entry)[0])

        return self.call("supersede", work, written_text)

    def feedback(
        self,
        memory_id: MemoryId,
        outcome: Annotated[Literal["success", "failure"], Field(description="Did applying the memory help?")],
        note: Annotated[str | None, Field(description="A short note (secret-scanned; kept in the local usage "
                                                      "log only).")] = None,
    ) -> CallToolResult:
        """Record whether a memory helped; `loa-memory score` folds it into the entry's effectiveness."""
        from loa_memory.lifecycle.feedback import record_feedback
        from loa_memory.render.lifecycle import feedback_text

        def work(config: Config) -> dict[str, Any]:
            return record_feedback(config, memory_id, outcome, note)

        return self.call("feedback", work, feedback_text)

    def session_end(
        self,
        summary: Annotated[str, Field(min_length=1, description="What was done and learned in this session.")],
        outcome: Annotated[str, Field(description="e.g. completed, partial, failed.")] = "completed",
        session_id: Annotated[str | None, Field(description="Default: $LOA_SESSION_ID / $CLAUDE_SESSION_ID of the "
                                                            "server, else one per server process.")] = None,
        tags: Tags = None,
        world: World = None,
    ) -> CallToolResult:
        """Record the session's summary as an episode (action_types: [session-summary]) for the next session."""
        from loa_memory.lifecycle.sessions import end_session
        from loa_memory.render.entries import written_text
        from loa_memory.write.add import written_record

        def work(config: Config) -> dict[str, Any]:
            return written_record(end_session(config, summary, outcome=outcome, session_id=session_id,
                                              tags=tags or (), world=world or self.world))

        return self.call("session_end", work, written_text)
