"""Reading rows from local files, each with the place it came from for error messages.

Every record a file holds is accounted for: a file is checked before it is opened (a
regular, readable file of a sane size, text where text is expected), CSV is read as Python's
csv module reads it, strictly (a quote opened and never closed is named with its line, not
read as one long field), and JSON is parsed with a limit on nesting.
"""

from __future__ import annotations

import codecs
import csv
import json
import os
import re
import stat
import tomllib
from collections import Counter
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

import yaml

from medhalbench._errors import DataError

Row = tuple[int | str, dict[str, Any]]
"""A raw row and its location: a 1-based line number, or a label such as "row 3"."""

TABLE_SUFFIXES = (".jsonl", ".ndjson", ".json", ".csv", ".parquet")
DEFAULT_MAX_FIELD_CHARS = 1_000_000
DEFAULT_MAX_INPUT_BYTES = 4 * 1024**3
"""The largest data file read (JSONL, CSV and Parquet are read a record at a time; a JSON
file is parsed whole)."""
MAX_TEXT_FILE_BYTES = 1024**2
"""The largest suite or price file (each is read whole; a suite holds a few kilobytes)."""
MAX_PROMPT_BYTES = 256 * 1024
"""The largest prompt or template file: it is sent with every call and counted in every plan,
and 256 KB (some 64,000 tokens) is beyond the context of most models."""
MAX_NESTING = 64
"""The deepest a JSON record may nest lists and objects (published records nest 2 deep)."""
SNIFF_BYTES = 64 * 1024
"""How much of a text file is checked for NUL bytes and UTF-8 before it is read."""

_NOT_REGULAR = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def max_field_chars() -> int:
    """The longest text a record's field may hold (a full-text paper is about 50,000
    characters): an absurdly large field stops the load with a clear message rather than
    exhausting memory. `MEDHALBENCH_MAX_FIELD_CHARS` sets it; a JSONL line may hold four
    times as many bytes."""
    return _limit("MEDHALBENCH_MAX_FIELD_CHARS", DEFAULT_MAX_FIELD_CHARS)


def max_input_bytes() -> int:
    """The largest data file read; `MEDHALBENCH_MAX_INPUT_BYTES` sets it."""
    return _limit("MEDHALBENCH_MAX_INPUT_BYTES", DEFAULT_MAX_INPUT_BYTES)


def _limit(variable: str, default: int) -> int:
    raw = os.environ.get(variable)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise DataError(f"{variable}={raw[:40]!r}: expected a whole number") from None
    if value < 1:
        raise DataError(f"{variable}={value}: expected a number of at least 1")
    return value


def line_and_column(raw: bytes, at: int) -> tuple[int, int]:
    """The line (from 1) of a byte of text, and the character it is within that line (from
    1), counting the characters of the valid UTF-8 before it."""
    start = raw.rfind(b"\n", 0, at) + 1
    column = len(raw[start:at].decode("utf-8", errors="replace")) + 1
    return raw.count(b"\n", 0, at) + 1, column


def _not_utf8(ex: UnicodeDecodeError) -> str:
    raw = bytes(ex.object)
    _, column = line_and_column(raw, ex.start)
    return (
        f"not UTF-8 text (byte 0x{raw[ex.start]:02x} at character {column} of the line); "
        "save the file as UTF-8"
    )


def _undecodable_line(path: Path) -> tuple[int, str]:
    """The first line of a file that is not UTF-8, and what is wrong in it (read line by
    line: a reader that decodes in blocks knows neither)."""
    with path.open("rb") as f:
        for number, raw in enumerate(f, start=1):
            try:
                raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as ex:
                return number, _not_utf8(ex)
    return 0, "not UTF-8 text; save the file as UTF-8"


