"""Structured replies turned into labelled lines ("key: value"), so that one reader reads
them all: JSON (whole, fenced, embedded or cut off at the token limit), Python dicts, XML-like
tags, markdown tables, `key=value` pairs and boxed answers."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from typing import Any

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


def _leaves(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every (key, value) of a nested structure; a value in a list takes its list's key."""
    if isinstance(value, dict):
        for k, v in value.items():
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


def _objects(text: str) -> str:
    """The reply with each JSON object (or dict literal) in it replaced by its lines."""
    start = text.find("{")
    if start < 0:
        return text
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
    from medhalbench.judging._vocabulary import vocabulary

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


def _table(header: list[str] | None, rows: list[list[str]]) -> list[str]:
    """A table as labelled lines: row by row when its first column names labels ("Verdict |
    1") or it has no header; column by column when its header does ("Statement | Verdict")."""
    if header is None:
        return _rows(rows)
    if not rows:  # a one-row table: its header is its row
        return _rows([header])
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


def structured_lines(text: str) -> str:
    """The reply with its structured parts turned into labelled lines: fences opened, JSON
    objects and dict literals, XML-like tags, markdown tables and boxed answers."""
    text = _fences(text)
    text = _objects(text)
    text = _tags(text)
    text = _tables(text)
    return _boxed(text)
