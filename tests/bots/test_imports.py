"""The modules of ``bots`` import each other in one direction only.

Every import statement counts, those inside functions too (a lazy import is
still a cycle): ``play`` -> ``mcts`` -> ``common`` -> ``heuristics``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bots

PACKAGE = Path(bots.__file__).parent


def _imports(source: str) -> set[str]:
    """The ``bots`` modules that ``source`` (a module of ``bots``) imports, anywhere in it."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                base = f"bots.{node.module}" if node.module else "bots"
            elif node.module and node.module.split(".")[0] == "bots":
                base = node.module
            else:
                continue
            if base == "bots":
                out.update(f"bots.{alias.name}" for alias in node.names)
            else:
                out.add(base)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "bots")
    return {name for name in out if (PACKAGE / f"{name.split('.', 1)[-1]}.py").exists()}


def _graph() -> dict[str, set[str]]:
    return {
        f"bots.{path.stem}": _imports(path.read_text())
        for path in sorted(PACKAGE.glob("*.py"))
        if path.stem != "__init__"
    }


def test_the_graph_reads_imports_inside_functions():
    source = "def f():\n    from .play import choose\n    from . import mcts\n"
    assert _imports(source) == {"bots.play", "bots.mcts"}


def test_no_module_of_bots_imports_itself_back():
    graph = _graph()
    assert "bots.play" not in graph["bots.mcts"]
    assert "bots.play" not in graph["bots.common"] | graph["bots.heuristics"]
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for imported in sorted(graph.get(module, ())):
            assert state.get(imported) != 1, " -> ".join([*path, module, imported])
            if imported not in state:
                visit(imported, [*path, module])
        state[module] = 2

    for module in graph:
        if module not in state:
            visit(module, [])


def test_grimp_finds_no_cycle_either():
    grimp = __import__("pytest").importorskip("grimp")
    graph = grimp.build_graph("bots")
    modules = sorted(m for m in graph.modules if m != "bots")
    for a in modules:
        for b in modules:
            if a < b:
                there = graph.chain_exists(importer=a, imported=b)
                back = graph.chain_exists(importer=b, imported=a)
                assert not (there and back), f"{a} <-> {b}"
