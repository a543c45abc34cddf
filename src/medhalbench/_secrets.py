"""Keeping secrets out of everything medhalbench writes or prints: the one redactor that
every boundary calls (model calls, files, the terminal, logging); what counts as a secret and
the forms it is found in are the README's "No key reaches anything" section."""

from __future__ import annotations

import base64
import bisect
import contextlib
import copy
import functools
import html
import io
import logging
import os
import re
import shutil
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar
from urllib.parse import parse_qsl, urlsplit

import ahocorasick

from medhalbench import _lazy
from medhalbench._terminal import terminal_text

REDACTED = "[redacted]"
MIN_SECRET_LENGTH = 8
"""Shorter secrets are replaced only where they stand as a word of their own."""
MIN_WORD_SECRET = 4
"""Shorter values (`a`, `xyz`) are no secret: replacing such words would blank ordinary text."""
FRAGMENT_LENGTH = 8
"""A run of this many characters of a secret is redacted wherever it appears, unless it
reads as lower-case words."""
WORDS_FRAGMENT_LENGTH = 20
"""A run of this many characters of a secret is redacted wherever it appears, whatever it
reads as."""

T = TypeVar("T")

_SECRET_NAME = re.compile(
    r"(?:API_?KEY|_KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$", re.IGNORECASE
)
# A value of a secret's name that is a setting, not a key: a boolean, a small number.
_NOT_A_KEY = re.compile(r"^(?:true|false|yes|no|none|null|\d{1,6})$", re.IGNORECASE)
# Terminal escape sequences as written to a terminal and as JSON or repr() escape them:
# CSI (colours: ESC [ 1;36 m) and OSC (hyperlinks: ESC ] 8;; url ESC \).
_ESC = r"(?:\x1b|\\u001b|\\u001B|\\x1b|\\033|\\e)"
_ANSI = re.compile(rf"{_ESC}\[[0-?]*[ -/]*[@-~]|{_ESC}\][^\x07\x1b\\]*(?:\x07|{_ESC}\\\\?|\\u0007)")
_HEADERS_ARGUMENT = re.compile(r"headers?$", re.IGNORECASE)
# After `scheme://`, and after `scheme:/` where a path clean-up has made one slash of two.
_URL_CREDENTIALS = re.compile(
    r"(?:(?<=://)|(?<=[a-zA-Z]:/)(?=[^/]))[^/\s:@\"'<>]+(?::[^/\s@\"'<>]*)?@"
)
_WHOLE_URL = re.compile(r"^\s*[a-zA-Z][a-zA-Z0-9+.-]*://\S+\s*$")
_SECRET_PARAMETERS = (
    r"api[_-]?key|apikey|key|token|access[_-]?token|auth|authorization|password|passwd|pwd|"
    r"secret|client[_-]?secret|sig|signature|x-api-key|x-goog-api-key|code"
)
_URL_PARAMETER = re.compile(
    rf"(?<=[?&;#])((?:{_SECRET_PARAMETERS})=)[^&#\s\"'<>\\]+", re.IGNORECASE
)
# A secret given as NAME=VALUE (a command line's `-M api_key=...`, an environment dump).
_SECRET_ASSIGNMENT = re.compile(
    r"(?<![\w.-])((?:(?:[\w.-]*[_.-])?(?:api[_-]?key|apikey|token|secret|password|passwd)"
    r"|[\w.-]*[_.-]key)=)"
    r"(?!\[redacted\])([^\s&#\"'<>\\]+)",
    re.IGNORECASE,
)
_PARAMETER_MARKS = ("key=", "token=", "auth", "passw", "pwd=", "secret=", "sig", "code=")
_ASSIGNMENT_MARKS = ("key=", "token=", "secret=", "passw")
_given: set[str] = set()
# An odd number of backslashes before a redaction: the last one escaped a character the
# redaction took.
_DANGLING_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\" + re.escape(REDACTED))


def _secret_values(value: str) -> set[str]:
    """A credential's value and, where it holds spaces, its parts (not the scheme word)."""
    value = value.strip()
    parts = {p for p in value.split() if len(p) >= MIN_SECRET_LENGTH} if " " in value else set()
    return {v for v in {value, *parts} if len(v) >= MIN_WORD_SECRET and not _log_word(v)}


_WORD = re.compile(r"[A-Za-z][A-Za-z_-]*")


