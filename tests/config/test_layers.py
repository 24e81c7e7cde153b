"""The layers import downward only: read every project module's imports (with ``ast``, including the imports
inside functions) and check the graph.

- no import cycles among the project's modules;
- ``scoring.rules`` (the pure rules engine) imports nothing from Django or from the project outside itself;
- ``scoring`` imports ``frontend`` and ``analytics`` only through the deliberate hooks listed in ``SCORING_HOOKS``;
- the layers listed in ``LAYERS`` (lowest first) import only their own layer and the ones below it: the rules engine,
  text helpers, models, selectors, services, then everything that serves people (the API, the transfers, sign-in,
  the pages, the statistics); ``config`` is wiring and may import anything.

``from package import name`` counts as importing ``package.name`` when that is a module (and ``package``
otherwise), so a package's ``__init__`` re-exporting its own submodules is not read as a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("analytics", "config", "frontend", "scoring")

# scoring -> analytics/frontend imports that are there on purpose (each with why). Anything else is a layer breach.
SCORING_HOOKS = {
    # the write services tell the statistics which match/group changed, inside the writing transaction (the
    # dirty record must commit or roll back with the change); imported inside the function, at call time
    ("scoring.services.common", "analytics.services"),
}


# The layers, lowest first: a module may import its own layer and the ones below it. A module belongs to the first
# layer whose package holds it; every other project module (scoring.api, scoring.transfer, scoring.signin, the
# scoring app's admin, tasks and commands, frontend, analytics) is the top layer; config is wiring, outside them.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("scoring.rules",),
    ("scoring.text",),
    ("scoring.models",),
    ("scoring.selectors",),
    ("scoring.services",),
)
TOP = len(LAYERS)


def layer_of(module: str) -> int | None:
    """The layer index of a project module (None for config: wiring, free to import anything)."""
    if module == "config" or module.startswith("config."):
        return None
    for index, packages in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in packages):
            return index
    return TOP


# Imports up the layers that are there on purpose (each with why); any other is a breach.
UPWARD_HOOKS = {
    # the write services tell the statistics which match/group changed (see SCORING_HOOKS)
    ("scoring.services.common", "analytics.services"),
}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            if "migrations" in rel.parts:
                continue
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute module named by a (possibly relative) ``from ... import``."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if _is_package(module) else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _targets(name: str) -> list[str]:
    """The project module an imported name belongs to (its longest known prefix), if any."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in MODULES:
            return [prefix]
    return []


def imports_of(module: str) -> set[str]:
    """Every module (project or not) imported anywhere in ``module``, by absolute name."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node)
            subs = [f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in MODULES]
            names.update(subs)
            if len(subs) < len(node.names):  # some names are attributes of the module itself
                names.add(source)
    return names


def project_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module in MODULES:
        edges = {t for name in imports_of(module) for t in _targets(name)}
        graph[module] = edges - {module}
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_reader_sees_function_local_and_relative_imports() -> None:
    # a guard for the checks below: they are only as good as the graph
    graph = project_graph()
    assert "analytics.services" in graph["scoring.services.common"]  # imported inside a function
    assert "scoring.services.errors" in graph["scoring.services.groups"]  # from .errors import ...
    assert "scoring.rules" in graph["frontend.entry.forms"]  # from scoring import rules
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_among_project_modules() -> None:
    cycles = find_cycles(project_graph())
    assert cycles == [], "import cycles (each must be broken so that layers import downward):\n" + "\n".join(
        " <-> ".join(c) for c in cycles
    )


def test_the_rules_engine_is_pure() -> None:
    breaches = []
    for module in MODULES:
        if not _in(module, "scoring.rules"):
            continue
        for name in imports_of(module):
            top = name.split(".")[0]
            if top == "django" or (top in PACKAGES and not _in(name, "scoring.rules")):
                breaches.append(f"{module} imports {name}")
    assert breaches == []


def test_scoring_reaches_frontend_and_analytics_only_through_the_listed_hooks() -> None:
    graph = project_graph()
    found = {
        (module, target)
        for module, targets in graph.items()
        if _in(module, "scoring")
        for target in targets
        if _in(target, "frontend") or _in(target, "analytics")
    }
    assert found == SCORING_HOOKS


def test_every_layer_imports_only_its_own_and_the_ones_below() -> None:
    graph = project_graph()
    breaches = []
    for module, targets in graph.items():
        own = layer_of(module)
        if own is None:
            continue
        for target in targets:
            theirs = layer_of(target)
            if theirs is not None and theirs > own and (module, target) not in UPWARD_HOOKS:
                breaches.append(f"{module} (layer {own}) imports {target} (layer {theirs})")
    assert breaches == [], "imports up the layers:\n" + "\n".join(sorted(breaches))


def test_the_layer_check_fails_on_an_upward_import() -> None:
    # a guard: the check above reads the layers as stated
    assert layer_of("scoring.rules.njet") == 0 and layer_of("scoring.text.numbers") == 1
    assert layer_of("scoring.selectors.matches") == 3 and layer_of("scoring.services.rounds") == 4
    assert layer_of("scoring.api.views.rounds") == TOP and layer_of("frontend.entry.forms") == TOP
    assert layer_of("analytics.nights.figures") == TOP and layer_of("config.urls") is None
    assert layer_of("scoring.services.rounds") > layer_of("scoring.selectors.matches")  # type: ignore[operator]


def test_every_package_says_what_it_owns_and_may_import() -> None:
    missing = []
    for module, path in MODULES.items():
        if (
            path.name != "__init__.py"
            or module == "config"
            or module.split(".")[-1] in ("management", "commands", "templatetags")
        ):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not ast.get_docstring(tree):
            missing.append(module)
    assert missing == []
