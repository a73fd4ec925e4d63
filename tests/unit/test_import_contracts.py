"""The import contracts of docs/architecture.md ("Which way imports point"), every one of them, read from
the source with `ast` (imports inside functions included, so neither a circle nor a forbidden import can
hide in a function-local import):

- no import circles among the project's modules (leagues, tiebreaks, pairings, config);
- config imports leagues, never the other way: leagues, tiebreaks and pairings import nothing of config;
- tiebreaks and pairings import nothing of leagues;
- pairings and the pure part of tiebreaks (engine, TRF, prize split, command line) import no Django,
  not even through another module. Only the Django side of tiebreaks (its pages) may;
- the doors of leagues (public, manage, api, admin, management commands) import no other door, and no
  module of leagues imports a door; only the wiring does (config/urls.py, leagues/apps.py);
- services import only models, permissions, selectors, errors, broker, after_commit, page_cache,
  notifications, text, session_locks and other services: never a door, tasks.py or recompute.py (they send
  tasks by name);
- models import nothing of leagues but other models; permissions only models and errors, selectors also
  permissions;
- only leagues/apps.py and the management commands import tasks.py.

Each rule is a function from the import graph to its offences, and each has a control case: a graph with
one offending import, on which the rule must report that import.
"""

import ast
import sys
from functools import cache

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
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                assert node.module is not None  # an absolute import names its module
                source = node.module
            submodules = {f"{source}.{alias.name}" for alias in node.names} & modules.keys()
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(source)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports (a fresh copy: a test may add an offending import to it)."""
    return {name: set(targets) for name, targets in _import_graph().items()}


@cache
def _import_graph() -> dict[str, set[str]]:
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
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

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


DOORS = ("leagues.public", "leagues.manage", "leagues.api", "leagues.admin", "leagues.management")
# the wiring: the addresses of every door, and the app's start-up (it loads the login throttle's receivers)
DOOR_WIRING = {"config.urls", "leagues.apps"}
SERVICES_MAY_IMPORT = (
    "leagues.services",
    "leagues.models",
    "leagues.permissions",
    "leagues.selectors",
    "leagues.errors",
    "leagues.broker",
    "leagues.after_commit",
    "leagues.page_cache",
    "leagues.notifications",
    "leagues.text",
    "leagues.dates",
    "leagues.session_locks",
)
# permissions.py reads roles from the models; selectors.py may ask it whose rows a user sees
READERS_MAY_IMPORT = {
    "leagues.permissions": ("leagues.models", "leagues.errors"),
    "leagues.selectors": ("leagues.models", "leagues.errors", "leagues.permissions"),
}
TASKS_IMPORTED_BY = ("leagues.apps", "leagues.management")


def within(name: str, prefixes) -> bool:
    """`name` is one of `prefixes` or a module inside one of them."""
    if isinstance(prefixes, str):
        prefixes = (prefixes,)
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def door_of(name: str) -> str | None:
    return next((door for door in DOORS if within(name, door)), None)


def offences(graph: dict[str, set[str]], modules, forbidden) -> dict[str, list[str]]:
    """{module: the imports `forbidden(module, target)` refuses}, for each module `modules(name)` selects."""
    found = {
        name: sorted(target for target in targets if forbidden(name, target))
        for name, targets in graph.items()
        if modules(name)
    }
    return {name: targets for name, targets in found.items() if targets}


def door_offences(graph):
    """A door importing another door, or anything but the wiring importing a door."""
    return offences(
        graph,
        lambda name: name not in DOOR_WIRING,
        lambda name, target: door_of(target) is not None and door_of(target) != door_of(name),
    )


def service_offences(graph):
    return offences(
        graph,
        lambda name: within(name, "leagues.services"),
        lambda name, target: within(target, "leagues") and not within(target, SERVICES_MAY_IMPORT),
    )


def model_offences(graph):
    return offences(
        graph,
        lambda name: within(name, "leagues.models"),
        lambda name, target: within(target, "leagues") and not within(target, "leagues.models"),
    )


def reader_offences(graph):
    return offences(
        graph,
        lambda name: name in READERS_MAY_IMPORT,
        lambda name, target: within(target, "leagues") and not within(target, READERS_MAY_IMPORT[name]),
    )


def task_offences(graph):
    return offences(
        graph,
        lambda name: not within(name, TASKS_IMPORTED_BY) and name != "leagues.tasks",
        lambda name, target: target == "leagues.tasks",
    )


def config_offences(graph):
    return offences(
        graph,
        lambda name: not within(name, "config"),
        lambda name, target: within(target, "config"),
    )


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


def engine_offences(graph):
    """tiebreaks or pairings importing leagues or config."""
    return offences(
        graph,
        lambda name: within(name, ("tiebreaks", "pairings")),
        lambda name, target: within(target, ("leagues", "config")),
    )


def django_offences(graph):
    """pairings or the pure part of tiebreaks reaching Django, leagues, config or the Django side of tiebreaks,
    directly or through another module."""
    forbidden = {"django", "leagues", "config"} | TIEBREAKS_DJANGO_SIDE
    pure = [
        name
        for name in graph
        if within(name, "pairings") or (within(name, "tiebreaks") and name not in TIEBREAKS_DJANGO_SIDE)
    ]
    found = {
        name: sorted(target for target in reachable(graph, name) if within(target, tuple(forbidden))) for name in pure
    }
    return {name: targets for name, targets in found.items() if targets}


def test_tiebreaks_and_pairings_import_nothing_of_leagues_or_config():
    assert engine_offences(import_graph()) == {}
    control = {"pairings.berger": {"leagues.models"}, "tiebreaks.trf.read": {"config.settings"}}
    assert engine_offences(control) == {
        "pairings.berger": ["leagues.models"],
        "tiebreaks.trf.read": ["config.settings"],
    }


def test_pairings_and_the_pure_tiebreaks_import_no_django_even_indirectly():
    graph = import_graph()
    assert {"tiebreaks.engine", "tiebreaks.prizes", "pairings.berger"} <= graph.keys()
    assert django_offences(graph) == {}
    graph["tiebreaks.engine.ranking"] = graph["tiebreaks.engine.ranking"] | {"tiebreaks.names"}  # a Django module
    found = django_offences(graph)
    assert "tiebreaks.names" in found["tiebreaks.engine.ranking"] and "django" in found["tiebreaks.engine.ranking"]
    assert "django" in found["tiebreaks.engine"]  # through ranking: an indirect import is seen


def test_no_door_imports_another_door():
    assert door_offences(import_graph()) == {}


def test_a_door_importing_another_door_is_an_offence():
    graph = {
        "leagues.api.prizes": {"leagues.public.prizes", "leagues.services.prizes", "leagues.api.serializers"},
        "leagues.manage.setup_views": {"leagues.admin"},
        "leagues.templatetags.entry_links": {"leagues.public.table_rows"},
        "leagues.services.results": {"leagues.api.views"},
        "config.urls": {"leagues.public.urls", "leagues.api.urls"},
        "leagues.public.views": {"leagues.public.table_rows"},
    }
    assert door_offences(graph) == {
        "leagues.api.prizes": ["leagues.public.prizes"],
        "leagues.manage.setup_views": ["leagues.admin"],
        "leagues.templatetags.entry_links": ["leagues.public.table_rows"],
        "leagues.services.results": ["leagues.api.views"],
    }


def test_the_real_graph_would_show_a_door_to_door_import():
    graph = import_graph()
    graph["leagues.api.prizes"] = graph["leagues.api.prizes"] | {"leagues.public.prizes"}
    assert door_offences(graph) == {"leagues.api.prizes": ["leagues.public.prizes"]}


def test_services_import_no_door_no_task_and_no_recompute():
    assert service_offences(import_graph()) == {}
    control = {"leagues.services.results": {"leagues.tasks", "leagues.recompute", "leagues.models", "leagues.broker"}}
    assert service_offences(control) == {"leagues.services.results": ["leagues.recompute", "leagues.tasks"]}


def test_models_import_no_service():
    assert model_offences(import_graph()) == {}
    control = {"leagues.models.prizes": {"leagues.models.events", "leagues.services.prizes", "tiebreaks.prizes"}}
    assert model_offences(control) == {"leagues.models.prizes": ["leagues.services.prizes"]}


def test_permissions_and_selectors_read_models_only():
    assert reader_offences(import_graph()) == {}
    control = {
        "leagues.selectors": {"leagues.models", "leagues.permissions", "leagues.services.standings"},
        "leagues.permissions": {"leagues.models", "leagues.selectors"},
    }
    assert reader_offences(control) == {
        "leagues.selectors": ["leagues.services.standings"],
        "leagues.permissions": ["leagues.selectors"],
    }


def test_only_the_app_and_the_commands_import_the_tasks():
    graph = import_graph()
    assert "leagues.tasks" in graph["leagues.apps"]
    assert task_offences(graph) == {}
    assert task_offences({"leagues.services.trf_jobs": {"leagues.tasks"}}) == {
        "leagues.services.trf_jobs": ["leagues.tasks"]
    }


def test_nothing_but_config_imports_config():
    assert config_offences(import_graph()) == {}
    assert config_offences({"leagues.broker": {"config.celery"}}) == {"leagues.broker": ["config.celery"]}
