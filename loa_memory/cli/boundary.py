"""The one error boundary: user mistakes become ``error: ...`` (in JSON mode the ``{"error": ...}`` envelope on
stdout) and an exit code, never a traceback."""

from __future__ import annotations

import json
import os
import secrets
import sys
import traceback
from datetime import UTC, datetime
from pathlib import Path

import click

from loa_memory.cli.invocation import resolve
from loa_memory.errors import GrimoireError, LoaError, UsageError
from loa_memory.privatedir import user_state_dir, write_private_file


class Internal(LoaError):
    """An unexpected exception (a bug); in JSON mode it is reported with the crash log as its path."""

    exit_code = 3
    code = "internal"


class Interrupted(LoaError):
    exit_code = 130
    code = "interrupted"


_NO_ARGS = getattr(click.exceptions, "NoArgsIsHelpError", ())  # click >= 8.2; older click exits 0 with help


def _usage_error(error: click.ClickException) -> UsageError:
    """A click usage error as ours, with a pointer to the command's help (a bare group: its subcommands)."""
    ctx: click.Context | None = getattr(error, "ctx", None)
    if ctx is not None and isinstance(error, _NO_ARGS) and isinstance(ctx.command, click.Group):
        return UsageError(f"`{ctx.command_path}` needs a command: {', '.join(sorted(ctx.command.commands))}",
                          hint=f"`{ctx.command_path} --help` describes them")
    return UsageError(error.format_message(), hint=f"`{ctx.command_path} --help`" if ctx is not None else None)


def _report(error: LoaError, as_json: bool) -> None:
    from loa_memory.secrets.redact import redact_error

    error = redact_error(error)  # an error may quote what was given; a secret in it is never printed
    if as_json:
        click.echo(json.dumps({"error": error.as_record()}, indent=2, ensure_ascii=False))
        return
    click.echo(f"error: {error}", err=True)
    if isinstance(error, GrimoireError):
        for problem in error.problems[1:20]:
            click.echo(f"  {problem.where}: {problem.message}", err=True)


def _crash_log(exc: BaseException) -> Path | str:
    """The crash report, in this user's private folder (``privatedir``: 0700, the file 0600, no symlink followed)."""
    name = f"crash-{datetime.now(UTC):%Y%m%dT%H%M%S}-{os.getpid()}-{secrets.token_hex(3)}.log"
    try:
        return write_private_file(user_state_dir() / "crashes", name,
                                  "".join(traceback.format_exception(exc)).encode("utf-8", "replace"))
    except OSError as error:
        return f"(not saved: {error.strerror or error})"


def run(command: click.Command, argv: list[str] | None = None) -> int:
    """Run ``command`` and map every outcome to an exit code (0 ok, 1 findings, 2 usage, 130 Ctrl-C)."""
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = resolve(command, args).fmt == "json"
    try:
        result = command.main(args=args, prog_name="loa-memory", standalone_mode=False)
    except LoaError as error:
        _report(error, as_json)
        return error.exit_code
    except click.exceptions.Exit as done:
        return int(done.exit_code)
    except click.ClickException as error:
        if as_json:
            _report(_usage_error(error), True)
        else:
            from loa_memory.secrets.redact import redact_name

            # as click shows it, with what the user gave redacted ("Invalid value for '--ttl': 'ghp_…'")
            shown = redact_name(error.format_message())
            if shown == error.format_message():
                error.show()
            else:
                ctx = getattr(error, "ctx", None)
                if ctx is not None:
                    click.echo(ctx.get_usage(), err=True)
                click.echo(f"Error: {shown}", err=True)
        return 2
    except (click.Abort, KeyboardInterrupt) as stop:
        if as_json:
            _report(Interrupted("aborted" if isinstance(stop, click.Abort) else "interrupted"), True)
        else:
            click.echo("aborted" if isinstance(stop, click.Abort) else "interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:
        log = _crash_log(exc)
        from loa_memory.secrets.redact import redact_name

        said = redact_name(str(exc))
        click.echo(f"error: unexpected {type(exc).__name__}: {said}\n  this is a bug in loa-memory; "
                   f"details in {log}", err=True)
        if as_json:
            _report(Internal(f"unexpected {type(exc).__name__}: {said}", path=str(log),
                             hint="this is a bug in loa-memory; the file at path holds the details"), True)
        return 3
    return int(result) if isinstance(result, int) else 0
