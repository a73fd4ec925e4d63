"""The import contracts of docs/architecture.md, read from the source with `ast` (imports inside
functions included, so a circle cannot hide in a function-local import):

- no import circles among the project's modules (leagues, tiebreaks, pairings, config);
- tiebreaks and pairings import nothing of leagues or config;
- pairings and the pure part of tiebreaks (engine, TRF, prize split, command line) import no Django,
  not even through another module. Only the Django side of tiebreaks (its pages) may.
"""

import ast
import sys

from tests.paths import REPO

PACKAGES = ("leagues", "tiebreaks", "pairings", "config")
# the tiebreak guides and calculator: Django pages living in the tiebreaks app (docs/architecture.md)
TIEBREAKS_DJANGO_SIDE = {
    "tiebreaks.views",
    "tiebreaks.urls",
    "tiebreaks.forms",
    "tiebreaks.examples",
    "tiebreaks.names",
    "tiebreaks.explanations",
    "tiebreaks.money",
    "tiebreaks.bidi",
}


def module_name(path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, object]:
    return {
        module_name(path): path
        for package in PACKAGES
        for path in (REPO / package).rglob("*.py")
        if ".venv" not in path.parts
    }


def imported_names(name: str, path, modules) -> set[str]:
    """Every module `name` imports, absolute, wherever the import statement stands. `from pkg import
    module` imports that module (not the package's ``__init__``), as import-linter counts it."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            submodules = {f"{source}.{alias.name}" for alias in node.names} & modules.keys()
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(source)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    graph = {}
    for name, path in modules.items():
        edges = set()
        for target in imported_names(name, path, modules):
            if target in modules and target != name:
                edges.add(target)
            elif target.split(".")[0] not in PACKAGES:
                edges.add(target.split(".")[0])  # a library: only its top-level name matters here
        graph[name] = edges
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    sys.setrecursionlimit(10_000)
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in graph:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_graph_sees_function_local_and_relative_imports():
    graph = import_graph()
    assert {"leagues.models", "leagues.broker", "leagues.services.results"} <= graph["leagues.services.results"] | {
        "leagues.services.results"
    }
    assert "leagues.tasks" in graph["leagues.apps"]  # imported inside AppConfig.ready()
    assert "django" in graph["tiebreaks.views"]


def test_no_import_circles_among_the_project_modules():
    assert circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_tiebreaks_and_pairings_import_nothing_of_leagues_or_config():
    graph = import_graph()
    offenders = {
        name: sorted(t for t in targets if t.split(".")[0] in ("leagues", "config"))
        for name, targets in graph.items()
        if name.split(".")[0] in ("tiebreaks", "pairings")
    }
    assert {name: targets for name, targets in offenders.items() if targets} == {}


def test_pairings_and_the_pure_tiebreaks_import_no_django_even_indirectly():
    graph = import_graph()
    pure = [
        name
        for name in graph
        if name.split(".")[0] == "pairings" or (name.startswith("tiebreaks") and name not in TIEBREAKS_DJANGO_SIDE)
    ]
    assert "tiebreaks.engine" in pure and "tiebreaks.prizes" in pure
    forbidden = {"django", "leagues", "config"} | TIEBREAKS_DJANGO_SIDE
    offenders = {name: sorted(reachable(graph, name) & forbidden) for name in pure}
    assert {name: targets for name, targets in offenders.items() if targets} == {}
