"""Multi-agent commands: ``ledger checkpoint|show`` and ``handoff create|accept|list``."""

from __future__ import annotations

import os

import click

from loa_memory.cli.common import State, emit, format_option, pass_state

_AGENT_HELP = "The agent (default: $LOA_AGENT)."


def _agent(value: str | None) -> str | None:
    return value or os.environ.get("LOA_AGENT") or None


@click.group()
def ledger() -> None:
    """Agents' checkpoints: current task, files modified, patterns learned (ledgers/<agent>.yaml)."""


@ledger.command("checkpoint")
@click.option("--agent", help=_AGENT_HELP)
@click.option("--task", required=True, help="What the agent is working on.")
@click.option("--status", default="in-progress", show_default=True,
              type=click.Choice(["in-progress", "blocked", "paused", "done", "handed-off"]))
@click.option("--file", "files", multiple=True, metavar="PATH", help="A file modified (repeatable).")
@click.option("--pattern", "patterns", multiple=True, metavar="MEM-ID",
              help="A memory learned or applied (repeatable).")
@click.option("--note", help="Free text: where things stand.")
@click.option("--world", help="The world to write to (default: the config's default world).")
@format_option()
@pass_state
def ledger_checkpoint(state: State, /, agent: str | None, task: str, status: str, files: tuple[str, ...],
                      patterns: tuple[str, ...], note: str | None, world: str | None, fmt: str | None) -> None:
    """Record an agent's state as a new checkpoint (append-only).

    \b
    loa-memory ledger checkpoint --agent eng-1 --task "add pagination to /users" \\
        --file src/api/users.py --pattern MEM-20260201-004 --status in-progress
    """
    from loa_memory.agents.ledger_write import Checkpoint, checkpoint
    from loa_memory.render.entries import written_text
    from loa_memory.write.add import written_record

    written = checkpoint(state.config(), Checkpoint(_agent(agent) or "", task, status, files, patterns, note, world))
    emit(state, fmt, written_record(written), written_text)


@ledger.command("show")
@click.argument("agent", required=False)
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@click.option("--limit", type=click.IntRange(1), default=5, show_default=True, help="How many checkpoints.")
@format_option()
@pass_state
def ledger_show(state: State, /, agent: str | None, worlds: tuple[str, ...], limit: int, fmt: str | None) -> None:
    """An agent's latest checkpoint (and the ones before it). AGENT defaults to $LOA_AGENT."""
    from loa_memory.answer.ledgers import ledger_view
    from loa_memory.render.ledgers import ledger_text

    emit(state, fmt, ledger_view(state.config(), _agent(agent) or "", worlds, limit), ledger_text)


@click.group()
def handoff() -> None:
    """Agent-to-agent handoffs: what was done, artifacts, git state, what is next, known issues, memories."""


@handoff.command("create")
@click.option("--from", "from_agent", help="The agent handing over (default: $LOA_AGENT).")
@click.option("--to", "to_agent", required=True, help="The agent taking over.")
@click.option("--done", multiple=True, help="Something that was done (repeatable).")
@click.option("--artifact", "artifacts", multiple=True, metavar="PATH", help="A file or folder produced (repeatable).")
@click.option("--next", "next_steps", multiple=True, help="Something that needs doing next (repeatable).")
@click.option("--known-issue", "known_issues", multiple=True, help="A known issue (repeatable).")
@click.option("--memory", "memory_ids", multiple=True, metavar="MEM-ID", help="A relevant memory (repeatable).")
@click.option("--summary", help="One line (default: the first next step, else the first done item).")
@click.option("--note", help="Free text for the receiver.")
@click.option("--world", help="The world to write to (default: the config's default world).")
@format_option()
@pass_state
def handoff_create(state: State, /, from_agent: str | None, to_agent: str, done: tuple[str, ...],
                   artifacts: tuple[str, ...], next_steps: tuple[str, ...], known_issues: tuple[str, ...],
                   memory_ids: tuple[str, ...], summary: str | None, note: str | None, world: str | None,
                   fmt: str | None) -> None:
    """Hand work to another agent; the git state (branch, HEAD, uncommitted files) is recorded with it.

    \b
    loa-memory handoff create --from eng-1 --to eng-2 --done "pagination for /users" \\
        --artifact src/api/users.py --next "same for /orders" --known-issue "count query is slow" \\
        --memory MEM-20260201-004
    """
    from loa_memory.agents.ledger_write import Handoff, create_handoff
    from loa_memory.render.entries import written_text
    from loa_memory.write.add import written_record

    spec = Handoff(_agent(from_agent) or "", to_agent, done, artifacts, next_steps, known_issues, memory_ids, note,
                   summary, world)
    emit(state, fmt, written_record(create_handoff(state.config(), spec)), written_text)


@handoff.command("accept")
@click.argument("handoff_id", required=False)
@click.option("--agent", help="The receiving agent (default: $LOA_AGENT).")
@click.option("--world", "worlds", multiple=True, help="Without HANDOFF_ID: only these worlds' handoffs.")
@format_option()
@pass_state
def handoff_accept(state: State, /, handoff_id: str | None, agent: str | None, worlds: tuple[str, ...],
                   fmt: str | None) -> None:
    """Show a handoff to you with its memories resolved, and record that you accepted it.

    Without HANDOFF_ID, the oldest pending handoff to the agent.
    """
    from loa_memory.agents.ledger_write import accept_handoff, acceptance_record
    from loa_memory.render.ledgers import accept_text

    config = state.config()
    result = accept_handoff(config, _agent(agent) or "", handoff_id, worlds=worlds)
    emit(state, fmt, acceptance_record(config, result), accept_text)


@handoff.command("list")
@click.option("--to", "to_agent", help="Only handoffs to this agent.")
@click.option("--from", "from_agent", help="Only handoffs from this agent.")
@click.option("--pending", is_flag=True, help="Only those their receiver has not accepted.")
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@format_option()
@pass_state
def handoff_list(state: State, /, to_agent: str | None, from_agent: str | None, pending: bool,
                 worlds: tuple[str, ...], fmt: str | None) -> None:
    """List handoffs, oldest first."""
    from loa_memory.answer.ledgers import handoff_list_view
    from loa_memory.render.ledgers import handoff_list_text

    data = handoff_list_view(state.config(), to_agent=to_agent, from_agent=from_agent, pending=pending,
                             worlds=worlds)
    emit(state, fmt, data, handoff_list_text)
