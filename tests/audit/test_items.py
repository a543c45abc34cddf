"""The judged items of a log, and the draw: reproducible, stratified by the judge's verdict."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from medhalbench import DataError
from medhalbench.audit import audited_logs, draw
from medhalbench.registry import AuditItem


def items(verdicts: str) -> list[AuditItem]:
    return [AuditItem(f"s{i}", 1, 0, v, (("Text", f"item {i}"),)) for i, v in enumerate(verdicts)]


def test_the_draw_is_reproducible_and_takes_every_verdict_in_turn() -> None:
    pool = items("t" * 40 + "f" * 5 + "u" * 2)
    drawn = draw(pool, 10, seed=7)
    assert [i.key for i in drawn] == [i.key for i in draw(list(reversed(pool)), 10, seed=7)]
    assert [i.key for i in drawn] != [i.key for i in draw(pool, 10, seed=8)]
    # Two of the rare verdict, then the other two in turn until the five f run out.
    assert Counter(i.verdict for i in drawn) == {"t": 4, "f": 4, "u": 2}
    assert len({i.key for i in drawn}) == 10
    assert len(draw(pool, 100, seed=7)) == len(pool)


def test_items_of_each_benchmark_show_what_the_judge_saw(
    medhal_log: Path, medhallu_log: Path
) -> None:
    medhal, medhallu = audited_logs([medhal_log, medhallu_log])
    assert Counter(i.verdict for i in medhal.items) == {"factual": 4, "not factual": 4}
    first = medhal.items[0]
    assert [h for h, _ in first.shown] == ["Context", "Statement", "Model's explanation"]
    assert first.label in ("factual", "not factual") and first.unit == 0
    assert Counter(i.verdict for i in medhallu.items) == {"factual": 12, "hallucinated": 12}
    reply = dict(medhallu.items[0].shown)["Detector's reply"]
    assert reply in ("1 - hallucinated", "**0**")
    assert dict(medhallu.items[0].shown)["Answer judged"] != "(not kept in this log)"


def test_logs_that_cannot_be_audited_are_named(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no such log file or folder"):
        audited_logs([tmp_path / "missing"])
    with pytest.raises(DataError, match="no inspect logs found"):
        audited_logs([tmp_path])
    text = tmp_path / "notes.eval"
    text.write_text("not a log")
    with pytest.raises(DataError, match="notes.eval: not an inspect log"):
        audited_logs([text])
