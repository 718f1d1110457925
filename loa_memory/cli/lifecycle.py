"""Lifecycle commands: archive, feedback, promote, score, session start|end, stats, graduate."""

from __future__ import annotations

import click

from loa_memory.cli.common import State, emit, format_option, pass_state, progress_bar, say_on_stderr, warn_skipped


@click.command()
@click.option("--dry-run", is_flag=True, help="Only list what would move, and what expires soon.")
@click.option("--check", is_flag=True, help="Like --dry-run, but exit 1 when something is due (for hooks and CI).")
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@format_option()
@click.pass_context
def archive(ctx: click.Context, dry_run: bool, check: bool, worlds: tuple[str, ...], fmt: str | None) -> None:
    """Move expired, long-superseded and ineffective entries to archive/ (one transaction).

    \b
    loa-memory archive --dry-run      # what would move, and what expires within warn_before_archive_days
    loa-memory archive                # move it; `git diff` shows the moves
    """
    from loa_memory.lifecycle.archival import archive_grimoire, plan_record
    from loa_memory.render.lifecycle import archive_text

    state: State = ctx.obj
    plan = archive_grimoire(state.config(), dry_run=dry_run or check, worlds=worlds)
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
    from loa_memory.lifecycle.feedback import record_feedback
    from loa_memory.render.lifecycle import feedback_text

    emit(state, fmt, record_feedback(state.config(), memory_id, outcome, note, recall_id), feedback_text)


@click.command()
@click.option("--dry-run", is_flag=True, help="Only report what would be promoted; write nothing.")
@click.option("--world", help="Only this world's episodes, promoted into it (default: each world on its own).")
@format_option()
@pass_state
def promote(state: State, /, dry_run: bool, world: str | None, fmt: str | None) -> None:
    """Promote episodes whose cue recurs in lifecycle.promotion_min_sessions sessions to one semantic entry.

    \b
    loa-memory promote --dry-run      # clusters that would be promoted, and those seen in too few sessions
    loa-memory promote                # write them (one transaction), each linking its episodes derived_from
    """
    from loa_memory.lifecycle.promote import promote as run_promote
    from loa_memory.render.lifecycle import promote_text

    report = run_promote(state.config(), dry_run=dry_run, world=world, progress=progress_bar("embedding", "episodes"))
    emit(state, fmt, report.as_dict(), promote_text)


@click.command()
@format_option()
@pass_state
def score(state: State, /, fmt: str | None) -> None:
    """Fold usage events (--track, feedback) into each entry's effectiveness block, exactly once."""
    from loa_memory.lifecycle.effectiveness import score_grimoire, score_record
    from loa_memory.render.lifecycle import score_text

    emit(state, fmt, score_record(score_grimoire(state.config())), score_text)


@click.group()
def session() -> None:
    """Start a session with a brief (telos, cues, decisions, recent sessions) or end it with a summary."""


@session.command("start")
@click.option("--budget", type=click.IntRange(50), default=None, help="Token budget (default: retrieval.budget).")
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@click.option("--agent", help="Also show this agent's pending handoffs and last checkpoint (default: $LOA_AGENT).")
@click.option("--format", "fmt", type=click.Choice(["markdown", "text", "json", "yaml"]), default=None,
              help="markdown (default, for a prompt), json for agents.")
@pass_state
def session_start(state: State, /, budget: int | None, worlds: tuple[str, ...], agent: str | None,
                  fmt: str | None) -> None:
    """Print the session brief: telos, handoffs to you and your last checkpoint, corrections and
    preferences, recent decisions, last sessions."""
    import os

    from loa_memory.lifecycle.sessions import brief_options, session_start_record, start_session
    from loa_memory.render.lifecycle import session_markdown

    config = state.config()
    start = start_session(config, brief_options(config, budget, worlds, agent or os.environ.get("LOA_AGENT")))
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

    from loa_memory.cli.common import split_csv
    from loa_memory.lifecycle.sessions import end_session
    from loa_memory.render.entries import written_text
    from loa_memory.write.add import written_record

    if summary == "-":
        summary = sys.stdin.read()
    written = end_session(state.config(), summary, outcome=outcome, session_id=session_id,
                          tags=split_csv(tags), world=world)
    emit(state, fmt, written_record(written), written_text)


