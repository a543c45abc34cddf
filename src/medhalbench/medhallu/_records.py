"""The MedHallu row, with the published field names."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import Field, field_validator, model_validator

from medhalbench.data import Record, text_list
from medhalbench.medhallu._verdicts import DetectionLabel

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)


class MedHalluRecord(Record):
    """A MedHallu row: a PubMedQA question with its true and hallucinated answers."""

    question: str = Field(alias="Question", min_length=1)
    knowledge: list[str] = Field(alias="Knowledge")
    ground_truth: str = Field(alias="Ground Truth", min_length=1)
    difficulty: Difficulty = Field(alias="Difficulty Level")
    hallucinated_answer: str = Field(alias="Hallucinated Answer", min_length=1)
    category: str = Field(alias="Category of Hallucination", min_length=1)
    pubid: str | None = None

    @field_validator("knowledge", mode="before")
    @classmethod
    def _knowledge_list(cls, value: Any) -> Any:
        return text_list(value)

    @field_validator("difficulty", mode="before")
    @classmethod
    def _difficulty_lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("pubid", mode="before")
    @classmethod
    def _pubid_text(cls, value: Any) -> Any:
        return str(value) if value is not None else None

    @property
    def knowledge_text(self) -> str:
        """The knowledge passages joined into one context."""
        return "\n".join(k for k in self.knowledge if k)


_VERDICT_WORDS = {
    "factual": DetectionLabel.FACTUAL,
    "hallucinated": DetectionLabel.HALLUCINATED,
    "not sure": DetectionLabel.NOT_SURE,
    "not_sure": DetectionLabel.NOT_SURE,
}


class DetectorOutput(Record):
    """What a detector written elsewhere said about one MedHallu answer: its `reply` (read
    as ours are) or its `verdict` (0/factual, 1/hallucinated, 2/not sure). It names the
    answer by the sample `id` (`{pubid}-ground_truth`, `{pubid}-hallucinated`) or by its
    `question` and `answer` texts."""

    id: str | None = None
    question: str | None = None
    answer: str | None = None
    reply: str | None = None
    verdict: DetectionLabel | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _id_text(cls, value: Any) -> Any:
        return str(value) if value not in (None, "") else None

    @field_validator("verdict", mode="before")
    @classmethod
    def _verdict(cls, value: Any) -> Any:
        if value is None or value == "":
            return None
        if isinstance(value, bool):  # true/false: which of the two it means is unclear
            raise ValueError(f"expected 0, 1, 2, factual, hallucinated or not sure, got {value}")
        text = str(value).strip().lower()
        if text in _VERDICT_WORDS:
            return _VERDICT_WORDS[text]
        if text in ("0", "1", "2"):
            return DetectionLabel(int(text))
        raise ValueError(f"expected 0, 1, 2, factual, hallucinated or not sure, got {value!r}")

    @model_validator(mode="after")
    def _complete(self) -> DetectorOutput:
        if (self.reply is None) == (self.verdict is None):
            raise ValueError("give a reply or a verdict (one of the two)")
        if self.id is None and not (self.question and self.answer):
            raise ValueError("name the answer judged: its id, or its question and answer")
        return self

    @property
    def text(self) -> str:
        """The output as a reply: the reply, or the verdict's number."""
        return self.reply if self.reply is not None else str(int(self.verdict or 0))
