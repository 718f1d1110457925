"""Tool parameters as annotated types: the JSON Schema (types, bounds, descriptions) MCP clients show agents."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

MemoryId = Annotated[str, Field(description="A memory id, e.g. MEM-20260201-001 (an old id resolves through aliases).")]
Worlds = Annotated[list[str] | None, Field(
    description="Only these worlds (namespaces, grimoires/<world>/memory/); default: all, or the server's --world.")]
World = Annotated[str | None, Field(
    description="The world to write to; default: the server's --world, else the config's default world.")]
Categories = Annotated[list[str] | None, Field(
    description="Only these categories: fact, decision, learning, error, preference, correction, procedure, "
                "episode, telos, ledger, handoff (or those the config adds).")]
Tags = Annotated[list[str] | None, Field(
    description="Tags (lower-case kebab-case); as a filter: entries with all of them.")]
Budget = Annotated[int | None, Field(ge=50, description="Token budget (default: the config's retrieval.budget, 1500).")]
Track = Annotated[bool, Field(description="Record that the returned memories were applied (local usage log, folded "
                                          "into effectiveness scores by `loa-memory score`).")]

Summary = Annotated[str | None, Field(max_length=200, description="One line; default: the content's first sentence.")]
Confidence = Annotated[float | None, Field(ge=0, le=1, description="0..1; default: the category's minimum or 0.8.")]
Ttl = Annotated[str | None, Field(pattern=r"^([0-9]+d|permanent)$",
                                  description="permanent, or days like 90d (default: the category's).")]
Trigger = Annotated[str | None, Field(description="correction: the action it guards, e.g. 'drop a database column'.")]
Lesson = Annotated[str | None, Field(description="correction: what to do instead, in the imperative.")]
Rationale = Annotated[str | None, Field(description="decision: why it was decided.")]
ErrorText = Annotated[str | None, Field(description="error: the error message.")]
Resolution = Annotated[str | None, Field(description="error: how it was resolved.")]
Context = Annotated[str | None, Field(description="preference: where it applies.")]
Evidence = Annotated[str | None, Field(description="fact/learning: what shows it.")]
Artifacts = Annotated[list[str] | None, Field(
    description="Files or folders this memory is about (repository-relative); `why PATH` finds it through them.")]
Agent = Annotated[str | None, Field(description="source.agent (default: $LOA_AGENT of the server).")]
Phase = Annotated[str | None, Field(description="source.phase (default: $LOA_PHASE of the server).")]
Extra = Annotated[dict[str, Any] | None, Field(
    description="Any other entry fields, as in `add --from-json` (e.g. title for a procedure, session_id/outcome "
                "for an episode); the named parameters override them.")]


class Alternative(BaseModel):
    """A rejected alternative of a decision."""

    option: str = Field(min_length=1, description="The option that was considered.")
    rejected_because: str | None = Field(None, description="Why it was not chosen.")


class Link(BaseModel):
    """A typed link to another memory."""

    to: str = Field(description="The linked memory's id.")
    relation: Literal["derived_from", "related_to", "contradicts", "elaborates", "example_of", "led_to",
                      "thread"] = Field("related_to", description="How this memory relates to it.")


Alternatives = Annotated[list[Alternative] | None, Field(description="decision: the rejected alternatives.")]
Links = Annotated[list[Link] | None, Field(description="Links to other memories.")]


def entry_fields(extra: dict[str, Any] | None, *, agent: str | None = None, phase: str | None = None,
                 **named: Any) -> dict[str, Any]:
    """A new entry's fields: ``extra`` overridden by the named parameters that were given (as ``add`` does).

    ``agent`` and ``phase`` go into ``source``; ``error_text`` is the ``error`` field; models become plain dicts.
    """
    fields = dict(extra or {})
    if "error_text" in named:
        named["error"] = named.pop("error_text")
    fields.update({key: _plain(value) for key, value in named.items() if value is not None})
    given = {key: value for key, value in (("agent", agent), ("phase", phase)) if value}
    if given and isinstance(fields.get("source") or {}, dict):  # any other source is refused by add_entry
        fields["source"] = {**(fields.get("source") or {}), **given}
    return fields


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_none=True)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
