"""Dependencies point down (docs/architecture.md, "Dependencies"): no import cycle between the modules
of ``roomops``, no domain package importing a presentation package, another domain package's
services, or a domain package that imports it.

Every import counts, including those inside functions, which hide cycles from Python until the
function runs. ``from pkg import sub`` where ``pkg.sub`` is a module is an edge to ``pkg.sub`` alone,
and a submodule's implicit need of its package's ``__init__`` is not an edge."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "roomops"

# The layering, stated once: entry points (HTTP screens, the command line, jobs) may import the
# domain; the domain never imports them.
PRESENTATION = {"desk", "board", "api", "web", "auth", "dealer", "factory", "cli", "demo", "demo_history",
                "jobs", "push", "runtime", "reactions"}
DOMAIN = {
    "absences", "audit", "blinds", "floor", "games", "hands", "heartbeat", "ledger", "lists", "penalties",
    "playovers", "rooms", "seating", "books", "waits", "messages", "holds", "dealers", "tokes",
    "db", "actors", "errors", "clock", "config", "schemas", "models", "migrate", "migration_ops",
    "checks", "money", "text", "security_log", "remote", "words", "lockouts", "kept", "figures",
    "shares", "jackpots",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# the root package (a docstring) is in no layer
MODULES = {module_name(p): p for p in ROOT.rglob("*.py") if p != ROOT / "__init__.py"}


def imported(name: str, path: Path) -> Iterator[str]:
    """The roomops modules that module ``name`` (at ``path``) imports, anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0]
                base = f"{anchor}.{base}" if base else anchor
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        yield from (t for t in targets if t in MODULES and t != name)


GRAPH = {name: sorted(set(imported(name, path))) for name, path in MODULES.items()}


def layer(name: str) -> str:
    return name.split(".")[1]


def cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_package_is_placed_in_a_layer():
    unplaced = {layer(name) for name in MODULES} - PRESENTATION - DOMAIN
    assert not unplaced, f"add {sorted(unplaced)} to PRESENTATION or DOMAIN"


def test_no_import_cycles():
    problems = []
    for component in cycles(GRAPH):
        edges = [f"  {m} -> {', '.join(t for t in GRAPH[m] if t in component)}" for m in component]
        problems.append(f"import cycle among {len(component)} modules:\n" + "\n".join(edges))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_domain_does_not_import_presentation():
    problems = [f"{name} (domain) imports {target} (presentation)"
                for name, targets in sorted(GRAPH.items()) if layer(name) not in PRESENTATION
                for target in targets if layer(target) in PRESENTATION]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


# The unit of work and the events sit under every domain package: any service may raise an event
# and none needs to know who reacts (the handler table, ``roomops.reactions``, is at the top). The
# unit writes the audit trail's rows (R60), which every change has: ``audit`` sits beside it.
FLOOR_IMPORTS = {"floor", "actors", "audit"}


def test_floor_imports_no_domain_package():
    problems = [f"{name} imports {target}" for name, targets in sorted(GRAPH.items())
                if layer(name) == "floor" for target in targets if layer(target) not in FLOOR_IMPORTS]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_domain_packages_do_not_import_each_other():
    """Folder level: no two domain packages each import the other, so the packages have an order
    (docs/architecture.md, "Dependencies") and any of them can be read knowing only those below."""
    uses = {(layer(name), layer(target)) for name, targets in GRAPH.items() for target in targets
            if layer(name) in DOMAIN and layer(target) in DOMAIN and layer(name) != layer(target)}
    problems = []
    for a, b in sorted(pair for pair in uses if pair[0] < pair[1] and pair[::-1] in uses):
        lines = [f"  {name} -> {target}" for name, targets in sorted(GRAPH.items()) for target in targets
                 if {layer(name), layer(target)} == {a, b}]
        problems.append(f"{a} and {b} import each other:\n" + "\n".join(lines))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def is_service(name: str) -> bool:
    """A module of actions someone may be refused: a ``services`` (or ``service``) module, or one
    with a public function that takes the unit of work and checks the actor's right
    (``unit.actor.require``, R61). What such actions are made of (ending a list entry or a break,
    counting a missed big blind, putting players on a list) lives in modules of their own, which
    any package above may use."""
    if name.rpartition(".")[2] in ("services", "service"):
        return True
    tree = ast.parse(MODULES[name].read_text())
    return any(isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and node.args.args
               and node.args.args[0].arg == "unit" and _requires_a_right(node) for node in tree.body)


def _requires_a_right(function: ast.FunctionDef) -> bool:
    return any(isinstance(node, ast.Attribute) and node.attr == "require" for node in ast.walk(function))


def test_domain_does_not_import_other_packages_services():
    """No action runs another package's action: what follows in another package is an event
    (``unit.emit``), handled by the handler table at the top (``roomops.reactions``)."""
    problems = [f"{name} imports {target} (a service of {layer(target)})"
                for name, targets in sorted(GRAPH.items()) if layer(name) in DOMAIN
                for target in targets
                if layer(target) in DOMAIN and layer(target) != layer(name) and is_service(target)]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
