"""The `medhalbench` command line (thin: it parses options and calls the library)."""

from medhalbench._secrets import redact_streams
from medhalbench.cli._main import cli
from medhalbench.cli._main import main as _main


def main() -> None:
    """Console entry point: everything the command prints passes the redactor."""
    redact_streams()
    _main()


__all__ = ["cli", "main"]