def _log_word(value: str) -> bool:
    """Whether a value is spelt like a word inspect's logs are built of: a field name or a
    fixed value of its log schema (`samples`, `success`, `user`). Such a secret would be
    replaced in every log's structure and unmake it, and guard nothing."""
    return _WORD.fullmatch(value) is not None and value in _log_vocabulary()


@functools.cache
def _log_vocabulary() -> frozenset[str]:
    """The field names and fixed values of inspect's log schema (read once, when a secret
    spelt like a word is first met: building the schema takes most of a second)."""
    from inspect_ai.log import EvalLog

    words: set[str] = set()
    pending: list[Any] = [EvalLog.model_json_schema()]
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending += node
        elif isinstance(node, dict):
            words.update(node.get("properties", {}))
            words.update(str(v) for v in node.get("enum", ()))
            if "const" in node:
                words.add(str(node["const"]))
            pending += node.values()
    return frozenset(words)


def register_secret(value: str) -> None:
    """Take a value given as a credential (`-M api_key=...`, a header, the key a provider
    was made with) for a secret, whatever its shape (but a placeholder such as `none`,
    `EMPTY`'s kin `null`, or a small number, which local servers take for no key)."""
    if not _NOT_A_KEY.match(value.strip()):
        _given.update(_secret_values(value))


def _a_setting(value: str) -> bool:
    """Whether a value of a secret's name is a setting: a boolean, a small number, or the
    path of an existing file (`SSL_KEY=/etc/ssl/key.pem`)."""
    value = value.strip()
    if not value or _NOT_A_KEY.match(value):
        return True
    if value[:1] in "/~." or re.match(r"\w:\\", value):
        # "~user" of no such user cannot be expanded: a key that starts like a path.
        with contextlib.suppress(OSError, ValueError, RuntimeError, KeyError):
            return Path(value).expanduser().exists()
    return False


def is_secret_name(name: str) -> bool:
    """Whether a setting's name says it holds a secret (`api_key`, `OPENAI_API_KEY`, ...)."""
    return _SECRET_NAME.search(name.strip()) is not None


def model_argument_secrets(args: Mapping[str, Any]) -> list[str]:
    """The credentials among a model's arguments, known by where they sit: an argument
    named like a key (`api_key`, `aws_secret_access_key`), every value of a headers mapping
    (`default_headers`, `extra_headers`), the user and password of a URL argument."""
    found: list[str] = []
    for name, value in args.items():
        if isinstance(value, Mapping) and is_headers_name(name):
            found += [str(v) for v in value.values()]
        elif is_secret_name(name) and not isinstance(value, Mapping):
            found.append(str(value))  # a key of digits is read as a number
        elif isinstance(value, str) and ":/" in value:
            found += url_credentials(value)
    return found


def is_headers_name(name: str) -> bool:
    """Whether a model argument's name says it holds HTTP headers (`default_headers`,
    `extra_headers`)."""
    return _HEADERS_ARGUMENT.search(name.strip()) is not None


def is_secret_parameter(name: str) -> bool:
    """Whether a URL query parameter's name says it carries a credential (`api_key`, `key`,
    `token`, `sig`, ...)."""
    return re.fullmatch(_SECRET_PARAMETERS, name.strip(), re.IGNORECASE) is not None


def url_credentials(url: str) -> list[str]:
    """The credentials a URL holds: `user:pass@`, and query (or fragment) parameters that
    carry keys (`api_key=`, `key=`, `token=`, `sig=`, ...)."""
    try:
        parts = urlsplit(url.strip())
        found = [url_secret(parts.username, parts.password)]
    except ValueError:  # a malformed port or IPv6 address
        return []
    # The fragment too: OAuth's implicit flow hands its token there (`#access_token=...`).
    pairs = parse_qsl(parts.query) + parse_qsl(parts.fragment)
    keys = [value for name, value in pairs if is_secret_parameter(name)]
    return [v for v in found if v] + keys


def address_secrets(address: str) -> list[str]:
    """The credentials of the URL an address names: a plug-in's `es:NAME@http://user:pass@
    host`, the same without its scheme (`es:NAME@user:pass@host`), `scheme:/` where a path
    clean-up made one slash of two, or a URL alone."""
    head, at, rest = address.partition("@")
    target = rest if at and "://" not in head and ":/" not in head else address
    target = re.sub(r"^([a-zA-Z][a-zA-Z0-9+.-]*):/(?!/)", r"\1://", target.strip())
    return url_credentials(target if "://" in target else f"//{target}")


