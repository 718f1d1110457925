"""``search``, ``index`` and ``why``."""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

import click

from loa_memory.cli.common import (
    State,
    emit,
    format_option,
    note_not_embedded,
    pass_state,
    progress_bar,
    say_on_stderr,
    split_csv,
    warn_skipped,
)

if TYPE_CHECKING:
    from loa_memory.agents.hook_input import HookInput


@click.command()
@click.argument("query")
@click.option("-k", "k", type=click.IntRange(1), default=None,
              help="How many results (default: retrieval.max_per_query).")
@click.option("--category", "categories", multiple=True, help="Only these categories (comma-separated, repeatable).")
@click.option("--tag", "tags", multiple=True, help="Only entries with all these tags.")
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@click.option("--history", is_flag=True, help="Include superseded, expired and archived entries (replaced entries "
              "always rank below their successors).")
@click.option("--mode", type=click.Choice(["hybrid", "lexical", "semantic"]), default=None,
              help="Retrieval mode (default: retrieval.mode, hybrid).")
@click.option("--min-confidence", type=click.FloatRange(0, 1), default=None, help="Drop entries below this.")
@click.option("--explain", is_flag=True, help="Show each result's lexical and semantic ranks and weights.")
@click.option("--track", is_flag=True, help="Record that these results were applied (effectiveness scoring).")
@click.option("--profile", metavar="NAME", help="Rank with this weight profile (its fusion weights, and its category "
              "weights for the task type the query describes); see `loa-memory weights status`.")
@format_option()
@pass_state
def search(state: State, /, query: str, k: int | None, categories: tuple[str, ...], tags: tuple[str, ...],
           worlds: tuple[str, ...], history: bool, mode: str | None, min_confidence: float | None, explain: bool,
           track: bool, profile: str | None, fmt: str | None) -> None:
    """Find memories by words and meaning."""
    from loa_memory.render.search import search_text
    from loa_memory.search.search import RELEVANCE_FLOOR, SearchOptions, max_per_query, search_record
    from loa_memory.search.search import search as run_search

    config = state.config()
    options = SearchOptions(query, max_per_query(config, k), split_csv(categories), split_csv(tags), worlds, history,
                            mode, min_confidence, RELEVANCE_FLOOR)  # type: ignore[arg-type]
    weights = None
    if profile:
        from loa_memory.tuning.profiles import query_weights

        weights = query_weights(config, profile, query)
    result = run_search(config, options, weights=weights, progress=progress_bar())
    if track:
        from loa_memory.lifecycle.usage import record_applications

        record_applications(config, [h.entry.id for h in result.hits], source="search", query=query)
    data = search_record(config, query, result, explain)
    emit(state, fmt, data, search_text)
    warn_skipped(data["problems"])
    note_not_embedded(data["not_embedded"])


@click.command()
@click.option("--rebuild", is_flag=True, help="Throw the index and vectors away and build them again.")
@click.option("--no-embed", is_flag=True, help="Only the full-text index, no embeddings.")
@click.option("--quiet", is_flag=True, help="Print nothing, and do nothing if another index is already embedding "
              "this repository (what read commands start in the background).")
@format_option()
@pass_state
def index(state: State, /, rebuild: bool, no_embed: bool, quiet: bool, fmt: str | None) -> None:
    """Refresh the search index and the embeddings sidecar (normally automatic; derived, under .loa/).

    Vectors already in the user's vector cache (made in another clone or worktree) are taken from it, not
    embedded again; on a terminal a progress bar shows the rate and the time left.
    """
    from loa_memory.render.search import index_text
    from loa_memory.search.build import build_index

    report = build_index(state.config(), rebuild=rebuild, embed=not no_embed, alone=quiet,
                         progress=None if quiet else progress_bar(), say=say_on_stderr(quiet))
    if not quiet:
        emit(state, fmt, report, index_text)


@click.command()
@click.argument("task", required=False)
@click.option("--budget", type=click.IntRange(50), default=None, help="Token budget (default: retrieval.budget).")
@click.option("--task-type", type=click.Choice(["auto", "exploration", "implementation", "debugging", "review",
                                                "refactoring"]), default="auto", show_default=True)
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@click.option("--track", is_flag=True, help="Record that these memories were applied (effectiveness scoring).")
@click.option("--hook-input", is_flag=True,
              help="Take TASK from an agent hook's JSON on stdin (`prompt`, as Claude Code's UserPromptSubmit passes "
                   "it) and print nothing when nothing bears on it; on a PreToolUse input, answer the corrections "
                   "that bear on the tool call as Claude Code's hook JSON.")
@click.option("--profile", metavar="NAME", help="Use this weight profile (default: the adaptive policy's pick when "
              "retrieval.adaptive is on, else retrieval.profile).")
@click.option("--format", "fmt", type=click.Choice(["markdown", "text", "json", "yaml"]), default=None,
              help="markdown (default, for a prompt), json for agents.")
