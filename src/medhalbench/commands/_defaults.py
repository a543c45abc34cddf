"""Command options take their defaults from the library, so that each default lives once."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any


def default_of(function: Callable[..., Any], parameter: str) -> Any:
    """The default of a function's (or a dataclass's) parameter.

    Raises:
        KeyError: The parameter has no default (a mistake in a command's definition).
    """
    default = inspect.signature(function).parameters[parameter].default
    if default is inspect.Parameter.empty:
        raise KeyError(f"{function.__qualname__}: parameter {parameter} has no default")
    return default