def register_argument_secrets(arguments: Iterable[str]) -> None:
    """Take the credentials of every address given on the command line for secrets, before
    anything prints one (`index es:NAME@user:pass@host`, a base URL with `user:pass@`)."""
    for argument in arguments:
        if "@" in argument:
            for secret in address_secrets(argument):
                register_secret(secret)


def url_secret(user: str | None, password: str | None) -> str | None:
    """The secret of a URL's `user:password@`: the password; the user where it stands alone
    (a token given as the user, `https://TOKEN@host`). A user beside a password is a name."""
    return password or user or None


def _all_secrets() -> frozenset[str]:
    return _secrets_of(_credential_variables(tuple(os.environ.items())), frozenset(_given))


@functools.lru_cache(maxsize=16)
def _credential_variables(environ: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The variables named like a credential, and those holding a URL (cached by the
    environment's contents: each string of a model's reply and call record is redacted on
    its own, and matching every variable's name for each took 5 s of a demo's 80 s CPU)."""
    return tuple(sorted((n, v) for n, v in environ if is_secret_name(n) or _WHOLE_URL.match(v)))


@functools.lru_cache(maxsize=16)
def _secrets_of(named: tuple[tuple[str, str], ...], given: frozenset[str]) -> frozenset[str]:
    """The secrets of the environment's credential-named variables and URLs, and those given
    (cached: a log is redacted string by string)."""
    found = set(given)
    for name, value in named:
        if is_secret_name(name):
            if not _a_setting(value):
                found.update(_secret_values(value))
        else:  # a base URL set in the environment, with credentials
            found.update(v for v in url_credentials(value) if v)
    return frozenset(found)


def secrets() -> list[str]:
    """Every known secret value of `MIN_SECRET_LENGTH` characters or more, longest first
    (found whole and in pieces)."""
    return sorted((s for s in _all_secrets() if len(s) >= MIN_SECRET_LENGTH), key=len, reverse=True)


def short_secrets() -> list[str]:
    """The known secrets shorter than `MIN_SECRET_LENGTH`, longest first (found as words of
    their own)."""
    return sorted((s for s in _all_secrets() if len(s) < MIN_SECRET_LENGTH), key=len, reverse=True)


# Lower-case letters and separators: a run of a key that reads as words or a path (`medhalbe`
# of a dummy key `local-medhalbench-test`). A random key's runs of this length hold a digit or
# a capital (all lower case once in a thousand for base-62): those are its pieces.
_LOWER_WORDS = re.compile(r"[a-z\-_./: ]+")


def _runs(secret: str) -> set[str]:
    """A secret and the runs of it that are found alone: each run of `FRAGMENT_LENGTH`
    characters that does not read as lower-case words, and each run of
    `WORDS_FRAGMENT_LENGTH` characters whatever it reads as (a passphrase's words are found
    three or four at a time, not one: `horse` alone is prose)."""
    found = {secret}
    for length in (FRAGMENT_LENGTH, WORDS_FRAGMENT_LENGTH):
        for i in range(len(secret) - length + 1):
            run = secret[i : i + length]
            if length == WORDS_FRAGMENT_LENGTH or not _LOWER_WORDS.fullmatch(run):
                found.add(run)
    return found


def _base64_forms(data: bytes) -> set[str]:
    """The characters that bytes alone decide wherever they stand in a base64 stream (at
    each of the three alignments), standard and URL-safe."""
    found = set()
    for offset in range(3):
        encoded = base64.b64encode(bytes(offset) + data).decode().rstrip("=")
        decided = encoded[-(-8 * offset // 6) : 8 * (offset + len(data)) // 6]
        found |= {decided, decided.translate(_URL_SAFE)}
    return found


_URL_SAFE = str.maketrans("+/", "-_")


def encoded_forms(text: str) -> set[str]:
    """Text in the forms a server or library may write it that are not a character's own
    escape (those are undone before a search: `_plain_view`), lower-cased (found whatever
    the case): as is, with `+` for spaces (URL form encoding), base64 at any alignment
    (standard and URL-safe), and hex (its bytes run together, or apart: a dump's spaces,
    colons or hyphens)."""
    data = text.encode("utf-8", errors="surrogatepass")
    hexes = {data.hex(), *(data.hex(separator) for separator in " :-")}
    forms = {text, text.replace(" ", "+"), *hexes, *_base64_forms(data)}
    return {form.lower() for form in forms if form}


@functools.lru_cache(maxsize=8)
def _automaton(known: tuple[str, ...]) -> Any:
    """Every form of every run of the known secrets (`_runs`, `encoded_forms`), searched at
    once."""
    automaton = ahocorasick.Automaton()
    for form in {f for secret in known for run in _runs(secret) for f in encoded_forms(run)}:
        automaton.add_word(form, len(form))
    automaton.make_automaton()
    return automaton


# What a search reads through: what is left out (terminal escape sequences, raw or escaped
# line breaks: a secret split by them is found) and each character's own escapes (URL
# percent-encoding, a run read as UTF-8; `\\uXXXX` and `\\xXX`; HTML character references;
# JSON's escaped quote, backslash and slash), one by one: a server's mix of them is read too.
_ESCAPED = re.compile(
    rf"(?P<hidden>{_ANSI.pattern}|\r?\n|\r|(?:\\r)?\\n|\\r)"
    r"|(?P<percent>(?:%[0-9A-Fa-f]{2})+)|\\u(?P<u>[0-9A-Fa-f]{4})|\\x(?P<x>[0-9A-Fa-f]{2})"
    r"|&#(?P<decimal>[0-9]{1,7});|&#[xX](?P<hex>[0-9A-Fa-f]{1,6});"
    r"|&(?P<named>amp|lt|gt|quot|apos);"
    r'|\\(?P<json>["\\/])'
)


def _unescaped(match: re.Match[str]) -> str:
    """What one escape stands for ("" for what is left out)."""
    groups = match.groupdict()
    if groups["hidden"] is not None:
        return ""
    if groups["named"] is not None or groups["json"] is not None:
        return html.unescape(match.group()) if groups["named"] else groups["json"]
    if groups["percent"] is not None:  # the bytes of UTF-8 characters, in a run
        return bytes.fromhex(groups["percent"].replace("%", "")).decode(errors="surrogateescape")
    number = next(
        int(groups[name], 10 if name == "decimal" else 16)
        for name in ("u", "x", "decimal", "hex")
        if groups[name] is not None
    )
    return chr(number) if number < 0x110000 else match.group()


def _plain_view(text: str) -> tuple[str, list[tuple[int, int, int, bool]]]:
    """Text read through its escapes and without what is left out (`_ESCAPED`), and where
    each piece of it stands in the text: (view start, text start, text length, literal)."""
    pieces, segments, last, at = [], [], 0, 0
    for match in _ESCAPED.finditer(text):
        if match.start() > last:
            pieces.append(text[last : match.start()])
            segments.append((at, last, match.start() - last, True))
            at += match.start() - last
        if plain := _unescaped(match):
            pieces.append(plain)
            segments.append((at, match.start(), match.end() - match.start(), False))
            at += len(plain)
        last = match.end()
    pieces.append(text[last:])
    segments.append((at, last, len(text) - last, True))
    return "".join(pieces), segments


def _lowered(text: str) -> str:
    """Text lower-cased character for character (a character whose lower case is longer,
    `İ`, kept: positions must not move)."""
    lower = text.lower()
    if len(lower) == len(text):
        return lower
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


ESCAPE_DEPTH = 4
"""How many layers of escapes a search reads through: a key a server wrote `\\uXXXX`-escaped
inside a tool call's JSON arguments, kept by a log that is JSON itself, lies under three."""


def secret_spans(text: str) -> list[tuple[int, int]]:
    """Where the known secrets are in a text, in any of their forms (`encoded_forms`, read
    through each character's escapes, layer after layer up to `ESCAPE_DEPTH`), whole or in
    runs (`_runs`), split by escape codes or line breaks or not (merged spans of the text)."""
    known = tuple(secrets())
    if not known:
        return []
    automaton = _automaton(known)
    layers: list[tuple[list[int], list[tuple[int, int, int, bool]]]] = []
    hits: list[tuple[int, int, int]] = []  # (layer, first index, last index) in its view
    below = text
    for depth in range(ESCAPE_DEPTH):
        view, segments = _plain_view(below)
        if depth and view == below:  # nothing more to read through
            break
        layers.append(([segment[0] for segment in segments], segments))
        hits += [
            (len(layers), last - length + 1, last)
            for last, length in automaton.iter(_lowered(view))
        ]
        below = view

    def place(depth: int, first: int, last: int) -> tuple[int, int]:
        """A span of a layer's view as a span of the text beneath it, down to the text."""
        for starts, segments in reversed(layers[:depth]):
            spans = []
            for index, end in ((first, False), (last, True)):
                at, start, length, literal = segments[bisect.bisect_right(starts, index) - 1]
                spans.append(start + index - at + end if literal else start + length * end)
            first, last = spans[0], spans[1] - 1
        return first, last + 1

    merged: list[tuple[int, int]] = []
    for start, end in sorted(place(*hit) for hit in hits):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def redact(text: str) -> str:
    """Text without known secrets (whole, split by colour codes, or in pieces of
    `FRAGMENT_LENGTH` characters or more) or credentials in URLs."""
    # Cut from the original: a span's escape codes and line breaks go with the secret.
    pieces, last = [], 0
    for start, end in secret_spans(text):
        pieces += [text[last:start], REDACTED]
        last = end
    text = "".join([*pieces, text[last:]])
    short = short_secrets()
    if short:
        words = "|".join(re.escape(s) for s in short)
        text = re.sub(rf"(?<![\w.-])(?:{words})(?![\w-])", REDACTED, text)
    if f"\\{REDACTED}" in text:
        # A secret cut inside a JSON or repr escape ("sk-\\"x"): the escape's backslash goes
        # with it, so that the text still parses.
        text = _DANGLING_ESCAPE.sub(lambda m: m.group(1) + REDACTED, text)
    if ":/" in text:
        text = _URL_CREDENTIALS.sub(f"{REDACTED}@", text)
    if "=" in text:
        # Literal looks first: the patterns are slow to run over a large log for nothing.
        lower = text.lower()
        if any(mark in lower for mark in _PARAMETER_MARKS):
            text = _URL_PARAMETER.sub(rf"\g<1>{REDACTED}", text)
        if any(mark in lower for mark in _ASSIGNMENT_MARKS):
            text = _SECRET_ASSIGNMENT.sub(rf"\g<1>{REDACTED}", text)
    return text


def redact_object(value: T, _seen: set[int] | None = None) -> T:
    """A value with every string in it redacted: strings are returned redacted; lists, dicts,
    pydantic models, dataclasses and exceptions (their arguments, attributes, notes and the
    exceptions chained to them) are redacted in place and returned."""
    seen = _seen if _seen is not None else set()
    if isinstance(value, str):
        return redact(value)  # type: ignore[return-value]
    if isinstance(value, int | float | bool | bytes | type(None)) or id(value) in seen:
        return value
    seen.add(id(value))
    if isinstance(value, list):
        value[:] = [redact_object(item, seen) for item in value]
        _redact_spelled(value)
    elif isinstance(value, tuple):
        items = [redact_object(item, seen) for item in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    elif isinstance(value, dict):
        for key in list(value):
            value[key] = redact_object(value[key], seen)
    elif isinstance(value, BaseException):
        _redact_exception(value, seen)
    else:
        _redact_attributes(value, seen)
    return value


def _field(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)


def _redact_spelled(items: list[Any]) -> None:
    """Tokens that spell a secret together (a reply's log-probabilities, as inspect's output
    and the provider's raw response list them): each token holding part of it is replaced,
    and its bytes and alternatives dropped. The text the tokens spell is read twice: from
    their text and from their bytes."""
    if not items or not all(isinstance(_field(i, "token"), str) for i in items):
        return
    spellings = [
        [_field(i, "token") for i in items],
        [bytes(_field(i, "bytes") or []).decode("utf-8", errors="replace") for i in items],
    ]
    for pieces in spellings:
        spans = secret_spans("".join(pieces))
        start = 0
        for item, piece in zip(items, pieces, strict=True):
            end = start + len(piece)
            if any(s < end and start < e for s, e in spans):
                for name, blank in (("token", REDACTED), ("bytes", None), ("top_logprobs", [])):
                    if isinstance(item, dict):
                        item[name] = blank
                    else:
                        object.__setattr__(item, name, blank)
            start = end


def _redact_attributes(value: object, seen: set[int]) -> None:
    names: Iterable[str]
    if hasattr(type(value), "model_fields"):  # pydantic: declared fields and extras
        names = [*type(value).model_fields, *(getattr(value, "__pydantic_extra__", None) or {})]  # type: ignore[attr-defined]
    elif is_dataclass(value) and not isinstance(value, type):
        names = [f.name for f in fields(value)]
    else:
        return
    for name in names:
        current = getattr(value, name, None)
        redacted = redact_object(current, seen)
        if redacted is not current:
            with contextlib.suppress(AttributeError, TypeError):
                object.__setattr__(value, name, redacted)


def _redact_exception(ex: BaseException, seen: set[int]) -> None:
    ex.args = tuple(redact_object(arg, seen) for arg in ex.args)
    for name, current in list(vars(ex).items()):
        if name.startswith("__"):
            continue
        if isinstance(current, str | list | dict | tuple | BaseException) or hasattr(
            type(current), "model_fields"
        ):
            redacted = redact_object(current, seen)
            if redacted is not current:
                with contextlib.suppress(AttributeError, TypeError):
                    setattr(ex, name, redacted)
    notes = getattr(ex, "__notes__", None)
    if isinstance(notes, list):
        notes[:] = [redact(n) if isinstance(n, str) else n for n in notes]
    for chained in (ex.__cause__, ex.__context__, *getattr(ex, "exceptions", ())):
        if isinstance(chained, BaseException) and id(chained) not in seen:
            seen.add(id(chained))
            _redact_exception(chained, seen)


def guard_model(model: Any) -> Any:
    """Redact what a model's provider hands back, before inspect logs, caches or shows it:
    the reply, the raw call record, an error returned or raised (idempotent). A key that a
    server quotes in an error or a reply then reaches no log, cache or screen. Each call is
    counted against its sample's ceiling (`_call_ceiling`), and its reply's text as sent is
    kept for the paper columns (`outputs.keep_text_as_sent`).

    Args:
        model: An inspect `Model`.

    Returns:
        The same model.
    """
    api = model.api
    if isinstance(getattr(api, "api_key", None), str):
        register_secret(api.api_key)  # the key the provider was made with, whatever its source
    held = model_argument_secrets(getattr(model, "model_args", None) or {})
    if held:
        # inspect logs a model's arguments, and pairs an eval set's logs with its tasks by
        # them: the model keeps them redacted (a copy: its client was made from the given
        # mappings, and sends them), so that a log and a rerun's task agree.
        for value in held:
            register_secret(value)
        model.model_args = redact_object(copy.deepcopy(model.model_args))
    if getattr(api.generate, "_redacting", False):
        return model
    _lazy.load("medhalbench._call_ceiling:count_calls")(api)  # imports inspect: not at help
    keep_text_as_sent = _lazy.load("medhalbench.outputs:keep_text_as_sent")
    generate = api.generate

    async def redacting_generate(*args: Any, **kwargs: Any) -> Any:
        try:
            result = await generate(*args, **kwargs)
        except BaseException as ex:
            _redact_exception(ex, set())
            raise
        keep_text_as_sent(result)
        return redact_object(result)

    redacting_generate._redacting = True  # type: ignore[attr-defined]
    api.generate = redacting_generate
    return model


def redact_bytes(data: bytes) -> bytes:
    """Bytes of text (UTF-8; other bytes kept as they are) without secrets."""
    text = data.decode("utf-8", errors="surrogateescape")
    redacted = redact(text)
    return data if redacted == text else redacted.encode("utf-8", errors="surrogateescape")


def redact_file(path: str | Path) -> bool:
    """Remove secrets from a file we wrote (an inspect `.eval` log is a zip of JSON members,
    each rewritten, and each held once: a resumed log may carry a sample twice, as inspect's
    seeded retry writes a recovered sample again; the last is kept); any other file as text.
    The file is replaced atomically. Returns whether anything changed."""
    path = Path(path)
    if not path.is_file():
        return False
    if not zipfile.is_zipfile(path):
        data = path.read_bytes()
        redacted = redact_bytes(data)
        if redacted == data:
            return False
        _replace(path, lambda out: out.write(redacted))
        return True
    _zstd_members()
    with zipfile.ZipFile(path) as source:
        listed = source.infolist()
        members = list({info.filename: (info, source.read(info)) for info in listed}.values())
    rewritten = [(info, redact_bytes(data)) for info, data in members]
    unchanged = all(new is old for (_, old), (_, new) in zip(members, rewritten, strict=True))
    if unchanged and len(members) == len(listed):
        return False

    def write(out: io.BufferedWriter) -> None:
        with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as target:
            for info, data in rewritten:
                target.writestr(info, data)

    _replace(path, write)
    return True


def _zstd_members() -> None:
    """Let `zipfile` read and write the zstd members of inspect's logs (inspect's log
    module patches it in on Python < 3.14)."""
    if sys.version_info < (3, 14):
        import inspect_ai.log  # noqa: F401


def _replace(path: Path, write: Any) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".redacting")
    try:
        with os.fdopen(handle, "wb") as out:
            write(out)
        shutil.copymode(path, temporary)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def redact_files(paths: Iterable[str | Path]) -> None:
    """`redact_file` for each file."""
    for path in paths:
        redact_file(path)


def redact_record(record: logging.LogRecord) -> bool:
    """Remove secrets from a log record: its message, its traceback and every text field a
    handler writes beside them (a logging filter; `redact_logging` runs it on every record
    as it is made)."""
    record.msg = redact(record.getMessage())
    record.args = None
    if record.exc_info:
        record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        record.exc_info = None
    # Fields a handler writes beside the message (inspect's trace: error, stacktrace).
    for name, value in list(vars(record).items()):
        if isinstance(value, str) and name not in ("msg", "name", "levelname", "pathname"):
            setattr(record, name, redact(value))
    return True


def redact_logging() -> None:
    """Redact every log record as it is made, whichever logger and handler it goes to
    (inspect's trace file, a handler added later, a library's own): its message, traceback
    and the fields a logger adds (`extra`, set after the record factory runs, so the one
    place that sees them all is `Logger.makeRecord`); installed once."""
    make = logging.Logger.makeRecord
    if getattr(make, "_redacting", False):
        return

    def redacted_record(self: logging.Logger, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(self, *args, **kwargs)
        redact_record(record)
        return record

    redacted_record._redacting = True  # type: ignore[attr-defined]
    logging.Logger.makeRecord = redacted_record  # type: ignore[method-assign]


_help_output: ContextVar[bool] = ContextVar("help_output", default=False)


@contextlib.contextmanager
def help_output() -> Iterator[None]:
    """While the block runs, stdout passes text as it is: a help page is our own text (its
    examples, such as `-M api_key=...`, are no secret), and nothing else runs."""
    token = _help_output.set(True)
    try:
        yield
    finally:
        _help_output.reset(token)


class RedactingStream(io.TextIOBase):
    """A text stream that writes through to another with secrets removed and what would act
    on a terminal escaped (`terminal_text`): stdout and stderr, whatever prints there (any
    display of inspect's, rich tracebacks of `--display full`) included."""

    def __init__(self, stream: TextIO, *, help_page: bool = False) -> None:
        self.stream = stream
        self.help_page = help_page
        """Whether help pages pass as they are (stdout's; errors go to stderr)."""

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        passes = self.help_page and _help_output.get()
        self.stream.write(text if passes else terminal_text(redact(text)))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:  # type: ignore[override]
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self.stream, "encoding", "utf-8"))

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.stream, "errors", None)

    @property
    def buffer(self) -> Any:
        raw = getattr(self.stream, "buffer", None)
        return None if raw is None else _RedactingBuffer(raw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class _RedactingBuffer:
    """The binary side of a `RedactingStream` (what click writes bytes to)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def write(self, data: bytes) -> int:
        self.raw.write(redact_bytes(bytes(data)))
        return len(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def redact_streams() -> None:
    """Route the process's stdout and stderr, and every log record, through the redactor
    (idempotent), the command line's credentials known to it."""
    register_argument_secrets(sys.argv[1:])
    redact_logging()
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, RedactingStream):
            setattr(sys, name, RedactingStream(stream, help_page=name == "stdout"))


def guard_active_models() -> None:
    """`guard_model` on the running task's model and every role's: a task resumed by
    inspect's eval-retry makes its models from the log, where no command of ours could
    guard them (call within the task, e.g. from a task-start hook)."""
    from inspect_ai.model import get_model, model_roles

    guard_model(get_model())
    for models in model_roles().values():
        for model in models if isinstance(models, list) else [models]:
            guard_model(model)
