"""Commands that create and read memories: init, add, supersede, show, list."""

from __future__ import annotations

import json
import sys
from typing import IO, TYPE_CHECKING, Any

import click

from loa_memory.errors import UsageError

if TYPE_CHECKING:
    from loa_memory.model import Layout
    from loa_memory.store.load import Grimoire
from loa_memory.cli.common import State, emit, format_option, note_unblocking, pass_state, split_csv


def _problems_exit(state: State, grimoire: Grimoire) -> int:
    """Print the grimoire's problems to stderr; 1 if there were any."""
    for problem in grimoire.problems:
        click.echo(str(problem), err=True)
    if grimoire.problems:
        click.echo(f"{len(grimoire.problems)} problem(s) in memory files; they were skipped "
                   "(`loa-memory lint` for details)", err=True)
        return 1
    return 0


@click.command()
@click.option("--world", help="Also declare this world (grimoires/<world>/memory) in the config and create it.")
@click.option("--description", default="", help="With --world: what the world holds.")
@click.option("--layout", type=click.Choice(["entries", "lists"]), default=None,
              help="A new config's layout: entries (one file per memory, merges without conflicts; the default) or "
                   "lists (Loa's list files; the default where list files are already there).")
@format_option()
@pass_state
def init(state: State, world: str | None, description: str, layout: str | None, fmt: str | None) -> None:
    """Create .loa.config.yaml, the grimoire folders and files, and .loa/ (never overwrites).

    \b
    loa-memory init                       # the default world, grimoires/loa/memory
    loa-memory init --world research      # add a second grimoire, grimoires/research/memory
    """
    from loa_memory.repo.init import init_repo

    chosen: Layout | None = None if layout is None else "lists" if layout == "lists" else "entries"
    report = init_repo(state.find_root(), world, description, chosen)
    emit(state, fmt, report, lambda r: "\n".join([*(f"created {p}" for p in r["created"]),
                                                    *(f"updated {p}" for p in r["updated"])]
                                                   or [f"already initialised: {r['root']}"]))


