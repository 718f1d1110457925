"""The one error boundary: user mistakes become ``error: ...`` and an exit code, never a traceback."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from datetime import UTC, datetime
from pathlib import Path

import click

from ..errors import GrimoireError, LoaError


def _wants_json(argv: list[str]) -> bool:
    for index, arg in enumerate(argv):
        if arg == "--format" and index + 1 < len(argv):
            return argv[index + 1] == "json"
        if arg == "--format=json":
            return True
    return False


def _report(error: LoaError, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({"error": error.as_record()}, indent=2, ensure_ascii=False))
        return
    click.echo(f"error: {error}", err=True)
    if isinstance(error, GrimoireError):
        for problem in error.problems[1:20]:
            click.echo(f"  {problem.where}: {problem.message}", err=True)


def _crash_log(exc: BaseException) -> Path:
    directory = Path(tempfile.gettempdir())
    path = directory / f"loa-memory-crash-{datetime.now(UTC):%Y%m%dT%H%M%S}-{os.getpid()}.log"
    path.write_text("".join(traceback.format_exception(exc)), "utf-8")
    return path


def run(command: click.Command, argv: list[str] | None = None) -> int:
    """Run ``command`` and map every outcome to an exit code (0 ok, 1 findings, 2 usage, 130 Ctrl-C)."""
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = _wants_json(args)
    try:
        result = command.main(args=args, prog_name="loa-memory", standalone_mode=False)
    except LoaError as error:
        _report(error, as_json)
        return error.exit_code
    except click.exceptions.Exit as done:
        return int(done.exit_code)
    except click.ClickException as error:
        if as_json:
            _report(LoaError(error.format_message()), True)
        else:
            error.show()
        return 2
    except click.Abort:
        click.echo("aborted", err=True)
        return 130
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:
        log = _crash_log(exc)
        click.echo(f"error: unexpected {type(exc).__name__}: {exc}\n  this is a bug in loa-memory; "
                   f"details in {log}", err=True)
        return 3
    return int(result) if isinstance(result, int) else 0
