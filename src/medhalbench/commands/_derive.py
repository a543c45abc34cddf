"""A command's values as settings: taken from its options, anchored, validated by their model
and refused, where the model refuses them, naming each option at fault."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import click

from medhalbench.settings import (
    CommandSettings,
    Option,
    Settings,
    SettingsError,
    anchored,
    options_of,
)

C = TypeVar("C", bound=CommandSettings)
S = TypeVar("S", bound=Settings)


def take_values(
    options: Iterable[Option], values: dict[str, Any], model: type[Settings]
) -> dict[str, Any]:
    """Remove the options' values from a command's values and return them as the settings
    model takes them: repeated options as lists, each relative local path made absolute (so
    that a log resumed from another folder finds it)."""
    taken = {}
    for option in options:
        value = values.pop(option.name)
        taken[option.name] = list(value) if isinstance(value, tuple) else value
    return anchored(model, taken, Path.cwd())


def refusal(options: Iterable[Option], error: SettingsError) -> click.UsageError:
    """A settings model's refusal, each setting named by the option that spells it."""
    flags: Mapping[str, str] = {o.name: o.flag for o in options}
    return click.UsageError(
        "; ".join(f"{flags.get(p.setting, p.setting)}: {p.reason}" for p in error.problems)
    )


def settings_from(model: type[S], values: dict[str, Any]) -> S:
    """A command's settings of a model, validated from the values of the options that spell
    them (removed from `values`).

    Raises:
        click.UsageError: Naming every option whose value the model does not take.
    """
    options = options_of(model)
    try:
        return model.of(take_values(options, values, model))
    except SettingsError as ex:
        raise refusal(options, ex) from None


def command_settings(model: type[C], values: Mapping[str, Any]) -> C:
    """A command's settings of a model among its values (`CommandSettings.among`).

    Raises:
        click.UsageError: Naming every option whose value the model does not take.
    """
    try:
        return model.among(values)
    except SettingsError as ex:
        raise refusal(options_of(model), ex) from None
