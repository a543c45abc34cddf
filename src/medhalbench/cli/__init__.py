"""The `medhalbench` command line (thin: it parses options and calls the library)."""

from medhalbench.cli._main import cli, main

__all__ = ["cli", "main"]
