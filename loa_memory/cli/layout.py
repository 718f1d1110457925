"""``migrate`` and ``export``: the grimoire's layout (one file per entry, or Loa's list files)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click

from loa_memory.cli.common import State, emit, format_option, pass_state

_LAYOUT = click.Choice(["entries", "lists"])


def _text(action: str, record: dict[str, Any]) -> str:
    if record["unchanged"]:
        return f"already in the {record['layout']} layout: nothing to do"
    lines = [
        f"{action} {record['entries']} entr{'y' if record['entries'] == 1 else 'ies'} to the {record['layout']} "
        f"layout ({len(record['written'])} file(s) written, {len(record['removed'])} removed)"
    ]
    if record["comments_dropped"]:
        lines.append(f"note: {record['comments_dropped']} comment line(s) between list items had no entry to go with")
    if record["renumbered"]:
        lines.append(f"{record['renumbered']} id(s) given Loa's MEM-YYYYMMDD-NNN form (old ids kept in aliases)")
    if record["staged"]:
        lines.append("staged in git: review with `git status`, then commit")
    return "\n".join(lines)


@click.command()
@click.option("--layout", type=_LAYOUT, required=True, help="entries: one file per memory; lists: Loa's list files.")
@click.option("--world", "worlds", multiple=True, help="Only this world (repeatable; default: every world).")
@format_option()
@pass_state
def migrate(state: State, layout: str, worlds: tuple[str, ...], fmt: str | None) -> None:
    """Move the grimoire to another layout, losing nothing, in one transaction staged in git.

    \b
    loa-memory migrate --layout entries   # one file per memory: branches that add memories merge cleanly
    loa-memory migrate --layout lists     # back to decisions.yaml, facts.yaml... (Loa's layout)
    A file that does not parse refuses the whole migration (exit 1) and nothing moves.
    """
    from loa_memory.write.layout import migrate_layout

    report = migrate_layout(state.config(), "entries" if layout == "entries" else "lists", worlds)
    emit(state, fmt, dataclasses.asdict(report), lambda r: _text("moved", r))


@click.command()
@click.option(
    "--layout",
    type=click.Choice(["lists"]),
    default="lists",
    show_default=True,
    help="The layout to write (Loa's list files).",
)
@click.option("--world", "worlds", multiple=True, help="Only this world (repeatable; default: every world).")
@click.option(
    "--loa-ids",
    is_flag=True,
    help="Give random-form ids Loa's MEM-YYYYMMDD-NNN form in the copy "
    "(references rewritten, old id in aliases): Loa's own schema accepts only that form.",
)
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@format_option()
@pass_state
def export(state: State, layout: str, worlds: tuple[str, ...], loa_ids: bool, directory: Path, fmt: str | None) -> None:
    """Write the grimoire, in Loa's list layout, under DIRECTORY (the grimoire is not changed).

    \b
    loa-memory export --layout lists /tmp/loa             # /tmp/loa/grimoires/loa/memory/decisions.yaml ...
    loa-memory export --layout lists --loa-ids /tmp/loa   # ... with ids Loa's schema accepts
    """
    from loa_memory.write.layout import export_lists

    report = export_lists(state.config(), directory, worlds, loa_ids=loa_ids)
    emit(state, fmt, dataclasses.asdict(report), lambda r: _text("wrote", r) + f"\nunder {directory}")
