"""The layers the folders promise, kept in the imports: each module imports only from its own
layer or the layers below it.

    errors, options, outputs ← models (and results) ← runtime, techniques ← encoders ← engines
        ← harness, generators, rating ← api, cli (and __main__)

The runtime (running a search under limits) and the techniques (the human-technique library)
sit side by side and import neither each other nor anything above the models.

(``puzzlebench._native``, the compiled extension, is a leaf any layer may use.)  Read from
the source with :mod:`ast`, imports inside functions included, so that a lazy import cannot
hide a cycle."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "puzzlebench"
LAYERS = [{"errors", "options", "outputs"}, {"models", "results"}, {"runtime", "techniques"}, {"encoders"}, {"engines"},
          {"harness", "generators", "rating"}, {"api", "cli", "__main__"}]
SIDE_BY_SIDE = {"runtime": "techniques", "techniques": "runtime"}   # one layer, never importing each other


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "puzzlebench" or parts[1:2] == ["_native"]:
        return None
    top = parts[1] if len(parts) > 1 else "api"     # `puzzlebench` itself is the API
    return next(i for i, names in enumerate(LAYERS) if top in names)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` for every import in a file, relative ones resolved."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            # `from .. import api` names modules; `from ..models import Puzzle` names a package
            found += [(node.lineno, f"{module}.{alias.name}" if not node.module else module)
                      for alias in node.names]
    return found


def upward_imports() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        mine = layer_of(module_name(path))
        for line, target in imports_of(path):
            theirs = layer_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                out.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module_name(path)} imports {target}")
    return sorted(set(out))


def test_no_module_imports_from_a_layer_above_its_own():
    assert upward_imports() == []


def sideways_imports() -> list[str]:
    """Imports between the runtime and the techniques, which share a layer but not a concern."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        mine = module_name(path).split(".")[1:2]
        other = SIDE_BY_SIDE.get(mine[0]) if mine else None
        out += [f"{path.relative_to(PACKAGE.parent)}:{line}: {module_name(path)} imports {target}"
                for line, target in imports_of(path) if other and target.split(".")[1:2] == [other]]
    return out


def test_the_runtime_and_the_techniques_do_not_import_each_other():
    assert sideways_imports() == []


@pytest.mark.parametrize("module, layer", [("puzzlebench.models.sudoku", 1), ("puzzlebench.results", 1),
                                           ("puzzlebench.runtime.child", 2), ("puzzlebench.techniques.chains", 2),
                                           ("puzzlebench.engines.mrv", 4), ("puzzlebench.generators.dig", 5),
                                           ("puzzlebench.cli.common", 6),
                                           ("puzzlebench", 6), ("puzzlebench._native", None)])
def test_layers_are_read_as_documented(module, layer):
    assert layer_of(module) == layer


def test_the_checker_sees_an_upward_import(tmp_path, monkeypatch):
    """The test above can fail: a models module importing a solver is reported."""
    fake = tmp_path / "puzzlebench" / "models"
    fake.mkdir(parents=True)
    (fake / "bad.py").write_text("from ..engines import mrv\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", tmp_path / "puzzlebench")
    assert upward_imports() == ["puzzlebench/models/bad.py:1: puzzlebench.models.bad imports puzzlebench.engines"]
    (fake.parent / "techniques").mkdir()
    (fake.parent / "techniques" / "bad.py").write_text("from ..runtime.limits import Deadline\n")
    assert sideways_imports() == ["puzzlebench/techniques/bad.py:1: puzzlebench.techniques.bad imports "
                                  "puzzlebench.runtime.limits"]


# The module graph: an edge for every import of a module of the package.  Python runs a cycle
# of module-level imports half-initialised, and a function-level import that closes a loop
# only hides it; so neither may close one.

def known_modules() -> set[str]:
    return {module_name(path) for path in PACKAGE.rglob("*.py")} | {"puzzlebench._native"}


def module_imports(path: Path, modules: set[str]) -> list[tuple[int, str, str]]:
    """``(line, module, name)`` for every name imported from a module of the package: ``name``
    is what was taken from ``module`` (``""`` for ``import module`` or a whole submodule)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, "") for alias in node.names if alias.name in modules]
        elif isinstance(node, ast.ImportFrom):
            module = from_module(path, node)
            for alias in node.names:
                if f"{module}.{alias.name}" in modules:   # `from . import chains`: the submodule
                    found.append((node.lineno, f"{module}.{alias.name}", ""))
                elif module in modules:
                    found.append((node.lineno, module, alias.name))
    return found


def from_module(path: Path, node: ast.ImportFrom) -> str:
    """The module a ``from … import`` in ``path`` names, a relative one resolved."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[:len(package) - node.level + 1] if node.level else []
    return ".".join(base + ([node.module] if node.module else []))


