"""``weights status|compare|summarize``: weight profiles, their outcomes, and the adaptive policy."""

from __future__ import annotations

import click

from loa_memory.cli.common import State, emit, format_option, pass_state


@click.group()
def weights() -> None:
    """Weight profiles: compare them on recall outcomes, see the adaptive policy, fold the log into the summary."""


@weights.command("status")
@format_option()
@pass_state
def status(state: State, /, fmt: str | None) -> None:
    """The profiles, the adaptive settings, and per task type the probabilities serving today."""
    from loa_memory.lifecycle.weights import weights_status
    from loa_memory.render.weights import status_text

    emit(state, fmt, weights_status(state.config()), status_text)


@weights.command("compare")
@click.argument("profile_a", required=False)
@click.argument("profile_b", required=False)
@click.option("--task-type", type=click.Choice(["exploration", "implementation", "debugging", "review",
                                                "refactoring"]), default=None, help="Only this task type.")
@format_option()
@pass_state
def compare(state: State, /, profile_a: str | None, profile_b: str | None, task_type: str | None,
            fmt: str | None) -> None:
    """Success rates of PROFILE_B against PROFILE_A (default: the configured profile against each other one),
    per task type and overall, with 95% intervals, and whether the data are enough to tell."""
    from loa_memory.lifecycle.weights import weights_compare
    from loa_memory.render.weights import compare_text

    emit(state, fmt, weights_compare(state.config(), profile_a, profile_b, task_type), compare_text)


@weights.command("summarize")
@click.option("--dry-run", is_flag=True, help="Only report what would be folded; write nothing.")
@format_option()
@pass_state
def summarize(state: State, /, dry_run: bool, fmt: str | None) -> None:
    """Fold the local recall log and its outcomes into the committed summary (exactly once); commit the file."""
    from loa_memory.lifecycle.weights import summarize as run_summarize
    from loa_memory.render.weights import summarize_text

    emit(state, fmt, run_summarize(state.config(), dry_run=dry_run), summarize_text)
