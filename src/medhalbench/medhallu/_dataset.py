"""MedHallu's data: the row with the published field names and the four hallucination types,
loading rows (hub configs or local JSONL, CSV, Parquet, save_to_disk), and turning them into
detection samples, with no knowledge, the gold abstract, or passages a retriever finds for the
question in a local corpus (what a deployed detector would have)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, get_args

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from medhalbench._errors import DataError
from medhalbench.data import (
    AS_WRITTEN,
    LOWERED,
    TEXT_LIST,
    TEXT_OR_NONE,
    DistinctKeys,
    Identifier,
    Record,
    read_records,
    source_rows,
)
from medhalbench.evidence import (
    grounding_retriever,
    passages_metadata,
    passages_text,
)
from medhalbench.medhallu._settings import (
    MEDHALLU_HUB,
    Difficulty,
    MedHalluConfig,
    Pairing,
)
from medhalbench.medhallu._verdicts import DetectionLabel
from medhalbench.settings import Grounding

HALLUCINATION_TYPES: dict[str, str] = {
    "Misinterpretation of #Question#": (
        "the answer misunderstands the question and so addresses something other than what "
        "was asked"
    ),
    "Incomplete Information": (
        "the answer leaves out essential findings or caveats, or says what is not true "
        "without giving the correct information, so that it misleads"
    ),
    "Mechanism and Pathway Misattribution": (
        "the answer attributes the finding to the wrong biological mechanism, molecular "
        "pathway or disease process"
    ),
    "Methodological and Evidence Fabrication": (
        "the answer invents research methods, experimental results, numbers or evidence"
    ),
}


def types_text() -> str:
    """The types as a numbered list for prompts."""
    return "\n".join(
        f"{i}. {name}: {text}."
        for i, (name, text) in enumerate(HALLUCINATION_TYPES.items(), start=1)
    )


def normalise_category(raw: str | None) -> str | None:
    """The published name a generator's category refers to, or None."""
    if not raw:
        return None
    text = raw.strip().lower()
    for name in HALLUCINATION_TYPES:
        key = name.lower().replace("#question#", "question")
        if text == name.lower() or text.replace("#", "") == key or key.split()[0] in text:
            return name
    return None


DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)


class MedHalluRecord(Record):
    """A MedHallu row: a PubMedQA question with its true and hallucinated answers."""

    question: str = Field(alias="Question", min_length=1)
    knowledge: Annotated[list[str], TEXT_LIST] = Field(alias="Knowledge")
    ground_truth: str = Field(alias="Ground Truth", min_length=1)
    difficulty: Annotated[Difficulty, LOWERED] = Field(alias="Difficulty Level")
    hallucinated_answer: str = Field(alias="Hallucinated Answer", min_length=1)
    category: str = Field(alias="Category of Hallucination", min_length=1)
    pubid: Identifier | None = None

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

    id: Annotated[str | None, TEXT_OR_NONE] = None
    question: str | None = None
    answer: str | None = None
    reply: Annotated[str, AS_WRITTEN] | None = None
    verdict: DetectionLabel | None = None

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


# The hub dataset is read at this commit unless the source names one (`...MedHallu@REV`).
MEDHALLU_REVISION = "515060458a945c633debc6fd5baac7764416b724"
MEDHALLU_CONFIGS: tuple[MedHalluConfig, ...] = get_args(MedHalluConfig)


def load_medhallu(
    source: str | Path = MEDHALLU_HUB,
    *,
    config: str = "pqa_labeled",
    split: str = "train",
    limit: int | None = None,
    with_knowledge: bool = False,
) -> list[MedHalluRecord]:
    """Load MedHallu rows.

    Args:
        source: Hub id (default `UTAustin-AIHealth/MedHallu`, read at `MEDHALLU_REVISION`;
            `UTAustin-AIHealth/MedHallu@REV` reads another revision) or a local JSONL, CSV, Parquet
            file or `save_to_disk` folder with MedHallu's published field names.
        config: Hub config, `pqa_labeled` or `pqa_artificial` (hub sources only).
        split: Split to read (hub sources and saved DatasetDicts).
        limit: Keep at most this many rows (in file order).
        with_knowledge: Every row must carry its knowledge (a run given each row's own).

    Raises:
        DataError: Bad input, naming file, line and field.
        ResourceUnavailableError: A hub id while the hub cannot be reached.
    """
    if str(source) == MEDHALLU_HUB and config not in MEDHALLU_CONFIGS:
        raise DataError(
            f"unknown MedHallu config '{config}' (expected {', '.join(MEDHALLU_CONFIGS)})"
        )
    revision = MEDHALLU_REVISION if str(source) == MEDHALLU_HUB else None
    rows = source_rows(source, config=config, split=split, revision=revision)
    records: list[MedHalluRecord] = []
    pubids = DistinctKeys("pubid", path=source)
    for line, record in read_records(MedHalluRecord, source, rows=rows, limit=limit):
        if with_knowledge and not record.knowledge_text.strip():
            raise DataError(
                "no knowledge, which --knowledge gives the detector (or search an index: "
                "--evidence DIR)",
                path=source,
                line=line,
                field="Knowledge",
            )
        if record.pubid is not None:  # its two answers would share their sample ids
            pubids.add(record.pubid, line)
        records.append(record)
    return records


RETRIEVED_TEMPLATE = "detect_user_retrieved.txt"


