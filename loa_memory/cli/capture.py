"""Lifecycle commands: capture."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import click

from loa_memory.cli.common import State, emit, format_option, pass_state
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
@format_option()
@pass_state
def capture(state: State, /, revs: tuple[str, ...], since: str | None, transcripts: tuple[Path, ...],
            hook_input: bool, world: str | None, dry_run: bool, quiet: bool, fmt: str | None) -> None:
    """Capture memories from commit trailers (Decision:, Learning:, Error:, Fact:, Preference:, Correction:)
    and from agent session transcripts (corrections, preferences, decisions, resolved errors, as episodes).

    \b
    loa-memory capture --commit HEAD
    loa-memory capture --since origin/main
    loa-memory capture --transcript ~/.claude/projects/-home-me-shop/7f3c9a2e.jsonl --dry-run
    """
    from loa_memory.capture.pipeline import CaptureOptions
    from loa_memory.capture.pipeline import capture as run_capture
    from loa_memory.render.capture import capture_text

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