@click.command()
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@click.option("--economics", is_flag=True, help="Token economics of the logged recalls against the design's "
              "thresholds, in priority order, with the corrective action for each breach.")
@click.option("--last", type=click.IntRange(1), default=None, metavar="N",
              help="With --economics: only the N most recent recalls.")
@format_option()
@pass_state
def stats(state: State, /, worlds: tuple[str, ...], economics: bool, last: int | None, fmt: str | None) -> None:
    """Counts by category, status and effectiveness tier; what expires soon; pending events; last runs.
    With --economics: the recall log's token economics ({"economics": ...} in JSON)."""
    if economics:
        from loa_memory.lifecycle.economics import economics_report
        from loa_memory.render.economics import economics_text

        emit(state, fmt, economics_report(state.config(), last=last), economics_text)
        return
    if last is not None:
        from loa_memory.errors import UsageError

        raise UsageError("--last goes with --economics", hint="loa-memory stats --economics --last 50")
    from loa_memory.lifecycle.stats import grimoire_stats
    from loa_memory.render.lifecycle import stats_text

    data = grimoire_stats(state.config(), worlds=worlds)
    emit(state, fmt, data, stats_text)
    warn_skipped(data["unreadable"])


@click.command()
@click.argument("memory_id", required=False)
@click.option("--as", "as_", type=click.Choice(["procedure", "lint-rule"]), default="procedure", show_default=True,
              help="What the cue becomes: a procedure memory, or a rule stub for the project's linter.")
@click.option("--to", metavar="PATH", help="--as lint-rule: where to write the stub (.yaml/.yml: Semgrep; .py: "
              "a standalone check script).")
@click.option("--meta", is_flag=True, help="Instead of one cue: propose a meta-cue for each domain where "
              "lifecycle.meta_cue_min_corrections corrections share a theme.")
@click.option("--yes", is_flag=True, help="Write it (default: only show the proposal).")
@click.option("--dry-run", is_flag=True, help="Only show the proposal (the default; overrides --yes).")
@click.option("--force", is_flag=True, help="Graduate a cue that has not met the lifecycle.graduate_* thresholds.")
@click.option("--world", help="--meta: the world to write meta-cues to (default: the config's default world).")
@format_option()
@pass_state
def graduate(state: State, /, memory_id: str | None, as_: str, to: str | None, meta: bool, yes: bool, dry_run: bool,
             force: bool, world: str | None, fmt: str | None) -> None:
    """Turn a cue that keeps firing and being followed into a project convention; proposes unless --yes.

    \b
    loa-memory graduate MEM-20260201-004                      # proposal: eligibility and the files it would write
    loa-memory graduate MEM-20260201-004 --yes                # procedures/<slug>.md + graduated_to on the cue
    loa-memory graduate MEM-20260201-004 --as lint-rule --to tools/lint/no-utcnow.yaml --yes
    loa-memory graduate --meta                                # domains with 3+ corrections: meta-cue proposals
    """
    from loa_memory.errors import UsageError
    from loa_memory.render.graduate import graduate_text

    apply = yes and not dry_run
    config = state.config()
    if meta:
        if memory_id:
            raise UsageError("--meta works on every correction; leave out the memory id",
                             hint="loa-memory graduate --meta")
        from loa_memory.lifecycle.metacue import meta_record, propose_meta

        report = propose_meta(config, apply=apply, world=world, progress=progress_bar("embedding", "triggers"),
                              say=say_on_stderr())
        emit(state, fmt, meta_record(report), graduate_text)
        return
    if not memory_id:
        raise UsageError("which cue?", hint="loa-memory graduate MEM-YYYYMMDD-NNN  (or --meta)")
    from loa_memory.lifecycle.graduate import graduate as run_graduate
    from loa_memory.lifecycle.graduate import graduation_record

    result = run_graduate(config, memory_id, as_=as_, to=to, apply=apply, force=force)  # type: ignore[arg-type]
    emit(state, fmt, graduation_record(result), graduate_text)
