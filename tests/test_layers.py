"""The package's layers, read from the source's import statements (ast;
module-level and function-level imports alike): the games import nothing
from the engine's doors (match, rl, cli, web, uci), which stand above them,
and no module of the package imports itself back through others."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
# source folder -> import package (pyproject.toml's wheel.packages)
PACKAGES = {"crossridor": "crossridor", "engine": "crossridor.engine", "games": "crossridor.games"}
DOORS = tuple(f"crossridor.engine.{door}" for door in ("match", "rl", "cli", "web", "uci"))


def module_files() -> dict[str, Path]:
    """Every Python module of the package by its import name."""
    out = {}
    for folder, package in PACKAGES.items():
        for path in sorted((SRC / folder).rglob("*.py")):
            parts = list(path.relative_to(SRC / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([package, *parts])] = path
    return out


MODULES = module_files()


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The module an ImportFrom names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".")[:len(module.split(".")) - node.level + is_package]
    return ".".join(base + ([node.module] if node.module else []))


def _imported_by_call(node: ast.Call) -> str | None:
    """The module of `importlib.import_module("...")` or `__import__("...")`
    when it is named by a constant."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if name in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def imports(module: str) -> dict[str, int]:
    """The package's modules `module` imports, anywhere in its code, with
    the line of the first import of each. `from p import m` counts as an
    import of p.m when that is a module, else of p; an import_module call
    counts when it names its module as a constant."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"), str(MODULES[module]))
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, node)
            names = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES else source
                     for alias in node.names]
        elif isinstance(node, ast.Call) and _imported_by_call(node):
            names = [_imported_by_call(node)]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "crossridor" and name != module:
                found.setdefault(name, node.lineno)
    return found


GRAPH = {module: imports(module) for module in MODULES}


def test_the_package_is_read_whole():
    # the reading above finds the modules it must judge
    assert {"crossridor", "crossridor.engine.protocol", "crossridor.games.quoridor.game",
            "crossridor.engine.match.runner"} <= set(MODULES)
    assert "crossridor.engine.protocol" in GRAPH["crossridor.games.quoridor.game"]


def test_games_import_nothing_from_the_doors():
    crossing = [f"{MODULES[module].relative_to(SRC)}:{line} imports {target}"
                for module, targets in GRAPH.items() if module.startswith("crossridor.games")
                for target, line in targets.items()
                if any(target == door or target.startswith(door + ".") for door in DOORS)]
    assert not crossing, "\n".join(crossing)


def _circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_circle_finder_finds_circles():
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b": 1}, "b": {}}) == []


def test_no_import_circles():
    described = []
    for circle in _circles(GRAPH):
        ties = [f"  {MODULES[a].relative_to(SRC)}:{GRAPH[a][b]} imports {b}"
                for a in circle for b in GRAPH[a] if b in circle]
        described.append(f"circle of {len(circle)} modules:\n" + "\n".join(ties))
    assert not described, "\n".join(described)
