"""The extractor as the second reader, end to end through the `openai` SDK against the stub
OpenAI-compatible server: a detector answering in many styles (terse, JSON with other keys,
tables, headings, other languages, hedges, replies contradicting themselves, idioms); the
extractor is asked about exactly the replies the strict reader could not read, its readings
are marked as such in the log, counted apart in the figures and the table, and offered to
the audit as the extractor's."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from inspect_ai.log import read_eval_log

from helpers import log_metrics, stub_at
from medhalbench.audit import audited_logs
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from medhalbench.judging import strip_reasoning
from medhalbench.medhallu import parse_detection_verdict
from realistic_model import detection_truth

DATASET = illustrative("medhallu_illustrative.jsonl")
WORD = {"0": "factual", "1": "hallucinated"}
# (style, reply for an intended verdict, what a careful reader reads: "read", "idiom" (only
# an extractor that understands idiom reads it) or "none" (no one should read a class)).
STYLES: list[tuple[str, Any, str]] = [
    ("terse", lambda v: v, "read"),
    ("json_other_key", lambda v: json.dumps({"is_hallucinated": v == "1"}), "read"),
    ("table", lambda v: f"| Field | Value |\n|---|---|\n| Verdict | {WORD[v]} |", "read"),
    ("heading", lambda v: f"## Verdict\n**{v}**\n\n## Reasoning\nChecked.", "read"),
    ("japanese", lambda v: f"判定：{v}", "read"),
    ("think", lambda v: f"<think>0 or 1? Let me see.</think>\n\nFinal answer: {v}", "read"),
    ("hedge", lambda v: f"{v} (if the main finding counts) / {1 - int(v)} (if not)", "none"),
    (
        "contradiction",
        lambda v: (
            f"Verdict: {v}\nThe answer is fully "
            + ("consistent with the abstract." if v == "1" else "fabricated.")
        ),
        "none",
    ),  # fmt: skip
    (
        "idiom",
        lambda v: "Looks solid to me." if v == "0" else "Nah, I don't buy it.",
        "idiom",
    ),  # fmt: skip
]


def style_of(answer: str) -> tuple[str, Any, str]:
    return STYLES[int(hashlib.sha256(answer.encode()).hexdigest()[:8], 16) % len(STYLES)]


class Detector:
    """The stub's model: a detector in many styles, and an extractor that reads idioms."""

    def __init__(self) -> None:
        self.truth = detection_truth(DATASET)
        self.replies: dict[str, tuple[str, str, str]] = {}  # reply -> (answer, intended, how)
        self.extractor_asked: list[str] = []

    def __call__(self, messages: list[dict[str, Any]]) -> str:
        user = str(messages[-1].get("content", ""))
        if "A model was asked the question below" in user:
            quoted = user.split("THE MODEL'S REPLY:", 1)[1].rsplit("Answer with a JSON", 1)[0]
            self.extractor_asked.append(quoted.strip())
            _, intended, how = self.replies[quoted.strip()]
            return json.dumps({"verdict": intended if how == "idiom" else "none"})
        answer = user.split("Answer:", 1)[1].rsplit("Your judgement", 1)[0].strip()
        intended = self.truth[answer]
        _, write, how = style_of(answer)
        reply = write(intended)
        # inspect keeps a <think> block apart from the completion: key by what remains.
        self.replies[strip_reasoning(reply).strip()] = (answer, intended, how)
        return reply


def test_the_extractor_reads_only_what_the_strict_reader_cannot_and_is_marked(
    tmp_path: Path,
) -> None:
    model = Detector()
    with stub_at(model) as base_url:
        result = CliRunner(env={"STUB_API_KEY": "sk-local"}).invoke(
            cli,
            ["eval", "medhallu", "--dataset", DATASET, "--model", "openai-api/stub/detector",
             "--model-base-url", base_url, "--extractor", "openai-api/stub/extractor",
             "--log-dir", str(tmp_path), "--bootstrap", "0", "--no-cache", "--display", "none"],
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    hows = {how for _, _, how in model.replies.values()}
    assert hows == {"read", "none", "idiom"}, hows  # every kind of reply was given
    [path] = tmp_path.glob("*.eval")
    log = read_eval_log(str(path))
    strict_unread, idioms = set(), 0
    for sample in log.samples or []:
        reply = sample.output.completion.strip()
        _, intended, how = model.replies[reply]
        score = next(iter(sample.scores.values()))  # type: ignore[union-attr]
        read_by = score.metadata["read_by"]
        strict = parse_detection_verdict(reply).label
        if how == "read":  # the strict reader reads it, as a careful reader does
            assert read_by == "strict" and strict is not None and str(int(strict)) == intended
        elif how == "idiom":  # only the extractor reads it, marked as such
            assert read_by == "extractor" and score.answer == intended
            idioms += 1
        else:  # a hedge or a self-contradiction: nobody reads a class
            assert read_by is None and score.answer is None
        if strict is None:
            strict_unread.add(reply)
    # The extractor saw exactly the replies the strict reader could not read.
    assert set(model.extractor_asked) == strict_unread and strict_unread
    metrics = log_metrics(log)
    assert metrics["read_by_extractor"] == idioms > 0
    assert "strict_f1" in metrics  # every figure is also given without its readings
    assert "read by the extractor" in result.stdout
    # The audit offers the extractor's readings as its own role, the others as the reader's.
    [audited] = audited_logs([path])
    extractor = [i for i in audited.items if i.role == "extractor"]
    assert len(extractor) == idioms
    assert all(i.verdict == WORD[model.replies[dict(i.shown)["Detector's reply"].strip()][1]]
               for i in extractor)  # fmt: skip
    unread = [i for i in audited.items if i.role == "reader" and i.verdict == "unreadable"]
    assert {dict(i.shown)["Detector's reply"].strip() for i in unread} | {
        dict(i.shown)["Detector's reply"].strip() for i in extractor
    } == strict_unread