def check_input_file(
    path: str | Path, *, text: bool = True, max_bytes: int | None = None, what: str = "file"
) -> Path:
    """Check a file before it is opened: it exists, is a regular file (not a folder, a
    named pipe or a device, which could block a read forever or never end), can be read,
    is not empty, is no larger than `max_bytes` and, for `text`, starts as UTF-8 text (no
    NUL bytes: a binary file given by mistake).

    Args:
        path: The file.
        text: The file must be UTF-8 text.
        max_bytes: The largest size accepted (default: `max_input_bytes()`).
        what: What the file is, for messages ("prompt file").

    Returns:
        The path.

    Raises:
        DataError: Naming the file and what is wrong with it.
    """
    file = Path(path)
    try:
        info = file.stat()
    except FileNotFoundError:
        raise DataError(f"no such {what}", path=path) from None
    except OSError as ex:
        raise DataError(f"cannot read the {what} ({ex.strerror or ex})", path=path) from None
    for test, kind in _NOT_REGULAR:
        if test(info.st_mode):
            raise DataError(f"{kind}, not a regular {what}", path=path)
    if not stat.S_ISREG(info.st_mode):
        raise DataError(f"not a regular {what}", path=path)
    if not os.access(file, os.R_OK):
        raise DataError(f"cannot read the {what} (permission denied)", path=path)
    if info.st_size == 0:
        raise DataError("file is empty", path=path)
    limit = max_bytes if max_bytes is not None else max_input_bytes()
    if info.st_size > limit:
        raise DataError(
            f"{info.st_size:,} bytes, more than the limit of {limit:,} for a {what}"
            + (" (set MEDHALBENCH_MAX_INPUT_BYTES to raise it)" if max_bytes is None else ""),
            path=path,
        )
    if text:
        try:
            with file.open("rb") as f:
                head = f.read(SNIFF_BYTES)
        except OSError as ex:
            raise DataError(f"cannot read the {what} ({ex.strerror or ex})", path=path) from None
        if b"\0" in head:
            line, column = line_and_column(head, head.index(0))
            raise DataError(
                f"a binary file, not text (a NUL byte at character {column} of the line)",
                path=path,
                line=line,
            )
        try:
            # An incremental decoder accepts a character cut at the end of the sample.
            codecs.getincrementaldecoder("utf-8")().decode(head, final=len(head) < SNIFF_BYTES)
        except UnicodeDecodeError as ex:
            line, _ = line_and_column(bytes(ex.object), ex.start)
            raise DataError(_not_utf8(ex), path=path, line=line) from None
    return file


def read_text_file(
    path: str | Path, *, what: str = "file", max_bytes: int = MAX_TEXT_FILE_BYTES
) -> str:
    """A small UTF-8 text file (a prompt, a template, a suite), checked first.

    Raises:
        DataError: Not a regular readable file, too large, binary or not UTF-8 (naming it).
    """
    file = check_input_file(path, what=what, max_bytes=max_bytes)
    try:
        return file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as ex:
        line, _ = line_and_column(bytes(ex.object), ex.start)
        raise DataError(_not_utf8(ex), path=path, line=line) from None
    except OSError as ex:
        raise DataError(f"cannot read the {what} ({ex.strerror or ex})", path=path) from None


MAX_DOCUMENT_VALUES = 100_000
"""The most values a YAML or TOML settings file may hold once its aliases are expanded (a
suite holds a few dozen; an alias bomb, billions)."""


def located(error: DataError) -> DataError:
    """A settings file's error with the line of the place it names (`runs[2].args.limt`,
    items counted from 1), where the file is YAML, JSON or TOML and the place is in it."""
    if error.path is None or error.field is None or error.line is not None:
        return error
    if Path(error.path).suffix == ".toml":
        line = _toml_line(read_text_file(Path(error.path)), error.field.split(", ")[0])
        return DataError(error.reason, path=error.path, line=line, field=error.field)
    try:
        node: yaml.Node | None = yaml.compose(read_text_file(Path(error.path)), _LimitedLoader)
    except (DataError, yaml.YAMLError, RecursionError):
        return error
    rest = error.field.split(", ")[0]  # the first of several places
    reached = node  # a place that is missing (a required field) is shown where it belongs
    while rest and node is not None:
        reached = node
        if isinstance(node, yaml.SequenceNode) and (index := re.match(r"\[(\d+)\]\.?", rest)):
            rest = rest[index.end() :]
            number = int(index.group(1)) - 1
            node = node.value[number] if 0 <= number < len(node.value) else None
        elif isinstance(node, yaml.MappingNode):
            # The longest key the place starts with: a model's name may hold dots.
            keys = sorted(
                ((k, v) for k, v in node.value if rest == k.value or rest.startswith(
                    (f"{k.value}.", f"{k.value}["))),
                key=lambda kv: -len(kv[0].value),
            )  # fmt: skip
            node = keys[0][1] if keys else None
            rest = rest[len(keys[0][0].value) :].removeprefix(".") if keys else ""
        else:
            node = None
    found = node or reached
    line = None if found is None else found.start_mark.line + 1
    return DataError(error.reason, path=error.path, line=line, field=error.field)


