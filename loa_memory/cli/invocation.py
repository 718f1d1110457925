"""Which command an argv names and which output format it asks for, read without running anything.

The error boundary needs this before click has parsed (or failed to parse) the arguments: an error in JSON
mode must come out as JSON, including a usage error click raises itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import click

HELP_OPTIONS = ("-h", "--help")


@dataclass(frozen=True)
class Invocation:
    """``words``: the command path (``("hooks", "install")``), as far as it names known commands;
    ``command``: the command it ends on (None when a word is unknown); ``fmt``: the effective ``--format``
    (None: the command's default); ``eager``: ``--help``/``--version`` print text whatever the format."""

    words: tuple[str, ...]
    command: click.Command | None
    fmt: str | None
    eager: bool

    @property
    def has_format_option(self) -> bool:
        return self.command is not None and format_param(self.command) is not None


def format_param(command: click.Command) -> click.Option | None:
    """A command's own ``--format`` option, if it has one."""
    for param in command.params:
        if isinstance(param, click.Option) and "--format" in param.opts:
            return param
    return None


def _option(command: click.Command, token: str) -> click.Option | None:
    name = token.split("=", 1)[0]
    for param in command.params:
        if isinstance(param, click.Option) and name in (*param.opts, *param.secondary_opts):
            return param
    return None


def resolve(root: click.Command, argv: Sequence[str]) -> Invocation:
    """Walk ``argv`` down ``root``'s command tree the way click will, noting every ``--format`` on the way.

    The command's own ``--format`` wins; else the global one applies when the command offers it
    (``lint`` has no yaml; ``recall`` turns text into markdown itself).
    """
    words: list[str] = []
    command: click.Command | None = root
    formats: dict[int, str] = {}  # depth → the --format given at that level
    eager = False
    tokens = list(argv)
    index = 0
    while index < len(tokens) and command is not None:
        token = tokens[index]
        index += 1
        if token == "--":
            break
        if token.startswith("-") and token != "-":
            option = _option(command, token)
            if option is None:
                eager = eager or token in HELP_OPTIONS
                continue
            if option.is_flag or option.count:
                eager = eager or (option.is_eager and not option.expose_value)
                continue
            if "=" in token:
                value: str | None = token.split("=", 1)[1]
            elif index < len(tokens):
                value = tokens[index]
                index += 1
            else:
                value = None
            if "--format" in option.opts and value is not None:
                formats[len(words)] = value
            continue
        if isinstance(command, click.Group):
            command = command.get_command(click.Context(command), token)
            words.append(token)
    if command is None:  # click stops at the unknown word; the --format the user typed still says what they want
        for position, token in enumerate(tokens):
            if token == "--format" and position + 1 < len(tokens):
                formats[0] = tokens[position + 1]
            elif token.startswith("--format="):
                formats[0] = token.split("=", 1)[1]
    fmt = formats.get(0)
    if command is not None and words and (own := format_param(command)) is not None:
        choices = tuple(own.type.choices) if isinstance(own.type, click.Choice) else ()
        fmt = formats.get(len(words)) or (fmt if fmt in choices else None)
    return Invocation(tuple(words if command is not None else words[:-1]), command, fmt, eager)
