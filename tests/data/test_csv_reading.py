"""CSV is read as Python's csv module reads it: a quoted cell over several lines whose later
lines hold commas (a reply, a question) is one cell, not a sign of a broken quote; a quote
opened and never closed is refused in one line naming the file and the line it opens on."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from medhalbench import DataError
from medhalbench.dahl import load_dahl_questions
from medhalbench.data import read_rows

CELLS = [
    "line one\nVerdict: 1, sure",
    "a, b\r\nc, d",
    "What is aspirin,\nand why, doctor?",
    'He said ""why?"", and left\nthen, "twice"',
    "Factual: NO\r\nExplanation: it, does not",
    "x,y\nz,w\nq,r",
    "plain",
    "",
    " spaced , cell ",
    '"quoted whole"',
    "trailing newline\n",
]
"""Cells that once were refused or that test quoting: commas, newlines (LF and CRLF),
doubled quotes, a continuation line that reads as a whole row."""


def _csv_bytes(rows: list[list[str]], *, terminator: str, bom: bool) -> bytes:
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator=terminator).writerows(rows)
    return ("\ufeff" if bom else "").encode() + buffer.getvalue().encode("utf-8")


def _dict_reader_rows(data: bytes) -> list[dict[str, str]]:
    text = data.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text, newline="")))


class TestCsvReadsAsTheCsvModule:
    @pytest.mark.parametrize("terminator", ["\n", "\r\n"])
    @pytest.mark.parametrize("bom", [False, True])
    @pytest.mark.parametrize("cell", CELLS)
    def test_csv_writer_files_read_as_dict_reader(
        self, tmp_path: Path, cell: str, terminator: str, bom: bool
    ) -> None:
        rows = [["id", "reply"], ["p1-hallucinated", cell], ["p2", "after, " + cell]]
        data = _csv_bytes(rows, terminator=terminator, bom=bom)
        path = tmp_path / "k.csv"
        path.write_bytes(data)
        assert [row for _, row in read_rows(path)] == _dict_reader_rows(data)

    @pytest.mark.parametrize(
        "text",
        [
            'id,reply\np1-hallucinated,"line one\nVerdict: 1, sure"\n',
            '\ufeffid,reply\r\np1,"a, b\r\nc, d"\r\np2,"He said ""x"", ok"\r\n',
            'question,category\n"What is aspirin,\nand why, doctor?",cardiology\n',
            'id,reply\nm1,"Factual: NO\r\nExplanation: it, does not"\n',
            'question,category\nWhat is A?,"cardiology\nWhat is B?,oncology"\nWhat?,x\n',
        ],
    )
    def test_probe_files_read_as_dict_reader(self, tmp_path: Path, text: str) -> None:
        path = tmp_path / "k.csv"
        path.write_bytes(text.encode())
        assert [row for _, row in read_rows(path)] == _dict_reader_rows(text.encode())

    def test_a_dahl_question_over_lines_with_commas_is_read(self, tmp_path: Path) -> None:
        path = tmp_path / "q.csv"
        path.write_text('question,category\n"What is aspirin,\nand why, doctor?",cardiology\n')
        questions = load_dahl_questions(str(path))
        assert [q.question for q in questions] == ["What is aspirin,\nand why, doctor?"]

    def test_line_numbers_count_physical_lines(self, tmp_path: Path) -> None:
        path = tmp_path / "k.csv"
        path.write_text('id,reply\np1,"a,\nb, c"\np2,d\n')
        assert [line for line, _ in read_rows(path)] == [2, 4]


class TestAnUnclosedQuoteIsNamed:
    @pytest.mark.parametrize(
        ("text", "line"),
        [
            ('id,reply\np1,"never closed\np2,x\np3,y\n', 2),
            ('id,reply\np1,x\np2,"never closed, at all\n', 3),
            ('\ufeffid,reply\r\np1,"a, ""b"",\r\nc","open\r\np2,x\r\n', 3),
            ('id,reply\np1,"ok\nstill, ok"\np2,"open\n\np3,z\n', 4),
            ('id,reply\n"p1,\nx",\n"y\nz\n', 4),
        ],
    )
    def test_one_line_names_the_file_and_the_opening_line(
        self, tmp_path: Path, text: str, line: int
    ) -> None:
        path = tmp_path / "k.csv"
        path.write_bytes(text.encode())
        with pytest.raises(DataError) as info:
            list(read_rows(path))
        message = str(info.value)
        assert info.value.path == str(path) and info.value.line == line, message
        assert "never closed" in message and "\n" not in message
