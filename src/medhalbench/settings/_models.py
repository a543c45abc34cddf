"""Model names and provider arguments as a command gives them (`--model`, `-M`, `--role-arg`,
a suite's models), read and checked before any model is made: a refusal names the option or
the argument, never a value that may hold a key. Light: the command line's option callbacks
use them."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from medhalbench._secrets import is_headers_name, model_argument_secrets, register_secret


def normalise_model_name(name: str) -> str:
    """An inspect model name: `embedded:/abs/path.gguf` and a path to an existing `.gguf`
    file both become `embedded/PATH` (an absolute path keeps its slash: `embedded//abs/...`)."""
    if name.startswith("embedded:"):
        return "embedded/" + name.removeprefix("embedded:")
    if name.endswith(".gguf") and "\0" not in name and Path(name).expanduser().is_file():
        return "embedded/" + str(Path(name).expanduser().resolve())
    return name


MAX_MODEL_NAME_CHARS = 500


def model_name_problem(name: str) -> str | None:
    """What is wrong with a model name as written, in words that follow the name (None:
    nothing seen yet; the provider checks the rest when the model is resolved)."""
    if not name.strip():
        return (
            "an empty model name: name a model (e.g. openai/gpt-4o-mini), or leave the "
            "option out for the default"
        )
    if len(name) > MAX_MODEL_NAME_CHARS:
        return f"a model name of {len(name):,} characters (at most {MAX_MODEL_NAME_CHARS})"
    if any(c.isspace() or not c.isprintable() for c in name.strip()):
        return "a model name holds no spaces or control characters"
    model = normalise_model_name(name.strip())
    if not model.startswith("embedded/") and "" in model.split("/"):
        return (
            "an empty part in the name; expected PROVIDER/MODEL (e.g. openai/gpt-4o-mini, "
            "openai-api/SERVICE/MODEL)"
        )
    return None


def named_problem(name: str, problem: str) -> str:
    """A model name's problem with the name quoted in part (an empty name: the problem)."""
    if not name.strip():
        return problem
    shown = name.strip() if name.strip().isprintable() and len(name) <= 80 else repr(name[:60])
    return f"{shown}: {problem}"


def provider_of(name: str) -> str:
    """The provider part of a model name (`openai-api/local` of `openai-api/local/llama`)."""
    parts = name.split("/")
    return "/".join(parts[:2]) if parts[0] == "openai-api" and len(parts) > 2 else parts[0]


_ARGUMENT_NAME = re.compile(r"[a-z_][a-z0-9_]{0,39}")
"""A name that may be shown: lower case, as Python's keyword arguments (and role names) are.
Anything else may be a key given in the wrong place (`-M "$KEY"`, `-M api_key:KEY=1`)."""


def shown_argument_name(given: str) -> str:
    """What of an argument may be shown: its name, cut before any separator, where it reads
    as a name (its value may be a key, whatever shape the argument has)."""
    parts = re.split(r"[:=\s]", given.strip(), maxsplit=1)
    named = len(parts) == 2 and _ARGUMENT_NAME.fullmatch(parts[0])
    return repr(parts[0]) if named else "an argument"  # a lone word may be the key itself


def parse_model_args(values: Sequence[str], option: str = "-M") -> dict[str, Any]:
    """Parse `NAME=VALUE` pairs (values read as int, float or bool where they look so).

    A headers argument (`default_headers`, `extra_headers`) is read as a mapping (JSON or a
    Python literal) or refused; the credentials among the arguments (`model_argument_secrets`:
    values named like a key, every header value) are registered as secrets. A refusal names
    the argument, never its value.
    """
    parsed: dict[str, Any] = {}
    for position, value in enumerate(values, start=1):
        if "=" not in value:
            raise click.BadParameter(
                f"expected NAME=VALUE, got {shown_argument_name(value)} without '=' "
                "(the rest is not shown: it may hold a key)",
                param_hint=option,
            )
        name, raw = (part.strip() for part in value.split("=", 1))
        if not _ARGUMENT_NAME.fullmatch(name):
            raise click.BadParameter(
                "a model argument's name is a lower-case Python name (letters, digits, _); "
                f"that of value {position} is not (not shown: it may hold a key)",
                param_hint=option,
            )
        parsed[name] = _headers(name, raw, option) if is_headers_name(name) else _literal(raw)
    for secret in model_argument_secrets(parsed):
        register_secret(secret)
    return parsed


def _headers(name: str, raw: str, option: str) -> dict[str, str]:
    """A headers argument read as a mapping of strings, each a header's name and value."""
    mapping: Any = None
    for read in (json.loads, ast.literal_eval):
        try:
            mapping = read(raw)
            break
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    if not isinstance(mapping, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()
    ):
        raise click.BadParameter(
            f"{name}: expected a mapping of header names to text, as JSON "
            '(\'{"X-Api-Key": "..."}\'); the value is not shown',
            param_hint=option,
        )
    for header, value in mapping.items():
        if not _HEADER_NAME.fullmatch(header):
            raise click.BadParameter(
                f"{name}: a header's name is not a token (letters, digits and "
                "!#$%&'*+.^_`|~-); it is not shown",
                param_hint=option,
            )
        if not sendable_in_header(value):
            raise click.BadParameter(
                f"{name}: the value of {header[:40]!r} {UNSENDABLE}; it is not shown",
                param_hint=option,
            )
    return mapping


_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP header's name: a token (RFC 9110)."""
UNSENDABLE = (
    "holds what an HTTP header cannot carry (a line break, a control character or non-ASCII text)"
)


def sendable_in_header(value: str) -> bool:
    """Whether a text can be sent as an HTTP header's value (printable ASCII and tabs), as
    a key is: otherwise every call fails before it reaches the server."""
    return all(ch == "\t" or " " <= ch <= "~" for ch in value)


def _literal(raw: str) -> Any:
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    for cast in (int, float):
        try:
            return cast(raw)
        except ValueError:
            pass
    return raw


def parse_role_values(
    values: Sequence[str], roles: Sequence[str], option: str
) -> dict[str, list[str]]:
    """Parse `ROLE=VALUE` (base URLs) or `ROLE:NAME=VALUE` (model arguments) by role."""
    separator = "=" if option == "--role-base-url" else ":"
    by_role: dict[str, list[str]] = {}
    for value in values:
        role, _, rest = value.partition(separator)
        if not rest or role not in roles:
            raise click.BadParameter(
                f"expected ROLE{separator}{'URL' if separator == '=' else 'NAME=VALUE'} with ROLE one of "
                f"{', '.join(roles)}, got {shown_argument_name(value)} (the rest is not shown: it "
                "may hold a key)",
                param_hint=option,
            )
        if separator == ":":  # checked, and its secrets known, before any work
            parse_model_args([rest], option)
        by_role.setdefault(role, []).append(rest)
    return by_role
