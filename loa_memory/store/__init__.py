"""The grimoire store: config, schemas, reading, ids, atomic writes, the lock."""

from loa_memory.store.config import Config, World, find_root, load_config
from loa_memory.store.load import Grimoire, MemoryFile, iter_memory_files, load_grimoire

__all__ = ["Config", "Grimoire", "MemoryFile", "World", "find_root", "iter_memory_files", "load_config",
           "load_grimoire"]
