"""Prompt files: packaged defaults, replaceable by any file the user names."""

from __future__ import annotations

import string
from importlib import resources
from pathlib import Path

from medhalbench._errors import DataError


def read_prompt(package: str | None, name: str, override: str | Path | None = None) -> str:
    """Read a prompt: the user's file when given, else the packaged `prompts/<name>`.

    Args:
        package: The benchmark package holding a `prompts/` folder (a module of it passes
            its `__package__`).
        name: File name inside `prompts/`.
        override: A file the user named instead.

    Raises:
        DataError: The override file is missing or empty.
    """
    if override is not None:
        path = Path(override)
        if not path.is_file():
            raise DataError("prompt file not found", path=path)
        text = path.read_text(encoding="utf-8")
        if not text.strip():
            raise DataError("prompt file is empty", path=path)
        return text
    assert package, "read_prompt needs the package that holds the prompt"
    return resources.files(package).joinpath("prompts", name).read_text(encoding="utf-8")


def check_placeholders(
    template: str, required: set[str], *, allowed: set[str] | None = None, source: str = "prompt"
) -> None:
    """Check a `str.format` template has the placeholders a step fills in.

    Raises:
        DataError: A required placeholder is missing or an unknown one is present.
    """
    try:
        found = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
    except ValueError as ex:
        raise DataError(
            f"malformed template ({ex}); write literal braces as {{{{ }}}}", path=source
        ) from None
    missing = required - found
    if missing:
        raise DataError(
            f"template lacks placeholder(s) {', '.join(sorted('{' + m + '}' for m in missing))}",
            path=source,
        )
    unknown = found - (allowed if allowed is not None else required)
    if unknown:
        literal = any(not u.isidentifier() for u in unknown)
        raise DataError(
            f"template has unknown placeholder(s) {', '.join(sorted('{' + u + '}' for u in unknown))}"
            + (
                "; write literal braces (e.g. JSON) doubled, as {{ and }}"
                if literal
                else f" (it may use {', '.join(sorted('{' + a + '}' for a in (allowed or required)))})"
            ),
            path=source,
        )
