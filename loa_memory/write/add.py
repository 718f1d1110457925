"""Adding and superseding memories: the only way new entries reach the grimoire."""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import os
import re
import secrets as _random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from loa_memory.errors import GrimoireError, UsageError, ValidationError
from loa_memory.model import Category, Entry, Finding
from loa_memory.render.problems import problem_records
from loa_memory.secrets.gate import check_fields, check_secrets
from loa_memory.store import atomic, git, schema, yamlio
from loa_memory.store.config import Config
from loa_memory.store.env import env_session_id
from loa_memory.store.ids import is_valid_id, next_id, shown_id
from loa_memory.store.layout import entry_file_name, entry_folder
from loa_memory.store.load import Grimoire, load_grimoire
from loa_memory.store.lock import locked
from loa_memory.store.save import Changeset
from loa_memory.store.times import expiry, format_time, now_utc

FIELD_ORDER = ("id", "category", "summary", "content", "confidence", "source", "ttl", "expires_at", "tags",
               "thread", "supersedes", "superseded_by", "aliases", "trigger", "triggers", "lesson", "applies_to",
               "severity", "alternatives", "rationale",
               "error", "resolution", "context", "evidence", "attempted", "failure_reason", "led_to", "links",
               "related_memories", "artifacts")
# one generated session per command run (a process, or one command of a long-lived process run in a context of
# its own, as the warm server does), never shared by two runs through a module global
_generated_session: contextvars.ContextVar[str] = contextvars.ContextVar("loa_memory_generated_session")


def session_id() -> str:
    """The current session: ``LOA_SESSION_ID``, else ``CLAUDE_SESSION_ID``, else one per process (per context)."""
    found = env_session_id()
    if found:
        return found
    generated = _generated_session.get(None)
    if generated is None:
        generated = f"s-{datetime.now(UTC):%Y%m%d}-{_random.token_hex(4)}"
        _generated_session.set(generated)
    return generated


def default_source(agent: str | None = None, phase: str | None = None,
                   moment: datetime | None = None) -> dict[str, Any]:
    """``source`` for a new entry: session from LOA_SESSION_ID / CLAUDE_SESSION_ID, else one per process."""
    source: dict[str, Any] = {"session_id": session_id()}
    agent = agent or os.environ.get("LOA_AGENT")
    phase = phase or os.environ.get("LOA_PHASE")
    if agent:
        source["agent"] = agent
    if phase:
        source["phase"] = phase
    source["timestamp"] = format_time(moment or now_utc())
    return source


def normalise_tags(tags: Sequence[str]) -> list[str]:
    """Lower-case kebab tags, de-duplicated in order."""
    result: list[str] = []
    for tag in tags:
        clean = re.sub(r"[^a-z0-9-]+", "-", str(tag).strip().lower()).strip("-")
        if clean and clean not in result:
            result.append(clean)
    return result


