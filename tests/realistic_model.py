"""A realistic model behind an OpenAI-compatible server on 127.0.0.1, for end-to-end tests
through the `openai` SDK as installed.

It answers each benchmark's prompts the way today's model families write, not the way our
readers read: terse digits, markdown headings, `<think>` blocks, JSON, self-corrections,
other languages, long explanations, refusals, idioms no strict reader takes, lists of
verdicts. Each reply is written for a verdict the model *intends* (right most of the time,
wrong by a fixed rule), and each style says whether a careful reader takes that verdict from
it (`readable`), whether only an extractor model can (`extractable`), or neither. Every reply
is recorded, so a test can compute the figures the run must print from the intended verdicts,
without reading the replies with the code under test.

The same server plays the model under test, the judges (DAHL's splitter and checker) and the
extractor (it finds the recorded reply it is asked about, and states its intended verdict as
JSON, or "none" where a careful reader finds none).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def _hash(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


@dataclass(frozen=True)
class Style:
    """How a model family writes a verdict.

    Attributes:
        family: The model family it imitates.
        kind: What kind of writing it is.
        write: The reply for an intended verdict (and a seed for variety).
        readable: A careful reader takes the intended verdict from it.
        extractable: Only a reader that understands idiom does (the extractor).
    """

    family: str
    kind: str
    write: Callable[[str], str]
    readable: bool = True
    extractable: bool = False


def refusal(family: str, text: str) -> Style:
    """A family that declines to judge, whatever it meant: no reader takes a verdict from it."""
    return Style(family, "refusal", lambda _: text, readable=False)


def idiom(family: str, write: Callable[[str], str]) -> Style:
    """A family that answers in an idiom: only the extractor takes the verdict from it."""
    return Style(family, "idiom", write, readable=False, extractable=True)


# ---- MedHallu detection: 0 factual, 1 hallucinated -------------------------------------

_DETECTION_WORD = {"0": "factual", "1": "hallucinated"}
_DETECTION_REASON = {
    "0": "The answer states what the abstract reports, in different words.",
    "1": "The answer reports a result the abstract does not contain.",
}
# Reasoning styles write the layout DeepSeek-R1 and Qwen3 send: "<think>\n...\n</think>\n\n".
DETECTION_STYLES = [
    Style("llama-3.1-8b", "terse", lambda v: v),
    Style("gpt-4o", "heading", lambda v: f"### Verdict\n{v}\n\n### Reasoning\n{_DETECTION_REASON[v]}"),
    Style(
        "deepseek-r1", "reasoning",
        # Inside the block "non" reads 1 for the authors' substring test, whatever follows.
        lambda v: f"<think>\nIs the answer non-factual? {_DETECTION_REASON[v]} "
        f"So the answer is {_DETECTION_WORD[v]}.\n</think>\n\n{v}",
    ),
    Style("gpt-4o-mini", "json", lambda v: json.dumps({"verdict": int(v)})),
    Style(
        "llama-3.2-3b", "self_correction",
        lambda v: f"{'1' if v == '0' else '0'}\n\nWait, re-reading it: {_DETECTION_REASON[v]} "
        f"Final answer: {v}",
    ),
    Style(
        "claude", "long",
        lambda v: f"I'll evaluate this carefully.\n\n{_DETECTION_REASON[v]} "
        f"{'Nothing in it is fabricated.' if v == '0' else 'That figure is fabricated.'}"
        f"\n\n**Answer: {v}**",
    ),
    Style("qwen2.5", "language_zh", lambda v: f"答案：{v}（{'该回答与摘要一致' if v == '0' else '该回答存在幻觉'}）"),
    Style("mistral", "language_fr", lambda v: f"Réponse : {v} ({'factuelle' if v == '0' else 'hallucinée'})"),
    Style("gemma-2", "negation", lambda v: "The answer is not hallucinated." if v == "0" else "The answer is not factual."),
    refusal("llama-2", "I'm sorry, but I can't provide medical judgments."),
    idiom("phi-3", lambda v: "Looks solid to me." if v == "0" else "Nah, I don't buy it."),
    Style("openbiollm", "verdict_list", lambda v: f"{v}\n{'1' if v == '0' else '0'}", readable=False),
    # Reasoning blocks in the other layouts servers send: compact, after the answer, alone.
    Style("qwen3", "reasoning_compact", lambda v: f"<think>Weigh it against the abstract.</think>\n{v}"),
    Style("qwq", "reasoning_after", lambda v: f"{v}\n<think>\nWas it hallucinated? Checked.\n</think>"),
    Style("qwen3", "reasoning_only", lambda v: "<think>\nStill weighing the abstract.\n</think>", readable=False),
]  # fmt: skip

# ---- DAHL checker: true, false, unknown ---------------------------------------------------

TRUTH_STYLES = [
    Style("perplexity-sonar", "terse", lambda v: {"true": "True", "false": "False", "unknown": "Unknown"}[v]),
    Style("gpt-4o-mini", "json", lambda v: json.dumps({"verdict": v})),
    Style("deepseek-r1", "reasoning", lambda v: f"<think>\nIs it true or false? Recall the pharmacology.\n</think>\n\n{v.capitalize()}."),
    Style("claude", "negation", lambda v: {"true": "The statement is not false.", "false": "Not true.", "unknown": "I cannot verify this."}[v]),
    Style("llama-3.1-8b", "self_correction", lambda v: {"true": "False... wait, re-reading it, True.", "false": "True. Wait — no: False.", "unknown": "True. Wait, I cannot verify this."}[v]),
    Style("mistral", "language_es", lambda v: {"true": "Verdadero.", "false": "Falso.", "unknown": "No lo sé."}[v]),
    Style("qwen2.5", "language_zh", lambda v: {"true": "正确。", "false": "错误。", "unknown": "不确定。"}[v]),
    Style("gemma-2", "heading", lambda v: f"## Answer\n\n{v.capitalize()}\n\n## Reason\nChecked against the guideline."),
    refusal("llama-2", "As an AI model I do not give medical opinions."),
    idiom("phi-3", lambda v: {"true": "That tracks.", "false": "Nah, not buying it.", "unknown": "Hard to pin down."}[v]),
    Style("qwen3", "reasoning_compact", lambda v: f"<think>Recall it.</think>\n{v.capitalize()}."),
    Style("qwq", "reasoning_after", lambda v: f"{v.capitalize()}.\n<think>\nRecalled the pharmacology.\n</think>"),
    Style("qwen3", "reasoning_only", lambda v: "<think>\nIs it true? Still recalling.\n</think>", readable=False),
]  # fmt: skip

# ---- MedHal: YES (factual) or NO, with an explanation -------------------------------------

FACTUAL_STYLES = [
    Style("llama-3.1-8b", "plain", lambda v: "Factual: YES" if v == "yes" else "Factual: NO\nExplanation: The statement contradicts the context."),
    Style("gpt-4o", "heading", lambda v: f"### Factual\n{v.upper()}\n\n### Explanation\nChecked against the context."),
    Style("gpt-4o-mini", "json", lambda v: json.dumps({"factual": v.upper(), "explanation": "Checked against the context."})),
    Style("deepseek-r1", "reasoning", lambda v: f"<think>\nDoes the context say no to it? Compare.\n</think>\n\nFactual: {v.upper()}"),
    Style("llama-3.2-3b", "self_correction", lambda v: f"Factual: {'NO' if v == 'yes' else 'YES'}. Wait, re-reading the context: Factual: {v.upper()}"),
    Style("mistral", "language_es", lambda v: "Factual: SÍ" if v == "yes" else "Factual: NO\nExplicación: El contexto dice otra cosa."),
    Style("qwen2.5", "language_zh", lambda v: "事实性：是" if v == "yes" else "事实性：否\n解释：与上下文不符。"),
    refusal("llama-2", "I cannot evaluate clinical statements."),
    idiom("phi-3", lambda v: "I'm happy with it." if v == "yes" else "That's off the mark, the context disagrees."),
    Style("qwen3", "reasoning_compact", lambda v: f"<think>Compare, yes or no.</think>\nFactual: {v.upper()}"),
    # The first yes/no word the authors read comes before the block.
    Style("qwq", "reasoning_after", lambda v: f"Factual: {v.upper()}\n<think>\nDoes the context say no? Compared.\n</think>"),
    Style("qwen3", "reasoning_only", lambda v: "<think>\nNo verdict yet: the context is long.\n</think>", readable=False),
]  # fmt: skip

# ---- DAHL splitter: one unit a line, in each reasoning layout -----------------------------

SPLIT_LAYOUTS = [
    lambda units: units,
    lambda units: f"<think>Split it into facts.</think>\n{units}",
    lambda units: f"<think>\nSplit it into facts.\n</think>\n\n{units}",
    lambda units: f"{units}\n<think>\nDone.\n</think>",
]


@dataclass
class Reply:
    """One recorded reply: what it answers, the verdict the model meant, and its style."""

    task: str
    key: str
    intended: str
    style: Style
    text: str


@dataclass
class RealisticModel:
    """The model: ground truth of the test's data, and the record of every reply.

    Attributes:
        detection: MedHallu answer text -> true label ("0" ground truth, "1" hallucinated).
        statements: MedHal statement -> "yes" (factual) or "no".
        facts: DAHL fact sentence -> "true", "false" or "unknown".
        answers: DAHL question -> the sentences of its answer.
        wrong_every: Every n-th item (by a hash of its text) gets the wrong verdict.
        replies: Every reply given, by its text.
    """

    detection: dict[str, str] = field(default_factory=dict)
    statements: dict[str, str] = field(default_factory=dict)
    facts: dict[str, str] = field(default_factory=dict)
    answers: dict[str, list[str]] = field(default_factory=dict)
    wrong_every: int = 5
    replies: dict[str, Reply] = field(default_factory=dict)

    def _style(self, styles: list[Style], key: str) -> Style:
        return styles[_hash(key + "style") % len(styles)]

    def _wrong(self, key: str) -> bool:
        return _hash(key) % self.wrong_every == 0

    def _record(self, task: str, key: str, intended: str, style: Style) -> str:
        text = style.write(intended)
        self.replies[text + "\x00" + key] = Reply(task, key, intended, style, text)
        return text

    def of(self, task: str) -> list[Reply]:
        """The replies given to one kind of prompt (`detection`, `split`, `check`, `medhal`)."""
        return [r for r in self.replies.values() if r.task == task]

    def __call__(self, messages: list[dict[str, Any]]) -> str:
        system = str(messages[0].get("content", "")) if len(messages) > 1 else ""
        user = str(messages[-1].get("content", ""))
        if "A model was asked the question below" in user:
            return self._extract(user)
        if "Your judgement (a single digit)" in user:
            answer = user.split("Answer:", 1)[1].rsplit("Your judgement", 1)[0].strip()
            truth = self.detection[answer]
            intended = ("1" if truth == "0" else "0") if self._wrong(answer) else truth
            return self._record(
                "detection", answer, intended, self._style(DETECTION_STYLES, answer)
            )
        if "state exactly one fact" in user:
            text = user.rsplit("TEXT:", 1)[1].rsplit("SENTENCES:", 1)[0].strip()
            units = "\n".join(s for s in re.split(r"(?<=\.)\s+", text) if s)
            # Each text in the next layout, the same on a second call: every layout is sent.
            texts = list(dict.fromkeys(r.key for r in self.of("split")))
            order = texts.index(text) if text in texts else len(texts)
            split = Style("splitter", "split", SPLIT_LAYOUTS[order % len(SPLIT_LAYOUTS)])
            return self._record("split", text, units, split)
        if "true or false" in user.lower() and "Statement:" in user:
            statement = user.rsplit("Statement:", 1)[1].strip()
            truth = self.facts.get(statement, "unknown")
            intended = (
                {"true": "false", "false": "true"}.get(truth, truth)
                if self._wrong(statement)
                else truth
            )
            return self._record("check", statement, intended, self._style(TRUTH_STYLES, statement))
        if "Statement:" in user and "Factual" in system:
            statement = user.rsplit("Statement:", 1)[1].strip()
            truth = self.statements[statement]
            intended = ("no" if truth == "yes" else "yes") if self._wrong(statement) else truth
            return self._record(
                "medhal", statement, intended, self._style(FACTUAL_STYLES, statement)
            )
        for question, sentences in self.answers.items():  # the model under test, answering
            if question in user:
                return " ".join(sentences)
        raise AssertionError(f"the realistic model got a prompt it does not know: {user[:200]}")

    def _extract(self, prompt: str) -> str:
        quoted = prompt.split("THE MODEL'S REPLY:", 1)[1].rsplit("Answer with a JSON object", 1)[0]
        reply = next((r for r in self.replies.values() if r.text.strip() == quoted.strip()), None)
        if reply is None or not (reply.style.readable or reply.style.extractable):
            return json.dumps({"verdict": "none"})
        verdict = {"yes": "YES", "no": "NO"}.get(reply.intended, reply.intended)
        return json.dumps({"verdict": verdict})


def detection_truth(path: str | Path) -> dict[str, str]:
    """Each answer of a MedHallu file and whether it is the hallucinated one ("1")."""
    truth = {}
    for line in Path(path).read_text().splitlines():
        row = json.loads(line)
        truth[row["Ground Truth"].strip()] = "0"
        truth[row["Hallucinated Answer"].strip()] = "1"
    return truth


def statement_truth(path: str | Path) -> dict[str, str]:
    """Each statement of a MedHal file and its label ("yes" factual, "no")."""
    rows = [json.loads(line) for line in Path(path).read_text().splitlines()]
    return {row["statement"].strip(): "yes" if row["label"] else "no" for row in rows}
