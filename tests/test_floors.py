"""The import floors, read from the source (nothing is imported): pipeline.core is the base; labelers and
training import only the base; pipeline.commands and experiments sit on top. No module-level import circle."""
import ast
from pathlib import Path
from typing import Iterator

from pipeline.core.paths import PROJECT_ROOT as ROOT

FLOORS = {"pipeline.core": 0, "labelers": 1, "training": 1, "pipeline": 2, "experiments": 3}
MODULES = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
           for f in ("pipeline", "labelers", "training", "experiments") for p in (ROOT / f).rglob("*.py")}


def package_of(module: str) -> str | None:
    """The FLOORS key a module belongs to (the longest that prefixes it), None outside the repo."""
    return max((f for f in FLOORS if module == f or module.startswith(f + ".")), key=len, default=None)


def outside_functions(node: ast.AST) -> Iterator[ast.AST]:
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield child
            yield from outside_functions(child)


def imports(path: Path, everywhere: bool) -> set[str]:
    """In-repo modules a file imports (``from pkg import submodule`` names the submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for n in ast.walk(tree) if everywhere else outside_functions(tree):
        if isinstance(n, ast.Import):
            found |= {a.name for a in n.names}
        elif isinstance(n, ast.ImportFrom):
            assert not n.level, f"{path}: relative import"  # the repo imports absolutely; keep it so
            found |= {f"{n.module}.{a.name}" if f"{n.module}.{a.name}" in MODULES else n.module for a in n.names}
    return {m for m in found if package_of(m)}


def test_no_floor_imports_a_higher_one_or_a_neighbour():
    bad = [f"{m} imports {i}" for m, p in MODULES.items() for i in imports(p, everywhere=True)
           if package_of(i) != package_of(m) and FLOORS[package_of(i)] >= FLOORS[package_of(m)]]
    assert bad == []


def test_no_module_level_import_circle():
    graph = {m: {i for i in imports(p, everywhere=False) if i in MODULES} for m, p in MODULES.items()}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join(path[path.index(module):] + (module,))
        if module not in done:
            for target in graph[module]:
                visit(target, path + (module,))
            done.add(module)

    for module in graph:
        visit(module, ())
