"""`medhalbench build ...`: one builder command per registered benchmark that has one."""

from __future__ import annotations

import click

from medhalbench.cli._registry_group import RegistryGroup
from medhalbench.commands import build_command


@click.group(
    name="build",
    cls=RegistryGroup,
    command=lambda b: build_command(b.name, b.builder) if b.builder else None,
)
def build_group() -> None:
    """Build benchmark data with models (resumable: rerun to finish an interrupted build)."""
