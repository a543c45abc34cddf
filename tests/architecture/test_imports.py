"""The package's structure, read from its imports: no package reaches into another's private
modules, and the layers of DESIGN.md hold (import-linter's contract in pyproject.toml)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "src" / "medhalbench"


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every `medhalbench...` module a file imports, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
    return [(line, m) for line, m in found if m.startswith("medhalbench.")]


def private_imports_across_packages() -> list[str]:
    """`from medhalbench.<other>._module import ...` anywhere outside `<other>`."""
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        own = path.relative_to(SOURCE).parts[0]
        for line, module in imported_modules(path):
            parts = module.split(".")
            if len(parts) >= 3 and parts[2].startswith("_") and parts[1] != own:
                found.append(f"{path.relative_to(SOURCE)}:{line} imports {module}")
    return found


def test_no_package_imports_another_packages_private_modules() -> None:
    assert private_imports_across_packages() == []


def test_the_finder_sees_a_private_import(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text("from medhalbench.dahl._metrics import parse_units\n")
    assert imported_modules(planted)[0] == (1, "medhalbench.dahl._metrics")


def test_import_contracts_hold() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    result = subprocess.run(
        [lint, "--no-cache"], cwd=SOURCE.parents[1], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert "0 broken" in result.stdout


def files_importing(module: str, packages: list[str]) -> list[str]:
    """The files of the given packages that import `module` (or a module inside it)."""
    found = []
    for package in packages:
        for path in sorted((SOURCE / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else []
                )
                if any(n == module or n.startswith(f"{module}.") for n in names):
                    found.append(str(path.relative_to(SOURCE)))
    return found


def test_benchmarks_and_the_registry_know_nothing_of_the_command_line() -> None:
    # Their options are declared by task signatures and settings dataclasses; the command
    # line is derived from those in `commands`.
    assert files_importing("click", ["medhallu", "dahl", "medhal", "registry"]) == []
    assert files_importing("click", ["commands"])  # the finder finds it where it is


def deferred_imports() -> list[str]:
    """`import medhalbench...` statements inside a function or method (outside
    `if TYPE_CHECKING:`): an import is deferred only by `medhalbench._lazy`, by name."""
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                module = (
                    inner.module
                    if isinstance(inner, ast.ImportFrom)
                    else inner.names[0].name
                    if isinstance(inner, ast.Import)
                    else None
                )
                if module and (module.startswith("medhalbench") or getattr(inner, "level", 0)):
                    found.append(f"{path.relative_to(SOURCE)}:{inner.lineno} imports {module}")
    return found


def test_no_function_imports_a_module_of_ours() -> None:
    assert deferred_imports() == []


def test_no_module_imports_itself_through_others() -> None:
    grimp = pytest.importorskip("grimp")  # import-linter's graph builder
    graph = grimp.build_graph("medhalbench", exclude_type_checking_imports=True)
    modules = sorted(graph.modules)
    cycles = [
        (a, b)
        for a in modules
        for b in graph.find_modules_directly_imported_by(a)
        if graph.chain_exists(importer=b, imported=a)
    ]
    assert cycles == []
