"""``schema``: the published JSON Schemas of the commands' ``--format json`` output."""

from __future__ import annotations

from typing import Any

import click

from loa_memory.cli.common import State, emit, format_option, pass_state


def _index_text(data: dict[str, Any]) -> str:
    width = max((len(s["name"]) for s in data["schemas"]), default=0)
    return "\n".join(f"{s['name']:<{width}}  {s['id']}" for s in data["schemas"])


@click.command()
@click.argument("command", nargs=-1)
@click.option("--standalone", is_flag=True, help="Inline every $ref: one self-contained document.")
@format_option()
@pass_state
def schema(state: State, /, command: tuple[str, ...], standalone: bool, fmt: str | None) -> None:
    """Print the JSON Schema of COMMAND's --format json output; without COMMAND, list the schemas.

    \b
    loa-memory schema                   # every schema's name and $id (the contract's version is in it)
    loa-memory schema search            # what `loa-memory search --format json` prints
    loa-memory schema hooks install
    loa-memory schema error             # the error envelope every command prints in JSON mode
    loa-memory schema list --standalone # with the shared pieces inlined, for any validator
    """
    from loa_memory.errors import UsageError
    from loa_memory.render import to_json
    from loa_memory.render.contract import output_schema, schema_index, standalone_schema

    if command:
        emit(state, fmt, (standalone_schema if standalone else output_schema)(command), to_json)
    elif standalone:
        raise UsageError("--standalone needs a COMMAND", hint="e.g. loa-memory schema list --standalone")
    else:
        emit(state, fmt, schema_index(), _index_text)