def read_settings_file(path: str | Path, *, what: str = "settings file") -> Any:
    """A YAML (or, for `.toml`, TOML) file of settings (a suite, prices), checked first and
    parsed with limits: its size, its nesting and the values its aliases expand to.

    Raises:
        DataError: Not a regular readable UTF-8 file of a sane size, malformed (naming the
            line), nested too deep, or expanding to too many values.
    """
    file = Path(path)
    text = read_text_file(file, what=what)
    try:
        if file.suffix.lower() == ".toml":
            value = tomllib.loads(text)
        else:
            value = yaml.load(text, Loader=_LimitedLoader)  # a safe loader
    except tomllib.TOMLDecodeError as ex:
        raise DataError(f"malformed TOML ({str(ex)[:120]})", path=path) from None
    except yaml.MarkedYAMLError as ex:
        mark = ex.problem_mark
        raise DataError(
            f"malformed YAML ({(ex.problem or ex.context or 'unreadable')[:120]})",
            path=path,
            line=mark.line + 1 if mark is not None else None,
        ) from None
    except yaml.YAMLError as ex:
        raise DataError(f"malformed YAML ({str(ex).splitlines()[0][:120]})", path=path) from None
    except RecursionError:
        raise DataError(f"nested more than {MAX_NESTING} levels deep", path=path) from None
    # The size first: a walk of an alias bomb's nesting would take as long as the bomb.
    if _expanded_size(value, MAX_DOCUMENT_VALUES) > MAX_DOCUMENT_VALUES:
        raise DataError(
            f"expands to more than {MAX_DOCUMENT_VALUES:,} values (YAML aliases repeating "
            "aliases?)",
            path=path,
        )
    if nesting_depth(value) > MAX_NESTING:
        raise DataError(f"nested more than {MAX_NESTING} levels deep", path=path)
    return value


class _LimitedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, stopping at `MAX_DOCUMENT_VALUES` nodes or aliases while
    composing (an alias bomb is refused before it is built), and refusing a key given twice
    in one mapping (YAML keeps the last silently)."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.composed = 0

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Hashable] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, Hashable):
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"key {str(key)[:60]!r} given twice in one mapping",
                        key_node.start_mark,
                    )  # fmt: skip
                seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.composed += 1
        if self.composed > MAX_DOCUMENT_VALUES:
            raise yaml.YAMLError(f"more than {MAX_DOCUMENT_VALUES:,} values or aliases")
        return super().compose_node(parent, index)


