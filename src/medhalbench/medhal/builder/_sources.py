"""Reading MedHal's source datasets, in their published layouts, into work items."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medhalbench._errors import DataError
from medhalbench.data import read_rows
from medhalbench.medhal._settings import SOURCES

LETTERS = "ABCDEFGH"


@dataclass(frozen=True)
class QAItem:
    """A multiple-choice question with its correct option letter."""

    inner_id: str
    question: str
    options: dict[str, str]
    answer: str
    explanation: str | None = None


@dataclass(frozen=True)
class NLIItem:
    """A MedNLI premise with its entailed and contradicted hypotheses (pairID, text)."""

    inner_id: str
    premise: str
    entailed: tuple[tuple[str, str], ...]
    contradicted: tuple[tuple[str, str], ...]
    neutral: int = 0


@dataclass(frozen=True)
class NoteItem:
    """A clinical note and its extracted key-values (flattened, `a.b` keys)."""

    inner_id: str
    note: str
    facts: dict[str, str]


@dataclass(frozen=True)
class SummaryItem:
    """A full text, its abstract and (where present) its shorter abstract."""

    inner_id: str
    text: str
    summary: str
    shorter: str | None = None

    def pairings(self) -> list[tuple[str, str, str]]:
        """The (name, document, summary) pairs the authors build from one document: text
        with abstract, text with shorter abstract, abstract with shorter abstract."""
        pairs = [("text-abstract", self.text, self.summary)]
        if self.shorter:
            pairs += [
                ("text-shorter", self.text, self.shorter),
                ("abstract-shorter", self.summary, self.shorter),
            ]
        return pairs


@dataclass
class ReadReport:
    """Rows read and skipped while reading a source (skips are counted, never silent)."""

    rows: int = 0
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, reason: str) -> None:
        """Count a skipped row."""
        self.skipped[reason] = self.skipped.get(reason, 0) + 1


def _require(row: dict[str, Any], name: str, path: Path, line: int | str) -> Any:
    value = row.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        raise DataError("missing" if value is None else "empty", path=path, line=line, field=name)
    return value


def qa_item(row: dict[str, Any], path: Path, line: int | str) -> QAItem:
    """A QA item from MIRAGE's `{question, options{A..}, answer}`, HF MedMCQA's `opa..opd,
    cop, exp`, or HF MedQA's `options, answer_idx` layouts."""
    # As the file has it: the authors' MedQA split drops a question with a space after its "?".
    question = str(_require(row, "question", path, line))
    inner_id = str(row.get("id") or row.get("__key__") or line)
    explanation = row.get("exp") or row.get("explanation")
    if "opa" in row:  # HF MedMCQA
        options = {letter: str(row.get(f"op{letter.lower()}") or "") for letter in "ABCD"}
        cop = str(_require(row, "cop", path, line)).strip()
        # HF MedMCQA's cop is 0-based (0 = opa); a letter is taken as is.
        answer = LETTERS[int(cop)] if cop.isdigit() and int(cop) < 4 else cop.upper()
        if answer not in options:
            raise DataError(
                f"invalid correct option {cop!r} (expected 0-3 or a-d)",
                path=path,
                line=line,
                field="cop",
            )
    else:
        raw = _require(row, "options", path, line)
        if isinstance(raw, list):  # some MedQA exports: [{"key": "A", "value": ...}]
            raw = {o["key"]: o["value"] for o in raw if isinstance(o, dict) and "key" in o}
        if not isinstance(raw, dict) or not raw:
            raise DataError("expected an object of options", path=path, line=line, field="options")
        options = {str(k).strip().upper(): str(v) for k, v in raw.items()}
        answer = str(row.get("answer_idx") or _require(row, "answer", path, line)).strip().upper()
        if answer not in options:
            # MedQA's `answer` may hold the option text rather than its letter.
            matches = [
                k for k, v in options.items() if v.strip() == str(row.get("answer", "")).strip()
            ]
            if not matches:
                raise DataError(
                    f"answer {answer!r} is not one of the options",
                    path=path,
                    line=line,
                    field="answer",
                )
            answer = matches[0]
    if not options.get(answer, "").strip():
        raise DataError(f"correct option {answer} is empty", path=path, line=line, field="options")
    return QAItem(
        inner_id, question, options, answer, str(explanation).strip() if explanation else None
    )


def read_qa(path: Path, report: ReadReport) -> list[QAItem]:
    """QA items from a JSON (MIRAGE: keyed by id), JSONL, CSV or Parquet file."""
    items = []
    for line, row in read_rows(path):
        report.rows += 1
        items.append(qa_item(row, path, line))
    return items