def _entry_options(func: Any) -> Any:
    options = [
        click.option("--summary", help="One line (≤ 200 characters); default: the content's first sentence."),
        click.option("--tags", multiple=True, help="Comma-separated tags (repeatable)."),
        click.option("--confidence", type=click.FloatRange(0, 1), help="0..1; default: the category's minimum or 0.8."),
        click.option("--ttl", help="permanent, or a number of days like 90d (default: the category's)."),
        click.option("--agent", help="source.agent (default: $LOA_AGENT)."),
        click.option("--phase", help="source.phase (default: $LOA_PHASE)."),
        click.option("--trigger", help="correction: the action it guards."),
        click.option("--lesson", help="correction: what to do instead (imperative)."),
        click.option("--rationale", help="decision: why."),
        click.option("--alternative", "alternatives", multiple=True, metavar="OPTION=WHY_REJECTED",
                     help="decision: a rejected alternative (repeatable)."),
        click.option("--error", "error_text", help="error: the error message."),
        click.option("--resolution", help="error: how it was resolved."),
        click.option("--context", help="preference: where it applies."),
        click.option("--evidence", help="fact/learning: what shows it."),
        click.option("--attempted", help="negative result: the approach that was tried and abandoned."),
        click.option("--failure-reason", "failure_reason", help="negative result: why it was abandoned."),
        click.option("--led-to", "led_to", metavar="ID", help="negative result: the memory of what was done instead."),
        click.option("--thread", help="a decision thread: entries about one subject share it (lower-case-kebab)."),
        click.option("--artifact", "artifacts", multiple=True, metavar="PATH",
                     help="A file or folder this memory is about (repeatable)."),
        click.option("--link", "links", multiple=True, metavar="[RELATION:]ID",
                     help="A link to another memory, e.g. related_to:MEM-20260101-001 (repeatable)."),
        click.option("--from-json", "from_json", type=click.File("r"), metavar="FILE",
                     help="Read the entry as a JSON object from FILE ('-' for stdin); flags override it."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _read_json(handle: IO[str]) -> dict[str, Any]:
    name = getattr(handle, "name", "<stdin>")
    text = handle.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"not valid JSON: {exc.msg}", path=str(name), line=exc.lineno, col=exc.colno,
                         hint="pass one JSON object with at least category and content") from None
    except RecursionError:  # arrays or objects nested thousands deep: the decoder gives up
        raise UsageError("the JSON is nested too deeply", path=str(name), line=1,
                         hint="pass one flat JSON object with at least category and content") from None
    if not isinstance(data, dict):
        raise UsageError("the JSON must be one object (an entry)", path=str(name), line=1)
    return data


def _fields(content: str | None, opts: dict[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = _read_json(opts["from_json"]) if opts.get("from_json") else {}
    if content == "-":
        content = sys.stdin.read()
    simple = {"summary": "summary", "confidence": "confidence", "ttl": "ttl", "trigger": "trigger",
              "lesson": "lesson", "rationale": "rationale", "error_text": "error", "resolution": "resolution",
              "context": "context", "evidence": "evidence", "attempted": "attempted",
              "failure_reason": "failure_reason", "led_to": "led_to", "thread": "thread"}
    if content is not None:
        fields["content"] = content
    for option, key in simple.items():
        if opts.get(option) is not None:
            fields[key] = opts[option]
    if opts.get("tags"):
        fields["tags"] = split_csv(opts["tags"])
    if opts.get("alternatives"):
        alternatives = []
        for text in opts["alternatives"]:
            option, _, why = text.partition("=")
            alternatives.append({"option": option.strip(), **({"rejected_because": why.strip()} if why else {})})
        fields["alternatives"] = alternatives
    if opts.get("artifacts"):
        fields["artifacts"] = list(opts["artifacts"])
    if opts.get("links"):
        links = []
        for text in opts["links"]:
            relation, _, target = text.rpartition(":")
            links.append({"to": target.strip(), "relation": relation.strip() or "related_to"})
        fields["links"] = links
    given = {key: opts[key] for key in ("agent", "phase") if opts.get(key)}
    if given and isinstance(fields.get("source") or {}, dict):  # any other source is refused by add_entry
        fields["source"] = {**(fields.get("source") or {}), **given}
    return fields


@click.command()
@click.argument("category", required=False)
@click.argument("content", required=False)
@click.option("--world", help="The world to add to (default: the config's default world).")
@_entry_options
@format_option()
@pass_state
def add(state: State, /, category: str | None, content: str | None, world: str | None, fmt: str | None,
        **opts: Any) -> None:
    """Add a memory of CATEGORY with CONTENT ('-' reads it from stdin).

    \b
    loa-memory add decision "Use PostgreSQL: JSONB, team expertise" --summary "PostgreSQL over SQLite" \\
        --tags database,architecture --confidence 0.95
    loa-memory add --from-json - < entry.json
    """
    from loa_memory.write.add import add_entry, expired_note, written_record

    config = state.config()
    fields = _fields(content, opts)
    if category:
        fields["category"] = category
    written = add_entry(config, fields, world=world)
    from loa_memory.render.entries import written_text

    data = written_record(written)
    emit(state, fmt, data, written_text)
    note_unblocking(data["problems"])
    note = expired_note(written)
    if note:
        click.echo(note, err=True)


@click.command()
@click.argument("old_id")
@click.argument("content", required=False)
@click.option("--also", "also", multiple=True, metavar="ID",
              help="Another memory the new entry replaces (repeatable; OLD_ID may also list ids with commas).")
@click.option("--category", help="Category of the new entry (default: the old entry's).")
@_entry_options
@format_option()
@pass_state
def supersede(state: State, /, old_id: str, content: str | None, also: tuple[str, ...], category: str | None,
              fmt: str | None, **opts: Any) -> None:
    """Replace memory OLD_ID with a new entry holding CONTENT; both are linked.

    The old entry stays in place for audit, marked `superseded_by`; search and recall show the new one.
    One decision can replace several (a consolidation): `supersede MEM-a,MEM-b "..."` or
    `supersede MEM-a --also MEM-b "..."` writes `supersedes: [MEM-a, MEM-b]` and marks each old entry.
    """
    from loa_memory.render.entries import written_text
    from loa_memory.write.add import split_ids, supersede_entry, written_record

    config = state.config()
    fields = _fields(content, opts)
    if category:
        fields["category"] = category
    written, _old = supersede_entry(config, split_ids([old_id, *also]), fields)
    data = written_record(written)
    emit(state, fmt, data, written_text)
    note_unblocking(data["problems"])


@click.command()
@click.argument("memory_id")
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@format_option()
@click.pass_context
def show(ctx: click.Context, memory_id: str, worlds: tuple[str, ...], fmt: str | None) -> None:
    """Show one memory, its supersede chain both ways, and its links (old ids resolve through aliases)."""
    from loa_memory.answer.browse import show_record
    from loa_memory.render.entries import show_text
    from loa_memory.store.load import load_grimoire

    state: State = ctx.obj
    grimoire = load_grimoire(state.config(), worlds or None)
    emit(state, fmt, show_record(grimoire, memory_id), show_text)
    ctx.exit(_problems_exit(state, grimoire))


@click.command("list")
@click.option("--category", "categories", multiple=True, help="Only these categories (comma-separated, repeatable).")
@click.option("--status", "statuses", multiple=True, default=("active",), show_default=True,
              type=click.Choice(["active", "superseded", "expired", "archived", "all"]),
              help="Only entries of this status (repeatable).")
@click.option("--tag", "tags", multiple=True, help="Only entries with all these tags.")
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@click.option("--limit", type=click.IntRange(1), help="At most this many entries.")
@format_option()
@click.pass_context
def list_(ctx: click.Context, categories: tuple[str, ...], statuses: tuple[str, ...], tags: tuple[str, ...],
          worlds: tuple[str, ...], limit: int | None, fmt: str | None) -> None:
    """List memories (active ones by default). Exits 1 if some files have problems (valid entries still shown)."""
    from loa_memory.answer.browse import ListFilter, list_entries, list_record
    from loa_memory.render.entries import list_text
    from loa_memory.store.load import load_grimoire

    state: State = ctx.obj
    config = state.config()
    for world in worlds:
        config.world(world)
    grimoire = load_grimoire(config, worlds or None)
    options = ListFilter(split_csv(categories), statuses, split_csv(tags), worlds, limit)
    for name in options.categories:
        config.category(name)
    emit(state, fmt, list_record(grimoire, list_entries(grimoire, options)), list_text)
    ctx.exit(_problems_exit(state, grimoire))