@pass_state
def recall(state: State, /, task: str | None, budget: int | None, task_type: str, worlds: tuple[str, ...],
           track: bool, hook_input: bool, profile: str | None, fmt: str | None) -> None:
    """What to know before TASK: corrections as imperatives, then relevant memories, within a budget.

    Every recall is logged locally (.loa/token_economics.jsonl) with its recall_id, token economics and the
    weight profile that served it; `feedback --recall ID` judges it, `stats --economics` reads the log.

    \b
    loa-memory recall "write a migration that drops the legacy_flag column"
    echo '{"prompt": "add a CSV export"}' | loa-memory recall --hook-input
    echo '{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git push -f"}}' \\
      | loa-memory recall --hook-input
    """
    from loa_memory.answer.recall import RecallOptions, has_findings, recall_budget, recall_record
    from loa_memory.errors import UsageError
    from loa_memory.lifecycle.recall_log import serve_recall
    from loa_memory.render.recall import recall_markdown
    from loa_memory.search.retriever import deferred_embedding

    session = None
    if hook_input:
        from loa_memory.agents.hook_input import MAX_HOOK_INPUT_CHARS, parse_hook_input
        from loa_memory.agents.tool_call import is_tool_call
        from loa_memory.search.search import MAX_QUERY_CHARS

        raw = sys.stdin.read(MAX_HOOK_INPUT_CHARS + 1)
        if len(raw) > MAX_HOOK_INPUT_CHARS:  # a hook must not fail (exit 2 blocks the agent): say so, recall nothing
            click.echo(f"loa-memory: the hook input is over {MAX_HOOK_INPUT_CHARS:,} characters; nothing recalled",
                       err=True)
            return
        hook = parse_hook_input(raw)
        if is_tool_call(hook):
            _tool_call_cues(state, hook)
            return
        prompt = hook.prompt
        if prompt and len(prompt) > MAX_QUERY_CHARS:
            click.echo(f"loa-memory: the prompt is {len(prompt):,} characters; recalled for its first "
                       f"{MAX_QUERY_CHARS:,}", err=True)
            prompt = prompt[:MAX_QUERY_CHARS]
        task, session = task or prompt, hook.session_id
        if not task:
            return  # an empty prompt: nothing to recall, and a hook must not fail on it
    if not task or not task.strip():
        raise UsageError("recall needs a TASK", hint='e.g. `loa-memory recall "add a CSV export endpoint"`')
    config = state.config()
    options = RecallOptions(task, recall_budget(config, budget),
                            None if task_type == "auto" else task_type, worlds,  # type: ignore[arg-type]
                            profile=profile)
    with deferred_embedding() if hook_input else contextlib.nullcontext():  # a hook answers within its time limit
        result = serve_recall(config, options, track=track, session_id=session)
    data = recall_record(result)
    if hook_input and not has_findings(result):
        if result.problems:  # nothing bears on the task, but the agent should know memories are missing
            from loa_memory.render.problems import context_line

            click.echo(context_line(data["problems"]))
        return
    fmt = fmt or ("markdown" if state.fmt == "text" else state.fmt)
    emit(state, "text" if fmt == "markdown" else fmt, data, recall_markdown)
    if not hook_input:  # a hook's stderr reaches no one: the line in its output above tells the agent
        warn_skipped(data["problems"])
        note_not_embedded(data["not_embedded"])


def _tool_call_cues(state: State, hook: HookInput) -> None:
    """A PreToolUse input: the corrections that bear on the tool call, as Claude Code's hook JSON (nothing when
    none does, or the tool changes nothing)."""
    from loa_memory.agents.tool_call import action_from_hook
    from loa_memory.answer.cues import action_record
    from loa_memory.lifecycle.recall_log import serve_action_cues
    from loa_memory.render.action_cues import pretooluse_output
    from loa_memory.search.retriever import deferred_embedding

    action = action_from_hook(hook)
    if action is None:
        return
    with deferred_embedding():
        result = serve_action_cues(state.config(), action, session_id=hook.session_id)
    output = pretooluse_output(action_record(result))
    if output:
        click.echo(output)


@click.command()
@click.argument("target")
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@click.option("-k", "k", type=click.IntRange(1), default=None,
              help="At most this many results (default: all for a path, retrieval.max_per_query for a question).")
@format_option()
@click.pass_context
def why(ctx: click.Context, target: str, worlds: tuple[str, ...], k: int | None, fmt: str | None) -> None:
    """The decisions and lessons behind a file, a line, or a question. Exits 1 if none are found.

    A decision thread (entries sharing `thread:`) comes back whole, oldest first; a "why didn't we use X"
    question ranks the negative results (attempted, failure_reason, led_to) and rejected alternatives about X first.

    \b
    loa-memory why src/db/migrations/0042.py:17
    loa-memory why src/db/
    loa-memory why "why did we pick URL path versioning"
    """
    from loa_memory.answer.why import why as explain
    from loa_memory.answer.why import why_record
    from loa_memory.render.why import why_text

    state: State = ctx.obj
    config = state.config()
    for world in worlds:
        config.world(world)
    result = explain(config, target, worlds=worlds, k=k)
    data = why_record(result)
    emit(state, fmt, data, why_text)
    warn_skipped(data["problems"])
    note_not_embedded(data["not_embedded"])
    ctx.exit(0 if result.items else 1)
