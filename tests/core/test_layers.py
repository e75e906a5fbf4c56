"""The layers of the code point one way, and the docs stand on their own."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "ziggurat"


def _imports(path: Path) -> set[str]:
    """Modules ``path`` imports, statically or by ``importlib.import_module("...")``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return found


def _ziggurat_layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "ziggurat" and len(parts) > 1 else None


def test_core_imports_no_other_layer() -> None:
    for path in sorted((SRC / "core").rglob("*.py")):
        for module in _imports(path):
            layer = _ziggurat_layer(module)
            assert layer in (None, "core"), f"{path.relative_to(ROOT)} imports {module}"


def test_games_import_only_core_and_themselves() -> None:
    for path in sorted((SRC / "games").rglob("*.py")):
        rel = path.relative_to(SRC / "games")
        own = f"ziggurat.games.{rel.parts[0]}" if len(rel.parts) > 1 else "ziggurat.games"
        for module in _imports(path):
            layer = _ziggurat_layer(module)
            if layer is None or layer == "core":
                continue
            assert module == own or module.startswith(own + "."), f"{path.relative_to(ROOT)} imports {module}"


def test_registry_finds_games_and_bots_through_entry_points() -> None:
    from importlib.metadata import entry_points

    from ziggurat.core import bot_names, game_ids

    assert {e.name for e in entry_points(group="ziggurat.games")}, "pyproject.toml declares the games"
    assert {e.name for e in entry_points(group="ziggurat.bots")}, "pyproject.toml declares the bots"
    assert game_ids() == ["kuhnah", "pyramix", "lucent", "kukulkan", "nakum"]
    assert {"random", "greedy", "ismcts"} <= set(bot_names())


OUTSIDE = re.compile(r"\.\./|(?<![\w/.-])shared/")


@pytest.mark.parametrize(
    "path",
    [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted(SRC.rglob("*.py"))],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_docs_and_docstrings_point_only_inside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        tree = ast.parse(text)
        docs = [
            ast.get_docstring(n) or ""
            for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        text = "\n".join(docs)
    for n, line in enumerate(text.splitlines(), 1):
        assert not OUTSIDE.search(line), f"{path.relative_to(ROOT)}:{n} points outside the repository: {line.strip()}"
    for ref in re.findall(r"`(docs/[\w./-]+\.md)`", text):
        assert (ROOT / ref).exists(), f"{path.relative_to(ROOT)} names {ref}, which does not exist"
