"""The layers the folders promise, kept in the imports: each module imports only from its own
layer or the layers below it.

    errors, options ← models (and results) ← encoders ← solvers ← harness, generators, rating ← api, cli (and __main__)

(``puzzlebench._native``, the compiled extension, is a leaf any layer may use.)  Read from
the source with :mod:`ast`, imports inside functions included, so that a lazy import cannot
hide a cycle."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "puzzlebench"
LAYERS = [{"errors", "options"}, {"models", "results"}, {"encoders"}, {"solvers"}, {"harness", "generators", "rating"}, {"api", "cli", "__main__"}]


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


@pytest.mark.parametrize("module, layer", [("puzzlebench.models.sudoku", 1), ("puzzlebench.results", 1),
                                           ("puzzlebench.solvers.mrv", 3), ("puzzlebench.generators.dig", 4),
                                           ("puzzlebench.cli.common", 5),
                                           ("puzzlebench", 5), ("puzzlebench._native", None)])
def test_layers_are_read_as_documented(module, layer):
    assert layer_of(module) == layer


def test_the_checker_sees_an_upward_import(tmp_path, monkeypatch):
    """The test above can fail: a models module importing a solver is reported."""
    fake = tmp_path / "puzzlebench" / "models"
    fake.mkdir(parents=True)
    (fake / "bad.py").write_text("from ..solvers import mrv\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", tmp_path / "puzzlebench")
    assert upward_imports() == ["puzzlebench/models/bad.py:1: puzzlebench.models.bad imports puzzlebench.solvers"]
