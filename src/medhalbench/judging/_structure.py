"""Structured replies turned into labelled lines ("key: value"), so that one reader reads
them all: JSON (whole, fenced, embedded or cut off at the token limit), Python dicts, XML-like
tags, markdown tables, `key=value` pairs and boxed answers."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from typing import Any

from medhalbench.judging._vocabulary import vocabulary

_FENCED = re.compile(r"```[a-zA-Z]*[ \t]*\n?(.*?)(?:```|$)", re.DOTALL)
_PAIR = re.compile(
    r"""["']([^"'\n]{1,60})["']\s*:\s*("(?:[^"\\]|\\.)*"?|'[^'\n]*'?|[^,}\n]+)""", re.DOTALL
)
_TAG = re.compile(r"<([A-Za-z_][\w-]{0,40})>\s*(.*?)\s*</\1>", re.DOTALL)
_BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_TEXT_COMMAND = re.compile(r"\\(?:text|textbf|mathrm|mathbf|texttt)\s*\{([^{}]*)\}")
_MATH_DELIMITERS = re.compile(r"\$\$|\$|\\\[|\\\]|\\\(|\\\)")
_TABLE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def key_words(key: str) -> str:
    """A structured key as words: `is_hallucinated` and `isHallucinated` read "is
    hallucinated"."""
    return re.sub(r"[_\-.]+", " ", _CAMEL.sub(" ", key)).strip()


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    text = " ".join(str(value).split())
    return text.replace("_", " ") if " " not in text else text  # "NOT_FACTUAL"


# A tool or function call's arguments, by provider: OpenAI, Mistral, Qwen (`arguments`, an
# object or a JSON string), Anthropic (`input`), Gemini (`args`), Llama (`parameters`). A
# call is read by its arguments only: its name, id and type are no verdict.
_CALL_ARGUMENTS = ("arguments", "input", "args", "parameters")
# Keys that only identify a part of a structured reply.
_IDENTIFIERS = frozenset({"id", "call_id", "tool_call_id", "index"})


def _nested(value: Any) -> Any:
    """A string that is itself a JSON object (a call's arguments), as that object."""
    if isinstance(value, str) and value.lstrip().startswith(("{", "[")):
        loaded = _load(value)
        if isinstance(loaded, dict | list):
            return loaded
    return value


def _denied_doubt(key: str, value: Any) -> bool:
    """A field named for doubt whose value denies it (`"not_sure": false`) says nothing."""
    words = vocabulary()
    if not words.unsure.fullmatch(key_words(key)):
        return False
    said = _scalar(value).strip()
    return said == _scalar(False) or bool(words.no.fullmatch(said))


