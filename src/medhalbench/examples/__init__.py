"""Small illustrative examples we wrote in the published formats (not real data); each
benchmark names its own in its registry entry."""

from __future__ import annotations

from importlib import resources


def illustrative(name: str) -> str:
    """Path of a packaged illustrative example file."""
    return str(resources.files("medhalbench.examples").joinpath(name))


__all__ = ["illustrative"]
