"""Read tools: search, recall, cues_for_action, why, show, list, lint, session_start (each the library call of its
CLI command; cues_for_action that of `recall --hook-input` on a tool call)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.types import CallToolResult
from pydantic import Field

from loa_memory.mcp.params import Budget, Categories, MemoryId, Tags, Track, Worlds
from loa_memory.mcp.results import Backend
from loa_memory.store.config import Config

TaskType = Literal["auto", "exploration", "implementation", "debugging", "review", "refactoring"]
Status = Literal["active", "superseded", "expired", "archived", "all"]


class ReadTools(Backend):
    def search(
        self,
        query: Annotated[str, Field(min_length=1, description="What to look for, in words (e.g. 'why postgres').")],
        k: Annotated[int | None, Field(ge=1, le=200, description="How many results (default: "
                                                                 "retrieval.max_per_query, 10).")] = None,
        categories: Categories = None,
        tags: Tags = None,
        worlds: Worlds = None,
        history: Annotated[bool, Field(description="Include superseded, expired and archived entries (replaced "
                                                   "entries rank below their successors).")] = False,
        mode: Annotated[Literal["hybrid", "lexical", "semantic"] | None, Field(
            description="Retrieval mode (default: retrieval.mode, hybrid = words + meaning).")] = None,
        min_confidence: Annotated[float | None, Field(ge=0, le=1, description="Drop entries below this "
                                                                              "confidence.")] = None,
        explain: Annotated[bool, Field(description="Add each result's lexical and semantic ranks and "
                                                   "weights.")] = False,
        track: Track = False,
    ) -> CallToolResult:
        """Find memories by words and meaning (hybrid full-text + embeddings search), best first.

        Current knowledge only by default: a superseded entry stands aside for its successor. Returns the same
        record as `loa-memory search --format json`.
        """
        from loa_memory.render.search import search_text
        from loa_memory.search.search import RELEVANCE_FLOOR, SearchOptions, max_per_query, search_record
        from loa_memory.search.search import search as run_search

        def work(config: Config) -> dict[str, Any]:
            options = SearchOptions(query, max_per_query(config, k), categories or (), tags or (),
                                    self.worlds(config, worlds), history, mode, min_confidence, RELEVANCE_FLOOR)
            result = run_search(config, options)
            if track:
                from loa_memory.lifecycle.usage import record_applications

                record_applications(config, [h.entry.id for h in result.hits], source="search", query=query)
            return search_record(config, query, result, explain)

        return self.call("search", work, search_text)

    def recall(
        self,
        task: Annotated[str, Field(min_length=1, description="The task about to be done, in a sentence (e.g. "
                                                             "'write a migration that drops a column').")],
        budget: Budget = None,
        task_type: Annotated[TaskType, Field(description="Weights categories for the kind of task (auto: "
                                                         "detected from the wording).")] = "auto",
        worlds: Worlds = None,
        track: Track = False,
    ) -> CallToolResult:
        """What to know before a task, within a token budget: call it before starting work.

        Corrections come first as imperatives ("BEFORE <action>: <lesson>"), then preferences, an index of the
        relevant memories, recent decisions, and full entries while the budget lasts. The text is Markdown for
        a prompt; the structured content is the record of `loa-memory recall --format json`.
        """
        from loa_memory.answer.recall import RecallOptions, recall_budget, recall_record
        from loa_memory.lifecycle.recall_log import serve_recall
        from loa_memory.render.recall import recall_markdown

        def work(config: Config) -> dict[str, Any]:
            options = RecallOptions(task, recall_budget(config, budget), None if task_type == "auto" else task_type,
                                    self.worlds(config, worlds))
            return recall_record(serve_recall(config, options, track=track))

        return self.call("recall", work, recall_markdown)

    def cues_for_action(
        self,
        kind: Annotated[Literal["edit", "write", "command"], Field(
            description="edit: change part of a file; write: create or overwrite a file; command: run a shell "
                        "command.")],
        paths: Annotated[list[str] | None, Field(description="The files it touches (absolute or relative to the "
                                                             "repository root).")] = None,
        text: Annotated[str, Field(description="The new text of the change, the file's content, or the "
                                               "command.")] = "",
        removed: Annotated[str, Field(description="For an edit: the text it replaces.")] = "",
        description: Annotated[str, Field(description="What the action is for, in a sentence.")] = "",
        session_id: Annotated[str | None, Field(description="The agent's session, for the cue log.")] = None,
    ) -> CallToolResult:
        """The corrections that bear on an action you are about to take: call it before an edit, a write or a
        shell command that could be risky (a migration, a push, a dependency, a deploy...).

        Each cue is `BEFORE <trigger>: <lesson> (MEM-...)`; `severity: block` ones should be confirmed with the user
        first. An empty `cues` list means nothing applies. The same matcher as `recall --hook-input` on a Claude
        Code PreToolUse call.
        """
        from loa_memory.answer.cues import Action, action_record
        from loa_memory.answer.cues.action import edit_action
        from loa_memory.lifecycle.recall_log import serve_action_cues
        from loa_memory.render.action_cues import action_cues_text

        def work(config: Config) -> dict[str, Any]:
            # an edit of one file is read in that file, as at PreToolUse
            action = (edit_action(tuple(paths or ()), [(removed, text, False)],
                                  config.root / paths[0] if paths and len(paths) == 1 else None, description)
                      if kind == "edit" else Action(kind, tuple(paths or ()), text, removed, description))
            return action_record(serve_action_cues(config, action, session_id=session_id))

        return self.call("cues_for_action", work, action_cues_text)

    def why(
        self,
        target: Annotated[str, Field(min_length=1, description="A path relative to the repository root (file or "
                                                               "folder), PATH:LINE (via git blame), or a question.")],
        worlds: Worlds = None,
        k: Annotated[int | None, Field(ge=1, description="At most this many results (default: all for a path, "
                                                         "retrieval.max_per_query for a question).")] = None,
    ) -> CallToolResult:
        """The decisions and lessons behind a file, a line or a question, with their rejected alternatives."""
        from loa_memory.answer.why import why as explain
        from loa_memory.answer.why import why_record
        from loa_memory.render.why import why_text

        def work(config: Config) -> dict[str, Any]:
            return why_record(explain(config, target, worlds=self.worlds(config, worlds), k=k, cwd=self.root))

        return self.call("why", work, why_text)

    def show(self, memory_id: MemoryId, worlds: Worlds = None) -> CallToolResult:
        """One memory in full, with its supersede chain both ways, its links and backlinks."""
        from loa_memory.answer.browse import show_record
        from loa_memory.render.entries import show_text
        from loa_memory.store.load import load_grimoire

        def work(config: Config) -> dict[str, Any]:
            return show_record(load_grimoire(config, self.worlds(config, worlds) or None), memory_id)

        return self.call("show", work, show_text)

    def list_(
        self,
        categories: Categories = None,
        statuses: Annotated[list[Status] | None, Field(description="Only entries of these statuses "
                                                                   "(default: active).")] = None,
        tags: Tags = None,
        worlds: Worlds = None,
        limit: Annotated[int | None, Field(ge=1, description="At most this many entries (oldest first).")] = None,
    ) -> CallToolResult:
        """List memories (active ones by default), oldest first, with the problems found in memory files."""
        from loa_memory.answer.browse import ListFilter, list_entries, list_record
        from loa_memory.render.entries import list_text
        from loa_memory.store.load import load_grimoire

        def work(config: Config) -> dict[str, Any]:
            chosen = self.worlds(config, worlds)
            for name in categories or ():
                config.category(name)
            grimoire = load_grimoire(config, chosen or None)
            options = ListFilter(categories or (), statuses or ("active",), tags or (), chosen, limit)
            return list_record(grimoire, list_entries(grimoire, options))

        return self.call("list", work, list_text)

    def lint(
        self,
        paths: Annotated[list[str] | None, Field(description="Only these memory files (repository-relative); "
                                                             "default: all.")] = None,
        rules: Annotated[list[str] | None, Field(description="Run only these rules (e.g. schema, secret, "
                                                             "duplicate-id).")] = None,
        worlds: Worlds = None,
        base: Annotated[str | None, Field(description="Also check against git history since this ref (governance, "
                                                      "id collisions), e.g. origin/main.")] = None,
    ) -> CallToolResult:
        """Check the memory files: schema, YAML, duplicate ids, broken links, expiry, secrets and more.

        The findings are data, not a failure: the record is `loa-memory lint --format json`'s.
        """
        from loa_memory.lint import LintOptions, run_lint
        from loa_memory.render.lint import lint_record, record_text

        def work(config: Config) -> dict[str, Any]:
            files = [str(self.root / p) for p in paths or ()]
            result = run_lint(config, LintOptions(files, rules or (), self.worlds(config, worlds), base))
            return lint_record(result.findings, result.files)

        return self.call("lint", work, record_text)

    def session_start(self, budget: Budget = None, worlds: Worlds = None) -> CallToolResult:
        """The session brief: telos (purpose), corrections and preferences, recent decisions, last sessions.

        Call it once at the start of a session; the text is Markdown for a prompt.
        """
        from loa_memory.lifecycle.sessions import brief_options, session_start_record, start_session
        from loa_memory.render.lifecycle import session_markdown

        def work(config: Config) -> dict[str, Any]:
            return session_start_record(start_session(config, brief_options(config, budget,
                                                                            self.worlds(config, worlds))))

        return self.call("session_start", work, session_markdown)
