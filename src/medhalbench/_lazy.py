"""The one place an import is deferred: what a light module names by `module:attribute` (a
command's implementation, a benchmark's, a heavy name a light package re-exports) is imported
when it is first used, so that `--help` and the command tree load nothing heavy."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
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


def exports(package: str, modules: Mapping[str, str]) -> Callable[[str], Any]:
    """A package's `__getattr__` for the heavy names it re-exports: each name is imported
    from its module when first used.

    Args:
        package: The package (its `__name__`).
        modules: Each module (relative to `package`) to the names it gives, space-separated.

    Raises:
        AttributeError: A name the package does not export.
    """
    found = {name: module for module, names in modules.items() for name in names.split()}

    def attribute(name: str) -> Any:
        if name not in found:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(found[name], package), name)

    return attribute


def exported(modules: Mapping[str, str]) -> list[str]:
    """The names a package re-exports on first use (see `exports`), for its `__all__`."""
    return [name for names in modules.values() for name in names.split()]