def clip(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut (summaries are one line of at most 200)."""
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def summarise(content: str) -> str:
    """A one-line summary from the first sentence or line of ``content``."""
    first = content.strip().splitlines()[0] if content.strip() else ""
    sentence = re.split(r"(?<=[.!?])\s", first, maxsplit=1)[0]
    return clip(sentence)


def _ordered(data: Mapping[str, Any]) -> dict[str, Any]:
    ordered = {key: data[key] for key in FIELD_ORDER if key in data}
    ordered.update({key: value for key, value in data.items() if key not in ordered})
    return ordered


def complete_entry(config: Config, fields: Mapping[str, Any], used_ids: set[str],
                   moment: datetime | None = None) -> dict[str, Any]:
    """Fill in what a new entry leaves out: id, summary, confidence, source, ttl, expires_at, tags.

    The secret gate sees every field name, and the tags and thread as given, before they are normalised (a
    lower-cased AWS key id is still the key); the values are scanned with their place when staged."""
    check_fields(config, fields, values=("tags", "thread"))
    data = {key: value for key, value in fields.items() if value is not None}
    if "category" not in data:
        raise UsageError("a memory needs a category", hint="e.g. `loa-memory add decision \"...\"`")
    cat = config.category(str(data["category"]))
    content = data.get("content")
    if not isinstance(content, str) or not content.strip():
        raise UsageError("a memory needs some content (its `content` is missing or empty)",
                         hint="pass the text as an argument, or give the JSON a \"content\" field")
    if not isinstance(data.get("source") or {}, Mapping):
        raise ValidationError(f"the entry is not valid: source: expected object, got {data['source']!r}",
                              hint="source is an object such as {\"agent\": \"...\"}, or leave it out")
    source = dict(data.get("source") or {})
    defaults = default_source(moment=moment)
    for key in ("session_id", "timestamp"):
        source.setdefault(key, defaults[key])
    for key in ("agent", "phase"):
        if key in defaults:
            source.setdefault(key, defaults[key])
    data["source"] = source
    data.setdefault("summary", summarise(content))
    data.setdefault("confidence", max(cat.min_confidence, 0.8))
    # a negative result is what answers "why didn't we do it the other way" for good: it does not expire
    data.setdefault("ttl", "permanent" if data.get("attempted") else cat.ttl)
    if "expires_at" not in data:
        expires = expiry(str(data["ttl"]), str(source["timestamp"]))
        if expires:
            data["expires_at"] = expires
    if "tags" in data:
        data["tags"] = normalise_tags(data["tags"] if isinstance(data["tags"], list) else [data["tags"]])
    if isinstance(data.get("thread"), str):
        data["thread"] = (normalise_tags([data["thread"]]) or [data["thread"]])[0]
    if "id" in data:
        if not is_valid_id(data["id"]):
            raise ValidationError(f"id {shown_id(data['id'])} is not of the form MEM-YYYYMMDD-NNN "
                                  "(or MEM-YYYYMMDD-xxxxxx)",
                                  hint="leave the id out and one is allocated")
        if data["id"] in used_ids:
            raise ValidationError(f"id {data['id']} is already in use", hint="leave the id out and one is allocated")
    else:
        data["id"] = next_id(used_ids, (moment or now_utc()).date(), config.id_style)
    return _ordered(data)


_REQUIRED = re.compile(r"^entry: ([a-z_]+) is required$")
_MINIMUM = re.compile(r"^([a-z_]+): \S+ is below this category's minimum of (\S+)$")


def validate_new(config: Config, data: Mapping[str, Any]) -> None:
    """Raise ``ValidationError`` naming the first field that breaks the schema."""
    problems = schema.validate(dict(data), schema.memory_schema_for(config.categories))
    if problems:
        details = "; ".join(p.message for p in problems[:5])
        missing = [m[1] for p in problems if (m := _REQUIRED.match(p.message))]
        flags = " and ".join(f"--{name.replace('_', '-')} TEXT" for name in missing)
        low = [m for p in problems if (m := _MINIMUM.match(p.message))]
        raise_to = "; ".join(f"raise {m[1]} to at least {m[2]} (--{m[1].replace('_', '-')} {m[2]}, or "
                             f'"{m[1]}": {m[2]} in --from-json)' for m in low)
        category = data.get("category", "CATEGORY")
        raise ValidationError(f"the entry is not valid: {details}",
                              hint=(f"pass {flags} (or those fields in --from-json); " if flags else "")
                              + (f"{raise_to}; " if raise_to else "")
                              + f"`loa-memory add {category} --help` lists every field's flag; nothing was written")


def target_path(config: Config, cat: Category, world: str, data: Mapping[str, Any]) -> Path:
    """The file a new entry of ``cat`` goes to."""
    memdir = config.memory_dir(world)
    if cat.kind == "list":
        if config.world(world).layout == "entries":
            return memdir / entry_folder(cat) / entry_file_name(str(data["id"]), str(data.get("summary") or ""))
        return memdir / cat.path
    if cat.kind == "dir-list":
        if cat.file_key == "agent":
            key = _slug(str(data.get("agent") or data["source"].get("agent") or "agent"))
        else:
            key = str(data["source"]["timestamp"])[:10]
        if config.world(world).layout == "entries":  # one file per entry here too: two branches never share one
            return memdir / cat.path / f"{key}-{data['id']}.yaml"
        return memdir / cat.path / f"{key}.yaml"
    base = _slug(str(data.get("title") or data.get("summary") or data["id"]))
    candidate = memdir / cat.path / f"{base}.md"
    number = 2
    while candidate.exists():
        candidate = memdir / cat.path / f"{base}-{number}.md"
        number += 1
    return candidate


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")
    return slug or "memory"


def markdown_text(data: Mapping[str, Any]) -> str:
    front = {key: value for key, value in data.items() if key != "content"}
    body = str(data.get("content", "")).rstrip("\n") + "\n"
    return f"---\n{yamlio.dump_mapping(front)}---\n{body}"


@dataclass(frozen=True)
class Written:
    """What a write did: the entry as stored, and where."""

    data: dict[str, Any]
    path: str
    line: int
    world: str
    problems: tuple[Finding, ...] = ()  # problems elsewhere in the grimoire, which did not block the write

    def entry(self) -> Entry:
        return Entry(self.data, self.world, self.path, self.line)


def written_record(written: Written, action: str = "added") -> dict[str, Any]:
    """The stable JSON shape of a write (``add``, ``supersede``, ``session end``)."""
    return {"action": action, "id": written.data["id"], "category": written.data["category"],
            "world": written.world, "path": written.path, "line": written.line,
            "supersedes": written.data.get("supersedes"), "entry": written.data,
            "problems": problem_records(written.problems)}


def refuse_if_broken(grimoire: Grimoire) -> None:
    """Commands that write refuse to run on a grimoire with problems, and name them."""
    if grimoire.problems:
        first = grimoire.problems[0]
        more = len(grimoire.problems) - 1
        problems = [GrimoireError(p.message, path=p.path, line=p.line, col=p.col) for p in grimoire.problems]
        raise GrimoireError(f"{first.message}" + (f" (and {more} more problem(s))" if more else ""),
                            path=first.path, line=first.line, col=first.col, problems=problems,
                            hint="fix the memory files first (`loa-memory lint` lists every problem); "
                                 "nothing was written")


def check_references(grimoire: Grimoire, data: Mapping[str, Any]) -> None:
    """``led_to`` must name a memory that exists (a negative result points at what was done instead)."""
    led_to = data.get("led_to")
    if isinstance(led_to, str) and led_to and led_to not in grimoire.by_id:
        raise ValidationError(f"led_to names {led_to if is_valid_id(led_to) else shown_id(led_to)}, which is not "
                              "in the grimoire",
                              hint="record what was done instead first, then point to its id; nothing was written")


def stage_new(changes: Changeset, data: dict[str, Any], world: str) -> Written:
    """Validate, secret-check and stage a completed entry; returns where it will be."""
    config = changes.config
    validate_new(config, data)
    cat = config.category(str(data["category"]))
    path = target_path(config, cat, world, data)
    rel = path.relative_to(config.root).as_posix()
    if cat.kind == "markdown":
        data["content"] = str(data["content"]).strip("\n")
        text = markdown_text(data)
        check_secrets(config, text, rel, 1)
        changes.write(path, text)
        return Written(data, rel, 1, world)
    item = yamlio.dump_item(data)
    if yamlio.load_text(item, path=rel) != [data]:
        raise ValidationError("the entry does not survive a YAML round trip", path=rel,
                              hint="report this as a bug; nothing was written")
    line = changes.append_text(path, item, data)
    check_secrets(config, item, rel, line)
    return Written(data, rel, line, world)


def add_entry(config: Config, fields: Mapping[str, Any], *, world: str | None = None,
              moment: datetime | None = None, check: Callable[[Grimoire], None] | None = None) -> Written:
    """Add one memory (filling in id, source, ttl...) and write it atomically under the lock.

    ``check`` sees the grimoire as it is under the lock and may raise to refuse the write.
    """
    world_name = config.world(world).name
    with locked(config.local_dir):
        recover(config)
        grimoire = load_grimoire(config)  # problems elsewhere do not block: a broken file refuses only writes to it
        if check is not None:
            check(grimoire)
        data = complete_entry(config, fields, grimoire.ids(), moment)
        check_references(grimoire, data)
        changes = Changeset(config, grimoire)
        written = stage_new(changes, data, world_name)
        changes.commit()
    return dataclasses.replace(written, problems=tuple(grimoire.problems))


def supersede_entry(config: Config, old_id: str | Sequence[str], fields: Mapping[str, Any], *,
                    moment: datetime | None = None) -> tuple[Written, Entry]:
    """Write a new entry that replaces ``old_id`` and link both ways, as one transaction.

    ``old_id`` may be several ids (a list, or one string with commas): one decision that consolidates them.
    The new entry then holds ``supersedes: [MEM-a, MEM-b]`` (one id stays the plain ``supersedes: MEM-a``
    that Loa reads) and each old entry gets ``superseded_by``. Returns the write and the (first) old entry.
    """
    wanted = split_ids(old_id)
    if not wanted:
        raise UsageError("no id to supersede", hint="e.g. loa-memory supersede MEM-20260101-001 \"new text\"")
    with locked(config.local_dir):
        recover(config)
        grimoire = load_grimoire(config)  # as for add_entry: only the files written must parse
        olds: list[Entry] = []
        for memory_id in wanted:
            old = grimoire.get(memory_id)
            if any(o.id == old.id for o in olds):
                raise UsageError(f"{old.id} is named twice", hint="name each entry to replace once")
            _check_replaceable(grimoire, old)
            olds.append(old)
        first = olds[0]
        merged = dict(fields)
        merged.setdefault("category", first.category)
        if "tags" not in merged and any(o.tags for o in olds):
            merged["tags"] = list(dict.fromkeys(t for o in olds for t in o.tags))
        if "thread" not in merged and first.data.get("thread"):
            merged["thread"] = first.data["thread"]
        merged["supersedes"] = first.id if len(olds) == 1 else [o.id for o in olds]
        data = complete_entry(config, merged, grimoire.ids(), moment)
        check_references(grimoire, data)
        changes = Changeset(config, grimoire)
        for old in olds:
            changes.patch(config.root / old.path, old.line, {"superseded_by": data["id"]})
        written = stage_new(changes, data, first.world)
        changes.commit()
    return dataclasses.replace(written, problems=tuple(grimoire.problems)), first


def split_ids(value: str | Sequence[str]) -> list[str]:
    """Ids given as one string (commas or spaces between them) or as a list of such strings."""
    parts = [value] if isinstance(value, str) else list(value)
    return list(dict.fromkeys(i for part in parts for i in re.split(r"[,\s]+", str(part)) if i))


def _check_replaceable(grimoire: Grimoire, old: Entry) -> None:
    status = grimoire.status(old)
    if status == "superseded":
        current = grimoire.superseder(old)
        raise UsageError(f"{old.id} is already superseded" + (f" by {current.id}" if current else ""),
                         hint=f"supersede the current entry instead: `loa-memory supersede {current.id} ...`"
                         if current else "supersede the current entry instead")
    if status == "archived":
        raise UsageError(f"{old.id} is archived", hint="add a new entry instead of superseding an archived one")


@contextlib.contextmanager
def loaded_for_writing(config: Config, *, write: bool = True) -> Iterator[Grimoire]:
    """The grimoire, loaded under the lock after finishing any interrupted transaction when ``write``,
    or without the lock for a dry run; a grimoire with problems is refused either way."""
    with locked(config.local_dir) if write else contextlib.nullcontext():
        if write:
            recover(config)
        grimoire = load_grimoire(config)
        refuse_if_broken(grimoire)
        yield grimoire


def recover(config: Config) -> None:
    """Finish a transaction that a crash interrupted (call under the lock, before every write). Every write also
    configures the merge driver in a clone that lacks it (quietly; ``hooks install`` and ``lint`` say so when
    it cannot be written), so that any clone that writes memories merges them entry by entry."""
    atomic.recover(config.local_dir, [config.root / w.storage_dir for w in config.worlds])
    git.ensure_merge_driver(config.root)


def expired_note(written: Written, moment: datetime | None = None) -> str | None:
    """A warning when the entry just written has already expired (its ttl ran out before ``moment``)."""
    from loa_memory.store.times import parse_time

    expires = parse_time(str(written.data.get("expires_at") or ""))
    if expires is None or expires > (moment or now_utc()):
        return None
    return (f"warning: {written.data['id']} has already expired ({written.data['expires_at']}, ttl "
            f"{written.data.get('ttl')} from source.timestamp {written.data.get('source', {}).get('timestamp')}): "
            "search and recall leave it out and `loa-memory archive` moves it; supersede it with a longer --ttl "
            "if it still holds")
