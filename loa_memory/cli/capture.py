"""Lifecycle commands: capture."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import click

from loa_memory.cli.common import State, emit, format_option, pass_state, setup_merge_driver
from loa_memory.errors import UsageError


@click.command()
@click.option("--commit", "revs", multiple=True, metavar="REV",
              help="Read memory trailers from this commit (repeatable), e.g. HEAD.")
@click.option("--since", metavar="REV", help="Read every commit after REV up to HEAD.")
@click.option("--transcript", "transcripts", multiple=True, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Read an agent session transcript: Claude Code JSONL, {role, content} JSONL, or text (repeatable).")
@click.option("--hook-input", is_flag=True,
              help="Read an agent hook's JSON from stdin (transcript_path, session_id), as Claude Code passes it.")
@click.option("--world", help="The world to write to (default: the config's default world).")
@click.option("--dry-run", is_flag=True, help="Report what would be captured; write nothing.")
@click.option("--quiet", "-q", is_flag=True, help="Text output lists added memories only (for hooks).")
@click.option("--post-commit", is_flag=True,
              help="What the post-commit hooks run: capture HEAD's trailers and stage the memory files written "
                   "(exit 1, with the reason on stderr, when a trailer was not captured; see docs/capture.md).")
@format_option()
@pass_state
def capture(state: State, /, revs: tuple[str, ...], since: str | None, transcripts: tuple[Path, ...],
            hook_input: bool, world: str | None, dry_run: bool, quiet: bool, post_commit: bool,
            fmt: str | None) -> None:
    """Capture memories from commit trailers (Decision:, Learning:, Error:, Fact:, Preference:, Correction:)
    and from agent session transcripts (corrections, preferences, decisions, resolved errors, as episodes).

    \b
    loa-memory capture --commit HEAD
    loa-memory capture --since origin/main
    loa-memory capture --transcript ~/.claude/projects/-home-me-shop/7f3c9a2e.jsonl --dry-run
    """
    from loa_memory.capture.pipeline import CaptureOptions
    from loa_memory.capture.pipeline import capture as run_capture
    from loa_memory.render.capture import capture_text, secret_skip_line

    if post_commit:
        _post_commit(state, fmt)
        return
    session = None
    if hook_input:
        from loa_memory.agents.hook_input import MAX_HOOK_INPUT_CHARS, parse_hook_input

        raw = sys.stdin.read(MAX_HOOK_INPUT_CHARS + 1)
        if len(raw) > MAX_HOOK_INPUT_CHARS:
            raise UsageError(f"the hook input is over {MAX_HOOK_INPUT_CHARS:,} characters", path="<stdin>",
                             hint="a hook's input names the transcript's path; it does not carry the transcript")
        hook = parse_hook_input(raw)
        session = hook.session_id
        transcripts = (*transcripts, hook.transcript())
    if not (revs or since or transcripts):
        raise UsageError("nothing to capture from", hint="pass --commit REV, --since REV or --transcript FILE")
    options = CaptureOptions(revs, since, transcripts, session, dry_run, world)
    report = run_capture(state.config(), options)
    emit(state, fmt, report.as_dict(), partial(capture_text, quiet=quiet))
    if quiet or (fmt or state.fmt) != "text":  # a commit's secret is said on stderr whatever stdout shows
        for skip in report.skipped:
            if skip.reason == "secret" and skip.origin.startswith("commit "):
                click.echo(secret_skip_line(skip.origin, skip.detail), err=True)


def _post_commit(state: State, fmt: str | None) -> None:
    from loa_memory.render.capture import post_commit_text
    from loa_memory.repo.postcommit import capture_after_commit

    config = state.config()
    setup_merge_driver(config.root)
    done = capture_after_commit(config)
    data = {**done.report.as_dict(), "staged": done.staged, "unstaged": done.unstaged, "waiting": done.waiting}
    emit(state, fmt, data, post_commit_text)
    for line in done.warnings():
        click.echo(line, err=True)
    if done.needs_attention:
        click.get_current_context().exit(1)
