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
    """A package's `__getattr__` for the heavy names it re-exports, and those names (for its
    `__all__`): the names its `if TYPE_CHECKING:` block imports, so that what type checkers
    read and what is loaded on first use are one list.

    Args:
        package: The package (its `__name__`).
        init_file: Its `__init__.py` (its `__file__`), read as text: nothing is imported.

    Raises:
        AttributeError: A name the package does not export.
    """
    tree = ast.parse(Path(init_file).read_text(encoding="utf-8"))
    found = {
        alias.asname or alias.name: str(statement.module)
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for statement in node.body
        if isinstance(statement, ast.ImportFrom)
        for alias in statement.names
    }

    def attribute(name: str) -> Any:
        if name not in found:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(found[name]), name)

    return attribute, list(found)
