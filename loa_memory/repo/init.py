"""``init``: a config, the grimoire's folders and files, and the local ``.loa/`` folder."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path
from typing import Any

from loa_memory.errors import LoaError, UsageError
from loa_memory.store import git, yamlio
from loa_memory.store.atomic import write_atomic
from loa_memory.store.config import CONFIG_NAME, LOCAL_DIR, Config, load_config
from loa_memory.store.lock import ensure_local_dir, locked

CONFIG_TEMPLATE = """\
# loa-memory settings (schema: schemas/config.schema.json; every key is optional)
memory_schema:
  version: 1
  storage_dir: grimoires/loa/memory
  retrieval:
    max_per_query: 10
    min_confidence: 0.5
    recency_weight: 0.1
  lifecycle:
    auto_archive: true
    check_on_session_start: true
    warn_before_archive_days: 7
  governance:
    operators: []        # author emails allowed to change telos files
"""

HEADER = "# {title}: one `- id:` item per memory. Written by `loa-memory add {name}`; reviewed like code.\n"


def init_repo(root: Path, world: str | None = None, description: str = "") -> dict[str, Any]:
    """Create what is missing (never overwrite); returns what was created and what was updated (a line added
    to a file that was there: the config's ``worlds``, ``.gitattributes``).

    With ``world``, that world is added to the config's ``worlds`` (the grimoire that was there stays the
    first, default world) and its folders are made.
    """
    created: list[str] = []
    updated: list[str] = []
    config_path = root / CONFIG_NAME
    config_existed = config_path.exists()
    if not config_existed:
        config_path.write_text(CONFIG_TEMPLATE, "utf-8")
        created.append(CONFIG_NAME)
    if world is not None:
        (updated if config_existed else created).extend(add_world(root, world, description))
    config = load_config(root)
    for each in config.worlds:
        memdir = root / each.storage_dir
        for cat in config.categories:
            target = memdir / cat.path
            if cat.kind == "list":
                if not target.exists():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    title = cat.path.removesuffix(".yaml").capitalize()
                    target.write_text(HEADER.format(title=title, name=cat.name), "utf-8")
                    created.append(target.relative_to(root).as_posix())
            elif not target.exists():
                target.mkdir(parents=True)
                (target / ".gitkeep").touch()
                created.append(target.relative_to(root).as_posix() + "/")
    attributes_existed = (root / ".gitattributes").exists()
    driver_existed = git.get_config(root, "merge.loa-memory.driver") is not None
    for done in register_merge(root, config):
        existed = attributes_existed if done == ".gitattributes" else driver_existed
        (updated if existed else created).append(done)
    local = root / LOCAL_DIR
    if not (local / ".gitignore").exists():
        ensure_local_dir(local)
        created.append(f"{LOCAL_DIR}/.gitignore")
    return {"root": str(root), "created": created, "updated": updated, "worlds": [w.name for w in config.worlds]}


_WORLD_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def add_world(root: Path, name: str, description: str = "") -> list[str]:
    """Declare world ``name`` (``grimoires/<name>/memory``) in the config, keeping its comments; no-op if known."""
    if not _WORLD_NAME.match(name):
        raise UsageError(f"{name!r} is not a world name", hint="use lower-case letters, digits, '-' and '_', "
                         "starting with a letter or digit (e.g. research)")
    config = load_config(root)
    if any(w.name == name for w in config.worlds):
        return []
    path = root / CONFIG_NAME
    text = path.read_text("utf-8")
    spec: dict[str, Any] = {"storage_dir": f"grimoires/{name}/memory"}
    if description:
        spec["description"] = description
    if config.settings.get("worlds"):
        new = yamlio.set_in_document(text, ("memory_schema", "worlds", name), spec)
    else:  # the implicit single world becomes the first (default) entry of `worlds`
        only = config.worlds[0]
        worlds = {only.name: {"storage_dir": only.storage_dir}, name: spec}
        new = yamlio.set_in_document(text, ("memory_schema", "worlds"), worlds, remove=("storage_dir",))
    with locked(root / LOCAL_DIR):
        write_atomic(path, new)
        try:
            load_config(root)
        except LoaError:
            write_atomic(path, text)  # never leave a config that does not load
            raise
    return [f"{CONFIG_NAME} (world {name})"]


ATTRIBUTES_HEADER = "# loa-memory: merge memory list files entry by entry (see `loa-memory merge-driver`)\n"


def register_merge(root: Path, config: Config) -> list[str]:
    """Route every world's YAML memory files and the retrieval-weights summary to the merge driver
    (.gitattributes + local git config)."""
    done = []
    from loa_memory.tuning.summary import summary_path

    summary = summary_path(config).relative_to(root).as_posix()
    lines = [*(f"{world.storage_dir}/**/*.yaml merge=loa-memory" for world in config.worlds),
             f"{summary} merge=loa-memory"]
    attributes = root / ".gitattributes"
    text = attributes.read_text("utf-8") if attributes.exists() else ""
    missing = [line for line in lines if line not in text.splitlines()]
    if missing:
        prefix = text if not text or text.endswith("\n") else text + "\n"
        header = "" if ATTRIBUTES_HEADER in text else ATTRIBUTES_HEADER
        attributes.write_text(prefix + header + "\n".join(missing) + "\n", "utf-8")
        done.append(".gitattributes")
    command = f"{shlex.quote(sys.executable)} -m loa_memory merge-driver %O %A %B %L %P"
    try:
        if git.register_merge_driver(root, command):
            done.append("git config merge.loa-memory.driver")
    except LoaError:
        pass  # not a git repository yet: .gitattributes is in place, `loa-memory init` again registers it
    return done