def _expanded_size(value: Any, budget: int) -> int:
    """How many values a parsed document holds with every shared (aliased) value counted
    each time it is reached, counted up to `budget` + 1."""
    count = 0
    stack = [value]
    while stack and count <= budget:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def nesting_depth(value: Any, limit: int = MAX_NESTING) -> int:
    """How deep lists and objects nest in a parsed JSON value (counted up to `limit` + 1,
    without recursion)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            if depth > limit:
                return depth
            stack.extend(
                (child, depth) for child in (item.values() if isinstance(item, dict) else item)
            )
    return deepest


def _toml_line(text: str, place: str) -> int | None:
    """The line of a TOML key (`table.key`, a table's name quoted or not), else of the
    table that would hold it; each header and key line read by TOML's own parser."""
    table: list[str] = []
    holding = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        try:
            if stripped.startswith("["):  # a header: its name read as a key
                table = path = _keys(tomllib.loads(stripped.strip("[]") + " = 0"))
            elif "=" in stripped:
                path = table + _keys(tomllib.loads(stripped))
            else:
                continue
        except tomllib.TOMLDecodeError:
            continue
        if ".".join(path) == place:
            return number
        if place.startswith(".".join(path) + "."):
            holding = number
    return holding


def _keys(parsed: dict[str, Any]) -> list[str]:
    keys = []
    while isinstance(parsed, dict) and len(parsed) == 1:
        key, parsed = next(iter(parsed.items()))
        keys.append(key)
    return keys


class _RepeatedKey(ValueError):
    """A key given twice in one object or mapping."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused where a key is given twice (JSON keeps the last silently)."""
    found = dict(pairs)
    if len(found) < len(pairs):
        repeated = next(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
        raise _RepeatedKey(f"key {repeated[:60]!r} given twice in one object")
    return found


def _parse_json(text: str | bytes, *, path: Path, line: int | str | None) -> Any:
    """Parse JSON with a limit on nesting (a line nested 200,000 deep ends the parser's
    recursion, not the command)."""
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as ex:
        where = line if line is not None else ex.lineno
        raise DataError(f"malformed JSON ({ex.msg})", path=path, line=where) from None
    except _RepeatedKey as ex:
        raise DataError(f"{ex} (which value is meant?)", path=path, line=line) from None
    except RecursionError:
        value = None
        depth = MAX_NESTING + 1
    else:
        depth = nesting_depth(value)
    if depth > MAX_NESTING:
        raise DataError(
            f"JSON nested more than {MAX_NESTING} levels deep (records nest a few levels)",
            path=path,
            line=line,
        )
    return value


def is_saved_dataset(path: Path) -> bool:
    """Whether `path` is a folder written by `datasets`' `save_to_disk`."""
    return path.is_dir() and (
        (path / "dataset_info.json").is_file()
        or (path / "state.json").is_file()
        or (path / "dataset_dict.json").is_file()
    )


def read_rows(path: str | Path, *, split: str | None = None) -> Iterator[Row]:
    """Yield the rows of a JSONL, JSON, CSV or Parquet file or a `save_to_disk` folder.

    Args:
        path: The file or folder.
        split: For a saved `DatasetDict`, the split to read (default: its only split, or
            `train`).

    Raises:
        DataError: The file is missing, not a regular readable file, empty, too large, of
            an unknown kind, or malformed (naming the line).
    """
    path = Path(path)
    if not path.exists():
        raise DataError("no such file or folder", path=path)
    if path.is_dir():
        if not is_saved_dataset(path):
            raise DataError("folder is not a dataset saved with datasets' save_to_disk", path=path)
        yield from _read_saved_dataset(path, split)
        return
    suffix = path.suffix.lower()
    check_input_file(path, text=suffix != ".parquet", what="data file")
    if suffix not in TABLE_SUFFIXES:
        raise DataError(
            f"unknown file type '{suffix[:20]}' (expected one of {', '.join(TABLE_SUFFIXES)} "
            "or a save_to_disk folder)",
            path=path,
        )
    try:
        if suffix in (".jsonl", ".ndjson"):
            yield from _read_jsonl(path)
        elif suffix == ".json":
            yield from _read_json(path)
        elif suffix == ".csv":
            yield from _read_csv(path)
        else:
            yield from _read_parquet(path)
    except OSError as ex:  # the file went away or became unreadable while it was read
        raise DataError(f"cannot read the file ({ex.strerror or ex})", path=path) from None


def _read_jsonl(path: Path) -> Iterator[Row]:
    seen = False
    limit = 4 * max_field_chars()
    with path.open("rb") as f:
        number = 0
        while raw := f.readline(limit + 1):
            number += 1
            if len(raw) > limit:
                raise DataError(
                    f"the line is more than {limit:,} bytes long "
                    "(set MEDHALBENCH_MAX_FIELD_CHARS to raise the limit)",
                    path=path,
                    line=number,
                )
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as ex:
                raise DataError(_not_utf8(ex), path=path, line=number) from None
            if not line.strip():
                continue
            value = _parse_json(line, path=path, line=number)
            if not isinstance(value, dict):
                raise DataError(
                    f"expected a JSON object, got {_json_kind(value)}", path=path, line=number
                )
            seen = True
            yield number, value
    if not seen:
        raise DataError("file holds no records", path=path)


def _item_lines(text: str) -> list[tuple[int, slice]]:
    """Where each item of a top-level JSON array or object (an object's value) lies in the
    text, with the line it starts on; none where the text is no such array or object."""
    decoder, blank = json.JSONDecoder(), re.compile(r"[ \t\n\r]*")
    at = blank.match(text).end()  # type: ignore[union-attr]
    if text[at : at + 1] not in ("[", "{"):
        return []
    found: list[tuple[int, slice]] = []
    keyed, line, counted = text[at] == "{", 1, 0
    at += 1
    try:
        while True:
            at = blank.match(text, at).end()  # type: ignore[union-attr]
            if text[at : at + 1] in ("]", "}", ""):
                return found
            if keyed:  # "key" : value
                _, at = decoder.raw_decode(text, at)
                at = blank.match(text, at).end() + 1  # type: ignore[union-attr]
                at = blank.match(text, at).end()  # type: ignore[union-attr]
            _, end = decoder.raw_decode(text, at)
            line, counted = line + text.count("\n", counted, at), at
            found.append((line, slice(at, end)))
            at = blank.match(text, end).end() + 1  # type: ignore[union-attr]
    except (json.JSONDecodeError, RecursionError):
        return found  # the whole document's parse names the error


def _repeats_a_key(text: str) -> bool:
    try:
        json.loads(text, object_pairs_hook=_unique_keys)
    except _RepeatedKey:
        return True
    except (json.JSONDecodeError, RecursionError):
        pass
    return False


def _json_kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "true/false"}.get(
        type(value), "null" if value is None else "a number"
    )


def _read_json(path: Path) -> Iterator[Row]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as ex:
        line, _ = line_and_column(bytes(ex.object), ex.start)
        raise DataError(_not_utf8(ex), path=path, line=line) from None
    starts = _item_lines(text)
    try:
        value = _parse_json(text, path=path, line=None)
    except DataError as ex:
        repeats = next((line for line, item in starts if _repeats_a_key(text[item])), None)
        if ex.line is None and repeats is not None:  # a key given twice: in its item
            raise DataError(ex.reason, path=path, line=repeats) from None
        raise

    def place(index: int, name: str) -> str:
        return f"line {starts[index][0]} ({name})" if index < len(starts) else name

    if isinstance(value, dict):
        items: list[tuple[int | str, Any]] = [
            (place(i, f"entry '{k[:60]}'"), {"__key__": k, **v} if isinstance(v, dict) else v)
            for i, (k, v) in enumerate(value.items())
        ]
    elif isinstance(value, list):
        items = [(place(i, f"item {i + 1}"), v) for i, v in enumerate(value)]
    else:
        raise DataError("expected a JSON object or array at top level", path=path)
    if not items:
        raise DataError("file holds no records", path=path)
    for location, item in items:
        if not isinstance(item, dict):
            raise DataError(
                f"expected a JSON object, got {_json_kind(item)}", path=path, line=location
            )
        yield location, item


def _cells(count: int) -> str:
    return f"{count} cell{'s' if count != 1 else ''}"


def _read_csv(path: Path) -> Iterator[Row]:
    """CSV read as Python's csv module reads it, strictly: a quote must enclose a whole
    field (quotes inside it doubled), every row has the header's number of cells, and a
    quote opened and never closed is named with the line where it opens."""
    csv.field_size_limit(max_field_chars())
    end = 0  # the last physical line read
    seen = False
    # A spreadsheet's UTF-8 byte-order mark is not part of the first column's name.
    with path.open(encoding="utf-8-sig", newline="") as f:
        reader = csv.reader(f, strict=True)
        header: list[str] | None = None
        while True:
            start = end + 1
            try:
                cells = next(reader, None)
            except UnicodeDecodeError:
                line, reason = _undecodable_line(path)
                raise DataError(reason, path=path, line=line or f"after line {end}") from None
            except csv.Error as ex:
                raise _csv_failure(str(ex), path, start) from None
            end = reader.line_num
            if cells is None:
                break
            if not cells:  # a blank line
                continue
            if header is None:
                header = _csv_header(cells, path)
                continue
            if len(cells) != len(header):
                raise DataError(
                    f"row has {_cells(len(cells))}, the header {_cells(len(header))} "
                    "(a separator or a quote missing or extra?)",
                    path=path,
                    line=start if start == end else f"lines {start}-{end}",
                )
            seen = True
            yield start, dict(zip(header, cells, strict=True))
    if header is None:
        raise DataError("CSV file has no header", path=path)
    if not seen:
        raise DataError("CSV file has a header but no rows", path=path)


def _csv_failure(reason: str, path: Path, start: int) -> DataError:
    """The error for a record the csv module refuses, which starts on line `start`."""
    if "field larger than field limit" in reason:
        return DataError(
            f"a field of more than {max_field_chars():,} characters (an unbalanced quote? "
            "set MEDHALBENCH_MAX_FIELD_CHARS to raise the limit)",
            path=path,
            line=start,
        )
    if "unexpected end of data" in reason or "EOF" in reason:
        # The field swallowed the rest of the file: name the line its quote opens on.
        return DataError(
            "a quote opened on this line is never closed (it swallows the rest of the file)",
            path=path,
            line=_unclosed_quote_line(path, start),
        )
    return DataError(
        f"malformed CSV ({reason}): an unbalanced quote? A quoted field must be quoted "
        'whole, with quotes inside it doubled ("")',
        path=path,
        line=start,
    )


def _unclosed_quote_line(path: Path, start: int) -> int:
    """The line on which the quote left open at the end of the file opens, scanning the
    record that starts on line `start` (the csv module read it well up to the end)."""
    opened, state = start, "start"
    with path.open(encoding="utf-8-sig", newline="") as f:
        # Lines are split as the csv reader splits them, so the numbers match its line_num.
        for number, text in enumerate(f, start=1):
            if number < start:
                continue
            for char in text:
                state = _next_csv_state(state, char)
                if state == "opened":
                    state, opened = "quoted", number
    return opened


def _next_csv_state(state: str, char: str) -> str:
    """One step of the csv module's reading of a field: "start" (of a field), "plain",
    "quoted", "quote" (a quote inside a quoted field: closing, or doubled) or "opened"."""
    if state == "quoted":
        return "quote" if char == '"' else "quoted"
    if state == "quote" and char == '"':
        return "quoted"
    if char in ",\r\n":
        return "start"
    return "opened" if state == "start" and char == '"' else "plain"


def _csv_header(cells: list[str], path: Path) -> list[str]:
    if len(cells) == 1 and (separator := next((c for c in ";\t|" if c in cells[0]), None)):
        # Spreadsheets in many locales save CSV with semicolons.
        raise DataError(
            f"the header is one column, {cells[0][:60]!r}: the file is separated by "
            f"{separator!r}, not commas; save it as comma-separated CSV",
            path=path,
            line=1,
        )
    named = [c for c in cells if c]
    twice = next((c for c in named if named.count(c) > 1), None)
    if twice is not None:
        raise DataError(f"the header names the column {twice[:60]!r} twice", path=path, line=1)
    return cells


def _read_parquet(path: Path) -> Iterator[Row]:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as ex:  # pyarrow raises several types for bad files
        raise DataError(f"unreadable Parquet file ({str(ex)[:120]})", path=path) from None
    if table.num_rows == 0:
        raise DataError("file holds no records", path=path)
    for index, record in enumerate(table.to_pylist(), start=1):
        if nesting_depth(record) > MAX_NESTING:
            raise DataError(
                f"nested more than {MAX_NESTING} levels deep", path=path, line=f"row {index}"
            )
        yield f"row {index}", record


def _empty_split(path: Path, split: str | None) -> str:
    """The message for an empty split: every split's size, and the option to pick another."""
    import datasets

    try:
        loaded = datasets.load_from_disk(str(path))
    except Exception:
        return "dataset holds no records"
    if not isinstance(loaded, datasets.DatasetDict):
        return "dataset holds no records"
    sizes = ", ".join(f"{name} {len(part)}" for name, part in loaded.items())
    filled = [name for name, part in loaded.items() if len(part)]
    hint = f"; pick another with --split (e.g. --split {filled[0]})" if filled else ""
    return f"split '{split}' holds no records (samples per split: {sizes}){hint}"


def _read_saved_dataset(path: Path, split: str | None) -> Iterator[Row]:
    import datasets

    try:
        loaded = datasets.load_from_disk(str(path))
    except Exception as ex:  # datasets raises several types for a folder it cannot read
        raise DataError(
            f"no saved dataset `datasets` can read ({str(ex)[:160]})", path=path
        ) from None
    if isinstance(loaded, datasets.DatasetDict):
        names = list(loaded.keys())
        chosen = split or ("train" if "train" in names else names[0] if len(names) == 1 else None)
        if chosen is None or chosen not in loaded:
            raise DataError(
                f"split '{split}' not found; the saved dataset has {', '.join(names)}",
                path=path,
            )
        loaded = loaded[chosen]
    if len(loaded) == 0:
        raise DataError(_empty_split(path, split), path=path)
    for index, record in enumerate(loaded, start=1):
        yield f"row {index}", dict(record)
