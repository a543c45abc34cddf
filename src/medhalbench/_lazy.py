"""The one place an import is deferred: what a light module names by `module:attribute` (a
command's implementation, a benchmark's, a heavy name a light package re-exports) is imported
when it is first used, so that `--help` and the command tree load nothing heavy."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any


def load(target: str) -> Any:
    """The object `target` names (`package.module:attribute`), its module imported now."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def by_name(target: str) -> Callable[..., Any]:
    """A function that calls the function `target` names, importing it on the first call."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return load(target)(*args, **kwargs)

    call.__name__ = call.__qualname__ = target.rpartition(":")[2]
    return call


def exports(package: str, init_file: str) -> tuple[Callable[[str], Any], list[str]]:
    """A package's public names, said once, in its imports: its `__all__` (every public name
    it imports from medhalbench, at the top or in its `if TYPE_CHECKING:` block) and its
    `__getattr__`, which loads a name of that block (a heavy one) on first use, so that what
    type checkers read and what is loaded are one list.

    Args:
        package: The package (its `__name__`).
        init_file: Its `__init__.py` (its `__file__`), read as text: nothing is imported.

    Raises:
        AttributeError: A name the package does not export.
    """
    tree = ast.parse(Path(init_file).read_text(encoding="utf-8"))
    names: list[str] = []
    deferred: dict[str, str] = {}
    for node in tree.body:
        checking = isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for statement in node.body if isinstance(node, ast.If) and checking else [node]:
            if isinstance(statement, ast.ImportFrom) and str(statement.module).startswith(
                "medhalbench"
            ):
                for alias in statement.names:
                    name = alias.asname or alias.name
                    if not name.startswith("_"):
                        names.append(name)
                    if checking:
                        deferred[name] = str(statement.module)

    def attribute(name: str) -> Any:
        if name not in deferred:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(deferred[name]), name)

    return attribute, names
