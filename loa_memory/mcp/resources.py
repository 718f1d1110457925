"""Resources: what exists (``loa://index``), the project's purpose (``loa://telos``), one memory by id."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

from loa_memory.errors import LoaError, NotFound
from loa_memory.mcp.results import Backend, log
from loa_memory.store.config import Config, load_config


class ResourceReads(Backend):
    def read(self, uri: str, records: Callable[[Config], dict[str, Any]], text: Callable[[Any], str]) -> str:
        """The text of ``records(config)``; a refusal becomes a resource error naming what to do."""
        with self._lock:
            try:
                return text(records(load_config(self.root)))
            except NotFound as error:
                raise ResourceNotFoundError(str(error)) from None
            except LoaError as error:
                log.info("resource %s refused: %s", uri, error.message)
                raise ResourceError(str(error)) from None

    def _listing(self, worlds: Sequence[str], categories: Sequence[str]) -> Callable[[Config], dict[str, Any]]:
        from loa_memory.answer.browse import ListFilter, list_entries, list_record
        from loa_memory.store.load import load_grimoire

        def records(config: Config) -> dict[str, Any]:
            chosen = self.worlds(config, worlds)
            grimoire = load_grimoire(config, chosen or None)
            return list_record(grimoire, list_entries(grimoire, ListFilter(categories, ("active",), (), chosen)))

        return records

    def index_resource(self) -> str:
        """Every active memory, one line each (id, category, summary): what exists, to pick what to read."""
        from loa_memory.render.entries import list_text

        return self.read("loa://index", self._listing((), ()), list_text)

    def telos_resource(self) -> str:
        """The project's purpose (telos, L4 identity) from every world, as Markdown."""
        from loa_memory.render.entries import telos_markdown

        return self.read("loa://telos", self._listing((), ("telos",)), telos_markdown)

    def world_telos_resource(self, world: str) -> str:
        """The telos of one world, as Markdown."""
        from loa_memory.render.entries import telos_markdown

        return self.read(f"loa://telos/{world}", self._listing((world,), ("telos",)), telos_markdown)

    def memory_resource(self, memory_id: str) -> str:
        """One memory in full: its fields, supersede chain, links and backlinks (as `loa-memory show`)."""
        from loa_memory.answer.browse import show_record
        from loa_memory.render.entries import show_text
        from loa_memory.store.load import load_grimoire

        def records(config: Config) -> dict[str, Any]:
            return show_record(load_grimoire(config, self.worlds(config, ()) or None), memory_id)

        return self.read(f"loa://memory/{memory_id}", records, show_text)