def import_graph() -> dict[str, set[str]]:
    modules = known_modules()
    graph = {name: set() for name in modules}   # the extension is a leaf: it imports nothing
    for path in PACKAGE.rglob("*.py"):
        graph[module_name(path)] |= {target for _, target, _ in module_imports(path, modules)
                                     if target != module_name(path)}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles inside every strongly connected component of more than one module (Tarjan,
    "Depth-first search and linear graph algorithms", 1972): the shortest cycle through each of
    its modules, so that every loop in a tangle of several is named."""
    components = []
    index, low, stack, on_stack = {}, {}, [], set()

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    cycles = []
    for component in components:
        for start in sorted(component):
            cycle = cycle_through(graph, component, start)
            turned = cycle[cycle.index(min(cycle)):-1] + cycle[:cycle.index(min(cycle)) + 1]
            if turned not in cycles:
                cycles.append(turned)
    return cycles


def cycle_through(graph: dict[str, set[str]], component: set[str], start: str) -> list[str]:
    """The shortest cycle from ``start`` back to itself inside ``component``, as a path."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node] & component):
                if succ == start:
                    return paths[node] + [start]
                if succ not in paths:
                    paths[succ] = paths[node] + [succ]
                    following.append(succ)
        frontier = following
    raise AssertionError(f"no cycle in {component}")


def test_the_package_has_no_import_cycle():
    assert [" -> ".join(cycle) for cycle in import_cycles(import_graph())] == []


def test_the_cycle_checker_reports_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert import_cycles(graph) == [["a", "b", "c", "a"]]


def test_the_graph_sees_a_function_level_import(tmp_path, monkeypatch):
    fake = tmp_path / "puzzlebench" / "engines"
    fake.mkdir(parents=True)
    (fake / "one.py").write_text("from .two import thing\n")
    (fake / "two.py").write_text("def thing():\n    from . import one\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", tmp_path / "puzzlebench")
    assert import_cycles(import_graph()) == [["puzzlebench.engines.one", "puzzlebench.engines.two",
                                              "puzzlebench.engines.one"]]


# A name with a leading underscore is its module's own; another module that needs it needs a
# public name.  The compiled extension, `puzzlebench._native`, is a module, not such a name.

def private_imports() -> list[str]:
    modules = known_modules()
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        mine = module_name(path)
        tree = ast.parse(path.read_text())
        imported = module_imports(path, modules)
        out += [f"{path.relative_to(PACKAGE.parent)}:{line}: {mine} imports {module}.{name}"
                for line, module, name in imported if is_private(name) and module != mine]
        bound = {}   # `from . import chains` / `import puzzlebench.x as x`: names bound to modules
        for node in ast.walk(tree):
            for alias in node.names if isinstance(node, (ast.Import, ast.ImportFrom)) else ():
                full = alias.name if isinstance(node, ast.Import) else f"{from_module(path, node)}.{alias.name}"
                if full in modules and (alias.asname or isinstance(node, ast.ImportFrom) or "." not in alias.name):
                    bound[alias.asname or alias.name] = full
        out += [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {mine} uses {bound[node.value.id]}.{node.attr}"
                for node in ast.walk(tree)
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in bound and bound[node.value.id] != mine and is_private(node.attr)]
    return sorted(set(out))


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_imports_a_private_name_of_another():
    assert private_imports() == []


def test_the_checker_sees_a_private_name(tmp_path, monkeypatch):
    fake = tmp_path / "puzzlebench" / "engines"
    fake.mkdir(parents=True)
    (fake / "one.py").write_text("_hidden = 1\n")
    (fake / "two.py").write_text("from .one import _hidden\nfrom . import one\nx = one._hidden\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", tmp_path / "puzzlebench")
    assert private_imports() == ["puzzlebench/engines/two.py:1: puzzlebench.engines.two imports puzzlebench.engines.one._hidden",
                                 "puzzlebench/engines/two.py:3: puzzlebench.engines.two uses puzzlebench.engines.one._hidden"]