def read_mednli(path: Path, report: ReadReport) -> list[NLIItem]:
    """MedNLI JSONL (`sentence1, sentence2, gold_label`) grouped by premise."""
    groups: dict[str, dict[str, list[tuple[str, str]]]] = defaultdict(lambda: defaultdict(list))
    order: list[str] = []
    for line, row in read_rows(path):
        report.rows += 1
        premise = str(_require(row, "sentence1", path, line)).strip()
        hypothesis = str(_require(row, "sentence2", path, line)).strip()
        label = str(_require(row, "gold_label", path, line)).strip().lower()
        if label not in ("entailment", "contradiction", "neutral"):
            raise DataError(
                f"invalid label {label!r} (expected entailment, contradiction or neutral)",
                path=path,
                line=line,
                field="gold_label",
            )
        if premise not in groups:
            order.append(premise)
        groups[premise][label].append((str(row.get("pairID") or line), hypothesis))
    items = []
    for index, premise in enumerate(order):
        g = groups[premise]
        items.append(
            NLIItem(
                str(index),
                premise,
                tuple(g["entailment"]),
                tuple(g["contradiction"]),
                len(g["neutral"]),
            )
        )
    return items


def flatten(value: Any, prefix: str = "") -> dict[str, str]:
    """Scalar leaves of nested JSON as `a.b` keys; lists of scalars joined; empty or
    placeholder values ("None", "N/A") left out."""
    facts: dict[str, str] = {}
    if isinstance(value, dict):
        for key, child in value.items():
            facts.update(flatten(child, f"{prefix}.{key}" if prefix else str(key)))
    elif isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            text = ", ".join(str(v) for v in value if str(v).strip())
            if text:
                facts[prefix] = text
        else:
            for i, child in enumerate(value):
                facts.update(flatten(child, f"{prefix}[{i}]"))
    elif (
        value is not None
        and str(value).strip()
        and str(value).strip().lower() not in ("none", "n/a", "null", "unknown")
    ):
        facts[prefix] = str(value).strip()
    return facts


def read_clinical_notes(path: Path, report: ReadReport) -> list[NoteItem]:
    """Augmented Clinical Notes rows (`idx`, `note`, `summary` as a JSON string or object).
    Rows whose summary is not valid JSON are skipped and counted as `invalid_json`."""
    items = []
    for line, row in read_rows(path):
        report.rows += 1
        note = str(_require(row, "note", path, line)).strip()
        summary = _require(row, "summary", path, line)
        if isinstance(summary, str):
            try:
                summary = json.loads(summary)
            except json.JSONDecodeError:
                report.skip("invalid_json")
                continue
        facts = flatten(summary)
        if not facts:
            report.skip("no_facts")
            continue
        items.append(NoteItem(str(row.get("idx", line)), note, facts))
    return items


def read_sumpubmed(folder: Path, report: ReadReport) -> list[SummaryItem]:
    """SumPubMed: `text/text_N.txt` with `abstract/abstract_N.txt` (or `abst_N.txt`) and,
    where present, `shorter_abstract/abst_N.txt`."""
    text_dir = folder / "text" if (folder / "text").is_dir() else folder
    if not text_dir.is_dir():
        raise DataError("not a SumPubMed folder (expected text/ and abstract/)", path=folder)
    summary_dirs = [d for d in (folder / "abstract", folder) if d.is_dir()]
    shorter_dir = folder / "shorter_abstract"
    items = []
    texts = sorted(text_dir.glob("text_*.txt"), key=lambda p: int(re.sub(r"\D", "", p.stem) or 0))
    if not texts:
        raise DataError("no text_N.txt files", path=text_dir)
    for text_path in texts:
        report.rows += 1
        number = text_path.stem.split("_", 1)[1]
        summary_path = next(
            (
                d / f"{prefix}_{number}.txt"
                for d in summary_dirs[:1]
                for prefix in ("abstract", "abst")
                if (d / f"{prefix}_{number}.txt").is_file()
            ),
            None,
        )
        if summary_path is None:
            report.skip("no_summary")
            continue
        try:
            text, summary = (
                text_path.read_text(encoding="utf-8").strip(),
                summary_path.read_text(encoding="utf-8").strip(),
            )
        except UnicodeDecodeError:  # counted in the build's summary, never garbled
            report.skip("not_utf8")
            continue
        if "\x00" in text or "\x00" in summary:
            report.skip("not_utf8")
            continue
        if not text or not summary:
            report.skip("empty")
            continue
        shorter = _read_shorter(shorter_dir, number)
        items.append(SummaryItem(f"text_{number}", text, summary, shorter))
    return items


def _read_shorter(folder: Path, number: str) -> str | None:
    """A document's shorter abstract (`abst_N.txt` or `abstract_N.txt`), if readable."""
    for prefix in ("abst", "abstract"):
        path = folder / f"{prefix}_{number}.txt"
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8").strip()
            except UnicodeDecodeError:
                return None
            return text if text and "\x00" not in text else None
    return None


def read_source(name: str, path: str | Path, report: ReadReport) -> list[Any]:
    """Work items of one source.

    Raises:
        DataError: Unknown source name or bad input.
    """
    location = Path(path)
    if name in ("medqa", "medmcqa"):
        return read_qa(location, report)
    if name == "mednli":
        return read_mednli(location, report)
    if name == "acn":
        return read_clinical_notes(location, report)
    if name == "sumpubmed":
        return read_sumpubmed(location, report)
    raise DataError(
        f"unknown source '{name}' (expected one of {', '.join(SOURCES)})", field="source"
    )
