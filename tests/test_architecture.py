"""The package's import direction, as docs/architecture.md lists it: each room imports only from rooms below it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "loa_memory"
FOLDERS = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}


def _layers() -> list[set[str]]:
    text = (ROOT / "docs" / "architecture.md").read_text()
    block = re.search(r"```text\n(.*?)```", text, re.S)
    assert block, "docs/architecture.md lost its layer list"
    return [set(line.split()) for line in block.group(1).splitlines() if line.strip()]


def _room(module: str) -> str:
    """``loa_memory.search.embed.mpnet`` → ``search/``; ``loa_memory.model`` → ``model.py``."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__.py"
    return f"{parts[1]}/" if len(parts) > 2 or parts[1] in FOLDERS else f"{parts[1]}.py"


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every ``loa_memory`` module ``path`` imports, at any depth (lazy imports in functions too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "loa_memory"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "loa_memory":
            names = [f"{node.module}.{a.name}" for a in node.names] if node.module == "loa_memory" else []
            found += [(node.lineno, n) for n in names] or [(node.lineno, node.module)]
        elif isinstance(node, ast.ImportFrom) and node.level:
            found.append((node.lineno, "<relative>"))
    return found


def _rank(room: str, layers: list[set[str]]) -> int:
    for rank, layer in enumerate(layers):
        if room in layer:
            return rank
    raise AssertionError(f"{room} is not in docs/architecture.md's layer list: add it there")


def test_every_room_is_listed_and_imports_point_down() -> None:
    layers = _layers()
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = _room(_module(path))
        for line, imported in _imports(path):
            if imported == "<relative>":
                wrong.append(f"{path.relative_to(ROOT)}:{line}: a relative import (write loa_memory.… in full)")
                continue
            there = _room(imported) if not imported.startswith("loa_memory.__") else "__init__.py"
            if there != here and _rank(there, layers) <= _rank(here, layers):
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {here} imports {imported} ({there} is not below it)")
    assert not wrong, "\n".join(wrong)


def test_only_store_git_imports_gitpython() -> None:
    users = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
             if any(isinstance(n, ast.Import | ast.ImportFrom) and
                    (getattr(n, "module", None) == "git" or any(a.name == "git" for a in n.names if
                                                                 isinstance(n, ast.Import)))
                    for n in ast.walk(ast.parse(p.read_text())))]
    assert users == ["store/git.py"]


@pytest.mark.parametrize("source, expected", [
    ("from loa_memory.cli.app import cli\n", "search/ imports loa_memory.cli.app"),
    ("def f():\n    from loa_memory.answer import recall\n", "search/ imports loa_memory.answer (answer/"),
    ("from . import rank\n", "a relative import"),
])
def test_an_upward_import_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str,
                                    expected: str) -> None:
    fake = tmp_path / "loa_memory" / "search" / "fake.py"
    fake.parent.mkdir(parents=True)
    fake.write_text(source)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "architecture.md").write_text((ROOT / "docs" / "architecture.md").read_text())
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    monkeypatch.setattr(__import__(__name__, fromlist=["PACKAGE"]), "PACKAGE", tmp_path / "loa_memory")
    with pytest.raises(AssertionError, match=re.escape(expected)):
        test_every_room_is_listed_and_imports_point_down()
