"""Every reply the strict reader does not read keeps the reason it was not read: in each
benchmark's score metadata (`unread_reason`; DAHL's per unit, `unit_unread_reasons`), in the
`load_samples` frame, and beside the reading on the audit page."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log

import medhalbench
from helpers import scripted_model
from medhalbench.audit import audited_logs
from medhalbench.dahl import dahl
from medhalbench.dahl._verdicts import read_truth_verdict
from medhalbench.examples import illustrative
from medhalbench.medhal import medhal, parse_factual_verdict
from medhalbench.medhallu import medhallu, parse_detection_verdict

# Replies no careful reader reads as one class, and one each reader reads.
UNREAD_DETECTION = "0 or 1, depending on the population."
UNREAD_FACTUAL = "Factual: YES. Actually, I take that back; I can't say."
UNREAD_TRUTH = "Bananas."
READ = {"detection": "1", "factual": "Factual: NO", "truth": "True"}


def _reply(prompt: str) -> str:
    """A judge that leaves every other sample's reply unreadable."""
    # A stable hash: Python's own differs per process, and could give one kind only.
    unread = hashlib.sha256(prompt.encode()).digest()[0] % 2 == 0
    if "true or false" in prompt.lower():
        return UNREAD_TRUTH if "fever" in prompt else READ["truth"]
    if "single digit" in prompt:
        return UNREAD_DETECTION if unread else READ["detection"]
    if "Factual" in prompt or "Statement:" in prompt:
        return UNREAD_FACTUAL if unread else READ["factual"]
    return "Aspirin inhibits COX.\nIt lowers fever."


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("unread")
    model = scripted_model(_reply)
    done = eval(
        [
            medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=4),
            medhal(dataset=illustrative("medhal_illustrative.jsonl")),
            # No cache: another test's checker may have cached a reply to the same unit.
            dahl(dataset=illustrative("dahl_illustrative.csv"), limit=1, cache=False),
        ],
        model=model, model_roles={"splitter": model, "checker": model},
        log_dir=str(folder), display="none",
    )  # fmt: skip
    assert all(log.status == "success" for log in done)
    return folder


def _log(logs: Path, task: str) -> EvalLog:
    [log] = [
        log
        for log in map(read_eval_log, map(str, logs.glob("*.eval")))
        if log.eval.task.rsplit("/", 1)[-1] == task
    ]
    return log


def _scores(logs: Path, task: str) -> list[tuple[str, dict]]:
    log = _log(logs, task)
    found = []
    for sample in log.samples or []:
        score = next(iter((sample.scores or {}).values()))
        found.append((sample.output.completion, dict(score.metadata or {})))
    return found


@pytest.mark.parametrize(
    ("task", "parse", "unread"),
    [
        ("medhallu", lambda r: parse_detection_verdict(r), UNREAD_DETECTION),
        ("medhal", lambda r: parse_factual_verdict(r), UNREAD_FACTUAL),
    ],
)
def test_the_metadata_keeps_why_a_reply_was_not_read(
    logs: Path, task: str, parse, unread: str
) -> None:
    scores = _scores(logs, task)
    replies = {reply for reply, _ in scores}
    assert unread in replies and replies - {unread}, replies  # both kinds were given
    for reply, metadata in scores:
        if reply == unread:
            assert metadata["unread_reason"] == parse(reply).reason
            assert metadata["read_by"] is None
        else:
            assert metadata["unread_reason"] is None and metadata["read_by"] == "strict"


def test_dahl_keeps_why_each_unit_was_not_read(logs: Path) -> None:
    [(_, metadata)] = _scores(logs, "dahl")
    assert metadata["units_text"] == ["Aspirin inhibits COX.", "It lowers fever."]
    reason = read_truth_verdict(UNREAD_TRUTH).reason
    assert metadata["unit_unread_reasons"] == [None, reason] and reason
    # In load_units, and revealed beside the reading on the audit page.
    units = medhalbench.load_units(logs)
    assert list(units.unread_reason.fillna("")) == ["", reason]
    [audited] = audited_logs([Path(_log(logs, "dahl").location)])
    [unread_item] = [i for i in audited.items if i.role == "reader" and i.unit == 2]
    assert f"({reason})" in dict(unread_item.revealed)["Read as"]


def test_load_samples_and_the_audit_show_the_reason(logs: Path) -> None:
    samples = medhalbench.load_samples(logs)
    unread = samples[samples.reply.isin([UNREAD_DETECTION, UNREAD_FACTUAL])]
    assert len(unread) and unread.verdict.isna().all()
    assert unread.unread_reason.notna().all()
    assert samples[samples.verdict.notna()].unread_reason.isna().all()
    assert str(samples.unread_reason.dtype) == "string"
    reasons = dict(zip(unread.reply, unread.unread_reason, strict=True))
    paths = [Path(_log(logs, task).location) for task in ("medhallu", "medhal")]
    checked = set()
    for audited in audited_logs(paths):
        for item in audited.items:
            shown = dict(item.shown)
            reply = next((v for k, v in shown.items() if k.endswith("reply")), "").strip()
            if item.role == "reader" and reply in reasons:
                assert reasons[reply] in dict(item.revealed)["Read as"]
                checked.add(reply)
    assert checked == set(reasons)  # each benchmark's unread replies, on the audit page


@pytest.mark.parametrize(
    ("reply", "reason"),
    [("", "empty reply"), ("  \n", "empty reply"), ("<think>It is 1.</think>", "reasoning only")],
)
def test_every_reader_says_alike_why_a_reply_with_nothing_to_read_is_not_read(
    reply: str, reason: str
) -> None:
    detection = parse_detection_verdict(reply)
    factual = parse_factual_verdict(reply)
    truth = read_truth_verdict(reply)
    assert (detection.label, factual.factual, truth.verdict) == (None, None, None)
    assert (detection.reason, factual.reason, truth.reason) == (reason, reason, reason)


@pytest.mark.parametrize("words", [700, 400_000])
@pytest.mark.parametrize(
    ("parse", "verdict"),
    [
        (parse_detection_verdict, "label"),
        (parse_factual_verdict, "factual"),
        (read_truth_verdict, "verdict"),
    ],
    ids=["detection", "factual", "truth"],
)
def test_a_reply_past_the_reading_bound_is_unread_with_its_length(
    parse: Callable[[str], Any], verdict: str, words: int
) -> None:
    """However long a reply (5 MB of verdict words among them), it is unread, with the
    reason, rather than read for minutes: the reader's time grows with its verdict words."""
    from medhalbench.judging._reply import MAX_READ_CHARS

    reply = "0. Factual: YES. True. " + "hallucinated false " * words
    assert len(reply) > MAX_READ_CHARS
    reading = parse(reply)
    assert getattr(reading, verdict) is None
    assert reading.reason.startswith("too long to read")


def test_a_clause_is_read_at_most_its_bound_before_a_verdict_word() -> None:
    from medhalbench.judging._prose import MAX_CLAUSE_CHARS, clause_start

    text = "word " * 1000 + "hallucinated"
    position = text.index("hallucinated")
    assert clause_start(text, position) == position - MAX_CLAUSE_CHARS
    assert clause_start("It is wrong, hallucinated", 13) == 12
