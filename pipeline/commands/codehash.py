"""Which source files make up a stage's code version, found from the source itself (nothing is imported).

A stage's code is pipeline/commands/stages.py (its functions share helpers there), the in-repo modules that its
functions import or name, every module those import in turn (at module level or inside a function: a
lazy import runs too), the ``__init__`` of every package on the way, and the files inside a package that
a module names in a string (labelers/lexicon.py reads "coref.json" from labelers/resources/). Only what
the stage's own functions use counts: a module-level import of stages.py that they never name does not.
"""
from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator

from pipeline.core.paths import PROJECT_ROOT

STAGES_MODULE = "pipeline.commands.stages"
SKIPPED_FIELDS = frozenset({"annotation", "returns"})
"""Annotations are never evaluated (``from __future__ import annotations``): a type named only there is
no dependency."""


def module_file(name: str, root: Path) -> Path | None:
    """The file of in-repo module ``name`` (a package's ``__init__.py``), or None outside the repo."""
    parts = name.split(".")
    if not (root / parts[0] / "__init__.py").is_file():
        return None
    base = root.joinpath(*parts)
    return next((f for f in (base.with_suffix(".py"), base / "__init__.py") if f.is_file()), None)


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """ast.walk, without annotations."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for name, value in ast.iter_fields(current):
            if name in SKIPPED_FIELDS:
                continue
            children = value if isinstance(value, list) else [value]
            stack.extend(c for c in children if isinstance(c, ast.AST))


def _base(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module of ``from X import ...`` (relative imports resolved against ``module``)."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    package = package[: len(package) - node.level + 1]
    return ".".join(package + ([node.module] if node.module else []))


def bound_names(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> dict[str, str]:
    """Local name -> the module it stands for, or that it was taken from (``from pipeline.core.io import
    read_parquet`` binds read_parquet to pipeline.core.io; ``from pipeline.core import schemas`` to pipeline.core.schemas)."""
    if isinstance(node, ast.Import):
        return {(a.asname or a.name.split(".")[0]): a.name for a in node.names}
    base = _base(node, module, is_package)
    return {(a.asname or a.name): f"{base}.{a.name}" for a in node.names}


def imports_in(node: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module imported anywhere inside ``node``, with the parents of ``from X import Y`` targets."""
    found: set[str] = set()
    for sub in _walk(node):
        if isinstance(sub, ast.ImportFrom):
            found.add(_base(sub, module, is_package))
        if isinstance(sub, (ast.Import, ast.ImportFrom)):
            found.update(bound_names(sub, module, is_package).values())
    return found


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts) + 1)]


@lru_cache(maxsize=None)
def _data_files(package_dir: Path) -> tuple[Path, ...]:
    """The non-Python files of a package, listed once per process (their contents are read every time)."""
    return tuple(f for f in package_dir.rglob("*") if f.is_file() and f.suffix not in (".py", ".pyc"))


@lru_cache(maxsize=1024)
def _scan(source: bytes, module: str, is_package: bool) -> tuple[frozenset[str], frozenset[str]]:
    """(modules imported, string constants) of one module's source; cached by content, since every
    stage's fingerprint reads the shared modules again."""
    tree = ast.parse(source)
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return frozenset(imports_in(tree, module, is_package)), frozenset(strings)


def _named_files(strings: frozenset[str], package_dir: Path) -> set[Path]:
    """Non-Python files under ``package_dir`` whose name, or path from the project root, is in ``strings``."""
    return {f for f in _data_files(package_dir)
            if f.name in strings or str(f.relative_to(package_dir.parent)) in strings}


def closure(modules: Iterable[str], root: Path = PROJECT_ROOT) -> set[Path]:
    """The files of ``modules``, of every in-repo module they import (transitively), of the packages on
    the way, and the package files these modules name."""
    todo, seen, files = [m for name in modules for m in _parents(name)], set(), set()
    while todo:
        name = todo.pop()
        path = None if name in seen else module_file(name, root)
        seen.add(name)
        if path is None:  # outside the repo, or ``from X import function``
            continue
        imported, strings = _scan(path.read_bytes(), name, path.name == "__init__.py")
        files |= {path} | _named_files(strings, root / name.split(".")[0])
        todo += [m for found in imported for m in _parents(found)]
    return files


@lru_cache(maxsize=16)
def _definitions(source: bytes) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Per top-level name of stages.py (function, class, constant): (modules its definition imports or
    names, the names it uses)."""
    tree = ast.parse(source)
    imported: dict[str, str] = {}
    defined: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imported |= bound_names(node, STAGES_MODULE, False)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined |= {t.id: node for t in targets if isinstance(t, ast.Name)}
    out = {}
    for name, node in defined.items():
        used = {n.id for n in _walk(node) if isinstance(n, ast.Name)}
        modules = imports_in(node, STAGES_MODULE, False) | {imported[n] for n in used if n in imported}
        out[name] = (frozenset(modules), frozenset(used))
    return out


def function_roots(functions: Iterable[str], root: Path = PROJECT_ROOT) -> set[str]:
    """Modules that the named top-level functions of pipeline/commands/stages.py import or name, following the
    other top-level functions and classes of stages.py that they use."""
    local = _definitions(module_file(STAGES_MODULE, root).read_bytes())
    todo, seen, roots = list(functions), set(), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        modules, used = local[name]
        roots |= modules
        todo += [n for n in used if n in local]
    return roots


def stage_files(functions: Iterable[str], root: Path = PROJECT_ROOT) -> list[Path]:
    """The files whose content is the code version of the stage made of ``functions``, sorted. stages.py is
    hashed whole but its imports are not followed: those of the other stages' functions are not this one's."""
    return sorted(closure(function_roots(functions, root), root) | {module_file(STAGES_MODULE, root)})


def code_sha256(functions: Iterable[str], root: Path = PROJECT_ROOT) -> str:
    """Hash of the names (relative to ``root``) and contents of ``stage_files``."""
    digest = hashlib.sha256()
    for file in stage_files(functions, root):
        digest.update(str(file.relative_to(root)).encode() + b"\0")
        digest.update(file.read_bytes())
    return digest.hexdigest()
