"""Lifecycle commands: archive, feedback, promote, score, session start|end, stats."""

from __future__ import annotations

import click

from .common import State, emit, format_option, pass_state


@click.command()
@click.option("--dry-run", is_flag=True, help="Only list what would move, and what expires soon.")
@click.option("--check", is_flag=True, help="Like --dry-run, but exit 1 when something is due (for hooks and CI).")
@format_option()
@click.pass_context
def archive(ctx: click.Context, dry_run: bool, check: bool, fmt: str | None) -> None:
    """Move expired, long-superseded and ineffective entries to archive/ (one transaction).

    \b
    loa-memory archive --dry-run      # what would move, and what expires within warn_before_archive_days
    loa-memory archive                # move it; `git diff` shows the moves
    """
    from ..ops.archival import archive_grimoire, plan_record
    from ..render.lifecycle import archive_text

    state: State = ctx.obj
    plan = archive_grimoire(state.config(), dry_run=dry_run or check)
    emit(state, fmt, plan_record(plan), archive_text)
    ctx.exit(1 if check and plan.due else 0)


@click.command()
@click.argument("memory_id", required=False)
@click.option("--outcome", type=click.Choice(["success", "failure"]), required=True,
              help="Did applying the memory (or the recall) help?")
@click.option("--recall", "recall_id", metavar="RECALL_ID",
              help="The recall this outcome belongs to (its recall_id); alone, it judges the whole recall.")
@click.option("--note", help="A short note (secret-scanned; kept in the local usage log only).")
@format_option()
@pass_state
def feedback(state: State, /, memory_id: str | None, outcome: str, recall_id: str | None, note: str | None,
             fmt: str | None) -> None:
    """Record whether memory MEMORY_ID (or recall --recall ID) helped; `score` folds it into the entry,
    `weights summarize` into the profile that served the recall."""
    from ..ops.feedback import record_feedback
    from ..render.lifecycle import feedback_text

    emit(state, fmt, record_feedback(state.config(), memory_id, outcome, note, recall_id), feedback_text)


@click.command()
@click.option("--dry-run", is_flag=True, help="Only report what would be promoted; write nothing.")
@click.option("--world", help="The world to write to (default: the config's default world).")
@format_option()
@pass_state
def promote(state: State, /, dry_run: bool, world: str | None, fmt: str | None) -> None:
    """Promote episodes whose cue recurs in lifecycle.promotion_min_sessions sessions to one semantic entry.

    \b
    loa-memory promote --dry-run      # clusters that would be promoted, and those seen in too few sessions
    loa-memory promote                # write them (one transaction), each linking its episodes derived_from
    """
    from ..ops.promote import promote as run_promote
    from ..render.lifecycle import promote_text

    emit(state, fmt, run_promote(state.config(), dry_run=dry_run, world=world).as_dict(), promote_text)


@click.command()
@format_option()
@pass_state
def score(state: State, /, fmt: str | None) -> None:
    """Fold usage events (--track, feedback) into each entry's effectiveness block, exactly once."""
    from ..ops.effectiveness import score_grimoire, score_record
    from ..render.lifecycle import score_text

    emit(state, fmt, score_record(score_grimoire(state.config())), score_text)


@click.group()
def session() -> None:
    """Start a session with a brief (telos, cues, decisions, recent sessions) or end it with a summary."""


@session.command("start")
@click.option("--budget", type=click.IntRange(50), default=None, help="Token budget (default: retrieval.budget).")
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@click.option("--format", "fmt", type=click.Choice(["markdown", "text", "json", "yaml"]), default=None,
              help="markdown (default, for a prompt), json for agents.")
@pass_state
def session_start(state: State, /, budget: int | None, worlds: tuple[str, ...], fmt: str | None) -> None:
    """Print the session brief: telos, corrections and preferences, recent decisions, last sessions."""
    from ..ops.sessions import brief_options, session_start_record, start_session
    from ..render.lifecycle import session_markdown

    config = state.config()
    for world in worlds:
        config.world(world)
    start = start_session(config, brief_options(config, budget, worlds))
    fmt = fmt or ("markdown" if state.fmt == "text" else state.fmt)
    emit(state, "text" if fmt == "markdown" else fmt, session_start_record(start), session_markdown)


@session.command("end")
@click.option("--summary", required=True, help="What was done and learned ('-' reads it from stdin).")
@click.option("--outcome", default="completed", show_default=True, help="e.g. completed, partial, failed.")
@click.option("--session-id", help="Default: $LOA_SESSION_ID / $CLAUDE_SESSION_ID, else one per process.")
@click.option("--tags", multiple=True, help="Comma-separated tags (repeatable).")
@click.option("--world", help="The world to write to (default: the config's default world).")
@format_option()
@pass_state
def session_end(state: State, /, summary: str, outcome: str, session_id: str | None, tags: tuple[str, ...],
                world: str | None, fmt: str | None) -> None:
    """Write the session's summary as an episode (action_types: [session-summary])."""
    import sys

    from ..ops.sessions import end_session
    from ..render.entries import written_text
    from .common import split_csv
    from .memory import _written

    if summary == "-":
        summary = sys.stdin.read()
    written = end_session(state.config(), summary, outcome=outcome, session_id=session_id,
                          tags=split_csv(tags), world=world)
    emit(state, fmt, _written("added", written), written_text)


@click.command()
@click.option("--economics", is_flag=True, help="Token economics of the logged recalls against the design's "
              "thresholds, in priority order, with the corrective action for each breach.")
@click.option("--last", type=click.IntRange(1), default=None, metavar="N",
              help="With --economics: only the N most recent recalls.")
@format_option()
@pass_state
def stats(state: State, /, economics: bool, last: int | None, fmt: str | None) -> None:
    """Counts by category, status and effectiveness tier; what expires soon; pending events; last runs.
    With --economics: the recall log's token economics ({"economics": ...} in JSON)."""
    if economics:
        from ..ops.economics import economics_report
        from ..render.economics import economics_text

        emit(state, fmt, economics_report(state.config(), last=last), economics_text)
        return
    if last is not None:
        from ..errors import UsageError

        raise UsageError("--last goes with --economics", hint="loa-memory stats --economics --last 50")
    from ..ops.stats import grimoire_stats
    from ..render.lifecycle import stats_text

    emit(state, fmt, grimoire_stats(state.config()), stats_text)