def _leaves(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every (key, value) of a nested structure; a value in a list takes its list's key; a
    tool call stands for its arguments."""
    value = _nested(value)
    if isinstance(value, dict):
        arguments = next((value[k] for k in _CALL_ARGUMENTS if k in value), None)
        if arguments is not None and "name" in value:
            yield from _leaves(arguments, key)
            return
        for k, v in value.items():
            if str(k).lower() not in _IDENTIFIERS and not _denied_doubt(str(k), v):
                yield from _leaves(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v, key)
    elif key:
        yield key, _scalar(value)


def _as_lines(value: Any) -> str | None:
    if not isinstance(value, dict | list):
        return None
    lines = [f"{key_words(k)}: {v}" for k, v in _leaves(value)]
    return "\n".join(lines) if lines else None


def _load(text: str) -> Any:
    """A JSON object or a Python dict literal, or None."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def _cut_pairs(text: str) -> str | None:
    """The `"key": value` pairs of an object cut off (at the token limit) or malformed."""
    pairs = []
    for key, raw in _PAIR.findall(text):
        value = raw.strip().strip("\"'").strip()
        pairs.append(f"{key_words(key)}: {' '.join(value.split())}")
    return "\n".join(pairs) if pairs else None


_LIST_OF_OBJECTS = re.compile(r"\[\s*\{")


def _objects(text: str) -> str:
    """The reply with each JSON object or list of objects (or dict literal) in it replaced
    by its lines."""
    listed = _LIST_OF_OBJECTS.search(text)
    start = text.find("{")
    if start < 0:
        return text
    if listed is not None and listed.start() < start:
        end = text.rfind("]")
        lines = _as_lines(_load(text[listed.start() : end + 1])) if end > start else None
        if lines is not None:
            return f"{text[: listed.start()]}\n{lines}\n{_objects(text[end + 1 :])}"
    end = text.rfind("}")
    if end > start:
        lines = _as_lines(_load(text[start : end + 1]))
        if lines is not None:
            return f"{text[:start]}\n{lines}\n{_objects(text[end + 1 :])}"
    lines = _cut_pairs(text[start:])
    if lines is not None and text[:start].strip() == "":
        return lines
    return text


def _fences(text: str) -> str:
    """Code fences opened: their content stays (a fenced JSON object is read as JSON)."""
    return _FENCED.sub(lambda m: "\n" + m.group(1).strip() + "\n", text)


def _boxed(text: str) -> str:
    """A boxed answer (`\\boxed{1}`, `$\\boxed{\\text{NO}}$`) as a final answer line."""

    def box(match: re.Match[str]) -> str:
        inner = _TEXT_COMMAND.sub(r"\1", match.group(1)).strip()
        return f"\nfinal answer: {inner}\n"

    if "boxed" not in text:
        return text
    boxed = _BOXED.sub(box, text)
    return _MATH_DELIMITERS.sub(" ", boxed)


def _tags(text: str) -> str:
    """XML-like tags (`<answer>1</answer>`) as labelled lines."""
    return _TAG.sub(lambda m: f"\n{key_words(m.group(1))}: {m.group(2).strip()}\n", text)


def _cells(line: str) -> list[str] | None:
    row = _TABLE_ROW.match(line)
    return [c.strip().strip("*_` ").strip() for c in row.group(1).split("|")] if row else None


def _is_label(cell: str) -> bool:
    """Whether a cell names a verdict or its reasons ("Verdict", "Factual?", "Reason")."""
    words = vocabulary()
    patterns = [*words.labels.values(), words.explanation_labels]
    return len(cell.split()) <= 4 and any(p.search(cell) for p in patterns)


def _rows(rows: list[list[str]]) -> list[str]:
    """Each row as "first cell: the others"."""
    lines = []
    for row in rows:
        cells = [c for c in row if c]
        if len(cells) >= 2:
            lines.append(f"{cells[0]}: {' '.join(cells[1:])}")
        elif cells:
            lines.append(cells[0])
    return lines


def _columns(header: list[str], rows: list[list[str]]) -> list[str]:
    """Each cell as its column's value ("Factual: YES"), a row's first cell on its own."""
    lines = []
    for row in rows:
        if row and row[0]:
            lines.append(row[0])
        lines += [f"{h.rstrip('?:')}: {c}" for h, c in zip(header[1:], row[1:], strict=False)]
    return lines


def _is_tick(cell: str) -> bool:
    """Whether a cell holds only a tick or a cross that marks its column ("✓", "X")."""
    words = vocabulary()
    return cell in words.affirm | words.select


def _is_cross(cell: str) -> bool:
    return cell in vocabulary().deny


def _ticked_rows(header: list[str], rows: list[list[str]]) -> list[str] | None:
    """A table with one column of ticks beside the options its rows name ("| Option |
    Selected |" over "| True | ✓ |"): the options ticked. None when it is no such table
    (its column names a verdict: "| Claim | Verdict |" over "| dose | ✓ |")."""
    if len(header) != 2 or _is_label(header[1]):
        return None
    if not all(len(row) == 2 and row[0] and (not row[1] or _is_tick(row[1])) for row in rows):
        return None
    return [row[0] for row in rows if row[1]]


def _ticked(header: list[str], rows: list[list[str]]) -> list[str] | None:
    """A table whose columns are the options and whose rows tick one of them ("| True |
    False |" over "| ✓ | |"; "| Label | Yes | No |" over "| Hallucinated | | ✔ |"): each
    row as the option its tick marks ("Hallucinated: No"); a row that ticks two, or marks
    one with a cross (is "✗" the choice, or its denial?), says nothing. None when the table
    is no such table (fewer than two option columns, a cell neither blank nor a mark)."""
    labelled = any(row and row[0] and not (_is_tick(row[0]) or _is_cross(row[0])) for row in rows)
    first = 1 if labelled else 0
    if len(header) - first < 2:
        return _ticked_rows(header, rows)
    lines = []
    for row in rows:
        options = row[first:]
        if any(cell and not (_is_tick(cell) or _is_cross(cell)) for cell in options):
            return None
        marked = [i for i, cell in enumerate(options, start=first) if cell]
        if len(marked) != 1 or marked[0] >= len(header) or _is_cross(row[marked[0]]):
            continue
        option = header[marked[0]]
        lines.append(f"{row[0]}: {option}" if labelled and row[0] else option)
    return lines


def _table(header: list[str] | None, rows: list[list[str]]) -> list[str]:
    """A table as labelled lines: the options its ticks mark; row by row when its first
    column names labels ("Verdict | 1") or it has no header; column by column when its
    header does ("Statement | Verdict")."""
    if header is None:
        return _rows(rows)
    if not rows:  # a one-row table: its header is its row
        return _rows([header])
    ticked = _ticked(header, rows)
    if ticked is not None:
        return ticked
    if any(row and _is_label(row[0]) for row in rows) or not any(_is_label(h) for h in header[1:]):
        return _rows([header, *rows])
    return _columns(header, rows)


def _tables(text: str) -> str:
    """Markdown tables as labelled lines."""
    if "|" not in text:
        return text
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if _cells(lines[i]) is None:
            out.append(lines[i])
            i += 1
            continue
        block: list[list[str]] = []
        header: list[str] | None = None
        while i < len(lines) and (_cells(lines[i]) is not None or _TABLE_RULE.match(lines[i])):
            if _TABLE_RULE.match(lines[i]):
                if header is None and len(block) == 1:
                    header = block.pop()
            else:
                block.append(_cells(lines[i]) or [])
            i += 1
        out += _table(header, block)
    return "\n".join(out)


_BOX = re.compile(
    r"(?:^|(?<=\s))(?:\[(?P<bracketed>[ xX✓✔])\]|\((?P<radio>[ xX•●])\)|(?P<ballot>[☐☑☒]))"
    r"(?=[ \t]+\S)",
    re.M,
)
_TICKED = frozenset("xX✓✔☑☒•●")


def _boxes(line: str) -> str:
    """A line of checkboxes ("[x] True [ ] False", "☐ Yes ☒ No — ...") as the text of the
    boxes it ticks: the text of a box left blank is no verdict."""
    boxes = list(_BOX.finditer(line))
    if not boxes:
        return line
    kept = [line[: boxes[0].start()].rstrip()]
    for box, following in zip(boxes, [*boxes[1:], None], strict=False):
        mark = box.group("bracketed") or box.group("radio") or box.group("ballot") or ""
        if mark in _TICKED:
            kept.append(line[box.end() : following.start() if following else len(line)].strip())
    return " ".join(k for k in kept if k).strip() or ""


def _checkboxes(text: str) -> str:
    """Checkbox lists and ballots as the text of the boxes they tick."""
    if not _BOX.search(text):
        return text
    return "\n".join(_boxes(line) for line in text.split("\n"))


def structured_lines(text: str) -> str:
    """The reply with its structured parts turned into labelled lines: fences opened, JSON
    objects and dict literals (tool calls by their arguments), XML-like tags, markdown
    tables (ticked columns as the options they mark), checkboxes and boxed answers."""
    text = _fences(text)
    text = _checkboxes(text)
    text = _objects(text)
    text = _tags(text)
    text = _tables(text)
    return _boxed(text)
