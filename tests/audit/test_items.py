"""The judged items of a log, role by role, and the draw: reproducible, stratified by role
and by the judge's answer; blind (what is shown before answering gives nothing away)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from medhalbench import DataError
from medhalbench.audit import AuditSession, audited_logs, draw
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from medhalbench.registry import AuditItem, AuditQuestion


def items(verdicts: str, role: str = "reader") -> list[AuditItem]:
    return [
        AuditItem(f"s{i}", 1, 0, role, (AuditQuestion("verdict", "?", ("t", "f", "u"), v),),  # type: ignore[arg-type]
                  (("Text", f"item {i}"),))
        for i, v in enumerate(verdicts)
    ]  # fmt: skip


def test_the_draw_is_reproducible_and_takes_every_role_and_verdict_in_turn() -> None:
    pool = items("t" * 40 + "f" * 5 + "u" * 2) + items("tf" * 10, role="detector")
    drawn = draw(pool, 14, seed=7)
    assert [i.key for i in drawn] == [i.key for i in draw(list(reversed(pool)), 14, seed=7)]
    assert [i.key for i in drawn] != [i.key for i in draw(pool, 14, seed=8)]
    # Five strata in turn: both unread items come in, and the detector gets its share.
    assert Counter((i.role, i.verdict) for i in drawn) == {
        ("reader", "t"): 3, ("reader", "f"): 3, ("reader", "u"): 2,
        ("detector", "t"): 3, ("detector", "f"): 3,
    }  # fmt: skip
    assert len({i.key for i in drawn}) == 14
    assert len(draw(pool, 1000, seed=7)) == len(pool)


def test_medhal_items_are_of_the_reader_and_the_detector_and_blind(medhal_log: Path) -> None:
    [medhal] = audited_logs([medhal_log])
    roles = Counter((i.role, i.verdict) for i in medhal.items)
    assert roles == {("reader", "factual"): 4, ("reader", "not factual"): 4,
                     ("detector", "factual"): 4, ("detector", "not factual"): 4}  # fmt: skip
    reader = next(i for i in medhal.items if i.role == "reader")
    assert [h for h, _ in reader.shown] == ["What the model was asked", "Model's reply"]
    assert reader.questions[0].choices == ("factual", "not factual", "unreadable")
    detector = next(i for i in medhal.items if i.role == "detector")
    assert [h for h, _ in detector.shown] == ["Context", "Statement"]
    # What would give the verdict or the label away is revealed only after answering.
    revealed = dict(detector.revealed)
    assert revealed["Dataset's label"] in ("factual", "not factual")
    assert "Model's explanation" in revealed
    assert medhal.run.startswith("MedHal: ") and "replies" in medhal.run


def test_medhallu_ids_and_the_answer_kind_are_never_shown_before_answering(
    medhallu_log: Path,
) -> None:
    [medhallu] = audited_logs([medhallu_log])
    assert Counter(i.role for i in medhallu.items) == {"reader": 24, "detector": 24}
    for item in medhallu.items:
        shown = " ".join(f"{h} {t}" for h, t in item.shown)
        assert item.sample_id not in shown and "ground_truth" not in shown
        assert item.sample_id.endswith(("-hallucinated", "-ground_truth"))
    reader = next(i for i in medhallu.items if i.role == "reader")
    assert dict(reader.shown)["Detector's reply"] in ("1 - hallucinated", "**0**")
    detector = next(i for i in medhallu.items if i.role == "detector")
    assert dict(detector.shown)["Answer judged"] != "(not kept in this log)"
    assert "Detector's reply" not in dict(detector.shown)  # its reply would give its verdict


def test_a_log_of_unreadable_replies_can_be_audited(tmp_path: Path) -> None:
    dataset = illustrative("medhallu_illustrative.jsonl")
    rows = [json.loads(line) for line in Path(dataset).read_text().splitlines()]
    replies = tmp_path / "replies.jsonl"
    replies.write_text(
        "".join(
            json.dumps(
                {"id": f"{r['pubid']}-{kind}", "reply": "I cannot judge research abstracts."}
            )
            + "\n"
            for r in rows
            for kind in ("ground_truth", "hallucinated")
        )
    )
    result = CliRunner().invoke(
        cli, ["eval", "medhallu", "--dataset", dataset, "--responses", str(replies),
              "--log-dir", str(tmp_path / "logs")],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [log] = audited_logs([tmp_path / "logs"])
    assert {(i.role, i.verdict) for i in log.items} == {("reader", "unreadable")}
    session = AuditSession([log], "alice", 5, 0)
    assert len(session.drawn) == 5  # offered, so that a person can say what they meant


def test_logs_that_cannot_be_audited_are_named(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no such log file or folder"):
        audited_logs([tmp_path / "missing"])
    with pytest.raises(DataError, match="no inspect logs found"):
        audited_logs([tmp_path])
    text = tmp_path / "notes.eval"
    text.write_text("not a log")
    with pytest.raises(DataError, match="notes.eval: not an inspect log"):
        audited_logs([text])
