"""How henkit's modules depend on each other, read statically (ast) from henkit/'s sources.

- No import cycles among henkit's modules. Imports inside functions count: a lazy import that
  closes a cycle still ties the modules together (neither can be read, tested or reused without
  the other), it only hides the cycle from the interpreter. Only imports under
  `if TYPE_CHECKING:` are left out (they never run). An import names the module it reads from:
  `from henkit.hens.state import State` is an edge to henkit.hens.state, not to the package
  henkit.hens whose __init__ Python runs first (a package re-exporting its modules is not a
  cycle); `from henkit.hens import Barnyard` is an edge to the package henkit.hens.
- No module imports another module's private (_underscore) names, nor reads them off an
  imported module (`state._deal`). Dunder names (`__version__`) are public.
- The engines (every module outside henkit.widgets, henkit.charts, henkit.display and
  henkit.notebook) import nothing from the notebook and chart stack (ipywidgets, plotly,
  IPython, anywidget, jupyter, voila) nor from henkit.widgets / henkit.charts.
- No widget class has the name of an engine class (`henkit.widgets.Barnyard` next to
  `henkit.hens.Barnyard` was one).
- Every public function and method (of a public class) has a docstring.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "henkit"

UI_LIBRARIES = ("ipywidgets", "plotly", "IPython", "anywidget", "jupyter", "voila")
UI_MODULES = ("henkit.widgets", "henkit.charts", "henkit.display", "henkit.notebook")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
TREES: dict[str, ast.Module] = {m: ast.parse(p.read_text(), str(p)) for m, p in MODULES.items()}


def is_ui(module: str) -> bool:
    return any(module == u or module.startswith(u + ".") for u in UI_MODULES)


def is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


@dataclass(frozen=True)
class Import:
    """One imported thing: the module read from, a name from it (or None), where."""

    module: str  # absolute dotted name
    name: str | None  # `from module import name`; None for `import module`
    alias: str  # the name it is bound to in the importer
    line: int


def imports(module: str, tree: ast.Module) -> Iterator[Import]:
    """Every import of a module, at any depth, except under `if TYPE_CHECKING:`."""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]

    def walk(node: ast.AST) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and is_type_checking(child):
                yield from (i for n in child.orelse for i in walk_one(n))
                continue
            yield from walk_one(child)

    def walk_one(node: ast.AST) -> Iterator[Import]:
        if isinstance(node, ast.Import):
            for a in node.names:
                yield Import(a.name, None, a.asname or a.name.partition(".")[0], node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for a in node.names:
                yield Import(base, a.name, a.asname or a.name, node.lineno)
        if not isinstance(node, ast.Import | ast.ImportFrom):
            yield from walk(node)

    yield from walk(tree)


def henkit_target(imp: Import) -> str | None:
    """The henkit module an import reads, or None for other packages."""
    if imp.name is not None and f"{imp.module}.{imp.name}" in MODULES:
        return f"{imp.module}.{imp.name}"  # `from henkit import tournament_cache`
    return imp.module if imp.module in MODULES else None


def graph() -> dict[str, dict[str, int]]:
    """importer -> {imported henkit module: first line}."""
    out: dict[str, dict[str, int]] = {m: {} for m in MODULES}
    for m, tree in TREES.items():
        for imp in imports(m, tree):
            target = henkit_target(imp)
            if target is not None and target != m:
                out[m].setdefault(target, imp.line)
    return out


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                found.append(sorted(scc))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_checks_see_what_they_should():
    # The readers above find the imports they are meant to find (guards against a check that
    # passes because it reads nothing).
    g = graph()
    assert "henkit.core" in g["henkit.arena"] and "henkit.tournament_cache" in g["henkit.arena"]
    assert "henkit.henpen.bots" in g["henkit.arena"]  # a function-level import counts
    assert cycles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [
        ["a", "b", "c"]]
    lazy = ast.parse("def f():\n    from henkit.core import _x\n"
                     "if TYPE_CHECKING:\n    from henkit.arena import y\n")
    MODULES.setdefault("henkit._probe", PACKAGE / "_probe.py")
    try:
        found = list(imports("henkit._probe", lazy))
    finally:
        del MODULES["henkit._probe"]
    assert [(i.module, i.name) for i in found] == [("henkit.core", "_x")]


def test_no_import_cycles_among_henkit_modules():
    g = graph()
    problems = []
    for scc in cycles(g):
        links = [f"{a} -> {b} (line {g[a][b]})" for a in scc for b in sorted(g[a]) if b in scc]
        problems.append("; ".join(links))
    assert not problems, "import cycles (function-level imports count):\n" + "\n".join(problems)


def test_no_module_imports_another_modules_private_names():
    problems = []
    for m, tree in TREES.items():
        aliases: dict[str, str] = {}  # name bound in m -> the henkit module it is
        for imp in imports(m, tree):
            target = henkit_target(imp)
            if target is None:
                continue
            if imp.name is None or target != imp.module:  # a module object is bound
                aliases[imp.alias] = target
            name = imp.name if target == imp.module else None
            private = [p for p in (name or "").split(".") if p.startswith("_")
                       and not (p.startswith("__") and p.endswith("__"))]
            if private and target != m:
                problems.append(f"{m} line {imp.line}: from {target} import {imp.name}")
            for part in target.split("."):
                if part.startswith("_") and not part.startswith("__"):
                    problems.append(f"{m} line {imp.line}: imports the private module {target}")
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                problems.append(f"{m} line {node.lineno}: {node.value.id}.{node.attr} "
                                f"({aliases[node.value.id]}'s private name)")
    assert not problems, "private names used across modules:\n" + "\n".join(problems)


def test_engines_import_nothing_from_widgets_charts_or_the_notebook_stack():
    problems = []
    for m, tree in TREES.items():
        if is_ui(m):
            continue
        for imp in imports(m, tree):
            top = imp.module.partition(".")[0]
            target = henkit_target(imp)
            if top in UI_LIBRARIES or (target is not None and is_ui(target)):
                problems.append(f"{m} line {imp.line}: {imp.module}"
                                + (f" import {imp.name}" if imp.name else ""))
    assert not problems, "engine modules importing the UI:\n" + "\n".join(problems)


def classes(modules: list[str]) -> dict[str, str]:
    """Top-level class name -> the module defining it."""
    out = {}
    for m in modules:
        for node in TREES[m].body:
            if isinstance(node, ast.ClassDef):
                out[node.name] = m
    return out


def test_no_widget_class_is_named_like_an_engine_class():
    widgets = classes([m for m in MODULES if m.startswith("henkit.widgets")])
    engines = classes([m for m in MODULES if not is_ui(m)])
    clashes = [f"{name}: {widgets[name]} and {engines[name]}"
               for name in sorted(widgets.keys() & engines.keys())]
    assert not clashes, "widget classes named like engine classes:\n" + "\n".join(clashes)


def public_functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Module-level public functions and the public methods of public classes."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if not node.name.startswith("_"):
                yield node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if (isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                        and not item.name.startswith("_")):
                    yield item


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_public_function_has_a_docstring(module):
    missing = [f"{f.name} (line {f.lineno})" for f in public_functions(TREES[module])
               if not ast.get_docstring(f)]
    assert not missing, f"{module}: public functions without a docstring: {', '.join(missing)}"