@dataclass(frozen=True)
class RetrievedKnowledge:
    """The knowledge retrieved for one row's question.

    Attributes:
        text: The passages as the detector reads them.
        passages: The passages as the log keeps them (ids, offsets, text, scores).
        gold_found: Whether a passage of the row's own abstract (its PubMed id) is among
            them; None where the row has no PubMed id.
    """

    text: str
    passages: list[dict[str, Any]]
    gold_found: bool | None


def retrieved_knowledge(
    records: Sequence[MedHalluRecord], grounding: Grounding
) -> list[RetrievedKnowledge]:
    """The passages found for each row's question (the answer under test is not searched
    for: both answers of a row get the same knowledge, as with the gold abstract).

    Raises:
        DataError: An evidence source that cannot be opened.
    """
    retriever = grounding_retriever(grounding, progress=True)
    found = retriever.search([r.question for r in records], grounding.evidence_k)
    return [
        RetrievedKnowledge(
            passages_text(hits),
            passages_metadata(hits),
            any(h.passage.source_id == record.pubid for h in hits) if record.pubid else None,
        )
        for record, hits in zip(records, found, strict=True)
    ]


class MedHalluSampleMetadata(BaseModel):
    """What a detection sample keeps: its row, the answer judged and its label.

    Attributes:
        row_id: The row (its PubMed id, else its place); None: the sample id stands for it.
        answer_kind: `ground_truth` or `hallucinated`.
        label: The true label (0 factual, 1 hallucinated).
        difficulty: The row's difficulty.
        category: The row's hallucination type.
        question: The question.
        answer: The answer judged (None in logs that did not keep it).
        knowledge_passages: The retrieved passages given as knowledge (grounded runs only).
        gold_in_knowledge: Whether the row's own abstract is among them (grounded runs only;
            None also where the row has no PubMed id).
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    row_id: str | None = None
    answer_kind: str | None = None
    label: int
    difficulty: str = ""
    category: str | None = None
    question: str = ""
    answer: str | None = None
    knowledge_passages: list[dict[str, Any]] | None = None
    gold_in_knowledge: bool | None = None


# The two answers of a row share their prompt's prefix (system prompt, knowledge, question).
# Placing them this many samples apart lets an engine with a prompt cache reuse the prefix
# (the first has finished by the time the second starts), which adjacent samples, running
# at the same time, could not.
PREFIX_REUSE_DISTANCE = 8


def detection_samples(
    records: Sequence[MedHalluRecord],
    *,
    system_prompt: str,
    user_template: str,
    knowledge: bool,
    pairing: Pairing = "both",
    seed: int = 42,
    source: str = "",
    retrieved: Sequence[RetrievedKnowledge] | None = None,
    listed: bool = False,
) -> MemoryDataset:
    """Build the detection samples: the true answer (label 0) and the hallucinated one
    (label 1) of each row, or one of the two drawn at random with `pairing="random"`
    (as MedHallu's own script does).

    Rows come in a seeded shuffled order, in blocks of `PREFIX_REUSE_DISTANCE` rows: the
    block's first answers (each row's first one drawn at random), then its second answers.

    Args:
        records: MedHallu rows.
        system_prompt: The judge instructions.
        user_template: Template with `{question}`, `{answer}` (and `{knowledge}`).
        knowledge: Whether to give the PubMedQA context as knowledge.
        pairing: `both` answers of every row, or one `random` answer per row.
        seed: Seed of the shuffle and of the random pairing.
        source: Name of the dataset, kept in each sample's metadata.
        retrieved: Knowledge retrieved for each record (in the records' order), given in
            place of the gold abstract and kept in each sample's metadata.
        listed: Give the abstract's passages as the authors' script printed them, their
            Python list as text (`['...', '...']`), not joined into one text.
    """
    rng = random.Random(seed)
    rows = list(enumerate(records))
    rng.shuffle(rows)
    per_row: list[list[Sample]] = []
    for index, record in rows:
        row_id = record.pubid or str(index + 1)
        answers = [
            ("ground_truth", record.ground_truth, DetectionLabel.FACTUAL),
            ("hallucinated", record.hallucinated_answer, DetectionLabel.HALLUCINATED),
        ]
        rng.shuffle(answers)
        if pairing == "random":
            answers = answers[:1]
        per_row.append(
            [
                Sample(
                    id=f"{row_id}-{kind}",
                    input=[
                        ChatMessageSystem(content=system_prompt),
                        ChatMessageUser(
                            content=user_template.format(
                                question=record.question,
                                answer=answer,
                                knowledge=retrieved[index].text
                                if retrieved
                                else (str(record.knowledge) if listed else record.knowledge_text)
                                if knowledge
                                else "",
                            )
                        ),
                    ],
                    target=str(int(label)),
                    # Unset knowledge keys stay out: only a grounded run's samples have them.
                    metadata=MedHalluSampleMetadata(
                        row_id=row_id,
                        answer_kind=kind,
                        label=int(label),
                        difficulty=record.difficulty,
                        category=record.category,
                        question=record.question,
                        answer=answer,
                        **(
                            {
                                "knowledge_passages": retrieved[index].passages,
                                "gold_in_knowledge": retrieved[index].gold_found,
                            }
                            if retrieved
                            else {}
                        ),
                    ).model_dump(exclude_unset=True),
                )
                for kind, answer, label in answers
            ]
        )
    samples = [
        row[position]
        for start in range(0, len(per_row), PREFIX_REUSE_DISTANCE)
        for position in range(2)
        for row in per_row[start : start + PREFIX_REUSE_DISTANCE]
        if position < len(row)
    ]
    return MemoryDataset(samples, name=source or "medhallu", shuffled=True)
