"""Prompt files: packaged defaults, replaceable by any file the user names."""

from __future__ import annotations

import string
from importlib import resources
from pathlib import Path

from medhalbench._errors import DataError
from medhalbench.data import MAX_PROMPT_BYTES, read_text_file

MAX_PLACEHOLDER_USES = 16
"""How often a template may use its placeholders in all: a template is filled once per
call, and one that repeats a long text many times would need gigabytes."""


def read_prompt(package: str | None, name: str, override: str | Path | None = None) -> str:
    """Read a prompt: the user's file when given, else the packaged `prompts/<name>`.

    Args:
        package: The benchmark package holding a `prompts/` folder (a module of it passes
            its `__package__`).
        name: File name inside `prompts/`.
        override: A file the user named instead.

    Raises:
        DataError: The override file is missing, not a regular readable UTF-8 file of a
            sane size, or empty.
    """
    if override is not None:
        path = Path(override)
        text = read_text_file(path, what="prompt file", max_bytes=MAX_PROMPT_BYTES)
        if not text.strip():
            raise DataError("prompt file is empty", path=path)
        return text
    assert package, "read_prompt needs the package that holds the prompt"
    return resources.files(package).joinpath("prompts", name).read_text(encoding="utf-8")


def read_template(
    package: str | None,
    name: str,
    override: str | Path | None,
    placeholders: set[str],
    *,
    allowed: set[str] | None = None,
) -> str:
    """Read a prompt template (`read_prompt`) and check it fills `placeholders`
    (`check_placeholders`), its errors naming the file it came from."""
    template = read_prompt(package, name, override)
    check_placeholders(template, placeholders, allowed=allowed, source=str(override or name))
    return template


def check_placeholders(
    template: str, required: set[str], *, allowed: set[str] | None = None, source: str = "prompt"
) -> None:
    """Check a `str.format` template has the placeholders a step fills in.

    Raises:
        DataError: A required placeholder is missing or an unknown one is present, a
            placeholder has a format, a conversion or an attribute (`{text:>9999999}` would
            fill memory, `{text.__class__}` reads objects), or placeholders are used more
            than `MAX_PLACEHOLDER_USES` times.
    """
    try:
        fields = [
            (f, spec, conversion)
            for _, f, spec, conversion in string.Formatter().parse(template)
            if f is not None
        ]
    except ValueError as ex:
        raise DataError(
            f"malformed template ({ex}); write literal braces as {{{{ }}}}", path=source
        ) from None
    for name, spec, conversion in fields:
        if (spec or conversion) and name.isidentifier():
            shown = (
                name[:30]
                + (f"!{conversion}" if conversion else "")
                + (f":{spec[:20]}" if spec else "")
            )
            raise DataError(
                f"template placeholder {{{shown}}} has a format, conversion, index or attribute; "
                "placeholders are plain names (write literal braces doubled, as {{ and }})",
                path=source,
            )
    if len(fields) > MAX_PLACEHOLDER_USES:
        raise DataError(
            f"template uses placeholders {len(fields):,} times, more than {MAX_PLACEHOLDER_USES} "
            "(each use repeats a text that may be long)",
            path=source,
        )
    found = {f for f, _, _ in fields}
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
            f"template has unknown placeholder(s) {', '.join(sorted('{' + u[:30] + '}' for u in unknown)[:5])}"
            + (
                "; write literal braces (e.g. JSON) doubled, as {{ and }}"
                if literal
                else f" (it may use {', '.join(sorted('{' + a + '}' for a in (allowed or required)))})"
            ),
            path=source,
        )
